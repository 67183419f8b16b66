import Simulation
import Testing
@testable import SDK

/// Late work of an outgoing instance is refused, even after the next one started, over the real
/// `EngineShell` in the simulator's world (``EngineStore``): the link host and the backend answer
/// when the test lets the clock reach them, so "late" is exact. No thread, no socket. The store
/// is exhaustive: each test asserts what the late answer journals, exactly; the switches'
/// teardowns are skipped by name.
@Suite("Late work (store)", .exhaustiveStore, .timeLimit(.minutes(1)))
struct LateWorkStoreTests {
    static let link = "https://links.sim.test/a/x1"

    /// A store on A with ada signed in whose link host answers after `linkMilliseconds`.
    static func onA(linkMilliseconds: Int64 = 10) -> EngineStore {
        var timing = EngineStore.Timing()
        timing.linkMilliseconds = linkMilliseconds
        return EdgesStoreTests.on(.A, timing: timing)
    }

    @Test("a tracked link resolves into its destination and attribution")
    func resolvesTrackedLinks() {
        let store = Self.onA()
        let tracked = store.handleUniversalLink(Self.link)
        store.settle()
        #expect(store.linkResults[tracked] == UniversalLinkResult(outcome: .applied(project: store.fingerprint(.A)), destination: "https://shop.sim.test/x1"))
        #expect(store.state.attribution == AttributionInfo(campaignID: 41, templateID: 42, messageID: "x1"))
        store.expectFacts([
            "callReceived handleUniversalLink https://links.sim.test/a/x1 (call 00000003)",
            "gateDecided 00000003 executed on A",
            "linkResolutionStarted job #4 https://links.sim.test/a/x1 for A, generation 1 (call 00000003)",
            "linkResolved job #4 to https://shop.sim.test/x1, campaign 41 template 42 message \"x1\"",
            "attributionChanged A campaign 41 template 42 message \"x1\"",
            "callResolved 00000003 applied on A",
        ])
        store.expectEffects([
            "resolveLink #4 https://links.sim.test/a/x1",
            "complete 00000003 applied on A to https://shop.sim.test/x1",
        ])
    }

    @Test("a link resolution of A that comes back after the switch to B landed is refused and journaled; B's attribution stays the app's own")
    func lateResolutionAfterLandingIsRefused() {
        let store = Self.onA(linkMilliseconds: 1_000)
        let late = store.handleUniversalLink(Self.link)
        store.switchProject(to: .B)
        store.advance(byMilliseconds: 100)
        #expect(store.state.live?.fingerprint == store.fingerprint(.B) && store.linkResults[late] == nil, "landed before the link's answer")
        store.skipReceivedFacts()
        store.settle()
        store.expectFacts([             // no attributionChanged
            "linkResolved job #4 to https://shop.sim.test/x1, campaign 41 template 42 message \"x1\"",
            "staleResultRefused #4 resolution of link https://links.sim.test/a/x1: started in generation 1, now 2",
            "callResolved 00000003 failed: rejected: the link resolved after the instance that asked for it was replaced (generation 1, now 2); its attribution was not applied",
        ])
        #expect(store.linkResults[late]?.destination == nil, "a refused link leads nowhere")
        #expect(store.state.attribution == nil)
        store.call(.setAttribution(AttributionInfo(campaignID: 1, templateID: 2, messageID: "b-own")))
        store.settle()
        #expect(store.state.attribution?.messageID == "b-own", "the app's own write after the landing is accepted")
        store.expectFacts([
            "callReceived setAttribution campaign 1 template 2 message \"b-own\" (call 00000005)",
            "gateDecided 00000005 executed on B",
            "attributionChanged B campaign 1 template 2 message \"b-own\"",
            "callResolved 00000005 applied on B",
        ])
        store.expectEffects(where: \.isCompletion, [
            "complete 00000004 applied on B (landing s1: switchedWithWarnings)",
            "complete 00000003 failed: rejected: the link resolved after the instance that asked for it was replaced (generation 1, now 2); its attribution was not applied",
            "complete 00000005 applied on B",
        ])
        store.skipEffects()            // the switch's teardown
    }

    @Test("A -> B -> A: a resolution started by the first A instance is refused by the second, though A is live again")
    func generationsNotProjects() {
        let store = Self.onA(linkMilliseconds: 1_000)
        let late = store.handleUniversalLink(Self.link)
        store.switchProject(to: .B)
        store.switchProject(to: .A)
        store.advance(byMilliseconds: 500)
        #expect(store.state.live?.fingerprint == store.fingerprint(.A) && store.state.generation == 3 && store.linkResults[late] == nil)
        store.skipReceivedFacts()
        store.settle()
        store.expectFacts([
            "linkResolved job #4 to https://shop.sim.test/x1, campaign 41 template 42 message \"x1\"",
            "staleResultRefused #4 resolution of link https://links.sim.test/a/x1: started in generation 1, now 3",
            "callResolved 00000003 failed: rejected: the link resolved after the instance that asked for it was replaced (generation 1, now 3); its attribution was not applied",
        ])
        if case .failed = store.linkResults[late]?.outcome {} else { Issue.record("the first instance's late result was applied to the second") }
        #expect(store.state.attribution == nil)
        store.skipEffects()            // the switches' teardowns; the link's completion is checked above
    }

    @Test("in-app messages fetched by an instance that was replaced (A -> B -> A) are not stored in the new one")
    func lateFetchIsRefused() {
        var timing = EngineStore.Timing()
        timing.networkMilliseconds = 500          // the fetch's answer comes back after A -> B -> A landed
        let store = EdgesStoreTests.on(.A, timing: timing)
        store.call(.inAppFetch(count: 10))
        store.switchProject(to: .B)
        store.switchProject(to: .A)
        store.skipReceivedFacts()
        store.settle()
        store.expectFacts(where: { switch $0 {
            case .staleResultRefused, .messagesStored: true
            default: false
        } }, [
            "staleResultRefused #1 in-app messages fetched by t1: started in generation 1, now 3",
        ])
        #expect(store.state.generation == 3)
        store.expectRequests([
            "A inApp/getMessages?SDKVersion=0.1.0&count=10&email=ada%40example.com&platform=iOS ",
        ])
        store.skipReceivedFacts()      // the switches' teardowns
        store.skipEffects()
    }
}
