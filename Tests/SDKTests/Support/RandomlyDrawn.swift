import Foundation
import Journal
@testable import SDKCore

/// A type a fact's field holds, drawn at random for ``RandomFieldSource``. An enumeration of
/// fixed cases (`CaseIterable`) needs no conformance: one of its cases is drawn.
protocol RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> Self
}

extension CallID: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> CallID { random.callID() }
}

extension TaskID: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> TaskID { random.taskID() }
}

extension SwitchID: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> SwitchID { random.switchID() }
}

extension ProjectFingerprint: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> ProjectFingerprint { random.fingerprint() }
}

extension ProjectRef: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> ProjectRef { random.project() }
}

extension PublicCall: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> PublicCall { random.call() }
}

extension ReceivedCall: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> ReceivedCall {
        ReceivedCall(id: random.callID(), caller: random.next(), call: random.call())
    }
}

extension DeliveryTask: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> DeliveryTask { random.task() }
}

extension BatchedEvent: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> BatchedEvent { random.batchedEvent() }
}

extension TimerPurpose: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> TimerPurpose { random.timer() }
}

extension ModuleSignal: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> ModuleSignal { random.event() }
}

extension AttributionInfo: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> AttributionInfo {
        AttributionInfo(campaignID: Int64(random.int(-1...99)), templateID: Int64(random.int(0...99)), messageID: random.string())
    }
}

extension GateDecision: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> GateDecision {
        switch random.int(0...4) {
        case 0: .executed(project: random.fingerprint())
        case 1: .queued(switch: random.switchID(), position: random.int(0...9), call: ReceivedCall(id: random.callID(), caller: 1, call: random.call()))
        case 2: .replayed(switch: random.switchID(), project: random.fingerprint())
        case 3: .inline(project: random.fingerprint())
        default: .refused
        }
    }
}

extension CallOutcome: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> CallOutcome {
        // A task's outcome, as each call it carried takes it, or applied (no task).
        random.int(0...3) == 0 ? .applied(project: random.bool() ? random.fingerprint() : nil)
            : CallOutcome(TaskOutcome.draw(&random), project: random.fingerprint())
    }
}

extension TaskOutcome: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> TaskOutcome {
        switch random.int(0...2) {
        case 0: .delivered(status: random.int(200...299))
        case 1: .failed(random.failure())
        default: .discarded(random.discard())
        }
    }
}

extension RetryReason: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> RetryReason {
        switch random.int(0...2) {
        case 0: .noResponse(random.string())
        case 1: .serverBusy(random.string(), failures: random.int(1...5))
        default: .notSent(NotSentReason.draw(&random))
        }
    }
}

extension NotSentReason: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> NotSentReason {
        switch random.int(0...4) {
        case 0: .noToken(random.string())
        case 1: .tokenRefused(random.string())
        case 2: .noAPIKey
        case 3: .noAuthProvider
        default: .invalidEndpoint(random.string())
        }
    }
}

extension SwitchRouting: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> SwitchRouting {
        [.started, .absorbed(into: random.switchID()), .enqueued(behind: random.switchID()), .noop, .initialization,
         .moved(entry: random.switchID())][random.int(0...5)]
    }
}

extension StepOutcome: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> StepOutcome { random.bool() ? .clean : .warning(random.string()) }
}

extension DurabilityWait: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> DurabilityWait {
        random.bool() ? .flush(random.callID()) : .teardownDisable(random.switchID())
    }
}

extension EngineStart: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> EngineStart {
        EngineStart(sdkVersion: random.string(), restored: random.bool(), options: EngineRules(
            gateCapacity: random.int(0...99), pendingEvents: random.bool() ? .purge : .deliverToOutgoing(timeoutMilliseconds: 5),
            bulkEventLimit: random.int(1...500), bulkByteLimit: random.int(1...99_999)),
            modules: [ModuleDescriptor(name: random.string(), notifications: [random.string()])],
            clock: random.bool() ? MonotonicReading(microseconds: Int64(random.int(0...1_000_000)), boot: random.bool() ? random.next() : nil) : nil)
    }
}

extension TransportCompletion: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> TransportCompletion {
        let outcome: TransportOutcome = switch random.int(0...2) {
        case 0: .response(status: random.int(100...599), code: random.optionalString(), messageIDs: [random.string()],
                          message: random.optionalString())
        case 1: .networkError(random.string())
        default: .notSent(NotSentReason.draw(&random))
        }
        return TransportCompletion(task: random.taskID(), attempt: random.int(1...5), outcome: outcome,
                                   refusedEvents: random.bool() ? [] : [RefusedEvent(index: random.int(0...9), reason: random.string())],
                                   droppedMessageIDs: random.int(0...2))
    }
}

extension DurabilityConfirmation: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> DurabilityConfirmation {
        DurabilityConfirmation(request: random.next() % 99, failure: random.optionalString())
    }
}

extension ModuleHookCompletion: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> ModuleHookCompletion {
        ModuleHookCompletion(hook: random.next() % 99, failure: random.optionalString())
    }
}

extension AuthTokenReceipt: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> AuthTokenReceipt {
        AuthTokenReceipt(request: random.next() % 99, project: random.fingerprint(), failure: random.optionalString(), refused: random.bool())
    }
}

extension LinkResolution: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> LinkResolution {
        LinkResolution(job: random.next() % 99, destination: random.optionalString(),
                       attribution: random.bool() ? AttributionInfo.draw(&random) : nil, failure: random.optionalString())
    }
}

extension LocalDataErasure: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> LocalDataErasure {
        let call = random.bool() ? random.callID() : nil
        var erased = JournalErasure(firstSequence: random.next() % 99, lastSequence: random.next() % 99, segments: Int(random.next() % 9),
                                    bytes: Int(truncatingIfNeeded: random.next()))
        erased.failure = random.optionalString()
        if random.bool() {
            erased.segmentsLeft = random.int(1...9)
            erased.bytesLeft = random.int(1...99_999)
        }
        return LocalDataErasure(call: call, erased: erased)
    }
}

extension JournalGap: RandomlyDrawn {
    static func draw(_ random: inout RandomFacts) -> JournalGap {
        JournalGap(lostFacts: random.next() % 999, from: random.time(), to: random.time(), reason: random.string(),
                   firstLostSequence: random.bool() ? random.number() : nil)
    }
}
