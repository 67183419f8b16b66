import Journal
import SDK

/// Feeds each recorded input through today's `SDKState.decide` (on the state folded from the
/// recorded facts before it) and compares the decisions it makes with the recorded ones.
///
/// The fold always continues with the *recorded* facts, so one difference does not cascade
/// into every later input. Streams: only the current input's decisions are held.
package final class Recheck {
    /// An input whose decisions today differ from the recorded ones.
    package struct Mismatch {
        var input: DecodedRecord
        /// Index of the first differing decision.
        var index: Int
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

    private var current: (input: DecodedRecord, today: [Fact])?
    private var recorded: [(sequence: UInt64, fact: Fact)] = []
    private var currentIsUnverifiable = false

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
            current = (record, Array(produced.dropFirst()))
        }
    }

    package func finish() {
        closeCurrent()
    }

    private func closeCurrent() {
        defer {
            current = nil
            recorded = []
            currentIsUnverifiable = false
        }
        guard let (input, today) = current else { return }
        if currentIsUnverifiable {
            skipped += 1
            return
        }
        checked += 1
        let count = max(today.count, recorded.count)
        guard let index = (0..<count).first(where: { index in
            index >= today.count || index >= recorded.count || today[index] != recorded[index].fact
        }) else { return }
        mismatchCount += 1
        if mismatches.count < limit { mismatches.append(Mismatch(input: input, index: index, recorded: recorded, today: today)) }
    }

    /// Whether records of `kind` are inputs (kinds 16–31; unknown ones included).
    static func isInput(kind: UInt32) -> Bool {
        if let known = FactKind(rawValue: kind) { return known.isInput }
        return kind >= SegmentFormat.firstApplicationKind && kind < 32
    }
}

extension Recheck.Mismatch {
    package var lines: [String] {
        var lines = ["input seq \(input.sequence) at \(input.time): \(FactSummary.text(input))"]
        let recordedFact = index < recorded.count ? recorded[index] : nil
        let todayFact = index < today.count ? today[index] : nil
        lines.append("  first difference at decision #\(index + 1)" + (recordedFact.map { " (recorded seq \($0.sequence))" } ?? ""))
        lines.append("    recorded: " + (recordedFact.map { FactSummary.text($0.fact) } ?? "(nothing: the recorded decisions end here)"))
        lines.append("    today:    " + (todayFact.map { FactSummary.text($0) } ?? "(nothing: today's decisions end here)"))
        lines.append("  \(recorded.count) decision(s) recorded, \(today.count) today")
        return lines
    }

    package var json: JSONValue {
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
