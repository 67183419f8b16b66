import Foundation
import Simulation
import Testing
@testable import SDK

/// The store is exhaustive: what a test leaves unasserted fails it. Each test here leaves one
/// kind unasserted and expects the failure (`withKnownIssue`), naming the kind and showing the
/// first lines in `replay cat`'s words; the trait checks at a test's end and is on every store
/// suite; explicit skips pass.
@Suite("Exhaustive store", .exhaustiveStore, .timeLimit(.minutes(1)))
struct ExhaustiveStoreTests {
    /// A store on A with ada signed in, everything settled and skipped.
    static func onA() -> EngineStore {
        SwitchContractStoreTests.onA()
    }

    /// Whether `issue` is the store's report of `what` left unasserted, showing `line`.
    static func reports(_ issue: Issue, _ what: String, showing line: String) -> Bool {
        let text = issue.comments.map(\.rawValue).joined()
        return text.contains("exhaustive store: ") && text.contains(what) && text.contains(line)
    }

    @Test("an unasserted fact fails the test; a where: filter takes only what it keeps")
    func unassertedFactFails() {
        let store = Self.onA()
        store.call(.setEmail("grace@example.com"))
        store.expectFacts(where: { if case .callReceived = $0 { true } else { false } }, [
            "callReceived setEmail \"grace@example.com\" (call 00000003)",
        ])
        store.skipEffects()
        withKnownIssue {
            store.finish()
        } matching: { issue in
            Self.reports(issue, "fact(s) journaled not asserted", showing: "callResolved 00000003 applied on A")
        }
    }

    @Test("an unasserted effect fails the test")
    func unassertedEffectFails() {
        let store = Self.onA()
        store.call(.setEmail("grace@example.com"))
        store.skipReceivedFacts()
        withKnownIssue {
            store.finish()
        } matching: { issue in
            Self.reports(issue, "effect(s) asked for not asserted", showing: "complete 00000003 applied on A")
        }
    }

    @Test("an unasserted request fails the test")
    func unassertedRequestFails() {
        let store = Self.onA()
        store.call(.track(event: "seen", dataFields: nil))
        store.settle()
        store.skipReceivedFacts()
        store.skipEffects()
        withKnownIssue {
            store.finish()
        } matching: { issue in
            Self.reports(issue, "request(s) that reached the backend not asserted", showing: "A events/track")
        }
    }

    @Test("a settle that runs out of occurrences (offline, retries go on) fails the test, unless it takes the answer")
    func unsettledWorldFails() {
        let store = Self.onA()
        store.setOffline(true)
        store.call(.track(event: "never-sent", dataFields: nil))
        #expect(store.settle(maximumOccurrences: 50) == false)
        store.skipReceivedFacts()
        store.skipEffects()
        withKnownIssue {
            store.finish()
        } matching: { issue in
            Self.reports(issue, "settle(s) that ran out of occurrences not asserted", showing: "still busy after 50 occurrences")
        }
        #expect(store.settle(maximumOccurrences: 50) == false)
        #expect(store.takeUnsettled())
        store.skipReceivedFacts()
        store.skipEffects()
    }

    @Test("an unasserted simulation failure fails the test, and cannot be skipped")
    func unassertedSimulationFailureFails() {
        // The transport sends each request again a minute later: the copy leaves for a task
        // the SDK no longer holds, which the simulator's privacy check reports.
        let store = EngineStore(plantedDefect: .repeatsRequests)
        store.initialize(.A)
        store.call(.setEmail("ada@example.com"))
        store.call(.track(event: "sent-twice", dataFields: nil))
        store.advance(byMilliseconds: 120_000)
        store.skipReceivedFacts()
        store.skipEffects()
        store.skipRequests()
        withKnownIssue {
            store.finish()
        } matching: { issue in
            Self.reports(issue, "simulation failure(s) not asserted", showing: "privacy: ")
        }
    }

    @Test("the trait checks every store the test made when the test ends, at the test's declaration")
    func traitChecksAtTheEnd() async throws {
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await ExhaustiveStoreTrait().provideScope(for: test, testCase: Test.Case.current) {
                let store = EngineStore()
                store.initialize(.B)
            }
        } matching: { issue in
            // One issue per kind left: the launch's facts and the effects they asked for.
            issue.sourceLocation == test.sourceLocation
                && (Self.reports(issue, "fact(s) journaled not asserted", showing: "callReceived initialize B (eu)")
                    || Self.reports(issue, "effect(s) asked for not asserted", showing: "instanceStarted generation 1"))
        }
    }

    @Test("every suite that makes a store carries the trait: each @Suite of Tests/SDKTests/Store, and of any file naming EngineStore")
    func everyStoreSuiteIsExhaustive() throws {
        let sdkTests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let files = try #require(FileManager.default.enumerator(at: sdkTests, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        var suites = 0
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            guard file.deletingLastPathComponent().lastPathComponent == "Store" || text.contains("EngineStore") else { continue }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.hasPrefix("@Suite(") {
                suites += 1
                #expect(line.contains(".exhaustiveStore"), "\(file.lastPathComponent):\(index + 1): a store suite without .exhaustiveStore")
            }
        }
        #expect(suites >= 11, "the store suites were found (\(suites))")
    }

    @Test("what a test asserts or skips by name passes; the skips count what they skipped")
    func skippedPasses() {
        let store = Self.onA()
        store.call(.setEmail("grace@example.com"))
        store.call(.track(event: "noise", dataFields: nil))
        store.settle()
        store.expectFacts(where: { if case .callReceived = $0 { true } else { false } }, [
            "callReceived setEmail \"grace@example.com\" (call 00000003)",
            "callReceived track \"noise\" (call 00000004)",
        ])
        #expect(store.skipReceivedFacts() > 0)
        #expect(store.skipEffects() > 0)
        #expect(store.skipRequests() == 1)
        #expect(store.takeUnasserted().isEmpty)
    }
}
