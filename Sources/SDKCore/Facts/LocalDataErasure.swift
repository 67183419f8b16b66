/// The journal and the queue were erased (``PublicCall/eraseLocalData``): how much was deleted,
/// never what. The first fact of the journal that goes on.
package struct LocalDataErasure: Sendable, Hashable {
    /// The `eraseLocalData` call that asked for it.
    public var call: CallID?
    /// The sequence numbers of the records deleted, first and last (last below first: none).
    public var firstErased: UInt64
    public var lastErased: UInt64
    /// The journal's segment files deleted, and their bytes.
    public var segments: UInt64
    public var bytes: UInt64
    /// Nil when the journal was erased; why not otherwise (the records are then still there,
    /// all of them, or those of ``segmentsLeft``).
    public var failure: String?
    /// Segment files that could not be deleted (each tried twice) and their bytes: their
    /// records are still on the device.
    public var segmentsLeft: UInt64 = 0
    public var bytesLeft: UInt64 = 0

    public init(call: CallID?, firstErased: UInt64, lastErased: UInt64, segments: UInt64, bytes: UInt64, failure: String?) {
        self.call = call
        self.firstErased = firstErased
        self.lastErased = lastErased
        self.segments = segments
        self.bytes = bytes
        self.failure = failure
    }

    /// How many records were deleted.
    public var erasedRecords: UInt64 {
        lastErased >= firstErased ? lastErased - firstErased + 1 : 0
    }
}
