import Journal

// The counts are the journal's `Int`s, written as unsigned varints: bit for bit both ways
// (`truncatingIfNeeded`), so a hostile record's count reads back and writes again unchanged.
extension LocalDataErasure: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        if let call { writer.message(1, call) }
        writer.unsigned(2, erased.firstSequence)
        writer.unsigned(3, erased.lastSequence)
        writer.unsigned(4, UInt64(truncatingIfNeeded: erased.segments))
        writer.unsigned(5, UInt64(truncatingIfNeeded: erased.bytes))
        writer.string(6, erased.failure)
        if erased.segmentsLeft != 0 {
            writer.unsigned(7, UInt64(truncatingIfNeeded: erased.segmentsLeft))
            writer.unsigned(8, UInt64(truncatingIfNeeded: erased.bytesLeft))
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        self = .nothingErased(call: nil, failure: nil)
        erased.firstSequence = 0
        while let field = try reader.next() {
            switch field.number {
            case 1: call = try field.message(CallID.self)
            case 2: erased.firstSequence = try field.unsigned()
            case 3: erased.lastSequence = try field.unsigned()
            case 4: erased.segments = Int(truncatingIfNeeded: try field.unsigned())
            case 5: erased.bytes = Int(truncatingIfNeeded: try field.unsigned())
            case 6: erased.failure = try field.string()
            case 7: erased.segmentsLeft = Int(truncatingIfNeeded: try field.unsigned())
            case 8: erased.bytesLeft = Int(truncatingIfNeeded: try field.unsigned())
            default: break
            }
        }
    }
}
