import Foundation
import Journal
import SDK

/// A short scripted life of the SDK, decided by the SDK's own pure core (``SDKState/decide(_:at:)``)
/// with a scripted world answering the effects its facts ask for (``SDKState/effects(of:)``): the
/// facts of a realistic journal, the same on every run, made without threads, network or clock.
///
/// It initializes on a US project, identifies the user, tracks, purchases, fetches and opens
/// messages (one request fails with 503 and is retried, one EU request needs a fresh JWT),
/// switches to EU with a call arriving mid-switch, switches back to US and to EU again in a row,
/// then logs out. The fuzz corpus tool and the replay fuzz target's fixture journal use it.
package struct FixtureStory {
    /// One fact as the journal records it.
    package struct Entry: Sendable {
        package var fact: Fact
        package var time: JournalTime
    }

    package static let us = project(key: "fixture-us-key", region: "us", usesJWT: false)
    package static let eu = project(key: "fixture-eu-key", region: "eu", usesJWT: true)
    package static let startTime = JournalTime(microsecondsSince1970: 1_764_000_000_000_000)

    /// Every fact of the story, in journal order.
    package static func entries() -> [Entry] {
        var story = FixtureStory()
        story.play()
        return story.entries
    }

    private var state = SDKState()
    private var time = startTime
    private var entries: [Entry] = []
    /// Answers of the world not yet delivered, oldest first.
    private var world: [Fact] = []
    private var calls: UInt64 = 0
    private var dispatches = 0
    /// Bounds the story, whatever the decisions do.
    private var stepsLeft = 4_000

    private mutating func play() {
        input(.engineStarted(EngineStart(sdkVersion: "0.1.0", restored: false, options: EngineRules(),
                                         modules: [ModuleDescriptor(name: "inbox", notifications: ["foreground"])])))
        settle()
        let item = CommerceItem(id: "sku-1", name: "Mug", price: 12.5, quantity: 2, sku: "MUG-1", dataFields: ["color": "blue"])
        for publicCall: PublicCall in [
            .initialize(Self.us),
            .setEmail("ada@example.com"),
            .track(event: "viewed", dataFields: ["plan": "pro", "seats": 3, "ratio": 0.5, "tags": ["a", "b"], "trial": false, "coupon": nil]),
            .registerToken("push-token-1"),
            .updateUser(dataFields: ["city": "Lyon", "address": ["zip": "69001"]], mergeNestedObjects: true),
            .updateCart(items: [item]),
            .trackPurchase(total: 25, items: [item], dataFields: ["source": "app"]),
            .trackPushOpen(PushOpen(campaignID: 5, templateID: 6, messageID: "push-1", appAlreadyRunning: true)),
            .handlePush(payload: ["itbl": ["campaignId": 5, "templateId": 9, "messageId": "push-2"]]),
            .inAppFetch(count: 2),
            .inAppOpen(messageID: "m-1"),
            .inAppClick(messageID: "m-1", url: "https://example.com/offer"),
            .inAppClose(messageID: "m-1", url: nil),
            .embeddedFetch,
            .embeddedReceived(messageID: "e-1"),
            .embeddedClick(messageID: "e-1", buttonID: "more", url: nil),
            .setAttribution(AttributionInfo(campaignID: 1, templateID: 2, messageID: "a-1")),
            .flush,
        ] {
            call(publicCall)
            settle()
        }
        input(.notificationReceived("foreground"))
        settle()
        // A switch with a call arriving before the world answered its teardown.
        call(.switchProject(Self.eu))
        call(.track(event: "during-switch", dataFields: nil))
        settle()
        call(.setUserId("user-2"))
        call(.track(event: "on-eu", dataFields: ["n": 1]))
        settle()
        // Two switches in a row.
        call(.switchProject(Self.us))
        call(.switchProject(Self.eu))
        settle()
        call(.logoutUser)
        call(.disableDevice)
        settle()
    }

    // MARK: - The engine, in miniature

    private mutating func call(_ call: PublicCall) {
        calls += 1
        input(.callReceived(ReceivedCall(id: Self.callID(calls), caller: 1, call: call)))
    }

    /// Decides one input, journals the facts and queues the world's answers to the effects they
    /// ask for.
    private mutating func input(_ fact: Fact) {
        guard stepsLeft > 0 else { return }
        stepsLeft -= 1
        time = JournalTime(microsecondsSince1970: time.microsecondsSince1970 + 1_000)
        let decided = state.decide(fact, at: time)
        entries += decided.map { Entry(fact: $0, time: time) }
        for effect in state.effects(of: decided) {
            world += answers(to: effect)
        }
    }

    /// Delivers the world's answers, then due timers, until nothing is left to do.
    private mutating func settle() {
        while stepsLeft > 0 {
            if !world.isEmpty {
                input(world.removeFirst())
            } else if let (purpose, due) = state.timers.min(by: { ($0.value, "\($0.key)") < ($1.value, "\($1.key)") }) {
                time = max(time, due)
                input(.timerFired(purpose))
            } else {
                return
            }
        }
    }

    /// What the fixture's world answers to `effect`, the way the engine's world would: every
    /// request succeeds at once (but for ``response(to:)``), every hook and landing callback
    /// returns at once. The rest (timers, module signals, identities, completions) asks for no
    /// answer here: due timers fire in ``settle()``, and the story makes no universal link and no
    /// erasure.
    private mutating func answers(to effect: Effect) -> [Fact] {
        switch effect {
        case .send(let task, let attempt):
            dispatches += 1
            return [.transportCompleted(TransportCompletion(task: task, attempt: attempt, outcome: response(to: task)))]
        case .requestDurability(let request):
            return [.durabilityConfirmed(DurabilityConfirmation(request: request, failure: nil))]
        case .runHook(let hook, _, _, _, _), .completeHookAtOnce(let hook):
            return [.moduleHookCompleted(ModuleHookCompletion(hook: hook))]
        case .refreshToken(let project, let request):
            return [.authTokenReceived(AuthTokenReceipt(request: request, project: project, failure: nil))]
        case .armLanding(let id):
            return [.callbacksDelivered(id)]
        case .armTimer, .deliverModuleSignal, .abandonHook, .identityChanged, .instanceStarted, .resolveLink, .beginLanding,
             .complete, .eraseLocalData:
            return []
        }
    }

    /// 200 but for the third request (503, retried) and the first EU request (401, fresh JWT).
    private func response(to task: TaskID) -> TransportOutcome {
        let path = state.tasks[task]?.task.path ?? ""
        let project = state.tasks[task]?.task.project
        if dispatches == 3 { return .response(status: 503, code: nil, messageIDs: []) }
        if project == Self.eu.fingerprint && state.auth[Self.eu.fingerprint]?.refreshesUsed ?? 0 == 0 {
            return .response(status: 401, code: "InvalidJwtPayload", messageIDs: [])
        }
        let messages = path == "inApp/getMessages" ? ["m-1", "m-2"] : path.hasPrefix("embedded") ? ["e-1"] : []
        return .response(status: 200, code: nil, messageIDs: messages)
    }

    // MARK: - Values

    static func project(key: String, region: String, usesJWT: Bool) -> ProjectRef {
        ProjectRef(fingerprint: ProjectFingerprint(apiKey: key), region: region, endpoint: "https://api.\(region).example.com/api/",
                   usesJWT: usesJWT, retry: RetryRules())
    }

    /// Call number `number`, as a version-4 UUID ending in the number.
    package static func callID(_ number: UInt64) -> CallID {
        CallID(CallIDGenerator.sequentialUUID(number))
    }
}
