import Journal
import SDK

/// One fact of every kind, with values that reach the codec's less common branches (optional
/// fields present and absent, nested messages, NaN, negative numbers). Exhaustive over
/// ``FactKind``: a new kind does not compile until it has a sample.
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

    static let received = ReceivedCall(id: call, caller: 9, call: .trackPurchase(
        total: .nan, items: [CommerceItem(id: "i", name: "Item", price: -1.5, quantity: -2, sku: nil, dataFields: ["k": [1, "two", 3.0, true, nil]])],
        dataFields: ["nested": ["deeper": ["deepest": "value"]]]))

    static let delivery = DeliveryTask(id: task, call: call, project: us.fingerprint, region: us.region, endpoint: us.endpoint,
                                       path: "events/track", method: .post, query: "a=1", body: Array(#"{"eventName":"viewed"}"#.utf8),
                                       createdAt: time, user: .email("ada@example.com"))

    /// The sample of `kind`.
    package static func sample(of kind: FactKind) -> Fact {
        switch kind {
        case .engineStarted:
            .engineStarted(EngineStart(sdkVersion: "0.1.0", restored: true,
                                       options: EngineRules(gateCapacity: 2, pendingEvents: .deliverToOutgoing(timeoutMilliseconds: 500)),
                                       modules: [ModuleDescriptor(name: "inbox", notifications: ["foreground", "background"])],
                                       clock: MonotonicReading(microseconds: 86_400_000_000, boot: 0x9e37_79b9_7f4a_7c15)))
        case .callReceived: .callReceived(received)
        case .transportCompleted:
            .transportCompleted(TransportCompletion(task: task, attempt: 2, outcome: .response(status: 200, code: "Success", messageIDs: ["m-1"]),
                                                    droppedMessageIDs: 3))
        case .eventBatched: .eventBatched(task: task, event: BatchedEvent(call: call, body: Array(#"{"eventName":"tapped"}"#.utf8)), executedOn: us.fingerprint)
        case .timerFired: .timerFired(.teardownBound(switchID, .disablePush))
        case .durabilityConfirmed: .durabilityConfirmed(DurabilityConfirmation(request: 4, failure: "disk full"))
        case .moduleHookCompleted: .moduleHookCompleted(ModuleHookCompletion(hook: 5, failure: "module threw"))
        case .authTokenReceived: .authTokenReceived(AuthTokenReceipt(request: 6, project: eu.fingerprint, failure: nil))
        case .callbacksDelivered: .callbacksDelivered(switchID)
        case .notificationReceived: .notificationReceived("foreground")
        case .engineStopping: .engineStopping
        case .networkReachable: .networkReachable
        case .backgroundTaskBegan: .backgroundTaskBegan(task: 1, budgetMicroseconds: 29_500_000)
        case .backgroundTaskExpired: .backgroundTaskExpired(task: 2)
        case .backgroundFlushFinished: .backgroundFlushFinished(task: 1, queued: 3, left: 1, failure: "disk full for ada@example.com")
        case .backgroundTaskEnded: .backgroundTaskEnded(task: 1, reason: .deadline)
        case .storageWasUnavailable:
            .storageWasUnavailable(reason: "open /var/mobile/journal: EPERM", waitedMicroseconds: 42_000_000, attempts: 3, held: 12, refused: 1)
        case .keyringWriteFailed: .keyringWriteFailed(project: eu.fingerprint, reason: "write keyring.json.tmp: ENOSPC")
        case .clockJumped: .clockJumped(wall: JournalTime(microsecondsSince1970: time.microsecondsSince1970 - 3_600_000_000),
                                        jumpMicroseconds: -3_600_000_000)
        case .localDataErased:
            .localDataErased(LocalDataErasure(call: call, erased: {
                var erased = JournalErasure(firstSequence: 1, lastSequence: 412, segments: 3, bytes: 1_048_576)
                erased.failure = "disk full for ada@example.com"
                return erased
            }()))
        case .linkResolved:
            .linkResolved(LinkResolution(job: 8, destination: "https://app.example.com/offer",
                                         attribution: AttributionInfo(campaignID: 11, templateID: 12, messageID: "m-link"), failure: nil))
        case .journalGap:
            .journalGap(JournalGap(lostFacts: 42, from: time, to: JournalTime(microsecondsSince1970: time.microsecondsSince1970 + 5_000_000),
                                   reason: "write failed: no space left on device"))
        case .linkResolutionStarted:
            .linkResolutionStarted(job: 8, call: call, url: "https://links.example.com/a/x1", project: us.fingerprint, generation: 3)
        case .staleResultRefused: .staleResultRefused(job: 8, what: "resolution of link https://links.example.com/a/x1", startedIn: 3, current: 4)
        case .switchCancelled: .switchCancelled(switch: switchID, reason: "the SDK shut down before this switch began")
        case .initialized: .initialized(project: us, generation: 3)
        case .gateDecided: .gateDecided(call: call, decision: .queued(switch: switchID, position: 1, call: received))
        case .callRejected: .callRejected(call: call, reason: "email 'x' is not valid")
        case .identityChanged: .identityChanged(email: "ada@example.com", userID: nil)
        case .pushTokenChanged: .pushTokenChanged(nil)
        case .attributionChanged: .attributionChanged(project: us.fingerprint, info: AttributionInfo(campaignID: -1, templateID: 2, messageID: "a"))
        case .attributionRefused: .attributionRefused(project: us.fingerprint, reason: "storage cleared by switch 2")
        case .unknownUserEventHeld:
            .unknownUserEventHeld(project: us.fingerprint, call: call, event: .track(event: "viewed", dataFields: ["n": 1]))
        case .unknownUserSessionCounted: .unknownUserSessionCounted(project: us.fingerprint)
        case .taskQueued: .taskQueued(delivery)
        case .taskDispatched: .taskDispatched(task: task, attempt: 1)
        case .retryScheduled:
            .retryScheduled(task: task, attempt: 4, due: JournalTime(microsecondsSince1970: time.microsecondsSince1970 + 8_000_000),
                            reason: .serverBusy("HTTP 503", failures: 2))
        case .taskCompleted: .taskCompleted(task: task, outcome: .failed(.httpStatus(400, code: "BadParams", message: "eventName is missing")))
        case .disableCoalesced: .disableCoalesced(task: task, call: call)
        case .eventsExpired: .eventsExpired(task: task, calls: [call, CallID(CallIDGenerator.sequentialUUID(77))])
        case .timerSet: .timerSet(.retry(task, attempt: 2), due: JournalTime(microsecondsSince1970: time.microsecondsSince1970 + 2_000_000))
        case .callResolved: .callResolved(call: call, outcome: .discarded(.undeliveredAtSwitch(switchID)))
        case .callsResolved:
            .callsResolved(task: task, calls: [call, FixtureStory.callID(8), FixtureStory.callID(9)],
                           outcome: .delivered(project: us.fingerprint, status: 200))
        case .authRefreshRequested: .authRefreshRequested(project: eu.fingerprint, request: 6)
        case .authRefreshFinished: .authRefreshFinished(project: eu.fingerprint, request: 6, failure: "provider returned nil")
        case .moduleEventDelivered:
            .moduleEventDelivered(module: "inbox", event: .willSwitchProject(to: eu.fingerprint), project: us.fingerprint, generation: 3)
        case .moduleHookStarted: .moduleHookStarted(hook: 5, module: "inbox", event: .notification("foreground"))
        case .moduleHookFinished: .moduleHookFinished(hook: 5, problem: "overran its 2000 ms bound")
        case .messagesStored: .messagesStored(kind: .embedded, project: us.fingerprint, ids: ["e-1", "e-2"])
        case .storageCleared: .storageCleared(project: us.fingerprint, scope: .inAppMessages)
        case .durabilityRequested: .durabilityRequested(request: 4, purpose: .teardownDisable(switchID))
        case .unknownUserEventsReleased: .unknownUserEventsReleased(project: us.fingerprint)
        case .switchRouted: .switchRouted(switch: switchID, call: call, project: eu, routing: .enqueued(behind: SwitchID(1)))
        case .switchStarted: .switchStarted(switch: switchID, from: us.fingerprint, to: eu)
        case .teardownStepBegan: .teardownStepBegan(switch: switchID, step: .deliverPending)
        case .teardownStepFinished:
            .teardownStepFinished(switch: switchID, step: .purgeQueue, outcome: .warning("2 events purged"), elapsedMicroseconds: -5)
        case .switchLanded:
            .switchLanded(switch: switchID, project: eu.fingerprint, result: .switchedWithWarnings, reasons: ["disable not durable in time"])
        }
    }
}
