import Journal
import SDK

/// `replay audit` over a journal's segments side by side: each segment audited on its own
/// from its snapshot (``CallAudit/SegmentPart``), the parts joined in segment order so that
/// the rows come out, with the same content and in the same order, as from one ``CallAudit``
/// walking the whole journal.
///
/// The join carries from segment to segment what a segment cannot know: the rows of calls
/// still open (a segment's changes to them are applied here, in order), the tasks queued, the
/// labels learned. A segment whose snapshot disagrees with the tasks the segments before left
/// (never in a journal the SDK wrote), or that does not begin with a readable snapshot, is
/// audited again here, in order, from the state the segment before ended with.
///
/// Runs on the calling thread (``audit(_:jobs:)``); rows are handed to `emit` there.
package final class CallAuditJoin {
    private let emit: (AuditRow) -> Void
    private var carry = CallAudit.Carry(open: [:], taskCalls: [:], labels: ProjectLabels(), deliveries: [:], statusCounts: CallAudit.StatusCounts())
    /// Segments audited again in order (their snapshot disagreed, or there was none).
    package private(set) var segmentsRedone = 0

    package init(emit: @escaping (AuditRow) -> Void) {
        self.emit = emit
    }

    package var deliveries: [ProjectFingerprint: CallAudit.Deliveries] { carry.deliveries }
    package var statusCounts: [String: Int] { carry.statusCounts.byName }
    package var labels: ProjectLabels { carry.labels }

    /// One segment's audit as the join receives it.
    private enum Part: Sendable {
        /// The segment audited on its own, its stream's problems, the state it ended with and
        /// the error that stopped it, if one did.
        case audited(CallAudit.SegmentPart, StreamProblems, SDKState, HandedOverError?)
        /// The segment does not begin with a readable snapshot.
        case unsplit
    }

    /// Audits every segment of `reader` on `jobs` threads, handing rows to `emit` in order;
    /// returns what the streams skipped. Throws what a walk over the whole journal throws,
    /// after the rows it would have handed out first. ``finish()`` hands out the calls still pending.
    package func audit(_ reader: JournalReader, jobs: Int) throws -> StreamProblems {
        var problems = StreamProblems()
        var state = SDKState()
        try SegmentFolds.run(segments: reader.segments.count, jobs: jobs, fold: { index in
            Self.auditAlone(reader, segment: index)
        }, join: { index, part in
            if case .audited(let segment, let skipped, let end, let failure) = part, canJoin(segment) {
                join(segment)
                problems.append(skipped)
                state = end
                if let failure { throw failure.error }
                return
            }
            segmentsRedone += 1
            guard let walk = try JournalWalk(reader: reader, segment: index, after: state, decoding: CallAudit.decoding) else { return }
            let audit = CallAudit(carry: carry, emit: emit)
            defer {
                carry = audit.carry
                problems.append(walk.stream.problems)
                state = walk.state
            }
            while let record = try walk.next() {
                walk.fold(record, lookingBeforeWithFact: { audit.consume(record, fact: $1, before: $0) })
            }
        })
        return problems
    }

    private static func auditAlone(_ reader: JournalReader, segment index: Int) -> Part {
        guard let walk = JournalWalk.alone(reader, segment: index, decoding: CallAudit.decoding) else { return .unsplit }
        let audit = CallAudit.ofOneSegment()
        do {
            while let record = try walk.next() {
                walk.fold(record, lookingBeforeWithFact: { audit.consume(record, fact: $1, before: $0) })
            }
        } catch {
            return .audited(audit.finishSegment(), walk.stream.problems, walk.state, HandedOverError(error: error))
        }
        return .audited(audit.finishSegment(), walk.stream.problems, walk.state, nil)
    }

    /// Whether every task `part` read before writing is as the segments before left it (when
    /// they left it at all: otherwise the snapshot's is the one a whole walk reads too).
    private func canJoin(_ part: CallAudit.SegmentPart) -> Bool {
        part.assumedTasks.allSatisfy { id, assumed in
            carry.taskCalls[id].map { $0 == assumed } ?? true
        }
    }

    /// Hands out `part`'s rows and carries on what it leaves.
    private func join(_ part: CallAudit.SegmentPart) {
        let before = carry.labels
        for item in part.items {
            switch item {
            case .row(var row):
                row.labels = before.overlaid(by: row.labels)
                deliver(row)
            case .carried(let call, let carried, let labels):
                var row: AuditRow
                if var held = carry.open.removeValue(forKey: call) {
                    for change in carried.changes { held.apply(change) }
                    row = held
                } else if let fallback = carried.fallback {
                    row = fallback
                } else {
                    continue
                }
                row.labels = before.overlaid(by: labels)
                deliver(row)
            }
        }
        for (call, carried) in part.carried {
            if let index = carry.open.index(forKey: call) {
                for change in carried.changes { carry.open.values[index].apply(change) }
            } else if let fallback = carried.fallback {
                carry.open[call] = fallback
            }
        }
        for call in part.receivedIDs { carry.open[call] = nil }
        carry.open.merge(part.open) { $1 }
        for (id, task) in part.snapshotTasks ?? [:] where carry.taskCalls[id] == nil { carry.taskCalls[id] = task }
        for (id, task) in part.tasksAtEnd { carry.taskCalls[id] = task }
        carry.labels = before.overlaid(by: part.labels)
        carry.deliveries.merge(part.deliveries) { CallAudit.Deliveries(forCalls: $0.forCalls + $1.forCalls, ownRequests: $0.ownRequests + $1.ownRequests) }
    }

    private func deliver(_ row: AuditRow) {
        carry.statusCounts.count(row)
        emit(row)
    }

    /// Hands out the calls still pending, oldest first (as ``CallAudit/finish()``).
    package func finish() {
        for row in carry.open.values.sorted(by: { ($0.madeAt, $0.call) < ($1.madeAt, $1.call) }) {
            var row = row
            row.labels = carry.labels
            deliver(row)
        }
        carry.open = [:]
    }
}
