import Journal
import SDK

/// The data an HTML report embeds (one JSON object), made from a ``Timeline``: lanes, switch
/// windows and their steps, call marks and folded buckets, depth counters, findings (warnings
/// and `check` violations) and the state documents of the moments shown. Times are
/// microseconds from the journal's first record (`t`), beside sequence numbers (`seq`).
package enum ReportData {
    /// The depth counters keep at most this many points each (the maximum per time slice past it).
    static let counterPoints = 2_000
    /// At most this many switches are shown with their steps: those with warnings or anomalies
    /// first, then the others in order; the rest are windows without steps (`diagnose` has them).
    static let detailedSwitchLimit = 500
    /// At most this many warnings are listed (all are counted).
    static let warningLimit = 500

    /// The data for `timeline`. With `received` (`--received`), each call's mark carries what
    /// the receipt logs say of it, and a `received` member holds at most `receiptMarkLimit`
    /// receipt marks, the totals and the logs (``receivedJSON(_:_:split:laneOf:markLimit:)``);
    /// projects only a receipt names get a lane of their own, before the not-delivered one.
    /// Without it the data is as it always was.
    /// `timeline` keeps ``Timeline/Keeping/every`` call, or those of ``Timeline/Keeping/page(_:)``
    /// with the same `received`. Throws when the calls its pass folded cannot be read back.
    package static func make(_ timeline: Timeline, received: ReceivedCalls? = nil,
                             receiptMarkLimit: Int = receiptMarkLimit) throws -> JSONValue {
        let receivers = received.map { received in
            received.receivingProjects.subtracting(timeline.projects).sorted()
        } ?? []
        let laneOf = Dictionary(uniqueKeysWithValues: (timeline.projects + receivers).enumerated().map { ($0.element, $0.offset) })
        let undelivered = timeline.projects.count + receivers.count
        let laneOfReceiver: (ProjectFingerprint?) -> Int = { receiver in receiver.flatMap { laneOf[$0] } ?? undelivered }
        let split = try MarkBuckets(timeline, lane: laneOfReceiver) { call in received?.marksOnItsOwn(call) ?? false }
        let t: (JournalTime) -> JSONValue = { .integer(timeline.offset($0)) }
        let lanes: [JSONValue] = timeline.projects.map { project in
            .object([("fingerprint", .string(project.hex)), ("label", timeline.labels.json(project)),
                     ("name", .string(timeline.labels.name(project)))])
        } + receivers.map { project in
            .object([("fingerprint", .string(project.hex)), ("label", timeline.labels.json(project)),
                     ("name", .string(received?.name(project) ?? project.hex)), ("receipts_only", .bool(true))])
        } + [.object([("fingerprint", .null), ("label", .null), ("name", .string("not delivered"))])]
        let journal: JSONValue = .object([
            ("records", .integer(Int64(timeline.records))),
            ("first_seq", .optional(timeline.first?.sequence) { .unsigned($0) }),
            ("last_seq", .optional(timeline.last?.sequence) { .unsigned($0) }),
            ("start", .optional(timeline.first?.time) { .string($0.description) }),
            ("end", .optional(timeline.last?.time) { .string($0.description) }),
            ("span_us", .integer(timeline.last.map { timeline.offset($0.time) } ?? 0)),
            ("unreadable", .integer(Int64(timeline.unreadable))),
        ] + (timeline.lostToDamage.isEmpty ? [] : [("lost_to_damage", .array(timeline.lostToDamage.map(JSONValue.string)))]))
        let detailed = detailedSwitches(timeline.switches)
        let switches: [JSONValue] = timeline.switches.indices.filter(detailed.contains).map { index in
            switchWindow(timeline.switches[index], timeline, laneOf)
        }
        let foldedSwitches: [JSONValue] = timeline.switches.indices.filter { !detailed.contains($0) }.map { index in
            compactWindow(timeline.switches[index], timeline)
        }
        let allWarnings = warnings(timeline, t)
        let marks: [JSONValue] = try split.marks.map { call in
            let json = try mark(call, lane: laneOfReceiver(timeline.receiver(of: call)), timeline)
            guard let received, case .object(let members) = json else { return json }
            return .object(members + [("received", received.json(timeline.call(of: call)) ?? .null)])
        }
        let buckets: [JSONValue] = split.buckets.map { bucketJSON($0, span: split.bucketSpan) }
        let counters: JSONValue = .object([("gate", try counter(timeline.gateDepth, timeline)), ("queue", try counter(timeline.queueDepth, timeline))])
        let violations: [JSONValue] = timeline.violations.map { violation in
            .object([("rule", .string(violation.rule.rawValue)), ("message", .string(violation.message)),
                     ("seqs", .array(violation.sequences.map { .unsigned($0) }))])
        }
        let index: [JSONValue] = timeline.index.map { .array([.unsigned($0.sequence), t($0.time)]) }
        let states: [(String, JSONValue)] = timeline.states.keys.sorted().map { (String($0), timeline.states[$0] ?? .null) }
        var members: [(String, JSONValue)] = [("journal", journal), ("lanes", .array(lanes)), ("switches", .array(switches)),
                                              ("folded_switches", .array(foldedSwitches))]
        members += [("marks", .array(marks)), ("buckets", .array(buckets)), ("calls", .integer(Int64(timeline.callCount))),
                    ("folded", .integer(Int64(split.folded))), ("counters", counters)]
        members += [("warnings", .array(Array(allWarnings.prefix(warningLimit)))), ("warning_count", .integer(Int64(allWarnings.count))),
                    ("violations", .array(violations)),
                    ("violation_count", .integer(Int64(timeline.violationCount))), ("index", .array(index)),
                    ("states", .object(states)), ("states_skipped", .integer(Int64(timeline.statesSkipped)))]
        if let received { members.append(("received", try receivedJSON(received, timeline, split: split, laneOf: laneOf,
                                                                          markLimit: receiptMarkLimit))) }
        return .object(members)
    }

    private static func bucketJSON(_ bucket: MarkBuckets.Bucket, span: Int64) -> JSONValue {
        let statuses: [(String, JSONValue)] = bucket.statuses.keys.sorted().map { ($0, .integer(Int64(bucket.statuses[$0] ?? 0))) }
        return .object([("lane", .integer(Int64(bucket.lane))), ("t0", .integer(Int64(bucket.slot) * span)),
                        ("t1", .integer(Int64(bucket.slot + 1) * span)), ("count", .integer(Int64(bucket.count))),
                        ("seq0", .unsigned(bucket.firstSequence)), ("seq1", .unsigned(bucket.lastSequence)),
                        ("statuses", .object(statuses))])
    }

    private static func at(_ mark: SwitchReport.Mark?, _ timeline: Timeline) -> JSONValue {
        .optional(mark) { .object([("seq", .unsigned($0.sequence)), ("t", .integer(timeline.offset($0.time)))]) }
    }

    /// The switches shown with their steps (indices into `switches`).
    private static func detailedSwitches(_ switches: [SwitchReport]) -> Set<Int> {
        guard switches.count > detailedSwitchLimit else { return Set(switches.indices) }
        let notable = switches.indices.filter { switches[$0].result == .switchedWithWarnings || !switches[$0].anomalies.isEmpty }
        var chosen = Set(notable.prefix(detailedSwitchLimit))
        for index in switches.indices where chosen.count < detailedSwitchLimit { chosen.insert(index) }
        return chosen
    }

    private static func switchWindow(_ report: SwitchReport, _ timeline: Timeline,
                                     _ laneOf: [ProjectFingerprint: Int]) -> JSONValue {
        let from = report.from ?? report.liveAtRequest
        return .object([
            ("id", .string(report.id.description)),
            ("routing", .string(Describe.routing(report.routing))),
            ("from", .optional(from.flatMap { laneOf[$0] }) { .integer(Int64($0)) }),
            ("to", .optional(laneOf[report.project.fingerprint]) { .integer(Int64($0)) }),
            ("title", .string("\(report.id) \(timeline.labels.name(from)) -> \(timeline.labels.name(report.project.fingerprint))")),
            ("requested", at(report.requested, timeline)),
            ("started", at(report.started, timeline)),
            ("landed", at(report.landed ?? report.carrierLanded, timeline)),
            ("result", .optional(report.result) { .string(Describe.result($0)) }),
            ("reasons", .array(report.reasons.map(JSONValue.string))),
            ("steps", .array(report.steps.map { step in
                var outcome = "unfinished", reason: String?
                switch step.outcome {
                case .clean?: outcome = "clean"
                case .warning(let why)?: outcome = "noisy"; reason = why
                case nil: break
                }
                return .object([("step", .string(step.step.rawValue)), ("began", at(step.began, timeline)),
                                ("finished", at(step.finished, timeline)), ("outcome", .string(outcome)),
                                ("reason", .optional(reason, JSONValue.string)),
                                ("elapsed_us", .optional(step.elapsedMicroseconds) { .integer($0) })])
            })),
            ("anomalies", .array(report.anomalies.map(JSONValue.string))),
        ])
    }

    /// A switch shown without its steps, as one array: number, routing, then the sequence and
    /// time of its request, start and landing (null when missing), and its result.
    private static func compactWindow(_ report: SwitchReport, _ timeline: Timeline) -> JSONValue {
        let marks = [report.requested, report.started, report.landed ?? report.carrierLanded]
        return .array([.unsigned(report.id.number), .string(Describe.routingName(report.routing))]
            + marks.flatMap { mark in [.optional(mark?.sequence) { .unsigned($0) }, .optional(mark?.time) { .integer(timeline.offset($0)) }] }
            + [.optional(report.result) { .string(Describe.result($0)) }])
    }

    /// A kept call's mark: a whole call's from its row, a notable one's from its drawing.
    private static func mark(_ kept: Timeline.Kept, lane: Int, _ timeline: Timeline) throws -> JSONValue {
        let drawing: PageCalls.Drawing
        switch kept {
        case .whole(let index):
            let call = timeline.calls[index]
            drawing = PageCalls.Drawing(name: call.row.name.rawValue, summary: call.summary, factJSON: call.factJSON,
                                        statusText: call.row.statusText, audit: call.row.json)
        case .notable(let index):
            guard let page = timeline.pageCalls else { preconditionFailure("a notable call without the page's calls") }
            drawing = try page.drawing(of: page.notable[index])
        }
        let held = try timeline.held(kept)
        let placed = held?.replayed?.time ?? timeline.madeAt(of: kept)
        return .object([
            ("seq", .optional(timeline.sequence(of: kept)) { .unsigned($0) }),
            ("t", .integer(timeline.offset(placed))),
            ("lane", .integer(Int64(lane))),
            ("name", .string(drawing.name)),
            ("call", .string(timeline.call(of: kept).description)),
            ("summary", .string(drawing.summary)),
            ("status", .string(timeline.status(of: kept))),
            ("status_text", .string(drawing.statusText)),
            ("held", .optional(held) { held in
                .object([("queued", at(held.queued, timeline)), ("replayed", at(held.replayed, timeline)),
                         ("position", .integer(Int64(held.position)))])
            }),
            ("fact", .optional(drawing.factJSON.flatMap { JSONParser.parse(Array($0.utf8)) }) { $0 }),
            ("audit", drawing.audit),
        ])
    }

    /// A kept call's one-line summary.
    static func summary(_ kept: Timeline.Kept, _ timeline: Timeline) throws -> String {
        switch kept {
        case .whole(let index):
            return timeline.calls[index].summary
        case .notable(let index):
            guard let page = timeline.pageCalls else { preconditionFailure("a notable call without the page's calls") }
            return try page.drawing(of: page.notable[index]).summary
        }
    }

    /// The counter's changes as `[t, value]` pairs; past ``counterPoints``, the maximum of each
    /// of ``counterPoints`` / 2 equal time slices (at its start) and the slice's last value.
    private static func counter(_ counter: Timeline.Counter, _ timeline: Timeline) throws -> JSONValue {
        guard counter.count > counterPoints else {
            var points: [JSONValue] = []
            try counter.forEach { time, value in points.append(.array([.integer(timeline.offset(time)), .integer(Int64(value))])) }
            return .object([("points", .array(points)), ("max", .integer(Int64(counter.maximum))), ("downsampled", .bool(false))])
        }
        let slices = counterPoints / 2
        let span = max(1, (counter.lastTime.map { timeline.offset($0) } ?? 1) + 1)
        var points: [JSONValue] = []
        var slice = -1, peak = 0, last = 0
        func flush() {
            guard slice >= 0 else { return }
            let start = Int64(slice) * span / Int64(slices)
            points.append(.array([.integer(start), .integer(Int64(peak))]))
            points.append(.array([.integer(max(start, Int64(slice + 1) * span / Int64(slices) - 1)), .integer(Int64(last))]))
        }
        try counter.forEach { changeTime, value in
            let time = timeline.offset(changeTime)
            let current = Int(time * Int64(slices) / span)
            if current != slice { flush(); slice = current; peak = value } else { peak = max(peak, value) }
            last = value
        }
        flush()
        return .object([("points", .array(points)), ("max", .integer(Int64(counter.maximum))), ("downsampled", .bool(true))])
    }

    /// Noisy steps, switches that landed with warnings, and the anomalies `diagnose` found.
    private static func warnings(_ timeline: Timeline, _ t: (JournalTime) -> JSONValue) -> [JSONValue] {
        var warnings: [JSONValue] = []
        func add(_ kind: String, _ text: String, _ mark: SwitchReport.Mark) {
            warnings.append(.object([("kind", .string(kind)), ("text", .string(text)), ("seq", .unsigned(mark.sequence)), ("t", t(mark.time))]))
        }
        for report in timeline.switches {
            for step in report.steps {
                if case .warning(let reason)? = step.outcome { add("noisy step", "\(report.id) \(step.step.rawValue): \(reason)", step.finished ?? step.began) }
            }
            if report.result == .switchedWithWarnings, let landed = report.landed {
                let why = report.reasons.isEmpty ? "" : ": " + report.reasons.joined(separator: "; ")
                add("switchedWithWarnings", "\(report.id) landed on \(timeline.labels.name(report.landedOn)) with warnings\(why)", landed)
            }
            for anomaly in report.anomalies { add("anomaly", "\(report.id): \(anomaly)", report.landed ?? report.started ?? report.requested) }
        }
        for jump in timeline.clockJumps {
            add("clock jumped", "the device's clock jumped \(Describe.clockJump(microseconds: jump.jumpMicroseconds)) (it read \(jump.wall)); "
                + "the journal's times, ages and timers run on the monotonic clock and did not", jump.at)
        }
        for note in timeline.background { add(note.kind, note.text, note.at) }
        return warnings
    }
}
