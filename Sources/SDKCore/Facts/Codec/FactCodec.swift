import Journal

/// Encodes facts as journal records (a kind and a tagged-field payload) and back.
///
/// Decoding never traps: unknown kinds and unknown variants become ``Fact/unknown(kind:payload:)``
/// (a newer SDK wrote them), malformed payloads throw ``CodecError`` with the offset.
package enum FactCodec {
    public static func kind(of fact: Fact) -> UInt32 {
        switch fact {
        case .engineStarted: FactKind.engineStarted.rawValue
        case .callReceived: FactKind.callReceived.rawValue
        case .transportCompleted: FactKind.transportCompleted.rawValue
        case .timerFired: FactKind.timerFired.rawValue
        case .durabilityConfirmed: FactKind.durabilityConfirmed.rawValue
        case .moduleHookCompleted: FactKind.moduleHookCompleted.rawValue
        case .authTokenReceived: FactKind.authTokenReceived.rawValue
        case .callbacksDelivered: FactKind.callbacksDelivered.rawValue
        case .notificationReceived: FactKind.notificationReceived.rawValue
        case .engineStopping: FactKind.engineStopping.rawValue
        case .linkResolved: FactKind.linkResolved.rawValue
        case .networkReachable: FactKind.networkReachable.rawValue
        case .localDataErased: FactKind.localDataErased.rawValue
        case .journalGap: FactKind.journalGap.rawValue
        case .linkResolutionStarted: FactKind.linkResolutionStarted.rawValue
        case .staleResultRefused: FactKind.staleResultRefused.rawValue
        case .switchCancelled: FactKind.switchCancelled.rawValue
        case .initialized: FactKind.initialized.rawValue
        case .gateDecided: FactKind.gateDecided.rawValue
        case .callRejected: FactKind.callRejected.rawValue
        case .identityChanged: FactKind.identityChanged.rawValue
        case .pushTokenChanged: FactKind.pushTokenChanged.rawValue
        case .attributionChanged: FactKind.attributionChanged.rawValue
        case .attributionRefused: FactKind.attributionRefused.rawValue
        case .unknownUserEventHeld: FactKind.unknownUserEventHeld.rawValue
        case .unknownUserSessionCounted: FactKind.unknownUserSessionCounted.rawValue
        case .unknownUserEventsReleased: FactKind.unknownUserEventsReleased.rawValue
        case .taskQueued: FactKind.taskQueued.rawValue
        case .eventBatched: FactKind.eventBatched.rawValue
        case .taskDispatched: FactKind.taskDispatched.rawValue
        case .retryScheduled: FactKind.retryScheduled.rawValue
        case .taskCompleted: FactKind.taskCompleted.rawValue
        case .timerSet: FactKind.timerSet.rawValue
        case .callResolved: FactKind.callResolved.rawValue
        case .callsResolved: FactKind.callsResolved.rawValue
        case .authRefreshRequested: FactKind.authRefreshRequested.rawValue
        case .authRefreshFinished: FactKind.authRefreshFinished.rawValue
        case .moduleEventDelivered: FactKind.moduleEventDelivered.rawValue
        case .moduleHookStarted: FactKind.moduleHookStarted.rawValue
        case .moduleHookFinished: FactKind.moduleHookFinished.rawValue
        case .messagesStored: FactKind.messagesStored.rawValue
        case .storageCleared: FactKind.storageCleared.rawValue
        case .durabilityRequested: FactKind.durabilityRequested.rawValue
        case .switchRouted: FactKind.switchRouted.rawValue
        case .switchStarted: FactKind.switchStarted.rawValue
        case .teardownStepBegan: FactKind.teardownStepBegan.rawValue
        case .teardownStepFinished: FactKind.teardownStepFinished.rawValue
        case .switchLanded: FactKind.switchLanded.rawValue
        case .unknown(let kind, _): kind
        }
    }

    /// The fact's payload bytes, written by its family's codec (``FactFamily``).
    public static func payload(of fact: Fact) -> [UInt8] {
        if case .unknown(_, let payload) = fact { return payload }
        guard let family = fact.family else { return [] }
        return FieldWriter.withScratch { writer in
            codec(of: family).encode(fact, &writer)
            return writer.bytes
        }
    }

    /// Appends `fact` to `batch` as one record (its kind and payload), encoding the payload in
    /// place after the batch's earlier records: the same bytes as ``payload(of:)``.
    public static func append(_ fact: Fact, to batch: inout RecordBatch) {
        if case .unknown(let kind, let payload) = fact {
            batch.append(kind: kind, payload: payload)
            return
        }
        guard let family = fact.family else {
            batch.append(kind: kind(of: fact), payload: EmptyCollection())
            return
        }
        FieldWriter.withScratch { writer in
            codec(of: family).encode(fact, &writer)
            batch.append(kind: kind(of: fact), payloadBytes: writer.written)
        }
    }

    /// ``append(_:to:)`` of `.callReceived(received)`, encoded from the call itself (the
    /// engine's busiest fact, whose call `decide` has at hand): the same record. For a `track`
    /// call, `dataFieldsJSON` is its data fields' exact JSON when the caller wrote it already
    /// (``TrackBody``), copied instead of written again.
    static func append(callReceived received: ReceivedCall, dataFieldsJSON: UnsafeBufferPointer<UInt8>?, to batch: inout RecordBatch) {
        FieldWriter.withScratch { writer in
            InputFactCodec.encode(callReceived: received, dataFieldsJSON: dataFieldsJSON, to: &writer)
            batch.append(kind: FactKind.callReceived.rawValue, payloadBytes: writer.written)
        }
    }

    /// ``append(_:to:)`` of `.eventBatched(task:event:executedOn:)`, encoded from its parts (the
    /// engine's busiest decision, which `decide` has at hand): the same record.
    static func append(eventBatched task: TaskID, event: BatchedEvent, executedOn: ProjectFingerprint?, to batch: inout RecordBatch) {
        FieldWriter.withScratch { writer in
            DeliveryFactCodec.encodeEventBatched(task: task, event: event, executedOn: executedOn, to: &writer)
            batch.append(kind: FactKind.eventBatched.rawValue, payloadBytes: writer.written)
        }
    }

    /// What a call held by the switch's gate counts against ``EngineRules/gateByteCapacity``:
    /// its `callReceived` payload as format 1.2 wrote it (data fields as entries). A measure of
    /// the call, not its record's size: the records' encoding changing must not change which
    /// calls a full gate refuses, nor the gate's bytes in the snapshots of older journals.
    static func gateBytes(of received: ReceivedCall) -> Int {
        FieldWriter.withScratch { writer in
            writer.writesDataObjectsAsJSON = false
            InputFactCodec.encode(callReceived: received, dataFieldsJSON: nil, to: &writer)
            return writer.count
        }
    }

    /// Decodes a record's payload as the fact of `kind`, with its family's codec.
    public static func decode(kind: UInt32, payload: some Collection<UInt8>) throws(CodecError) -> Fact {
        guard let known = FactKind(rawValue: kind) else { return .unknown(kind: kind, payload: Array(payload)) }
        let decoded = payload.withContiguousStorageIfAvailable { decode(known, UnsafeRawBufferPointer($0)) }
            ?? Array(payload).withUnsafeBytes { decode(known, $0) }
        switch decoded {
        case .success(let fact?): return fact
        case .success(nil): return .unknown(kind: kind, payload: Array(payload))
        case .failure(let error): throw error
        }
    }

    /// The fact of `kind` read in place from `bytes`; nil for a variant this build does not know.
    private static func decode(_ kind: FactKind, _ bytes: UnsafeRawBufferPointer) -> Result<Fact?, CodecError> {
        var reader = FieldReader(bytes)
        do throws(CodecError) {
            return .success(try codec(of: kind.family).decode(kind, &reader))
        } catch where error.isUnknownVariant {
            return .success(nil)
        } catch {
            return .failure(error)
        }
    }

    /// The encoder and decoder of one family's facts.
    private struct FamilyCodec {
        let encode: (Fact, inout FieldWriter) -> Void
        let decode: (FactKind, inout FieldReader) throws(CodecError) -> Fact
    }

    /// The table: each family's codec (a new family adds a row; a new fact, none).
    private static func codec(of family: FactFamily) -> FamilyCodec {
        switch family {
        case .input: FamilyCodec(encode: InputFactCodec.encode, decode: InputFactCodec.decode)
        case .call: FamilyCodec(encode: CallFactCodec.encode, decode: CallFactCodec.decode)
        case .delivery: FamilyCodec(encode: DeliveryFactCodec.encode, decode: DeliveryFactCodec.decode)
        case .module: FamilyCodec(encode: ModuleFactCodec.encode, decode: ModuleFactCodec.decode)
        case .switch: FamilyCodec(encode: SwitchFactCodec.encode, decode: SwitchFactCodec.decode)
        }
    }
}
