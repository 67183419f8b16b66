#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Journal
import SDKCore

/// Opens the SDK's files: the keyring, then the journal (restoring its state). The same steps at
/// launch and, in the "storage unavailable" mode, at each later attempt (``StorageWait``).
struct StorageOpener: Sendable {
    let configuration: SDKConfiguration
    let options: JournalOptions

    /// Opens the keyring and the journal and restores the journal's state. Throws what the first
    /// step that failed threw; nothing is kept open then.
    func open() throws -> OpenedStorage {
        let keyring = try Keyring(path: configuration.keyringPath, attributes: configuration.keyringAttributes,
                                  setter: configuration.storedItemAttributes)
        if let override = configuration.recorderOverride {
            return OpenedStorage(keyring: keyring, recorder: override, reopen: nil,
                                 restored: StateRestorer.Restored(state: SDKState(), hadFacts: false, undecodable: []),
                                 recovery: RecoveryReport())
        }
        try configuration.prepareJournalDirectory()
        let writer = try JournalWriter(directory: configuration.journalDirectory, options: options, snapshot: nil)
        let directory = configuration.journalDirectory
        let options = options
        let restored = try StateRestorer.restore(directory: directory, storage: configuration.journalStorage)
        return OpenedStorage(keyring: keyring, recorder: writer,
                             reopen: { try JournalWriter(directory: directory, options: options, snapshot: nil) },
                             restored: restored, recovery: writer.recovery)
    }

    /// Whether `error` says the files exist but cannot be opened yet: `EPERM` from opening or
    /// reading the keyring or a journal file, which is what a file protection class answers on
    /// a device whose protected data is not available (not unlocked since boot, for
    /// `completeUntilFirstUserAuthentication`). Any other error is a real failure.
    static func isProtectedDataUnavailable(_ error: any Error) -> Bool {
        switch error {
        case KeyringError.io(_, _, let code): code == EPERM
        case JournalError.io(_, _, let code): code == EPERM
        default: false // any other error is not a locked device's
        }
    }
}
