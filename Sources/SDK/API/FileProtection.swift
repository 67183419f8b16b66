/// A data protection class for the files the SDK keeps (``SDKConfiguration/journalProtection``,
/// ``SDKConfiguration/keyringProtection``): when the system keeps them encrypted with a key the
/// device's passcode guards.
///
/// Applied on iOS, iPadOS, tvOS, watchOS and visionOS. A documented no-op on macOS (a Mac's disk
/// is encrypted whole by FileVault; Mac Catalyst included) and on Linux, which have no per-file
/// classes.
public enum FileProtection: Sendable, Equatable, CaseIterable {
    /// No protection beyond the device's own encryption: readable and writable at any time.
    case none
    /// Unreadable and unwritable while the device is locked: the SDK's writes fail then.
    case complete
    /// While the device is locked, files already open stay readable and writable and new files
    /// can be created, but a closed file cannot be opened again until it is unlocked.
    case completeUnlessOpen
    /// Protected from the device's start until the user first unlocks it, then readable and
    /// writable until it restarts, locked or not (the system's default for app files).
    case completeUntilFirstUserAuthentication
}
