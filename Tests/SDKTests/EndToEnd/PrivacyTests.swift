import Foundation
import Journal
import Sandbox
import SDKTesting
import Testing
import TestSupport
@testable import SDK

/// Consent and erasure through the public API, the real engine thread, URLSession and the
/// loopback Sandbox (the store-level contract is `PrivacyStoreTests`).
@Suite("Privacy (end to end)", .tags(.endToEnd), .timeLimit(.minutes(1)))
struct PrivacyTests {
    @Test("declined: nothing reaches the Sandbox and calls say why; a relaunch stays declined; agreed again: delivered")
    func consent() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        #expect(await sdk.outcome.setConsent(.declined) == .applied(project: harness.us.fingerprint))
        #expect(await sdk.outcome.track("while-declined") == .discarded(.consentDeclined))
        #expect(await sdk.outcome.setEmail("grace@example.com") == .discarded(.consentDeclined))
        await sdk.settle()
        #expect(harness.eventNames(receivedBy: "us").isEmpty)
        sdk.shutdown()

        let relaunched = try harness.restarted()
        await relaunched.sdk.outcome.initialize(harness.us)
        #expect(await relaunched.sdk.outcome.track("after-relaunch") == .discarded(.consentDeclined))
        #expect(await relaunched.sdk.outcome.setConsent(.granted) == .applied(project: harness.us.fingerprint))
        #expect(await relaunched.sdk.outcome.track("agreed") == .delivered(project: harness.us.fingerprint, status: 200))
        #expect(relaunched.eventNames(receivedBy: "us") == ["agreed"])
        let journal = try relaunched.facts().map { "\($0.fact)" }.joined(separator: "\n")
        #expect(!journal.contains("grace@example.com"), "a declined call is journaled without its values")
        relaunched.sdk.shutdown()
    }

    @Test("segments older than journalRetentionAge are deleted by age; what the state holds stays")
    func retention() async throws {
        let harness = try SDKHarness(retentionAge: .seconds(10 * 86_400))
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        await sdk.outcome.track("day-0")
        harness.clock.advance(by: .seconds(6 * 86_400))
        await sdk.outcome.track("day-6")
        #expect(try harness.facts().contains { "\($0.fact)".contains("day-0") }, "nothing is older than the age yet")
        harness.clock.advance(by: .seconds(11 * 86_400))
        await sdk.outcome.track("day-17")
        _ = await sdk.outcome.flush()
        let facts = try harness.facts().map { "\($0.fact)" }
        #expect(!facts.contains { $0.contains("day-0") }, "day 0 is older than 10 days: its segment is gone")
        #expect(facts.contains { $0.contains("day-6") }, "day 6 is 11 days old, but its segment began anew at day 6: kept until all of it is older")
        #expect(facts.contains { $0.contains("day-17") })
        #expect(sdk.engineView()?.state.email == "ada@example.com", "the state the deleted records made is in the snapshot")
        sdk.shutdown()
    }

    @Test("eraseLocalData: the journal on disk no longer holds the user; the SDK goes on")
    func erase() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        #expect(await sdk.outcome.track("before") == .delivered(project: harness.us.fingerprint, status: 200))
        #expect(await sdk.outcome.eraseLocalData() == .applied(project: harness.us.fingerprint))
        #expect(await sdk.outcome.flush() == .applied(project: harness.us.fingerprint))
        let facts = try harness.facts()
        #expect(!facts.map { "\($0.fact)" }.joined().contains("ada@example.com"))
        #expect(facts.contains { if case .localDataErased = $0.fact { true } else { false } })
        #expect(sdk.engineView()?.state.email == nil)
        await sdk.outcome.setEmail("grace@example.com")
        #expect(await sdk.outcome.track("after") == .delivered(project: harness.us.fingerprint, status: 200))
        sdk.shutdown()
    }

    @Test("eraseLocalData stops what is on the wire: the request's call is discarded as erased, no file keeps the user, and it is never sent again when it gets no response")
    func eraseStopsTheWire() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        let hold = ResponseHold()
        harness.sandbox.inject(.hold(hold), matching: .endpoint("events/track"))
        let onTheWire = Eventually<CallOutcome>()
        sdk.track("on-the-wire", dataFields: ["secret": "4111-plan-of-ada"], completion: onTheWire.completion)
        #expect(await hold.waitUntilHeld(count: 1))
        #expect(await sdk.outcome.eraseLocalData() == .applied(project: harness.us.fingerprint))
        #expect(await onTheWire.value == .discarded(.erased), "not answered when the user was erased: not delivered")
        #expect(await sdk.outcome.flush() == .applied(project: harness.us.fingerprint))
        for name in try FileManager.default.subpathsOfDirectory(atPath: harness.directory) {
            let path = harness.directory + "/" + name
            guard let bytes = FileManager.default.contents(atPath: path) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains("ada@example.com") && !text.contains("4111-plan-of-ada"), "\(name) keeps the erased user")
        }
        // The held request's connection is dropped: no response, and nothing is sent again.
        harness.sandbox.removeAllFaults()
        harness.sandbox.inject(.dropConnection, matching: .endpoint("events/track"))
        hold.release()
        await sdk.settle()
        harness.clock.advance(by: .seconds(600))
        await sdk.settle()
        let tracks = harness.sandbox.requests().filter { $0.endpoint == "events/track" }
        #expect(tracks.count == 1, "sent once, before the erasure: \(tracks.count)")
        sdk.shutdown()
    }

    @Test("a segment that cannot be deleted (twice) is reported, in the fact and in the call's outcome, and a later erasure deletes it")
    func eraseCountsWhatStays() async throws {
        let storage = FailingSyncStorage(base: PosixStorage())
        let harness = try SDKHarness(storage: storage, segmentRecords: 16)
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        for index in 0..<40 { sdk.track("before-\(index)") }
        await sdk.settle()
        storage.refuseRemovals(ofFilesEndingIn: ".lz4", times: 2)
        let erased = await sdk.outcome.eraseLocalData()
        guard case .failed(.rejected(let reason)) = erased else {
            Issue.record("expected the erasure to say what it could not delete, got \(erased); files: \(try FileManager.default.contentsOfDirectory(atPath: harness.directory + "/journal"))")
            return
        }
        #expect(reason.contains("1 segment(s) of") && reason.contains("bytes could not be deleted"), "\(reason)")
        #expect(await sdk.outcome.eraseLocalData() == .applied(project: harness.us.fingerprint), "tried again, and deleted")
        #expect(await sdk.outcome.flush() == .applied(project: harness.us.fingerprint))
        let erasures = try harness.facts().compactMap { entry -> LocalDataErasure? in
            if case .localDataErased(let erasure) = entry.fact { erasure } else { nil }
        }
        #expect(erasures.count == 1 && erasures.first?.erased.segmentsLeft == 0)
        #expect(erasures.first.map { $0.erased.segments == 2 } == true, "the segment left behind and the first erasure's: \(erasures)")
        let left = try FileManager.default.contentsOfDirectory(atPath: harness.directory + "/journal").filter { $0.hasSuffix(".lz4") }
        #expect(left.count == 1, "only the segment the last erasure began: \(left)")
        sdk.shutdown()
    }
}
