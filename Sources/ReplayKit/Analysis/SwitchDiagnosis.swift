import Journal
import SDK

/// Follows every switch request through a journal and reports, per switch, what happened and
/// what looks wrong (see ``SwitchReport``).
///
/// Streams: a report is handed to `emit` once nothing more can be learned about it, in switch
/// order (a report waits for earlier ones, up to ``reorderLimit`` reports). Memory is bounded
/// by the switches still open.
package final class SwitchDiagnosis {
    static let reorderLimit = 256

    private let only: UInt64?
    private let emit: (SwitchReport) -> Void
    private var open: [SwitchID: SwitchReport] = [:]
    /// Which switch holds each gated call, and each durability request.
    private var heldBy: [CallID: SwitchID] = [:]
    private var durabilityOf: [UInt64: SwitchID] = [:]
    /// Finished reports waiting for earlier ones.
    private var finished: [SwitchID: SwitchReport] = [:]
    private var labels = ProjectLabels()

    package init(only: UInt64?, emit: @escaping (SwitchReport) -> Void) {
        self.only = only
        self.emit = emit
    }

    /// Reads a whole journal and returns its reports.
    package static func run(reader: JournalReader, only: UInt64?) throws -> (reports: [SwitchReport], stream: FactStream) {
        var reports: [SwitchReport] = []
        let diagnosis = SwitchDiagnosis(only: only) { reports.append($0) }
        let walk = try JournalWalk(reader: reader)
        while let record = try walk.next() {
            if let skip = walk.resumedAfter { diagnosis.resume(after: skip) }
            walk.fold(record) { diagnosis.consume(record, before: $0) }
        }
        diagnosis.finish()
        return (reports, walk.stream)
    }

    /// Takes in one record; `state` is the state before it.
    package func consume(_ record: DecodedRecord, before state: SDKState) {
        consume(record, looking: Self.look(at: record, in: state))
    }

    /// Takes in one record with what the diagnosis takes in from it (``look(at:in:)`` of the
    /// state before it).
    package func consume(_ record: DecodedRecord, looking look: Look) {
        labels.learn(from: record)
        let mark = SwitchReport.Mark(sequence: record.sequence, time: record.time)
        switch look {
        case .nothing:
            break
        case .routed(let id, let call, let project, let routing, let live):
            var report = SwitchReport(id: id, call: call, requested: mark, project: project, routing: routing,
                                      liveAtRequest: live)
            switch routing {
            case .absorbed(let target), .moved(let target): update(target) { $0.absorbed.append((id, call, mark)) }
            case .started, .enqueued, .noop, .initialization: break
            }
            if case .noop = routing { report.landedOn = live }
            open[id] = report
            closeIfComplete(id)
        case .started(let id, let from):
            update(id) { report in
                report.started = mark
                report.from = from
            }
        case .stepBegan(let id, let step):
            update(id) { $0.steps.append(SwitchReport.Step(step: step, began: mark)) }
        case .stepFinished(let id, let step, let outcome, let elapsed):
            update(id) { report in
                if let index = report.steps.lastIndex(where: { $0.step == step && $0.finished == nil }) {
                    report.steps[index].finished = mark
                    report.steps[index].outcome = outcome
                    report.steps[index].elapsedMicroseconds = elapsed
                } else {
                    report.anomalies.append("step \(step.rawValue) finished (\(mark.text)) without having begun")
                }
            }
        case .disableDurabilityRequested(let id, let request):
            durabilityOf[request] = id
            update(id) { $0.durability = SwitchReport.Durability(request: request, requested: mark) }
        case .disableBoundSet(let id, let due):
            update(id) { $0.durability?.boundDue = due }
        case .disableBoundPassed(let id):
            update(id) { report in
                if report.durability?.confirmed == nil, report.durability?.boundPassed == nil { report.durability?.boundPassed = mark }
            }
        case .durabilityConfirmed(let confirmation):
            if let id = durabilityOf.removeValue(forKey: confirmation.request) {
                update(id) { report in
                    report.durability?.confirmed = mark
                    report.durability?.failure = confirmation.failure
                }
                closeIfComplete(id)
            }
        case .held(let call, let id, let name, let position):
            heldBy[call] = id
            update(id) { $0.held.append(SwitchReport.HeldCall(call: call, name: name, queued: mark, position: position)) }
        case .refused(let call):
            if let holder = heldBy.removeValue(forKey: call) {
                update(holder) { report in
                    if let index = report.held.firstIndex(where: { $0.call == call }) { report.held[index].dropped = mark }
                }
            }
        case .replayed(let call, let id, let project):
            let holder = heldBy.removeValue(forKey: call) ?? id
            update(holder) { report in
                if let index = report.held.firstIndex(where: { $0.call == call }) {
                    report.held[index].replayed = mark
                    report.held[index].replayedOn = project
                }
            }
        case .inline(let call, let run, let name, let project):
            update(run) { $0.inline.append(SwitchReport.InlineCall(call: call, name: name ?? "?", at: mark, project: project)) }
        case .landed(let id, let project, let result, let reasons):
            update(id) { report in
                report.landed = mark
                report.landedOn = project
                report.result = result
                report.reasons = reasons
                Self.checkLanding(&report)
            }
            for (absorbed, _, _) in open[id]?.absorbed ?? [] {
                update(absorbed) { report in
                    report.carrierLanded = mark
                    report.landedOn = project
                    report.result = result
                }
                closeIfComplete(absorbed)
            }
            closeIfComplete(id)
        case .callbacksDelivered(let id):
            update(id) { $0.callbacks = mark }
            closeIfComplete(id)
        case .cancelled(let id, let reason):
            update(id) { $0.cancelled = (mark, reason) }
            for (joined, _, _) in open[id]?.absorbed ?? [] {
                update(joined) { $0.cancelled = (mark, reason) }
                closeIfComplete(joined)
            }
            closeIfComplete(id)
        case .clockJumped(let run, let wall, let jump):
            update(run) { $0.clockJumps.append(SwitchReport.ClockJump(at: mark, jumpMicroseconds: jump, wall: wall)) }
        case .background(let run, let text):
            update(run) { $0.background.append((mark, text)) }
        case .storage(let run, let text):
            update(run) { $0.storage.append((mark, text)) }
        }
    }

    /// The walk skipped records lost to damage (a reader that goes on past it): every switch
    /// still open is reported as far as it went, closed with the loss (how it went on is not
    /// known: its landing, a step's end or a held call's replay may lie in the lost records),
    /// and what later records say of it is not taken in.
    package func resume(after skip: SkippedRange) {
        closeEveryOpen { $0.closeAtLoss(skip) }
        heldBy = [:]
        durabilityOf = [:]
    }

    /// Reports what is still open, with the anomalies the end of the journal reveals.
    package func finish() {
        closeEveryOpen { $0.closeAtEnd() }
    }

    /// Closes every open report with `close`, then hands out every finished one, in switch order.
    private func closeEveryOpen(_ close: (inout SwitchReport) -> Void) {
        for id in open.keys.sorted() {
            guard var report = open.removeValue(forKey: id) else { continue }
            close(&report)
            finished[id] = report
        }
        for id in finished.keys.sorted() { if let report = finished.removeValue(forKey: id) { deliver(report) } }
    }

    private func update(_ id: SwitchID, _ change: (inout SwitchReport) -> Void) {
        // In place: a report taken out and written back would copy its held calls at each change.
        guard open[id] != nil else { return }
        change(&open[id]!)
    }

    private func closeIfComplete(_ id: SwitchID) {
        guard let report = open[id], report.isComplete else { return }
        open[id] = nil
        finished[id] = report
        // Emit in switch order: a report waits while an earlier switch is still open.
        let oldestOpen = open.keys.min()
        for ready in finished.keys.sorted() where oldestOpen.map({ ready < $0 }) ?? true || finished.count > Self.reorderLimit {
            if let report = finished.removeValue(forKey: ready) { deliver(report) }
        }
    }

    /// The switches the journal holds, lowest and highest number and how many, whichever
    /// ``only`` asks for (to say, when that one is not there, which are).
    package private(set) var held: (first: UInt64, last: UInt64, count: Int)?

    private func deliver(_ report: SwitchReport) {
        let number = report.id.number
        held = held.map { (min($0.first, number), max($0.last, number), $0.count + 1) } ?? (number, number, 1)
        if let only, number != only { return }
        var report = report
        report.labels = labels
        emit(report)
    }

    /// What the landing says against what the steps said.
    private static func checkLanding(_ report: inout SwitchReport) {
        if report.landedOn != report.project.fingerprint {
            report.anomalies.append("landed on \(Describe.project(report.landedOn)) but was requested for \(report.project.fingerprint)")
        }
        for step in report.steps where step.finished == nil {
            report.anomalies.append("landed while step \(step.step.rawValue) (began \(step.began.text)) had not finished")
        }
        let warned = report.steps.contains { if case .warning = $0.outcome { true } else { false } }
        switch report.result {
        case .switchedCleanly? where warned:
            report.anomalies.append("reported switchedCleanly although a step ended with a warning")
        case .switchedWithWarnings? where !warned && report.reasons.isEmpty:
            report.anomalies.append("reported switchedWithWarnings with no step with a warning and no reason")
        case .switchedCleanly?, .switchedWithWarnings?, .notPerformed?, .interruptedByShutdown?, nil:
            break
        }
        if report.result == .switchedCleanly, let durability = report.durability,
           durability.confirmed.map({ $0.sequence > (report.landed?.sequence ?? 0) }) ?? true {
            report.anomalies.append("reported switchedCleanly before the outgoing disable was confirmed durable")
        }
    }
}
