import Foundation
import Journal
import SDK
import Testing

/// `replay timeline --call ID`: the facts about one call, its task's included.
@Suite("timeline of one call", .timeLimit(.minutes(3)))
struct TimelineCallTests {
    @Test("an event that joined a bulk: its own facts and its task's, by any form of its id; no other call's")
    func eventInABulk() throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        typealias J = CraftedJournal
        let journal = try J(directory: directory)
        try journal.appendLaunchOnUS()
        try journal.append(.callReceived(J.received(2, .track(event: "first", dataFields: nil))))
        try journal.append(.taskQueued(J.task(1, call: 2, project: J.us, path: "events/trackBulk")))
        try journal.append(.callReceived(J.received(3, .track(event: "second", dataFields: nil))))
        try journal.append(.eventBatched(task: TaskID(1), event: BatchedEvent(call: J.call(3), body: Array("{}".utf8)),
                                         executedOn: J.us.fingerprint))
        try journal.append(.callReceived(J.received(4, .track(event: "elsewhere", dataFields: nil))))
        try journal.append(.taskDispatched(task: TaskID(1), attempt: 1))
        try journal.append(.callsResolved(task: TaskID(1), calls: [J.call(2), J.call(3)], outcome: .delivered(project: J.us.fingerprint, status: 200)))
        try journal.close()

        func kinds(_ id: String) -> [String] {
            let run = ReplayHarness.run(["timeline", "--call", id, "--json", directory])
            #expect(run.status == 0, "\(run.error)")
            return run.out.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["kind"] as? String
            }
        }
        let expected = ["callReceived", "eventBatched", "taskDispatched", "callsResolved"]
        #expect(kinds("00000003") == expected)
        #expect(kinds(J.call(3).uuid.uuidString) == expected)
        let stream = try #require(try JournalReader(directory: directory).journalID)
        #expect(kinds(WireCallID(stream: stream, call: J.call(3)).description) == expected)
        // The task's own call: its queueing too; the call made meanwhile: its receipt alone.
        #expect(kinds("00000002") == ["callReceived", "taskQueued", "eventBatched", "taskDispatched", "callsResolved"])
        #expect(kinds("00000004") == ["callReceived"])
        let none = ReplayHarness.run(["timeline", "--call", "0000abcd", directory])
        #expect(none.status == 0 && none.out.isEmpty && none.error.contains("no fact is about --call 0000abcd"))
    }
}
