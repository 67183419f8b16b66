import SDK

/// Lifts the decisions a journal written before format 1.3 recorded for one input into the
/// shape today's `decide` records them in, so that `replay recheck` compares like with like.
/// It is for comparing only: the fold reads every record as written (`evolve` reads both shapes
/// and folds them to the same state).
///
/// Two changes of format are lifted (docs/FORMAT-RATIONALE.md, "The SDK's records, version by version"):
/// - **1.2**, one record resolves a delivered bulk. For a `transportCompleted` of task T whose
///   answer refused no event, a run of two or more `callResolved` directly after T's
///   `taskCompleted(delivered)`, all with one `delivered` outcome, becomes one
///   `callsResolved(task: T, calls:, outcome:)` listing their calls in order.
/// - **1.3**, an executed track's gate decision travels in its `eventBatched`. For a
///   `callReceived` of a `track` call X, a `gateDecided(X, executed(on: P))` directly followed
///   by X's `eventBatched(executedOn: nil)` becomes that `eventBatched` without its body and
///   with `executedOn: P`.
///
/// Why it is exact. Before 1.2, a delivered task resolved each of its still-pending calls with
/// a `callResolved`, in its call order (its own call, then its batch's); today one `callsResolved`
/// lists exactly those calls in that order, or one `callResolved` when one is left, which a run
/// of one already is. A task without a batch carries at most one call, so a run of two or more
/// is always a bulk's. Before 1.3, an executed track's `gateDecided` was recorded first and
/// everything after it as today; today holds it back until the call's next record and writes it
/// on its own just before that record unless that record is the call's own `eventBatched`,
/// which takes it, and whose body the call's record makes (so today's record has none). The
/// lift drops the body the older record carried: it is not compared, as a 1.3 journal's is not.
///
/// And it leaves today's decisions as they are: today a delivered task with no refused event
/// resolves its calls in one record, or in at most one `callResolved` when it has no batch, so
/// no run of two follows its `taskCompleted`; and a held gate decision written on its own is
/// always followed by a record other than the call's `eventBatched`. So it is applied to every
/// input, whatever format wrote it: a journal that spans an app update (older runs, then newer
/// ones) is lifted run by run without knowing each run's format.
package enum RecordedDecisionsUpcast {
    /// A recorded decision: its sequence number and its fact.
    package typealias Recorded = (sequence: UInt64, fact: Fact)

    /// The decisions `recorded` for `input`, lifted to today's shape; a lifted record takes the
    /// sequence number of the first record it replaces. Returned as given (not copied) when
    /// there is nothing to lift.
    package static func lift(_ recorded: [Recorded], of input: Fact) -> [Recorded] {
        switch input {
        case .transportCompleted(let completion) where completion.refusedEvents.isEmpty:
            return liftingBulkResolutions(recorded, of: completion.task)
        case .callReceived(let received):
            guard case .track = received.call else { return recorded }
            return liftingGateDecision(recorded, of: received.id)
        default:
            // Only these two inputs ever recorded a shape a later format changed.
            return recorded
        }
    }

    /// ``lift(_:of:)`` of facts without sequence numbers.
    package static func lift(_ facts: [Fact], of input: Fact) -> [Fact] {
        lift(facts.map { (sequence: 0, fact: $0) }, of: input).map(\.fact)
    }

    /// 1.2: the run of `callResolved` after task `task`'s delivery, made one `callsResolved`.
    private static func liftingBulkResolutions(_ recorded: [Recorded], of task: TaskID) -> [Recorded] {
        guard let completed = recorded.firstIndex(where: { entry in
            if case .taskCompleted(task, .delivered) = entry.fact { true } else { false }
        }) else { return recorded }
        let start = completed + 1
        guard start < recorded.count, case .callResolved(_, let outcome) = recorded[start].fact,
              case .delivered = outcome else { return recorded }
        var calls: [CallID] = []
        var end = start
        while end < recorded.count, case .callResolved(let call, outcome) = recorded[end].fact {
            calls.append(call)
            end += 1
        }
        guard calls.count >= 2 else { return recorded }
        var lifted = recorded
        lifted.replaceSubrange(start..<end, with: [(recorded[start].sequence, .callsResolved(task: task, calls: calls, outcome: outcome))])
        return lifted
    }

    /// 1.3: the executed track's `gateDecided` and its `eventBatched`, made one `eventBatched`.
    private static func liftingGateDecision(_ recorded: [Recorded], of call: CallID) -> [Recorded] {
        guard let decided = recorded.firstIndex(where: { entry in
            if case .gateDecided(call, .executed) = entry.fact { true } else { false }
        }), decided + 1 < recorded.count,
              case .gateDecided(_, .executed(let project)) = recorded[decided].fact,
              case .eventBatched(let task, let event, nil) = recorded[decided + 1].fact, event.call == call
        else { return recorded }
        var lifted = recorded
        lifted.replaceSubrange(decided...(decided + 1), with: [(recorded[decided].sequence,
            .eventBatched(task: task, event: BatchedEvent(call: call, body: []), executedOn: project))])
        return lifted
    }
}
