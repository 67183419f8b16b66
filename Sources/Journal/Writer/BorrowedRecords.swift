/// A ``RecordBundle``'s records seen through pointers into its storage: valid only inside the
/// ``RecordBundle/withBorrowedRecords(_:)`` call that made it, and never stored.
///
/// The writer reads a bundle through this view, not through the bundle: a bundle handed on by
/// value is copied (its three arrays retained, then released) wherever the compiler cannot
/// prove a borrow suffices, and the engine appends a bundle on every step.
struct BorrowedRecords {
    /// The payloads, back to back, in record order.
    let payloads: UnsafeRawBufferPointer
    /// Each record's kind, in order.
    let kinds: UnsafeBufferPointer<UInt32>
    /// Where each record's payload ends in ``payloads``, in order.
    let ends: UnsafeBufferPointer<Int>

    /// How many records there are.
    var count: Int { kinds.count }

    /// Record `index`'s payload.
    func payload(_ index: Int) -> UnsafeRawBufferPointer {
        let start = index == 0 ? 0 : ends[index - 1]
        return UnsafeRawBufferPointer(rebasing: payloads[start..<ends[index]])
    }
}

extension RecordBundle {
    /// Calls `body` with the bundle's records seen through pointers, valid during the call only.
    func withBorrowedRecords<Result>(_ body: (BorrowedRecords) throws -> Result) rethrows -> Result {
        try payloadStorage.withUnsafeBytes { payloads in
            try kindStorage.withUnsafeBufferPointer { kinds in
                try endStorage.withUnsafeBufferPointer { ends in
                    try body(BorrowedRecords(payloads: UnsafeRawBufferPointer(rebasing: payloads[..<payloadCount]),
                                             kinds: UnsafeBufferPointer(rebasing: kinds[..<recordCount]),
                                             ends: UnsafeBufferPointer(rebasing: ends[..<recordCount])))
                }
            }
        }
    }
}
