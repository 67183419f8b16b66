import Journal
import SDK

/// The fact fuzz target: hostile payloads decoded as facts and snapshots, and what decodes
/// folded into the SDK's state.
///
/// ```
/// input  := record*
/// record := selector, time delta (zigzag varint, µs), length (varint), payload
/// ```
///
/// The selector names the kind: below `FactKind.allCases.count` it is that kind, 0xFF a
/// snapshot (``StateCodec``), anything else the raw kind number (unknown and reserved kinds).
/// For each record it checks:
///
/// - a decoded fact encodes, decodes again, and encodes to the same bytes (compared as bytes:
///   facts may hold NaN, which is not equal to itself), with the kind it was decoded as;
/// - `evolve` and `decide` accept it from whatever state the records before it built (a
///   snapshot record replaces that state), and `decide` leaves the state that folding its
///   decisions with `evolve` gives, returning the input first (a received call in its journaled
///   form, `SDKState.journaledForm(of:)`);
/// - a received call's journaled form is a fixed point of `decide`, and decides as the call did
///   (the same decisions, the same state);
/// - every decision `decide` makes round-trips through the codec like a decoded fact (the
///   journal records them);
/// - a snapshot decodes to a state whose encoding decodes to the same encoding, and so do the
///   states the fold ends with.
package enum FactDecoderFuzzer {
    /// The selector of a snapshot record.
    package static let snapshotSelector: UInt8 = 0xFF
    /// Inputs hold at most this many records; the rest is ignored.
    static let maxRecords = 64
    static let baseTime = JournalTime(microsecondsSince1970: 1_764_000_000_000_000)

    /// One record of an input.
    package struct Record: Sendable {
        package var selector: UInt8
        package var timeDelta: Int64
        package var payload: [UInt8]

        package init(selector: UInt8, timeDelta: Int64 = 1_000, payload: [UInt8]) {
            self.selector = selector
            self.timeDelta = timeDelta
            self.payload = payload
        }

        /// A record holding `fact`.
        package init(_ fact: Fact, timeDelta: Int64 = 1_000) {
            let kind = FactCodec.kind(of: fact)
            let selector = FactKind.allCases.firstIndex { $0.rawValue == kind }.map(UInt8.init) ?? UInt8(truncatingIfNeeded: kind)
            self.init(selector: selector, timeDelta: timeDelta, payload: FactCodec.payload(of: fact))
        }

        /// A record holding a snapshot of `state`.
        package init(snapshot state: SDKState, timeDelta: Int64 = 0) {
            self.init(selector: FactDecoderFuzzer.snapshotSelector, timeDelta: timeDelta, payload: StateCodec.encode(state))
        }
    }

    /// The input holding `records` (for writing seeds).
    package static func input(_ records: [Record]) -> [UInt8] {
        var output: [UInt8] = []
        for record in records {
            output.append(record.selector)
            FuzzInput.appendVarint(Varint.zigzag(record.timeDelta), to: &output)
            FuzzInput.appendVarint(UInt64(record.payload.count), to: &output)
            output += record.payload
        }
        return output
    }

    /// The journal kind a selector names.
    static func kind(of selector: UInt8) -> UInt32 {
        selector < FactKind.allCases.count ? FactKind.allCases[Int(selector)].rawValue : UInt32(selector)
    }

    /// Runs one input; returns the invariants it broke.
    package static func run(_ input: [UInt8]) -> [String] {
        var checker = InvariantChecker()
        var reader = FuzzInput(input)
        var evolved = SDKState()
        var decided = SDKState()
        var time = baseTime
        var records = 0
        while records < maxRecords, let selector = reader.byte(), let delta = reader.varint(), let length = reader.varint() {
            records += 1
            let payload = reader.bytes(upTo: Int(clamping: length))
            time = JournalTime(microsecondsSince1970: time.microsecondsSince1970 &+ Varint.unzigzag(delta))
            if selector == snapshotSelector {
                guard let state = try? StateCodec.decode(payload) else { continue }
                checkSnapshot(of: state, "a decoded snapshot", &checker)
                evolved = state
                decided = state
                continue
            }
            let kind = kind(of: selector)
            guard let fact = try? FactCodec.decode(kind: kind, payload: payload) else { continue }
            checkRoundTrip(of: fact, decodedAs: kind, "a decoded fact", &checker)
            evolved.evolve(fact, at: time)
            checkDecisions(of: fact, at: time, state: &decided, &checker)
        }
        checkSnapshot(of: evolved, "the state folded with evolve", &checker)
        checkSnapshot(of: decided, "the state built by decide", &checker)
        return checker.violations
    }

    // MARK: - Checks

    private static func checkDecisions(of fact: Fact, at time: JournalTime, state: inout SDKState, _ checker: inout InvariantChecker) {
        let before = state
        var folded = state
        let decisions = state.decide(fact, at: time)
        for decision in decisions { folded.evolve(decision, at: time) }
        let name = describe(FactCodec.kind(of: fact))
        // A received call comes back in its journaled form (`SDKState.journaledForm(of:)`); any
        // other input as it is.
        var journaled = fact
        if case .callReceived(var received) = fact {
            received.call = before.journaledForm(of: received.call)
            journaled = .callReceived(received)
        }
        checker.expect(decisions.first.map { FactCodec.payload(of: $0) == FactCodec.payload(of: journaled) } ?? false,
                       "decide(\(name)) did not return its input first, in its journaled form")
        checker.expect(StateCodec.encode(folded) == StateCodec.encode(state),
                       "decide(\(name)) left a state other than the fold of its decisions")
        for decision in decisions.dropFirst() {
            checkRoundTrip(of: decision, decodedAs: nil, "a decision of decide(\(name))", &checker)
        }
        if case .callReceived = fact {
            checkJournaledForm(journaled, of: name, decided: decisions, leaving: state, before: before, at: time, &checker)
        }
    }

    /// The journaled form of a received call is a fixed point, and decides as the call did: from
    /// the state before the call, `decide(journaled)` returns `journaled` first, then the same
    /// decisions, and leaves the same state. So what the journal records rechecks as decided.
    private static func checkJournaledForm(_ journaled: Fact, of name: String, decided decisions: [Fact], leaving state: SDKState,
                                           before: SDKState, at time: JournalTime, _ checker: inout InvariantChecker) {
        var again = before
        let redecided = again.decide(journaled, at: time)
        checker.expect(redecided.first.map { FactCodec.payload(of: $0) == FactCodec.payload(of: journaled) } ?? false,
                       "decide(\(name)) did not return a call in its journaled form unchanged (not a fixed point)")
        checker.expect(redecided.map { FactCodec.payload(of: $0) } == decisions.map { FactCodec.payload(of: $0) },
                       "decide(\(name)) of the call's journaled form decided otherwise than the call")
        checker.expect(StateCodec.encode(again) == StateCodec.encode(state),
                       "decide(\(name)) of the call's journaled form left another state than the call")
    }

    private static func checkRoundTrip(of fact: Fact, decodedAs expectedKind: UInt32?, _ what: String, _ checker: inout InvariantChecker) {
        let kind = FactCodec.kind(of: fact)
        let payload = FactCodec.payload(of: fact)
        let name = describe(kind)
        if let expectedKind {
            checker.expect(kind == expectedKind, "\(what) of kind \(describe(expectedKind)) encodes as kind \(name)")
        }
        do {
            let again = try FactCodec.decode(kind: kind, payload: payload)
            checker.expect(FactCodec.kind(of: again) == kind && FactCodec.payload(of: again) == payload,
                           "\(what) (\(name)) encodes differently once decoded again")
        } catch {
            checker.expect(false, "the encoding of \(what) (\(name)) does not decode: \(error)")
        }
    }

    private static func checkSnapshot(of state: SDKState, _ what: String, _ checker: inout InvariantChecker) {
        let encoded = StateCodec.encode(state)
        do {
            let again = try StateCodec.decode(encoded)
            checker.expect(StateCodec.encode(again) == encoded, "\(what) encodes differently once decoded again")
        } catch {
            checker.expect(false, "the snapshot of \(what) does not decode: \(error)")
        }
    }

    private static func describe(_ kind: UInt32) -> String {
        FactKind(rawValue: kind)?.name ?? "kind \(kind)"
    }
}
