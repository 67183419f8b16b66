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
enum TraceExporter {
    static let sdkProcess = 1
    static let switchesThread = 1
    static let gateThread = 2
    static let callsThread = 1

    /// Writes the trace of `reader` to `output` (which must not exist); returns how many
    /// records it read and how many of them were unreadable.
    static func write(_ reader: JournalReader, _ redactor: Redactor, to output: String,
                      console: Console) throws -> (records: Int, emptied: Int) {
        guard !FileManager.default.fileExists(atPath: output) else { throw ExportError.exists(output) }
        let timeline = try TimelineBuilder.build(reader: reader, redactor: redactor, sampler: StateSampler(byteBudget: 0, sampleLimit: 0),
                                                 onProgress: { console.progress("reading seq \($0)") })
        let text = text(timeline)
        guard FileManager.default.createFile(atPath: output, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw ExportError.cannotWrite(output)
        }
        return (timeline.records, timeline.unreadable)
    }

    /// The trace as text: the JSON object form, one event per line (so it diffs well).
    static func text(_ timeline: Timeline) -> String {
        guard case .object(let members) = document(timeline) else { return "" }
        var text = "{"
        for (index, (key, value)) in members.enumerated() {
            text += (index == 0 ? "" : ",\n") + JSONValue.string(key).serialized() + ":"
            if case .array(let events) = value {
                text += "[\n" + events.map { $0.serialized() }.joined(separator: ",\n") + "\n]"
            } else {
                text += value.serialized()
            }
        }
        return text + "}\n"
    }

    /// The whole trace document.
    static func document(_ timeline: Timeline) -> JSONValue {
        var events: [JSONValue] = []
        let projectProcess = Dictionary(uniqueKeysWithValues: timeline.projects.enumerated().map { ($0.element, $0.offset + 2) })
        let undelivered = timeline.projects.count + 2
        events.append(metadata("process_name", pid: sdkProcess, tid: 0, name: "SDK (switches, gate, queues)"))
        events.append(metadata("process_sort_index", pid: sdkProcess, tid: 0, index: 0))
        events.append(metadata("thread_name", pid: sdkProcess, tid: switchesThread, name: "switches"))
        events.append(metadata("thread_name", pid: sdkProcess, tid: gateThread, name: "gate"))
        for project in timeline.projects {
            let pid = projectProcess[project] ?? undelivered
            events.append(metadata("process_name", pid: pid, tid: 0, name: timeline.labels.label(project) ?? project.hex))
            events.append(metadata("process_sort_index", pid: pid, tid: 0, index: pid))
            events.append(metadata("thread_name", pid: pid, tid: callsThread, name: "calls"))
        }
        events.append(metadata("process_name", pid: undelivered, tid: 0, name: "not delivered"))
        events.append(metadata("process_sort_index", pid: undelivered, tid: 0, index: undelivered))
        events.append(metadata("thread_name", pid: undelivered, tid: callsThread, name: "calls"))
        events += switchEvents(timeline)
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
                events.append(instant("queued " + call.row.name.rawValue, pid: sdkProcess, tid: gateThread, ts: queuedAt, args: args))
                events.append(.object([("name", .string("replay")), ("cat", .string("gate")), ("ph", .string("s")),
                                       ("id", .integer(Int64(flow))), ("pid", .integer(Int64(sdkProcess))),
                                       ("tid", .integer(Int64(gateThread))), ("ts", .integer(queuedAt))]))
                events.append(instant(call.row.name.rawValue, pid: pid, tid: callsThread, ts: replayedAt, args: args))
                events.append(.object([("name", .string("replay")), ("cat", .string("gate")), ("ph", .string("f")),
                                       ("bp", .string("e")), ("id", .integer(Int64(flow))), ("pid", .integer(Int64(pid))),
                                       ("tid", .integer(Int64(callsThread))), ("ts", .integer(replayedAt))]))
            } else {
                events.append(instant(call.row.name.rawValue, pid: pid, tid: callsThread, ts: timeline.offset(call.row.madeAt), args: args))
            }
        }
        for (name, key, counter) in [("gate depth", "held", timeline.gateDepth), ("queue depth", "tasks", timeline.queueDepth)] {
            for change in counter.changes {
                events.append(.object([("name", .string(name)), ("ph", .string("C")), ("pid", .integer(Int64(sdkProcess))),
                                       ("tid", .integer(0)), ("ts", .integer(timeline.offset(change.time))),
                                       ("args", .object([(key, .integer(Int64(change.value)))]))]))
            }
        }
        return .object([
            ("traceEvents", .array(events)),
            ("displayTimeUnit", .string("ms")),
            ("otherData", .object([
                ("producer", .string("replay export --format trace (redacted)")),
                ("journal_start", .optional(timeline.first?.time) { .string($0.description) }),
                ("records", .integer(Int64(timeline.records))),
                ("first_seq", .optional(timeline.first?.sequence) { .unsigned($0) }),
                ("last_seq", .optional(timeline.last?.sequence) { .unsigned($0) }),
            ])),
        ])
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
