import Journal

// The engine's busiest records, encoded from the parts `decide` has at hand rather than from a
// `Fact` taken apart field by field: the same bytes as ``FactCodec/append(_:to:)`` of the fact
// (`FactCodecTests` compares the two over every sample and the simulator's stories).
extension FactCodec {
    /// ``append(_:to:)`` of `.callReceived(received)`, encoded from the call itself (the
    /// engine's busiest fact, whose call `decide` has at hand): the same record. For a `track`
    /// call, `dataFieldsJSON` is its data fields' exact JSON when the caller wrote it already
    /// (``TrackBody``), copied instead of written again.
    static func append(callReceived received: ReceivedCall, dataFieldsJSON: UnsafeBufferPointer<UInt8>?, to bundle: inout RecordBundle) {
        FieldWriter.withScratch { writer in
            encode(callReceived: received, dataFieldsJSON: dataFieldsJSON, to: &writer)
            bundle.append(kind: FactKind.callReceived.rawValue, payloadBytes: writer.written)
        }
    }

    /// ``append(_:to:)`` of `.eventBatched(task:event:executedOn:)`, encoded from its parts (the
    /// engine's busiest decision, which `decide` has at hand): the same record.
    static func append(eventBatched task: TaskID, event: BatchedEvent, executedOn: ProjectFingerprint?, to bundle: inout RecordBundle) {
        FieldWriter.withScratch { writer in
            encodeEventBatched(task: task, event: event, executedOn: executedOn, to: &writer)
            bundle.append(kind: FactKind.eventBatched.rawValue, payloadBytes: writer.written)
        }
    }

    /// What a call held by the switch's gate counts against ``EngineRules/gateByteCapacity``:
    /// its `callReceived` payload as format 1.2 wrote it (data fields as entries). A measure of
    /// the call, not its record's size: the records' encoding changing must not change which
    /// calls a full gate refuses, nor the gate's bytes in the snapshots of older journals.
    static func gateBytes(of received: ReceivedCall) -> Int {
        FieldWriter.withScratch { writer in
            writer.writesDataObjectsAsJSON = false
            encode(callReceived: received, dataFieldsJSON: nil, to: &writer)
            return writer.count
        }
    }

    /// The fact of `kind`, read straight from `bytes` if it is one of the three busiest kinds
    /// (received calls, the gate's decisions, events joining a bulk); nil for every other kind.
    /// The same facts and errors as ``Fact/init(_:reading:)`` (`FactCodecTests` compares them).
    @inline(__always)
    static func decodeBusiest(_ kind: FactKind, _ bytes: UnsafeRawBufferPointer, readsDataValues: Bool = true) throws(CodecError) -> Fact? {
        var reader = FieldReader(bytes, readsDataValues: readsDataValues)
        if kind == .callReceived { return .callReceived(try ReceivedCall(from: &reader)) }
        if kind == .gateDecided {
            let fields = try FieldsByNumber(&reader)
            return .gateDecided(call: try fields.required(1, "call"), decision: try fields.required(2, "decision"))
        }
        if kind == .eventBatched {
            let fields = try FieldsByNumber(&reader)
            return .eventBatched(task: try fields.required(1, "task"), event: try fields.required(2, "event"), executedOn: try fields.message(3))
        }
        return nil
    }

    /// Writes the payload of `.callReceived(received)`; for a `track` call with
    /// `dataFieldsJSON` (its data fields' exact JSON, already written), the same bytes with that
    /// JSON copied in (``DataObject``'s field 2).
    private static func encode(callReceived received: ReceivedCall, dataFieldsJSON: UnsafeBufferPointer<UInt8>?, to writer: inout FieldWriter) {
        guard let json = dataFieldsJSON, case .track(let event, _) = received.call else {
            received.encode(to: &writer)
            return
        }
        writer.message(1, received.id)
        writer.unsigned(2, received.caller)
        writer.message(3) { call in
            PublicCall.encodeTrack(event, to: &call) { $0.message(4) { $0.bytes(2, json) } }
        }
    }

    /// Writes the payload of `.eventBatched(task:event:executedOn:)` from its parts: its
    /// declared fields, as ``FieldWriter/write(_:as:)`` writes them.
    @inline(__always)
    private static func encodeEventBatched(task: TaskID, event: BatchedEvent, executedOn: ProjectFingerprint?, to writer: inout FieldWriter) {
        writer.message(1, task)
        writer.batchedEvent(2, event)
        writer.message(3, executedOn)
    }
}
