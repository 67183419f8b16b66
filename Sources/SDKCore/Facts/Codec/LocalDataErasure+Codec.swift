import Journal

// The counts are the journal's `Int`s, written as unsigned varints: bit for bit both ways
// (`truncatingIfNeeded`), so a hostile record's count reads back and writes again unchanged.
// The files left and their bytes (7, 8) are written together, only when a file was left.
extension LocalDataErasure: DeclaredFieldCodable {
    static let layout = ValueLayout(
        ValueField(optional: 1, "call", \LocalDataErasure.call, .message),
        ValueField(2, "firstSequence", \LocalDataErasure.erased.firstSequence, .unsigned, .defaulted(0)),
        ValueField(3, "lastSequence", \LocalDataErasure.erased.lastSequence, .unsigned, .defaulted(0)),
        ValueField(4, "segments", \LocalDataErasure.erased.segments, .count, .defaulted(0)),
        ValueField(5, "bytes", \LocalDataErasure.erased.bytes, .count, .defaulted(0)),
        ValueField(optional: 6, "failure", \LocalDataErasure.erased.failure, .string),
        ValueField(optional: 7, "segmentsLeft", \LocalDataErasure.segmentsLeftIfAny, .count),
        ValueField(optional: 8, "bytesLeft", \LocalDataErasure.bytesLeftIfAny, .count),
        make: { call, first, last, segments, bytes, failure, segmentsLeft, bytesLeft in
            var erased = JournalErasure(firstSequence: first, lastSequence: last, segments: segments, bytes: bytes)
            erased.segmentsLeft = segmentsLeft ?? 0
            erased.bytesLeft = bytesLeft ?? 0
            erased.failure = failure
            return LocalDataErasure(call: call, erased: erased)
        })

    /// The files left, written only when there are any.
    private var segmentsLeftIfAny: Int? { erased.segmentsLeft == 0 ? nil : erased.segmentsLeft }
    /// Their bytes, written with them.
    private var bytesLeftIfAny: Int? { erased.segmentsLeft == 0 ? nil : erased.bytesLeft }
}

private extension FieldCoding where Value == Int {
    /// A count as an unsigned varint, bit for bit both ways.
    static var count: Self {
        FieldCoding<UInt64>.unsigned.map({ Int(truncatingIfNeeded: $0) }, { UInt64(truncatingIfNeeded: $0) })
    }
}
