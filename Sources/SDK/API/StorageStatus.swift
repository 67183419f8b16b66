/// The state of the SDK's files as the app can read it (``EngagementSDK/storageStatus``):
/// whether they are open, what the SDK holds in memory while they are not, and the keyring
/// writes that failed.
///
/// The same facts are journaled (`storageWasUnavailable`, `keyringWriteFailed`), so `replay
/// timeline` and `diagnose` show them too; this is the app's view, readable before the journal
/// can be (while the device is locked).
public struct StorageStatus: Sendable, Hashable {
    /// Whether the journal and keyring are open. False while the SDK runs in its "storage
    /// unavailable" mode: the files could not be opened at launch (a file protection class on a
    /// device not unlocked since boot), calls are held in memory, nothing is sent.
    public var isAvailable: Bool
    /// Why the last attempt to open the files failed, while they are not open; nil once they are.
    public var unavailableReason: String?
    /// Attempts to open the files that failed in this process (the launch's first included).
    public var failedOpenings: Int
    /// Calls and other inputs held in memory while the files could not be opened (in this
    /// process; journaled in order once they opened).
    public var heldInputs: Int
    /// Calls refused because the hold was full (``SDKConfiguration/storageHoldCapacity``,
    /// ``SDKConfiguration/storageHoldByteCapacity``): each completed at once with
    /// `CallFailure.rejected(_:)`; their number is journaled once the files open.
    public var refusedInputs: Int
    /// Why each keyring write that failed in this process failed, oldest first (at most
    /// ``keyringFailureLimit`` kept, the newest); each is also journaled as `keyringWriteFailed`.
    public var keyringWriteFailures: [String]
    /// Total keyring writes that failed in this process (counted past the limit too).
    public var keyringWriteFailureCount: Int

    /// How many keyring failure reasons ``keyringWriteFailures`` keeps.
    public static let keyringFailureLimit = 16

    /// Files open, nothing held, nothing failed.
    public static let available = StorageStatus(isAvailable: true, unavailableReason: nil, failedOpenings: 0, heldInputs: 0,
                                                refusedInputs: 0, keyringWriteFailures: [], keyringWriteFailureCount: 0)

    /// Notes a failed keyring write (keeps the newest ``keyringFailureLimit`` reasons).
    mutating func noteKeyringWriteFailure(_ reason: String) {
        keyringWriteFailureCount += 1
        keyringWriteFailures.append(reason)
        if keyringWriteFailures.count > Self.keyringFailureLimit { keyringWriteFailures.removeFirst() }
    }
}
