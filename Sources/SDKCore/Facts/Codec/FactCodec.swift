import Journal

/// Encodes facts as journal records (a kind and a tagged-field payload) and back.
///
/// Decoding never traps: unknown kinds and unknown variants become ``Fact/unknown(kind:payload:)``
/// (a newer SDK wrote them), malformed payloads throw ``CodecError`` with the offset.
package enum FactCodec {
    /// The record kind of `fact` (``Fact/kindNumber``).
    public static func kind(of fact: Fact) -> UInt32 { fact.kindNumber }

    /// The fact's payload bytes: its declared fields (``FactDeclaration``), in number order.
    public static func payload(of fact: Fact) -> [UInt8] {
        if case .unknown(_, let payload) = fact { return payload }
        return FieldWriter.withScratch { writer in
            encodeFields(of: fact, to: &writer)
            return writer.bytes
        }
    }

    /// Appends `fact` to `bundle` as one record (its kind and payload), encoding the payload in
    /// place after the bundle's earlier records: the same bytes as ``payload(of:)``.
    public static func append(_ fact: Fact, to bundle: inout RecordBundle) {
        if case .unknown(let kind, let payload) = fact {
            bundle.append(kind: kind, payload: payload)
            return
        }
        FieldWriter.withScratch { writer in
            encodeFields(of: fact, to: &writer)
            bundle.append(kind: kind(of: fact), payloadBytes: writer.written)
        }
    }

    /// Decodes a record's payload as the fact of `kind`, as its declaration lays it out.
    ///
    /// With `readsDataValues` false, the calls' data values (every `dataFields` of a call and
    /// of its items, a push's payload, a push open's data) read as empty, their bytes not looked at
    /// (neither parsed nor checked): for a reader that reads none of them (`replay audit`),
    /// about a tenth of its work. Such a fact must not be encoded again or compared.
    public static func decode(kind: UInt32, payload: some Collection<UInt8>, readsDataValues: Bool = true) throws(CodecError) -> Fact {
        guard let known = FactKind(rawValue: kind) else { return .unknown(kind: kind, payload: Array(payload)) }
        let decoded = payload.withContiguousStorageIfAvailable { decode(known, UnsafeRawBufferPointer($0), readsDataValues) }
            ?? Array(payload).withUnsafeBytes { decode(known, $0, readsDataValues) }
        switch decoded {
        case .success(let fact?): return fact
        case .success(nil): return .unknown(kind: kind, payload: Array(payload))
        case .failure(let error): throw error
        }
    }

    /// The fact of `kind` read in place from `bytes`; nil for a variant this build does not know.
    private static func decode(_ kind: FactKind, _ bytes: UnsafeRawBufferPointer, _ readsDataValues: Bool) -> Result<Fact?, CodecError> {
        do throws(CodecError) {
            if let fact = try decodeBusiest(kind, bytes, readsDataValues: readsDataValues) { return .success(fact) }
            var source = RecordFieldSource(FieldReader(bytes, readsDataValues: readsDataValues))
            return .success(try Fact(kind, reading: &source))
        } catch where error.isUnknownVariant {
            return .success(nil)
        } catch {
            return .failure(error)
        }
    }

    /// Writes each declared field of `fact` (``Fact/forEachField(_:)``).
    private static func encodeFields(of fact: Fact, to writer: inout FieldWriter) {
        fact.forEachField { field, value in writer.write(value, as: field) }
    }
}
