import Foundation
import Journal
import SDK
import Testing
@testable import ReplayKit

/// `state --at` and the other commands that start in the middle open at the snapshot of the
/// segment holding the moment and fold forward from there.
@Suite("seeking through snapshots", .timeLimit(.minutes(3)))
struct SeekTests {
    typealias J = CraftedJournal

    /// A journal of many small segments: call n sets the email to user<n>@example.com.
    private func manySegments() throws -> (path: String, emailAt: [UInt64: String]) {
        let path = ReplayHarness.temporaryDirectory()
        let journal = try CraftedJournal(directory: path, segmentBytes: 1024)
        try journal.append(.callReceived(J.received(1, .initialize(J.us))))
        try journal.append(.initialized(project: J.us, generation: 1))
        try journal.append(.callResolved(call: J.call(1), outcome: .applied(project: J.us.fingerprint)))
        var emailAt: [UInt64: String] = [:]
        for number in UInt64(2)..<300 {
            try journal.append(.callReceived(J.received(number, .setEmail("user\(number)@example.com"))), after: 1_000_000)
            let sequence = try journal.append(.identityChanged(email: "user\(number)@example.com", userID: nil))
            emailAt[sequence] = "user\(number)@example.com"
            try journal.append(.callResolved(call: J.call(number), outcome: .applied(project: J.us.fingerprint)))
            try journal.rotate()
        }
        try journal.close()
        return (path, emailAt)
    }

    @Test("the state at any moment is the fold of everything before it, by sequence and by time")
    func stateMatchesFullFold() throws {
        let (path, emailAt) = try manySegments()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try JournalReader(directory: path)
        #expect(reader.segments.count > 10)
        for (sequence, email) in emailAt where sequence % 37 == 0 || sequence == emailAt.keys.max() {
            let walk = try JournalWalk(reader: reader, start: .after(.sequence(sequence)))
            #expect(walk.state.email == email)
            #expect(walk.position?.sequence == sequence)
        }
        // By time: the same as folding every record up to that time from the start.
        let moment = try #require(ISOTime.parse("2025-11-24T16:02:00Z"))
        let stream = try FactStream(reader: reader)
        var state = SDKState()
        while let record = try stream.next(), record.time <= moment {
            if case .fact(let fact) = record.content { state.evolve(fact, at: record.time) }
        }
        let run = ReplayHarness.run(["state", "--at", "2025-11-24T16:02:00Z", "--json", path])
        #expect(run.status == 0)
        #expect(run.out.contains("\"email\":\"\(state.email ?? "?")\""), "\(run.out.prefix(400))")
    }

    @Test("a moment in a later segment never reads the earlier ones: it works with the first segment destroyed")
    func neverFromTheStart() throws {
        let (path, emailAt) = try manySegments()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try JournalReader(directory: path)
        let first = reader.segments[0].name
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path + "/" + first))
        for index in stride(from: 200, to: bytes.count, by: 50) { bytes[index] ^= 0xFF }
        try bytes.write(to: URL(fileURLWithPath: path + "/" + first))

        let late = try #require(emailAt.keys.max())
        let run = ReplayHarness.run(["state", "--at", "\(late)", path])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.out.contains("email       \(emailAt[late] ?? "?")"))
        let early = ReplayHarness.run(["state", "--at", "5", path])
        #expect(early.status == 1)
        #expect(early.error.contains("corruption in \(first)"))
    }

    @Test("a moment before the journal's first retained record is refused")
    func beforeTheJournal() throws {
        let (path, _) = try manySegments()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = ReplayHarness.run(["state", "--at", "2020-01-01T00:00:00Z", path])
        #expect(run.status == 2)
        #expect(run.error.contains("before the journal's first retained record"))
    }
}
