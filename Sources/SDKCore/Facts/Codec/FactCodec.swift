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
    static func decode(_ kind: FactKind, _ bytes: UnsafeRawBufferPointer) -> Result<Fact?, CodecError> {
        do throws(CodecError) {
            if let fact = try decodeBusiest(kind, bytes) { return .success(fact) }
            var source = RecordFieldSource(FieldReader(bytes))
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
