import Journal
import SDK

/// Feeds each recorded input through today's `SDKState.decide` (on the state folded from the
/// recorded facts before it) and compares the decisions it makes with the recorded ones.
///
/// `decide` returns a received call first in its journaled form (`SDKState.journaledForm(of:)`),
/// a fixed point: a call the journal recorded comes back unchanged. One that does not (the
/// journal was written under other limits, or by a `decide` that journaled it otherwise) is a
/// difference too, reported at "decision #0", the input itself.
///
/// The fold always continues with the *recorded* facts, so one difference does not cascade
/// into every later input. Streams: only the current input's decisions are held.
///
/// A journal written before format 1.3 recorded some decisions in an older shape: they are
/// compared as ``RecordedDecisionsUpcast`` lifts them to today's, and folded as written.
///
/// Two ways to drive it. ``consume(_:before:)`` decides each input on a copy of the state the
/// caller keeps (the first change to the copy's tasks copies the whole dictionary).
/// ``take(_:on:)`` folds a ``JournalWalk`` itself and decides each input on the walk's state in
/// place: when the recorded decisions are the ones produced (at the input's time), that state
/// is already the one folding them gives, and nothing was copied; when they differ, the state
/// before the input is folded again from its segment's snapshot, and the rest of that segment
/// is decided on copies. Both report the same.
package final class Recheck {
    /// An input whose decisions today differ from the recorded ones.
    package struct Mismatch: Sendable {
        var input: DecodedRecord
        /// The input as today's `decide` journals it, when that is not the recorded input (a
        /// received call today's rules would journal otherwise); nil when it is.
        var inputToday: Fact?
        /// Index of the first differing decision.
        var index: Int
        /// The recorded decisions, in today's shape (``RecordedDecisionsUpcast``).
        var recorded: [(sequence: UInt64, fact: Fact)]
        var today: [Fact]
    }

    private let limit: Int
    package private(set) var mismatches: [Mismatch] = []
    package private(set) var mismatchCount = 0
    package private(set) var inputs = 0
    package private(set) var checked = 0
    /// Inputs that could not be rechecked (unknown kinds, unreadable decisions).
    package private(set) var skipped = 0

    private var current: (input: DecodedRecord, inputToday: Fact?, today: [Fact])?
    private var recorded: [(sequence: UInt64, fact: Fact)] = []
    private var currentIsUnverifiable = false
    /// ``take(_:on:)``: the current input was decided on the walk's state, and these records
    /// after it (its recorded decisions) are not folded yet.
    private var decidedInPlace = false
    private var held: [DecodedRecord] = []
    /// ``take(_:on:)``: a state was folded again in this segment; decide on copies until the next
    /// snapshot, so a journal whose every input differs refolds once per segment at most.
    private var copiesUntilSnapshot = false
    /// How many times ``take(_:on:)`` folded a state again from a snapshot.
    package private(set) var refolds = 0
    #if DEBUG
    /// Debug builds check `decide`'s contract on every input decided in place: the state it
    /// leaves is the one folding the produced facts gives.
    private var stateBeforeInput: SDKState?
    #endif

    package init(limit: Int) {
        self.limit = limit
    }

    /// Takes in one record; `state` is the state before it.
    package func consume(_ record: DecodedRecord, before state: SDKState) {
        switch record.content {
        case .snapshot:
            closeCurrent()
        case .unreadable:
            if current != nil { currentIsUnverifiable = true } else if Self.isInput(kind: record.kind) { inputs += 1; skipped += 1 }
        case .fact(let fact):
            guard Self.isInput(kind: record.kind) else {
                if current != nil { recorded.append((record.sequence, fact)) }
                return
            }
            closeCurrent()
            inputs += 1
            if case .unknown = fact {
                skipped += 1
                return
            }
            var replica = state
            let produced = replica.decide(fact, at: record.time)
            current = (record, Self.rewritten(fact, produced.first), Array(produced.dropFirst()))
        }
    }

    package func finish() {
        closeCurrent()
    }

    /// The walk skipped records lost to damage (a reader that goes on past it): the current
    /// input's recorded decisions may have been among them, so it is not compared (it counts as
    /// skipped); the snapshot the walk resumes at closes it.
    package func resumeAfterSkip() {
        if current != nil { currentIsUnverifiable = true }
    }

    /// Takes in one record and folds it into `walk` (the state before it is the walk's). Throws
    /// what reading the journal again throws, when a differing input's state is folded again.
    package func take(_ record: DecodedRecord, on walk: JournalWalk) throws {
        if case .fact(let fact) = record.content, Self.isInput(kind: record.kind) {
            try settle(on: walk)
            let isUnknown = if case .unknown = fact { true } else { false }
            if isUnknown || copiesUntilSnapshot {
                walk.fold(record) { consume(record, before: $0) }
            } else {
                closeCurrent()
                inputs += 1
                #if DEBUG
                stateBeforeInput = walk.state
                #endif
                let produced = walk.decideInPlace(fact, at: record.time)
                current = (record, Self.rewritten(fact, produced.first), Array(produced.dropFirst()))
                decidedInPlace = true
            }
            return
        }
        if decidedInPlace, !record.isSnapshot {
            // A decision of the input decided in place (or an unreadable record among them):
            // recorded, and folded once the input's decisions are compared.
            walk.withState { consume(record, before: $0) }
            held.append(record)
            return
        }
        try settle(on: walk)
        if record.isSnapshot { copiesUntilSnapshot = false }
        walk.fold(record) { consume(record, before: $0) }
    }

    /// Ends the walk: the last input's decisions are compared and folded.
    package func finish(on walk: JournalWalk) throws {
        try settle(on: walk)
        finish()
    }

    /// When the current input was decided in place: confirms the walk's state if its recorded
    /// decisions are the produced ones at its time, as written, else folds the state before it
    /// again and folds the recorded records onto it (so a state is always the fold of the records
    /// as written, lifted or not). Then compares, as ``consume(_:before:)`` would.
    private func settle(on walk: JournalWalk) throws {
        guard decidedInPlace, let (input, inputToday, today) = current else { return }
        let records = held
        decidedInPlace = false
        held = []
        let alike = !currentIsUnverifiable && inputToday == nil && today.count == recorded.count
            && records.allSatisfy { $0.time == input.time }
            && zip(today, recorded).allSatisfy { $0 == $1.fact }
        if alike {
            #if DEBUG
            if var folded = stateBeforeInput, case .fact(let fact) = input.content {
                folded.evolve(fact, at: input.time)
                for record in records { if let fact = record.fact { folded.evolve(fact, at: record.time) } }
                assert(folded == walk.state, "decide left a state other than folding its facts gives, at seq \(input.sequence)")
            }
            #endif
            walk.noteFolded(input)
            records.forEach(walk.noteFolded)
            // Compared already: checked, and alike.
            checked += 1
            current = nil
            recorded = []
            return
        }
        refolds += 1
        copiesUntilSnapshot = true
        let before = try JournalWalk(reader: walk.reader, start: .at(.sequence(input.sequence)))
        walk.replaceState(before.state)
        walk.fold(input)
        records.forEach(walk.fold)
        closeCurrent()
    }

    private func closeCurrent() {
        defer {
            current = nil
            recorded = []
            currentIsUnverifiable = false
        }
        guard let (input, inputToday, today) = current else { return }
        if currentIsUnverifiable {
            skipped += 1
            return
        }
        checked += 1
        let recorded = if case .fact(let fact) = input.content { RecordedDecisionsUpcast.lift(self.recorded, of: fact) } else { self.recorded }
        if let inputToday {
            mismatchCount += 1
            if mismatches.count < limit {
                mismatches.append(Mismatch(input: input, inputToday: inputToday, index: 0, recorded: recorded, today: today))
            }
            return
        }
        let count = max(today.count, recorded.count)
        guard let index = (0..<count).first(where: { index in
            index >= today.count || index >= recorded.count || today[index] != recorded[index].fact
        }) else { return }
        mismatchCount += 1
        if mismatches.count < limit { mismatches.append(Mismatch(input: input, inputToday: nil, index: index, recorded: recorded, today: today)) }
    }

    /// What today's `decide` returned first for `input` (`first`), when it is not `input` itself:
    /// a received call it journals otherwise. Nil when they are alike (compared as encoded when
    /// they differ as values: a call may hold NaN, which is not equal to itself).
    private static func rewritten(_ input: Fact, _ first: Fact?) -> Fact? {
        guard case .callReceived = input else { return nil }
        guard let first else { return input }
        return first == input || FactCodec.payload(of: first) == FactCodec.payload(of: input) ? nil : first
    }

    /// Whether records of `kind` are inputs (kinds 16–31 and 80–95; unknown ones included).
    static func isInput(kind: UInt32) -> Bool {
        if let known = FactKind(rawValue: kind) { return known.isInput }
        return kind >= SegmentFormat.firstApplicationKind && FactKind.isInput(kind)
    }
}

extension Recheck.Mismatch {
    package var lines: [String] {
        var lines = ["input seq \(input.sequence) at \(input.time): \(FactSummary.text(input))"]
        if let inputToday {
            lines.append("  first difference at decision #0, the input: today's decide journals it otherwise")
            lines.append("    recorded: " + FactSummary.text(input))
            lines.append("    today:    " + FactSummary.text(inputToday))
            lines.append("  \(recorded.count) decision(s) recorded, \(today.count) today")
            return lines
        }
        let recordedFact = index < recorded.count ? recorded[index] : nil
        let todayFact = index < today.count ? today[index] : nil
        lines.append("  first difference at decision #\(index + 1)" + (recordedFact.map { " (recorded seq \($0.sequence))" } ?? ""))
        lines.append("    recorded: " + (recordedFact.map { FactSummary.text($0.fact) } ?? "(nothing: the recorded decisions end here)"))
        lines.append("    today:    " + (todayFact.map { FactSummary.text($0) } ?? "(nothing: today's decisions end here)"))
        lines.append("  \(recorded.count) decision(s) recorded, \(today.count) today")
        return lines
    }

    package var json: JSONValue {
        if let inputToday {
            return .object([
                ("input_seq", .unsigned(input.sequence)),
                ("input", .string(FactSummary.text(input))),
                ("decision", .integer(0)),
                ("recorded_seq", .unsigned(input.sequence)),
                ("recorded", .string(FactSummary.text(input))),
                ("today", .string(FactSummary.text(inputToday))),
                ("recorded_count", .integer(Int64(recorded.count))),
                ("today_count", .integer(Int64(today.count))),
            ])
        }
        let recordedFact = index < recorded.count ? recorded[index] : nil
        let todayFact = index < today.count ? today[index] : nil
        return .object([
            ("input_seq", .unsigned(input.sequence)),
            ("input", .string(FactSummary.text(input))),
            ("decision", .integer(Int64(index + 1))),
            ("recorded_seq", .optional(recordedFact?.sequence) { .unsigned($0) }),
            ("recorded", .optional(recordedFact?.fact) { .string(FactSummary.text($0)) }),
            ("today", .optional(todayFact) { .string(FactSummary.text($0)) }),
            ("recorded_count", .integer(Int64(recorded.count))),
            ("today_count", .integer(Int64(today.count))),
        ])
    }
}
