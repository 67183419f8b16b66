import Journal

/// The journal and the queue were erased (``PublicCall/eraseLocalData``): how much was deleted,
/// never what. The first fact of the journal that goes on.
package struct LocalDataErasure: Sendable, Hashable {
    /// The `eraseLocalData` call that asked for it.
    public var call: CallID?
    /// What the journal deleted (``JournalWriter/eraseAll(time:snapshot:)``): the records' range
    /// (none: last below first), the segment files and their bytes, those left on the device.
    /// Its `failure` is the fact's: nil when the journal was erased; why not otherwise (the
    /// records are then still there, all of them, or those of its `segmentsLeft`).
    public var erased: JournalErasure

    public init(call: CallID?, erased: JournalErasure) {
        self.call = call
        self.erased = erased
    }

    /// Nothing erased (the journal could not be), for `call`, and why.
    public static func nothingErased(call: CallID?, failure: String?) -> LocalDataErasure {
        var erased = JournalErasure(firstSequence: 1, lastSequence: 0, segments: 0, bytes: 0)
        erased.failure = failure
        return LocalDataErasure(call: call, erased: erased)
    }
}
