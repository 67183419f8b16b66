import Foundation
import Journal
import SDK

/// `replay export --format trace`: a journal's ``Timeline`` in the Chrome Trace Event format
/// (the JSON object form), which Perfetto UI and chrome://tracing open.
///
/// Layout: process 1 is the SDK, with a `switches` thread (each switch window a complete
/// event, its teardown steps complete events nested inside it), a `gate` thread (an instant
/// per call the gate held, and the flow to where it was replayed) and the `gate depth` and
/// `queue depth` counters. Each project is a process of its own (named by its label, else its
/// fingerprint) whose `calls` thread has an instant per call it received; calls that reached
/// no project are in a `not delivered` process. Times are microseconds from the journal's
/// first record. Every value comes from a redacted walk (``Redactor``).
package enum TraceExporter {
    static let sdkProcess = 1
    static let switchesThread = 1
    static let gateThread = 2
    static let callsThread = 1

    /// Writes the trace of `reader` to `output` (which must not exist); returns how many
    /// records it read and how many of them were unreadable.
    package static func write(_ reader: JournalReader, _ redactor: Redactor, to output: String,
                      console: Console) throws -> (records: Int, emptied: Int) {
        guard !FileManager.default.fileExists(atPath: output) else { throw ExportError.exists(output) }
        let timeline = try TimelineBuilder.build(reader: reader, redactor: redactor, sampler: StateSampler(byteBudget: 0, sampleLimit: 0),
                                                 keeping: .every, onProgress: { console.progress("reading seq \($0)") })
        guard FileManager.default.createFile(atPath: output, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: output) else { throw ExportError.cannotWrite(output) }
        defer { try? handle.close() }
        var buffer = ""
        try stream(timeline) { piece in
            buffer += piece
            if buffer.utf8.count >= 1 << 16 {
                try handle.write(contentsOf: Data(buffer.utf8))
                buffer = ""
            }
        }
        try handle.write(contentsOf: Data(buffer.utf8))
        return (timeline.records, timeline.unreadable)
    }

    /// The trace as text: the JSON object form, one event per line (so it diffs well).
    static func text(_ timeline: Timeline) -> String {
        var text = ""
        stream(timeline) { text += $0 }
        return text
    }

    /// The trace's text, piece by piece (an event at a time: the document is never whole in memory).
    static func stream(_ timeline: Timeline, _ write: (String) throws -> Void) rethrows {
        try write("{\"traceEvents\":[\n")
        var first = true
        try events(timeline) { event in
            try write((first ? "" : ",\n") + event.serialized())
            first = false
        }
        let otherData: JSONValue = .object([
            ("producer", .string("replay export --format trace (redacted)")),
            ("journal_start", .optional(timeline.first?.time) { .string($0.description) }),
            ("records", .integer(Int64(timeline.records))),
            ("first_seq", .optional(timeline.first?.sequence) { .unsigned($0) }),
            ("last_seq", .optional(timeline.last?.sequence) { .unsigned($0) }),
        ])
        try write("\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":" + otherData.serialized() + "}\n")
    }

    /// Every event of the trace, in order, handed to `emit`.
    static func events(_ timeline: Timeline, _ emit: (JSONValue) throws -> Void) rethrows {
        let projectProcess = Dictionary(uniqueKeysWithValues: timeline.projects.enumerated().map { ($0.element, $0.offset + 2) })
        let undelivered = timeline.projects.count + 2
        try emit(metadata("process_name", pid: sdkProcess, tid: 0, name: "SDK (switches, gate, queues)"))
        try emit(metadata("process_sort_index", pid: sdkProcess, tid: 0, index: 0))
        try emit(metadata("thread_name", pid: sdkProcess, tid: switchesThread, name: "switches"))
        try emit(metadata("thread_name", pid: sdkProcess, tid: gateThread, name: "gate"))
        for project in timeline.projects {
            let pid = projectProcess[project] ?? undelivered
            try emit(metadata("process_name", pid: pid, tid: 0, name: timeline.labels.label(project) ?? project.hex))
            try emit(metadata("process_sort_index", pid: pid, tid: 0, index: pid))
            try emit(metadata("thread_name", pid: pid, tid: callsThread, name: "calls"))
        }
        try emit(metadata("process_name", pid: undelivered, tid: 0, name: "not delivered"))
        try emit(metadata("process_sort_index", pid: undelivered, tid: 0, index: undelivered))
        try emit(metadata("thread_name", pid: undelivered, tid: callsThread, name: "calls"))
        for event in switchEvents(timeline) { try emit(event) }
        var flow = 0
        for call in timeline.calls {
            let pid = Timeline.receiver(of: call.row).flatMap { projectProcess[$0] } ?? undelivered
            let args: [(String, JSONValue)] = [
                ("call", .string(call.row.call.description)), ("summary", .string(call.summary)),
                ("status", .string(call.row.statusText)), ("gate", .string(call.row.gateText)),
                ("project", .string(timeline.labels.name(Timeline.receiver(of: call.row)))),
                ("seq", .optional(call.row.received?.sequence) { .unsigned($0) }),
            ]
            if let held = call.held, let replayed = held.replayed {
                flow += 1
                let queuedAt = timeline.offset(held.queued.time), replayedAt = timeline.offset(replayed.time)
                try emit(instant("queued " + call.row.name.rawValue, pid: sdkProcess, tid: gateThread, ts: queuedAt, args: args))
                try emit(.object([("name", .string("replay")), ("cat", .string("gate")), ("ph", .string("s")),
                                       ("id", .integer(Int64(flow))), ("pid", .integer(Int64(sdkProcess))),
                                       ("tid", .integer(Int64(gateThread))), ("ts", .integer(queuedAt))]))
                try emit(instant(call.row.name.rawValue, pid: pid, tid: callsThread, ts: replayedAt, args: args))
                try emit(.object([("name", .string("replay")), ("cat", .string("gate")), ("ph", .string("f")),
                                       ("bp", .string("e")), ("id", .integer(Int64(flow))), ("pid", .integer(Int64(pid))),
                                       ("tid", .integer(Int64(callsThread))), ("ts", .integer(replayedAt))]))
            } else {
                try emit(instant(call.row.name.rawValue, pid: pid, tid: callsThread, ts: timeline.offset(call.row.madeAt), args: args))
            }
        }
        for (name, key, counter) in [("gate depth", "held", timeline.gateDepth), ("queue depth", "tasks", timeline.queueDepth)] {
            for change in counter.changes {
                try emit(.object([("name", .string(name)), ("ph", .string("C")), ("pid", .integer(Int64(sdkProcess))),
                                       ("tid", .integer(0)), ("ts", .integer(timeline.offset(change.time))),
                                       ("args", .object([(key, .integer(Int64(change.value)))]))]))
            }
        }
    }

    /// Each switch that ran a teardown as a complete event on the `switches` thread, its steps
    /// nested inside (clamped to the window, so the nesting holds even for an unfinished step);
    /// absorbed and noop requests as instants.
    private static func switchEvents(_ timeline: Timeline) -> [JSONValue] {
        var events: [JSONValue] = []
        let end = timeline.last.map { timeline.offset($0.time) } ?? 0
        for report in timeline.switches {
            guard report.runsItself, let started = report.started else {
                events.append(instant("\(report.id) \(Describe.routing(report.routing))", pid: sdkProcess, tid: switchesThread,
                                      ts: timeline.offset(report.requested.time),
                                      args: [("to", .string(timeline.labels.name(report.project.fingerprint)))]))
                continue
            }
            let begin = timeline.offset(started.time)
            let finish = max(begin, report.landed.map { timeline.offset($0.time) } ?? end)
            let result = report.result.map(Describe.result) ?? "not landed"
            events.append(complete("\(report.id) \(timeline.labels.name(report.from)) -> \(timeline.labels.name(report.project.fingerprint))",
                                   cat: "switch", ts: begin, dur: finish - begin, args: [
                                       ("result", .string(result)), ("reasons", .array(report.reasons.map(JSONValue.string))),
                                       ("started_seq", .unsigned(started.sequence)),
                                       ("landed_seq", .optional(report.landed?.sequence) { .unsigned($0) }),
                                   ]))
            for step in report.steps {
                let stepBegin = min(max(timeline.offset(step.began.time), begin), finish)
                let stepEnd = min(max(step.finished.map { timeline.offset($0.time) } ?? finish, stepBegin), finish)
                let outcome = step.outcome.map(Describe.stepOutcome) ?? "unfinished"
                events.append(complete(step.step.rawValue, cat: outcome.hasPrefix("clean") ? "clean" : "noisy", ts: stepBegin,
                                       dur: stepEnd - stepBegin, args: [
                                           ("outcome", .string(outcome)),
                                           ("elapsed_us", .optional(step.elapsedMicroseconds) { .integer($0) }),
                                           ("began_seq", .unsigned(step.began.sequence)),
                                       ]))
            }
        }
        return events
    }

    private static func complete(_ name: String, cat: String, ts: Int64, dur: Int64, args: [(String, JSONValue)]) -> JSONValue {
        .object([("name", .string(name)), ("cat", .string(cat)), ("ph", .string("X")), ("pid", .integer(Int64(sdkProcess))),
                 ("tid", .integer(Int64(switchesThread))), ("ts", .integer(ts)), ("dur", .integer(dur)), ("args", .object(args))])
    }

    private static func instant(_ name: String, pid: Int, tid: Int, ts: Int64, args: [(String, JSONValue)]) -> JSONValue {
        .object([("name", .string(name)), ("cat", .string("call")), ("ph", .string("i")), ("s", .string("t")),
                 ("pid", .integer(Int64(pid))), ("tid", .integer(Int64(tid))), ("ts", .integer(ts)), ("args", .object(args))])
    }

    private static func metadata(_ kind: String, pid: Int, tid: Int, name: String) -> JSONValue {
        .object([("name", .string(kind)), ("ph", .string("M")), ("pid", .integer(Int64(pid))), ("tid", .integer(Int64(tid))),
                 ("args", .object([("name", .string(name))]))])
    }

    private static func metadata(_ kind: String, pid: Int, tid: Int, index: Int) -> JSONValue {
        .object([("name", .string(kind)), ("ph", .string("M")), ("pid", .integer(Int64(pid))), ("tid", .integer(Int64(tid))),
                 ("args", .object([("sort_index", .integer(Int64(index)))]))])
    }
}
