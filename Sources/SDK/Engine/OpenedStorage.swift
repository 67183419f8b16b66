import Journal
import SDKCore

/// What opening the SDK's files gives the engine: the keyring, the journal's recorder (and how
/// to open it again after a failure), the state the journal folds to, and what opening found.
struct OpenedStorage {
    let keyring: Keyring
    let recorder: any FactRecorder
    let reopen: (@Sendable () throws -> any FactRecorder)?
    let restored: StateRestorer.Restored
    let recovery: RecoveryReport
}
