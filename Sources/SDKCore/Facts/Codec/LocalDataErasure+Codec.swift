extension LocalDataErasure: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        if let call { writer.message(1, call) }
        writer.unsigned(2, firstErased)
        writer.unsigned(3, lastErased)
        writer.unsigned(4, segments)
        writer.unsigned(5, bytes)
        writer.string(6, failure)
        if segmentsLeft > 0 {
            writer.unsigned(7, segmentsLeft)
            writer.unsigned(8, bytesLeft)
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        self.init(call: nil, firstErased: 0, lastErased: 0, segments: 0, bytes: 0, failure: nil)
        while let field = try reader.next() {
            switch field.number {
            case 1: call = try field.message(CallID.self)
            case 2: firstErased = try field.unsigned()
            case 3: lastErased = try field.unsigned()
            case 4: segments = try field.unsigned()
            case 5: bytes = try field.unsigned()
            case 6: failure = try field.string()
            case 7: segmentsLeft = try field.unsigned()
            case 8: bytesLeft = try field.unsigned()
            default: break
            }
        }
    }
}
