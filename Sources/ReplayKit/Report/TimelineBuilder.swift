import Journal
import SDK

/// Builds a ``Timeline`` in one pass over a journal, from the analyses the other commands use:
/// ``CallAudit`` (calls), ``SwitchDiagnosis`` (switch windows and steps), ``ContractChecker``
/// (violations) and the walk's own fold (depths, state documents). The switches and the
/// contract are followed on a second thread (``SideFold``), beside the calls.
///
/// Keeping ``Timeline/Keeping/every`` call, memory grows with the number of calls, switches
/// and depth changes; keeping what a ``Timeline/Keeping/page(notable:)`` draws, with the mark
/// limit's calls kept whole, a key per call that may be a mark and the switches: the calls'
/// drawings and buckets' counts, the held calls and the depth changes go to temporary files
/// (``PageCalls``, ``Timeline/Counter``).
package enum TimelineBuilder {
    /// Reads the whole journal of `reader`. `redactor`, when given, redacts every record (and
    /// snapshot) before anything looks at it: the fold, the analyses and the state documents
    /// then only ever see redacted values. `keeping` says which calls are kept whole.
    package static func build(reader: JournalReader, redactor: Redactor? = nil, sampler: StateSampler = StateSampler(),
                              keeping: Timeline.Keeping, onProgress: ((UInt64) -> Void)? = nil) throws -> Timeline {
        var timeline = Timeline()
        // The calls as their rows come (a call's row comes when it resolves): each takes its
        // summary and `callReceived` record out of the open calls' ones below, so those hold
        // only calls still open, and the calls are made once, in place. Past the mark limit, an
        // ordinary call will be folded into a bucket, so its record is let go when it resolves;
        // for a page, the whole call is (``PageCalls``): only its drawing is kept when it may yet
        // be drawn on its own (the gate held it, ``SwitchReport/held``, or `notable` picks it).
        var calls: [Timeline.Call] = []
        // The `callReceived` records of the calls still open: a call's summary and record text
        // are made from it when its row comes, only if the call is kept (most calls of a long
        // journal are folded into a bucket, and need neither).
        var received: [CallID: DecodedRecord] = [:]
        // Calls whose row came before their `callReceived` was looked at: their index in `calls`.
        var early: [CallID: Int] = [:]
        let page: PageCalls?
        let pageNotable: ((CallID) -> Bool)?
        switch keeping {
        case .every: (page, pageNotable) = (nil, nil)
        case .page(let notable): (page, pageNotable) = (PageCalls(rereadingFrom: reader, redactor: redactor), notable)
        }
        // For a page: the calls the gate queued (held) so far, and those folded before their
        // `callReceived` was looked at (whose summary is then not made).
        var queuedByGate = Set<CallID>()
        var foldedEarly = Set<CallID>()
        var foldFailure: (any Error)?
        let audit = CallAudit { row in
            let record = received.removeValue(forKey: row.call)
            let pastLimit = calls.count + (page?.count ?? 0) >= MarkBuckets.markLimit
            // Past the mark limit, only a notable call keeps its record's text.
            let keepsFact = !pastLimit || Timeline.Call.isNotable(row)
            if pastLimit, let page, let pageNotable {
                let queued = queuedByGate.remove(row.call) != nil
                do {
                    if !Timeline.Call.isNotable(row), !queued, !pageNotable(row.call) {
                        if record == nil { foldedEarly.insert(row.call) }
                        try page.fold(row)
                        return
                    }
                    // (A call whose `callReceived` comes later is kept whole, to take its summary then.)
                    if record != nil {
                        try page.keep(row)
                        return
                    }
                } catch {
                    foldFailure = foldFailure ?? error
                    return
                }
            }
            if record == nil { early[row.call] = calls.count }
            calls.append(Timeline.Call(row: row, summary: record.map(Timeline.Call.summary(of:)) ?? row.name.rawValue,
                                       factJSON: keepsFact ? record.map(Timeline.Call.factJSON(of:)) : nil, held: nil))
        }
        if page != nil {
            timeline.gateDepth = Timeline.Counter(spilling: "report-gate")
            timeline.queueDepth = Timeline.Counter(spilling: "report-queue")
        }
        var sampler = sampler
        var known = Set<ProjectFingerprint>()
        // The project last brought into view: most records name the one the record before named.
        var lastProject: ProjectFingerprint?
        var callOrdinal = 0
        let walk = try JournalWalk(reader: reader, onProgress: onProgress)
        if let redactor { walk.replaceState(redactor.redact(walk.state)) }
        // The switches and the contract are followed beside the pass, on a second core, from
        // what they read of the state before each record (taken here, where the state is).
        let spillingHeld = page != nil
        let side = SideFold<SideLook, SwitchesAndContract> { feed in followSwitchesAndContract(feed, spillingHeld: spillingHeld) }
        var checkerStarted = false
        // Whether to redact each record, tested as a flag: binding the optional redactor copies it.
        let redacts = redactor != nil
        while let read = try walk.next() {
            if walk.followsSkip, let skip = walk.resumedAfter {
                side.handResumption(after: skip)
                audit.resume(after: skip)
                timeline.lostToDamage.append(StreamProblems.wentOnPast(skip))
            }
            // (A `let`: the closures below read it in place, where a `var` would be read through.)
            let record = if redacts, let redactor { read.redacted(by: redactor) } else { read }
            // The fact is taken out of the record once for every reader here (each taking-out
            // copies it: a retain of each of its parts, contended with the side thread's); the
            // switches' and the contract's looks read the record in place.
            var moment: StateMoment?
            walk.fold(record, lookingBeforeWithFact: { before, recordFact in
                timeline.labels.learn(from: record)
                if page != nil, let (call, decision) = recordFact?.gateDecision, case .queued = decision { queuedByGate.insert(call) }
                projects(in: record, fact: recordFact, before: before).forEach { project in
                    if project != lastProject, known.insert(project).inserted { timeline.projects.append(project) }
                    lastProject = project
                }
                audit.consume(record, fact: recordFact, before: before)
                side.hand(record, looking: SideLook(checker: ContractChecker.look(at: record, in: before),
                                                    diagnosis: SwitchDiagnosis.look(at: record, in: before),
                                                    unstarted: checkerStarted ? nil : StateBox(copy before)))
                let mark = SwitchReport.Mark(sequence: record.sequence, time: record.time)
                switch recordFact {
                case .callReceived(let call)?:
                    moment = .call(call.id)
                case .switchStarted?, .switchLanded?, .teardownStepFinished(_, _, .warning, _)?:
                    moment = .milestone
                case let fact? where Describe.background(fact) != nil:
                    timeline.background.append((FactKind(rawValue: FactCodec.kind(of: fact))?.name ?? "background", Describe.background(fact) ?? "", mark))
                case let fact? where Describe.storage(fact) != nil:
                    timeline.background.append((FactKind(rawValue: FactCodec.kind(of: fact))?.name ?? "storage", Describe.storage(fact) ?? "", mark))
                case .clockJumped(let wall, let jump)?:
                    timeline.clockJumps.append(SwitchReport.ClockJump(at: mark, jumpMicroseconds: jump, wall: wall))
                default:
                    // A default is right: only a call or a switch's milestone is a moment the
                    // report keeps the state at; any other record leaves the samples as they are.
                    break
                }
            })
            if case .unreadable = record.content {} else { checkerStarted = true }
            timeline.records += 1
            if timeline.first == nil { timeline.first = (record.sequence, record.time) }
            timeline.last = (record.sequence, record.time)
            if (timeline.records - 1) % Timeline.indexStride == 0 { timeline.index.append((record.sequence, record.time)) }
            let (gateDepth, queueDepth) = walk.withState { ($0.switching.gate.count, $0.tasks.count) }
            try timeline.gateDepth.record(gateDepth, at: record.time, sequence: record.sequence)
            try timeline.queueDepth.record(queueDepth, at: record.time, sequence: record.sequence)
            // The state after the record, at a moment the report may keep it.
            switch moment {
            case .call(let call)?:
                if let index = early.removeValue(forKey: call) {
                    calls[index].summary = Timeline.Call.summary(of: record)
                    calls[index].factJSON = Timeline.Call.factJSON(of: record)
                } else if foldedEarly.remove(call) != nil {
                    // Folded already: a bucket needs neither its summary nor its record.
                } else {
                    received[call] = record
                }
                sampler.offer(walk.state, call: callOrdinal, after: record.sequence)
                callOrdinal += 1
            case .milestone?:
                sampler.keep(walk.state, after: record.sequence)
            case nil:
                break
            }
        }
        audit.finish()
        let followed = side.finish(endingWith: walk.state)
        if let failure = foldFailure ?? followed.failure { throw failure }
        timeline.switches = followed.switches
        page?.heldCalls = followed.held
        calls.sort { ($0.row.received?.sequence ?? 0, $0.row.madeAt, $0.row.call) < ($1.row.received?.sequence ?? 0, $1.row.madeAt, $1.row.call) }
        page?.sort()
        // Each kept call held by the gate learns where (a call held twice: the last switch's);
        // the kept calls are looked up by id only when a switch held any.
        if page.map({ $0.heldCalls.count > 0 }) ?? timeline.switches.contains(where: { !$0.held.isEmpty }) {
            var kept: [CallID: Timeline.Kept] = Dictionary(minimumCapacity: calls.count + (page?.notable.count ?? 0))
            for index in calls.indices { kept[calls[index].row.call] = .whole(index) }
            for (index, key) in (page?.notable ?? []).enumerated() { kept[key.call] = .notable(index) }
            if let page {
                try page.heldCalls.forEach { heldIndex, call in
                    switch kept[call] {
                    case .whole(let index)?: calls[index].held = try page.heldCalls.held(heldIndex, name: calls[index].row.name.rawValue)
                    case .notable(let index)?: page.hold(index, heldIndex: heldIndex)
                    case nil: break
                    }
                }
            } else {
                for report in timeline.switches {
                    for held in report.held {
                        if case .whole(let index)? = kept[held.call] { calls[index].held = held }
                    }
                }
            }
        }
        timeline.calls = calls
        timeline.pageCalls = page
        for rule in ContractRule.allCases {
            timeline.violations += followed.violations[rule] ?? []
            timeline.violationCount += followed.counts[rule] ?? 0
        }
        timeline.states = sampler.states
        timeline.statesSkipped = sampler.skipped
        timeline.unreadable = walk.stream.unreadableCount
        // A skip with nothing readable after it is known at the end only.
        timeline.lostToDamage += walk.stream.problems.skippedDamage.dropFirst(timeline.lostToDamage.count).map(StreamProblems.wentOnPast)
        return timeline
    }

    /// A record after which the report may keep the state (``StateSampler``).
    private enum StateMoment {
        /// A call was received (the state after it may be sampled).
        case call(CallID)
        /// A switch started or landed, or a step ended with a warning.
        case milestone
    }

    /// What ``followSwitchesAndContract(_:spillingHeld:)`` found.
    private struct SwitchesAndContract: Sendable {
        /// Every switch, in switch order (for a page, without its held calls: they are in ``held``).
        var switches: [SwitchReport] = []
        var held = SpilledHeldCalls()
        var violations: [ContractRule: [Violation]] = [:]
        var counts: [ContractRule: Int] = [:]
        /// Why the held calls could not be kept.
        var failure: (any Error)?
    }

    /// What ``followSwitchesAndContract(_:spillingHeld:)`` reads of the state before a record.
    private struct SideLook: Sendable {
        var checker: ContractChecker.Look
        var diagnosis: SwitchDiagnosis.Look
        /// The whole state, until the checker has started (``ContractChecker/consume(_:looking:unstarted:)``).
        var unstarted: StateBox?
    }

    /// A state by reference: a state is 657 bytes in place, which every record's look would
    /// carry (and copy through each hand-over) for the few that need one.
    private final class StateBox: Sendable {
        let state: SDKState

        init(_ state: SDKState) {
            self.state = state
        }
    }

    /// Follows every switch (``SwitchDiagnosis``) and checks the contract (``ContractChecker``)
    /// over the records `feed` reads. With `spillingHeld` (a page), the switches' held calls go
    /// to a temporary file as each switch comes (the page reads them only for the calls it draws).
    private static func followSwitchesAndContract(_ feed: SideFold<SideLook, SwitchesAndContract>.Feed,
                                                  spillingHeld: Bool) -> SwitchesAndContract {
        var found = SwitchesAndContract()
        let diagnosis = SwitchDiagnosis(only: nil) { report in
            guard spillingHeld else { return found.switches.append(report) }
            var report = report
            do { for held in report.held { try found.held.keep(held) } } catch { found.failure = found.failure ?? error }
            report.held = []
            found.switches.append(report)
        }
        let checker = ContractChecker()
        feed.forEach { item in
            switch item {
            case .record(let record, let look):
                diagnosis.consume(record, looking: look.diagnosis)
                checker.consume(record, looking: look.checker, unstarted: look.unstarted?.state)
            case .resumed(let skip):
                diagnosis.resume(after: skip)
                checker.resumeAfterSkip()
            }
        }
        diagnosis.finish()
        // (No end: the walk threw, and what is found here is dropped.)
        if let end = feed.end { checker.finish(state: end) }
        found.violations = checker.violations
        found.counts = checker.counts
        return found
    }

    /// The projects a record brings into view (a lane each); `fact` is the one it holds.
    private static func projects(in record: DecodedRecord, fact: Fact?, before state: borrowing SDKState) -> ProjectsInView {
        if let fact { return .mentioned(FactProjects.mentions(by: fact, in: state)) }
        guard case .snapshot(let snapshot) = record.content else { return .mentioned(.none) }
        return .listed((snapshot.live.map { [$0.fingerprint] } ?? []) + snapshot.projects.keys.sorted())
    }

    /// The projects a record brings into view: the one or two a fact names (no array made, for
    /// every fact), or a snapshot's list.
    private enum ProjectsInView {
        case mentioned(FactProjects.Mentions)
        case listed([ProjectFingerprint])

        /// Hands out each project, in order.
        func forEach(_ body: (ProjectFingerprint) -> Void) {
            switch self {
            case .mentioned(let mentions):
                if let first = mentions.first { body(first) }
                if let second = mentions.second { body(second) }
            case .listed(let projects):
                projects.forEach(body)
            }
        }
    }
}
