import Foundation
import Journal
import SDKTesting
@testable import SDK

/// Random values of every fact shape, from a seed, for codec round-trip tests.
struct RandomFacts {
    private var generator: SplitMix64

    init(seed: UInt64) {
        generator = SplitMix64(seed: seed &+ 0x9E37_79B9_7F4A_7C15)
    }

    mutating func next() -> UInt64 {
        generator.next()
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    mutating func bool() -> Bool { next() & 1 == 1 }
    mutating func string() -> String {
        ["", "a", "ada@example.com", "événement", "line\nbreak", "🚀", String(repeating: "x", count: int(0...40)),
         "\"quoted\" \\ back/slash\ttab\u{01}\u{1F}\u{7F}", "\u{2028}\u{FEFF}\u{10FFFF}"][int(0...8)]
    }
    mutating func optionalString() -> String? { bool() ? string() : nil }
    mutating func fingerprint() -> ProjectFingerprint { ProjectFingerprint(apiKey: "key-\(int(0...5))") }
    mutating func callID() -> CallID { CallID(UUID(uuid: (UInt8(int(0...255)), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, UInt8(int(0...255))))) }
    mutating func time() -> JournalTime { JournalTime(microsecondsSince1970: Int64(int(-1_000...1_000_000)) * 1_000) }
    mutating func taskID() -> TaskID { TaskID(UInt64(int(0...1_000_000))) }
    mutating func switchID() -> SwitchID { SwitchID(UInt64(int(0...100))) }

    mutating func project() -> ProjectRef {
        ProjectRef(fingerprint: fingerprint(), region: ["us", "eu", "custom"][int(0...2)], endpoint: "https://e\(int(0...9)).test/api/",
                   usesJWT: bool(), retry: RetryRules(maxAttempts: int(1...9), baseDelayMilliseconds: Int64(int(0...5_000)),
                                                      maxDelayMilliseconds: Int64(int(0...90_000)), jwtRefreshBudget: int(0...5)),
                   label: optionalString())
    }

    mutating func data(depth: Int = 0) -> DataValue {
        switch int(0...(depth > 2 ? 4 : 6)) {
        case 0: return .string(string())
        case 1: return .integer(bool() ? Int64(int(-1_000_000...1_000_000)) : [Int64.max, Int64.min, 0, -1][int(0...3)])
        case 2:
            // Whole and fractional doubles, and the ends of the range: the data fields' JSON
            // (format 1.3) must read every one back as it was, or not be used.
            return .number(bool() ? Double(int(-1000...1000)) / 8
                           : [-0.0, 1e15, -1e15 + 1, 1e300, .leastNonzeroMagnitude, -.greatestFiniteMagnitude, 0.1, 1.0 / 3][int(0...7)])
        case 3: return .bool(bool())
        case 4: return .null
        case 5: return .array((0..<int(0...3)).map { _ in data(depth: depth + 1) })
        default: return .object(object(depth: depth + 1))
        }
    }

    mutating func object(depth: Int = 0) -> [String: DataValue] {
        Dictionary((0..<int(0...3)).map { _ in (string(), data(depth: depth + 1)) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func items() -> [CommerceItem] {
        (0..<int(0...2)).map { _ in
            CommerceItem(id: string(), name: string(), price: Double(int(0...999)) / 4, quantity: int(0...5), sku: optionalString(),
                         dataFields: bool() ? object() : nil)
        }
    }

    mutating func call() -> PublicCall {
        switch int(0...28) {
        case 0: return .initialize(project())
        case 1: return .switchProject(project())
        case 2: return .setEmail(optionalString())
        case 3: return .setUserId(optionalString())
        case 4: return .updateEmail(string())
        case 5: return .updateUser(dataFields: object(), mergeNestedObjects: bool())
        case 6: return .updateCart(items: items())
        case 7: return .trackPurchase(total: Double(int(0...10_000)) / 100, items: items(), dataFields: bool() ? object() : nil)
        case 8: return .track(event: string(), dataFields: bool() ? object() : nil)
        case 9: return .registerToken(string())
        case 10: return .disableDevice
        case 11: return .logoutUser
        case 12: return .trackPushOpen(PushOpen(campaignID: bool() ? Int64(int(0...99)) : nil, templateID: bool() ? 7 : nil,
                                                messageID: string(), appAlreadyRunning: bool(), dataFields: bool() ? object() : nil))
        case 13: return .handlePush(payload: object())
        case 14: return .inAppFetch(count: int(0...100))
        case 15: return .inAppOpen(messageID: string())
        case 16: return .inAppClick(messageID: string(), url: string())
        case 17: return .inAppClose(messageID: string(), url: optionalString())
        case 18: return .inAppDelivery(messageID: string())
        case 19: return .inAppConsume(messageID: string())
        case 20: return .embeddedFetch
        case 21: return .embeddedReceived(messageID: string())
        case 22: return .embeddedClick(messageID: string(), buttonID: optionalString(), url: optionalString())
        case 23: return .setAttribution(bool() ? AttributionInfo(campaignID: 1, templateID: 2, messageID: string()) : nil)
        case 24: return .handleUniversalLink(url: "https://links.test/a/" + string())
        case 25: return .oversized(PublicCall.Name.allCases[int(0...(PublicCall.Name.allCases.count - 1))], reason: string())
        case 26: return .setConsent(granted: bool())
        case 27: return .eraseLocalData
        default: return .flush
        }
    }

    mutating func failure() -> CallFailure {
        [.rejected(string()), .notInitialized, .httpStatus(int(400...499), code: optionalString(), message: optionalString()), .retriesExhausted(string()),
         .authentication(string())][int(0...4)]
    }

    mutating func discard() -> DiscardReason {
        [.purgedByLogout, .purgedBySwitch(switchID()), .undeliveredAtSwitch(switchID()), .gateFull(capacity: int(0...9)),
         .queueFull(capacity: int(0...9)), .shutdown, .expired(ageLimit: .milliseconds(int(0...999_999))), .consentDeclined,
         .erased][int(0...8)]
    }

    mutating func event() -> ModuleSignal {
        [.initialize, .start, .notification(string()), .reset, .deinitialize, .willLogout, .willSwitchProject(to: fingerprint())][int(0...6)]
    }

    mutating func timer() -> TimerPurpose {
        [.retry(taskID(), attempt: int(1...5)), .teardownBound(switchID(), TeardownStepKind.allCases[int(0...8)]),
         .moduleHookBound(hook: UInt64(int(0...99)))][int(0...2)]
    }

    mutating func task() -> DeliveryTask {
        var task = DeliveryTask(id: taskID(), call: bool() ? callID() : nil, project: fingerprint(), region: "us", endpoint: "https://x/api/",
                                path: ["events/track", "users/disableDevice"][int(0...1)], method: bool() ? .get : .post, query: optionalString(),
                                body: Array(string().utf8), createdAt: time(), generation: bool() ? next() % 9 : nil,
                                user: [nil, .email(string()), .userID(string())][int(0...2)])
        if int(0...3) == 0 {
            let events = (0..<int(1...3)).map { _ in batchedEvent() }
            task.replaceBatch(events, queuedAt: events.map { _ in time() })
            if bool() { task.removeExpiredEvents([task.call].compactMap { $0 }) }
        }
        return task
    }

    mutating func batchedEvent() -> BatchedEvent {
        BatchedEvent(call: callID(), body: Array(string().utf8))
    }

    mutating func fact() -> Fact {
        switch int(0...56) {
        case 0: return .engineStarted(EngineStart(sdkVersion: string(), restored: bool(), options: EngineRules(
            gateCapacity: int(0...99), pendingEvents: bool() ? .purge : .deliverToOutgoing(timeoutMilliseconds: 5),
            bulkEventLimit: int(1...500), bulkByteLimit: int(1...99_999)),
            modules: [ModuleDescriptor(name: string(), notifications: [string()])],
            clock: bool() ? MonotonicReading(microseconds: Int64(int(0...1_000_000)), boot: bool() ? next() : nil) : nil))
        case 1: return .callReceived(ReceivedCall(id: callID(), caller: next(), call: call()))
        case 2: return .transportCompleted(TransportCompletion(task: taskID(), attempt: int(1...5), outcome: bool()
            ? .response(status: int(100...599), code: optionalString(), messageIDs: [string()], message: optionalString())
            : bool() ? .networkError(string()) : .notSent(.noToken(string())),
            refusedEvents: bool() ? [] : [RefusedEvent(index: int(0...9), reason: string())], droppedMessageIDs: int(0...2)))
        case 3: return .timerFired(timer())
        case 4: return .durabilityConfirmed(DurabilityConfirmation(request: next() % 99, failure: optionalString()))
        case 5: return .moduleHookCompleted(ModuleHookCompletion(hook: next() % 99, failure: optionalString()))
        case 6: return .authTokenReceived(AuthTokenReceipt(request: next() % 99, project: fingerprint(), failure: optionalString(), refused: bool()))
        case 7: return .callbacksDelivered(switchID())
        case 8: return .notificationReceived(string())
        case 9: return .initialized(project: project(), generation: next() % 9)
        case 10: return .gateDecided(call: callID(), decision: [.executed(project: fingerprint()),
            .queued(switch: switchID(), position: int(0...9), call: ReceivedCall(id: callID(), caller: 1, call: call())),
            .replayed(switch: switchID(), project: fingerprint()), .inline(project: fingerprint()), .refused][int(0...4)])
        case 11: return .callRejected(call: callID(), reason: string())
        case 12: return .identityChanged(email: optionalString(), userID: optionalString())
        case 13: return .pushTokenChanged(optionalString())
        case 14: return .attributionChanged(project: fingerprint(), info: bool() ? AttributionInfo(campaignID: 3, templateID: 4, messageID: string()) : nil)
        case 15: return .attributionRefused(project: fingerprint(), reason: string())
        case 16: return .unknownUserEventHeld(project: fingerprint(), call: callID(), event: call())
        case 17: return .unknownUserSessionCounted(project: fingerprint())
        case 18: return .unknownUserEventsReleased(project: fingerprint())
        case 19: return .taskQueued(task())
        case 20: return .taskDispatched(task: taskID(), attempt: int(1...5))
        case 21: return .taskCompleted(task: taskID(), outcome: [.delivered(status: 200), .failed(failure()), .discarded(discard())][int(0...2)])
        case 22: return .timerSet(timer(), due: time())
        case 23: return .callResolved(call: callID(), outcome: [.delivered(project: fingerprint(), status: 201), .applied(project: bool() ? fingerprint() : nil),
                                                                .failed(failure()), .discarded(discard())][int(0...3)])
        case 24: return .authRefreshRequested(project: fingerprint(), request: next() % 99)
        case 25: return .authRefreshFinished(project: fingerprint(), request: next() % 99, failure: optionalString())
        case 26: return .moduleEventDelivered(module: string(), event: event(), project: fingerprint(), generation: next() % 9)
        case 27: return .moduleHookStarted(hook: next() % 99, module: string(), event: event())
        case 28: return .moduleHookFinished(hook: next() % 99, problem: optionalString())
        case 29: return .messagesStored(kind: bool() ? .inApp : .embedded, project: fingerprint(), ids: [string(), string()])
        case 30: return .storageCleared(project: fingerprint(), scope: [.identity, .projectScoped, .inAppMessages, .embeddedMessages][int(0...3)])
        case 31: return .durabilityRequested(request: next() % 99, purpose: bool() ? .flush(callID()) : .teardownDisable(switchID()))
        case 32: return .switchRouted(switch: switchID(), call: callID(), project: project(), routing: [.started, .absorbed(into: switchID()),
            .enqueued(behind: switchID()), .noop, .initialization, .moved(entry: switchID())][int(0...5)])
        case 33: return .switchStarted(switch: switchID(), from: bool() ? fingerprint() : nil, to: project())
        case 34: return .teardownStepBegan(switch: switchID(), step: TeardownStepKind.allCases[int(0...8)])
        case 35: return .teardownStepFinished(switch: switchID(), step: TeardownStepKind.allCases[int(0...8)],
                                              outcome: bool() ? .clean : .warning(string()), elapsedMicroseconds: Int64(int(0...9_999)))
        case 37: return .engineStopping
        case 38: return .linkResolved(LinkResolution(job: next() % 99, destination: optionalString(),
                                                     attribution: bool() ? AttributionInfo(campaignID: 5, templateID: 6, messageID: string()) : nil,
                                                     failure: optionalString()))
        case 39: return .journalGap(JournalGap(lostFacts: next() % 999, from: time(), to: time(), reason: string()))
        case 40: return .linkResolutionStarted(job: next() % 99, call: callID(), url: string(), project: fingerprint(), generation: next() % 9)
        case 41: return .staleResultRefused(job: next() % 99, what: string(), startedIn: next() % 9, current: next() % 9)
        case 42: return .switchCancelled(switch: switchID(), reason: string())
        case 43: return .eventBatched(task: taskID(), event: batchedEvent(), executedOn: bool() ? fingerprint() : nil)
        case 44: return .callsResolved(task: taskID(), calls: (0..<int(0...4)).map { _ in callID() },
                                       outcome: [.delivered(project: fingerprint(), status: 200), .applied(project: nil)][int(0...1)])
        case 45: return .networkReachable
        case 51: return .backgroundTaskBegan(task: next() % 9, budgetMicroseconds: Int64(int(0...30_000_000)))
        case 52: return .backgroundTaskExpired(task: next() % 9)
        case 53: return .backgroundFlushFinished(task: next() % 9, queued: next() % 99, left: next() % 99, failure: optionalString())
        case 54: return .backgroundTaskEnded(task: next() % 9, reason: BackgroundTaskEnd.allCases[int(0...4)])
        case 55: return .storageWasUnavailable(reason: string(), waitedMicroseconds: Int64(int(0...60_000_000)), attempts: next() % 9,
                                               held: next() % 999, refused: next() % 9)
        case 56: return .keyringWriteFailed(project: fingerprint(), reason: string())
        case 50: return .disableCoalesced(task: taskID(), call: callID())
        case 49: return .eventsExpired(task: taskID(), calls: (0..<int(0...3)).map { _ in callID() })
        case 48: return .clockJumped(wall: time(), jumpMicroseconds: Int64(int(0...1_000_000)) * (bool() ? 1 : -1_000))
        case 47:
            let call = bool() ? callID() : nil
            var erased = JournalErasure(firstSequence: next() % 99, lastSequence: next() % 99, segments: Int(next() % 9), bytes: Int(truncatingIfNeeded: next()))
            erased.failure = optionalString()
            return .localDataErased(LocalDataErasure(call: call, erased: erased))
        case 46: return .retryScheduled(task: taskID(), attempt: int(1...9), due: time(),
                                        reason: [.noResponse(string()), .serverBusy(string(), failures: int(1...5)),
                                                 .notSent([.noToken(string()), .tokenRefused(string()), .noAPIKey, .noAuthProvider,
                                                           .invalidEndpoint(string())][int(0...4)])][int(0...2)])
        default: return .switchLanded(switch: switchID(), project: fingerprint(), result: bool() ? .switchedCleanly : .switchedWithWarnings,
                                      reasons: [string()])
        }
    }
}
