import Journal
import SDK

/// One fact of every declared kind, made from its declaration (``Fact/init(_:sampling:)``):
/// each field holds the sample of its type (``SampleFacts/Values``), chosen to reach the codec's
/// less common branches (nested messages, NaN, negative numbers, personal data in every personal
/// and free-text field), the first optional field of a fact present and the next absent. A new
/// kind has a sample as soon as it is declared; a field of a type without a sample leaves the
/// kind's sample an unknown fact, which `FactJSONDeclarationTests` names.
package enum SampleFacts {
    /// A sample of every kind, in the order of `FactKind.allCases`, then an unknown kind.
    package static var all: [Fact] {
        FactKind.allCases.map(sample) + [.unknown(kind: 200, payload: [0x08, 0x01, 0x12, 0x02, 0x68, 0x69])]
    }

    static let us = FixtureStory.us
    static let eu = FixtureStory.eu
    static let call = FixtureStory.callID(7)
    static let task = TaskID(3)
    static let switchID = SwitchID(2)
    static let time = FixtureStory.startTime
    static let email = "ada@example.com"

    static let received = ReceivedCall(id: call, caller: 9, call: .trackPurchase(
        total: .nan, items: [CommerceItem(id: "i", name: "Item", price: -1.5, quantity: -2, sku: nil, dataFields: ["k": [1, "two", 3.0, true, nil]])],
        dataFields: ["nested": ["deeper": ["deepest": "value"]]]))

    static let delivery = DeliveryTask(id: task, call: call, project: us.fingerprint, region: us.region, endpoint: us.endpoint,
                                       path: "events/track", method: .post, query: "a=1", body: Array(#"{"eventName":"viewed"}"#.utf8),
                                       createdAt: time, user: .email(email))

    /// The sample of `kind`; an unknown fact of its number when a field's type has no sample.
    package static func sample(of kind: FactKind) -> Fact {
        var values = Values()
        // The error names a type without a sample; the unknown fact stands for it, and
        // FactJSONDeclarationTests names the kind.
        return (try? Fact(kind, sampling: &values)) ?? .unknown(kind: kind.rawValue, payload: [])
    }

    /// The sample of each type a fact's field holds. Numbers, calls and fingerprints change from
    /// one field to the next (`drawn`), so that a fact's fields are told apart; of an enumeration
    /// of raw texts, its last case.
    struct Values: FactFieldSampler {
        /// Optional fields asked about so far: odd ones are present.
        private var optionals = 0
        /// Values given so far.
        private var drawn = 0

        mutating func isPresent(_ field: FactField) -> Bool {
            optionals += 1
            return optionals % 2 == 1
        }

        func count(of field: FactField) -> Int { 2 }

        mutating func sample<Value>(_ type: Value.Type, for field: FactField) -> Value? {
            drawn += 1
            if let choices = Value.self as? any CaseIterable.Type {
                return lastCase(of: choices) as? Value
            }
            if Value.self == String.self { return text(for: field) as? Value }
            return composite(Value.self)
        }

        private func lastCase<Choice: CaseIterable>(of type: Choice.Type) -> Choice? {
            Array(Choice.allCases).last
        }

        /// A text, as the field says what it holds: personal data where it may be personal or quoted.
        private func text(for field: FactField) -> String {
            switch field.text {
            case .personal(token: .email)?: email
            case .personal(token: .user)?: "user-1"
            case .personal(token: .token)?: "push-token-1"
            case .freeText?: "disk full for \(email)"
            case .url?: "https://links.example.com/a/x1?email=\(email)"
            case .name?: "inbox"
            case .identifier?: "e-\(drawn)"
            case nil: ""
            }
        }

        /// Numbers, times, ids and the SDK's composite values; nil for a type without a sample.
        private func composite<Value>(_ type: Value.Type) -> Value? {
            let sample: Any? = switch type {
            case is UInt64.Type: UInt64(drawn) * 3 + 1
            case is Int64.Type: drawn % 2 == 0 ? Int64(-3_600_000_000) : Int64(29_500_000)
            case is Int.Type: 2
            case is JournalTime.Type: JournalTime(microsecondsSince1970: time.microsecondsSince1970 + 2_000_000)
            case is CallID.Type: FixtureStory.callID(UInt64(6 + drawn))
            case is TaskID.Type: task
            case is SwitchID.Type: switchID
            case is ProjectFingerprint.Type: drawn % 2 == 0 ? us.fingerprint : eu.fingerprint
            case is ProjectRef.Type: eu
            case is ReceivedCall.Type: received
            case is PublicCall.Type: PublicCall.track(event: "viewed", dataFields: ["n": 1])
            case is GateDecision.Type: GateDecision.queued(switch: switchID, position: 1, call: received)
            case is DeliveryTask.Type: delivery
            case is BatchedEvent.Type: BatchedEvent(call: call, body: Array(#"{"eventName":"tapped"}"#.utf8))
            case is CallOutcome.Type: CallOutcome.discarded(.undeliveredAtSwitch(switchID))
            case is TaskOutcome.Type: TaskOutcome.failed(.httpStatus(400, code: "BadParams", message: "eventName is missing"))
            case is TimerPurpose.Type: TimerPurpose.teardownBound(switchID, .disablePush)
            case is RetryReason.Type: RetryReason.serverBusy("HTTP 503", failures: 2)
            case is SwitchRouting.Type: SwitchRouting.enqueued(behind: SwitchID(1))
            case is StepOutcome.Type: StepOutcome.warning("2 events purged")
            case is ModuleSignal.Type: ModuleSignal.willSwitchProject(to: eu.fingerprint)
            case is DurabilityWait.Type: DurabilityWait.teardownDisable(switchID)
            case is AttributionInfo.Type: AttributionInfo(campaignID: -1, templateID: 2, messageID: "a")
            case is EngineStart.Type:
                EngineStart(sdkVersion: "0.1.0", restored: true,
                            options: EngineRules(gateCapacity: 2, pendingEvents: .deliverToOutgoing(timeoutMilliseconds: 500)),
                            modules: [ModuleDescriptor(name: "inbox", notifications: ["foreground", "background"])],
                            clock: MonotonicReading(microseconds: 86_400_000_000, boot: 0x9e37_79b9_7f4a_7c15))
            case is TransportCompletion.Type:
                TransportCompletion(task: task, attempt: 2, outcome: .response(status: 200, code: "Success", messageIDs: ["m-1"]),
                                    droppedMessageIDs: 3)
            case is DurabilityConfirmation.Type: DurabilityConfirmation(request: 4, failure: "disk full")
            case is ModuleHookCompletion.Type: ModuleHookCompletion(hook: 5, failure: "module threw")
            case is AuthTokenReceipt.Type: AuthTokenReceipt(request: 6, project: eu.fingerprint, failure: nil)
            case is LinkResolution.Type:
                LinkResolution(job: 8, destination: "https://app.example.com/offer",
                               attribution: AttributionInfo(campaignID: 11, templateID: 12, messageID: "m-link"), failure: nil)
            case is LocalDataErasure.Type:
                LocalDataErasure(call: call, erased: {
                    var erased = JournalErasure(firstSequence: 1, lastSequence: 412, segments: 3, bytes: 1_048_576)
                    erased.failure = "disk full for \(email)"
                    return erased
                }())
            case is JournalGap.Type:
                JournalGap(lostFacts: 42, from: time, to: JournalTime(microsecondsSince1970: time.microsecondsSince1970 + 5_000_000),
                           reason: "write failed: no space left on device")
            default: nil
            }
            return sample as? Value
        }
    }
}
