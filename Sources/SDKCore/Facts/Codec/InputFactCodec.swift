/// The payloads of input facts (``FactFamily/input``): most are one message each.
enum InputFactCodec {
    /// Writes the payload of an input fact.
    static func encode(_ fact: Fact, to writer: inout FieldWriter) {
        switch fact {
        case .engineStarted(let start): start.encode(to: &writer)
        case .callReceived(let call): call.encode(to: &writer)
        case .transportCompleted(let completion): completion.encode(to: &writer)
        case .timerFired(let purpose): purpose.encode(to: &writer)
        case .durabilityConfirmed(let confirmation): confirmation.encode(to: &writer)
        case .moduleHookCompleted(let completion): completion.encode(to: &writer)
        case .authTokenReceived(let receipt): receipt.encode(to: &writer)
        case .callbacksDelivered(let id): id.encode(to: &writer)
        case .notificationReceived(let name): writer.string(1, name)
        case .engineStopping, .networkReachable: break
        case .linkResolved(let resolution): resolution.encode(to: &writer)
        case .localDataErased(let erasure): erasure.encode(to: &writer)
        default:
            // Right: FactCodec hands this codec only its family's facts (``FactKind/family``, which
            // lists every kind); a new fact is added to its family's cases above.
            break
        }
    }

    /// Writes the payload of `.callReceived(received)`; for a `track` call with
    /// `dataFieldsJSON` (its data fields' exact JSON, already written), the same bytes with that
    /// JSON copied in (``DataObject``'s field 2).
    static func encode(callReceived received: ReceivedCall, dataFieldsJSON: UnsafeBufferPointer<UInt8>?, to writer: inout FieldWriter) {
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

    /// Reads the input fact of `kind`.
    static func decode(_ kind: FactKind, _ reader: inout FieldReader) throws(CodecError) -> Fact {
        switch kind {
        case .engineStarted: return .engineStarted(try EngineStart(from: &reader))
        case .callReceived: return .callReceived(try ReceivedCall(from: &reader))
        case .transportCompleted: return .transportCompleted(try TransportCompletion(from: &reader))
        case .timerFired: return .timerFired(try TimerPurpose(from: &reader))
        case .durabilityConfirmed: return .durabilityConfirmed(try DurabilityConfirmation(from: &reader))
        case .moduleHookCompleted: return .moduleHookCompleted(try ModuleHookCompletion(from: &reader))
        case .authTokenReceived: return .authTokenReceived(try AuthTokenReceipt(from: &reader))
        case .callbacksDelivered: return .callbacksDelivered(try SwitchID(from: &reader))
        case .engineStopping: return .engineStopping
        case .networkReachable: return .networkReachable
        case .linkResolved: return .linkResolved(try LinkResolution(from: &reader))
        case .localDataErased: return .localDataErased(try LocalDataErasure(from: &reader))
        case .notificationReceived:
            let fields = try FieldsByNumber(&reader)
            return .notificationReceived(try fields.string(1) ?? "")
        default:
            // Right: FactCodec asks this codec only for its family's kinds (``FactKind/family``).
            throw CodecError("kind \(kind) not handled", offset: 0)
        }
    }
}
