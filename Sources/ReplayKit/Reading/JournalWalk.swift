import Journal
import SDK

/// Walks an SDK journal record by record while keeping the state the SDK had: the projection.
///
/// A walk opens at the snapshot that begins the segment holding its start (never at the start
/// of the journal when it need not), folds silently up to the start, then hands out records
/// one at a time. The caller sees ``state`` as it was *before* each record it is handed and
/// folds the record with ``fold(_:)``: so a command can look up, say, which project a task was
/// for before the fact that completes it removes it.
///
/// Memory is bounded by the state, whatever the journal's length.
package final class JournalWalk {
    let reader: JournalReader
    /// The state as of every record folded so far.
    package private(set) var state: SDKState
    /// The last record folded (sequence and time), if any.
    package private(set) var position: (sequence: UInt64, time: JournalTime)?
    /// The last record folded, if any (kept only when the walk was asked to remember it: a
    /// copy per record is a cost the commands that never look do not pay).
    private(set) var lastFolded: DecodedRecord?
    private let remembersLastFolded: Bool
    package let stream: FactStream
    private var lookahead: DecodedRecord?
    /// The skip the lookahead is the first record after, if it is.
    private var lookaheadSkip: SkippedRange?
    /// Whether the record last handed out by ``next()`` is the first after a skip. Its exclusive
    /// access is not checked at run time: only this walk's methods touch it, never with another
    /// access open, and a walk is not Sendable; the check would cost two a record.
    @exclusivity(unchecked) private(set) var followsSkip = false
    /// That skip, when it is one.
    private var skipBefore: SkippedRange?
    /// Damage met reading the record after the moment a walk opened after a sequence number
    /// (every record up to it folded): the next read throws it, so the state at the last record
    /// before damage can be looked at. Unchecked exclusive access, as ``followsSkip``: the read
    /// path looks at it once a record.
    @exclusivity(unchecked) private var failureAhead: (any Error)?

    /// The skip the record last handed out by ``next()`` is the first after, if it is: a
    /// reader that goes on past damage (``JournalReader/ReadMode/skipToNextSegment``) resumes
    /// at a segment's snapshot, and what a command followed across the lost records is not
    /// known any more (a call's end, a switch's landing).
    package var resumedAfter: SkippedRange? {
        followsSkip ? skipBefore : nil
    }
    /// The first sequence past the walk's end (a walk over one segment), if any.
    private var end: UInt64?
    /// Called with the sequence number every ``progressInterval`` records folded (for a
    /// progress line on a terminal).
    var onProgress: ((UInt64) -> Void)?
    static let progressInterval = 1 << 14
    private var folded = 0

    /// Where a walk begins.
    package enum Start {
        /// The first retained record.
        case beginning
        /// The first record after `moment` (everything at or before it is folded first).
        case after(Moment)
        /// The first record at or after `moment` (everything before it is folded first).
        case at(Moment)
    }

    /// Opens a walk over `reader` at `start`, decoding what `decoding` says of each record. With
    /// `readsAhead` false the records are read on the calling thread (``FactStream``): for a walk
    /// among many at once (a story's check, a reconciliation of many journals), whose threads
    /// would cost more than they overlap.
    ///
    /// Throws ``MomentError`` when the moment lies before the journal's first retained record,
    /// and journal errors (corruption on the way is ``JournalError/corrupted(_:)``).
    package init(reader: JournalReader, start: Start = .beginning, remembersLastFolded: Bool = false,
                 decoding: RecordDecoding = .whole, readsAhead: Bool = true, onProgress: ((UInt64) -> Void)? = nil) throws {
        self.remembersLastFolded = remembersLastFolded
        self.reader = reader
        self.onProgress = onProgress
        let moment: Moment? = switch start {
        case .beginning: nil
        case .after(let moment), .at(let moment): moment
        }
        let (state, stream, first) = try Self.open(reader: reader, near: moment, decoding: decoding, readsAhead: readsAhead)
        self.state = state
        self.stream = stream
        self.lookahead = first
        self.lookaheadSkip = stream.lastSkip
        // The snapshot stays the first record handed out; folding it again changes nothing.
        switch start {
        case .beginning:
            break
        case .after(let moment):
            try checkNotBeforeJournal(moment)
            do {
                try foldWhile { moment.includes(sequence: $0.sequence, time: $0.time) }
            } catch JournalError.corrupted(let damage) where Self.reached(moment, at: position) {
                failureAhead = JournalError.corrupted(damage)
            }
        case .at(let moment):
            try checkNotBeforeJournal(moment)
            try foldWhile { isBefore($0, moment) }
        }
    }

    /// A walk over segment `index` of `reader` alone, from the snapshot that begins it; nil when
    /// the segment cannot be folded alone (it does not begin with a readable snapshot, or it
    /// cannot be opened): a caller folding segments side by side then walks it in order. It
    /// reads on the calling thread: a worker of such a fold, whose peers already fill the cores.
    package static func alone(_ reader: JournalReader, segment index: Int, decoding: RecordDecoding = .whole) -> JournalWalk? {
        // The reason is found again by the walk in order.
        (try? JournalWalk(reader: reader, segment: index, after: nil, decoding: decoding, readsAhead: false)) ?? nil
    }

    /// Opens a walk over segment `index` of `reader` alone, up to the next segment's first
    /// sequence. Without `state`, the walk starts at the snapshot that begins the segment, and
    /// is nil when the segment does not begin with a readable one (its state then depends on
    /// the segments before). With `state` (the state the segments before ended with), the walk
    /// goes on from it exactly as a walk over the whole journal would at that point. With
    /// `readsAhead` false the records are read on the calling thread (``FactStream``).
    package init?(reader: JournalReader, segment index: Int, after state: SDKState?, decoding: RecordDecoding = .whole,
                  readsAhead: Bool = true) throws {
        let segments = reader.segments
        remembersLastFolded = false
        self.reader = reader
        end = index + 1 < segments.count ? segments[index + 1].baseSequence : nil
        let stream = try FactStream(reader: reader, from: index == 0 && state != nil ? nil : segments[index].baseSequence,
                                    decoding: decoding, readsAhead: readsAhead)
        self.stream = stream
        let first = try stream.next()
        if let state {
            self.state = state
        } else if let first, first.sequence == segments[index].baseSequence, case .snapshot(let snapshot) = first.content {
            self.state = snapshot
        } else {
            return nil
        }
        lookahead = first
        lookaheadSkip = stream.lastSkip
    }

    private func isBefore(_ record: DecodedRecord, _ moment: Moment) -> Bool {
        switch moment {
        case .sequence(let sequence): record.sequence < sequence
        case .time(let time): record.time < time
        }
    }

    /// Opens the segment whose snapshot comes last at or before `moment`, falling back to
    /// earlier segments when a snapshot cannot be read.
    private static func open(reader: JournalReader, near moment: Moment?, decoding: RecordDecoding, readsAhead: Bool)
        throws -> (SDKState, FactStream, DecodedRecord?) {
        let segments = reader.segments
        if case .time? = moment {
            // A time is found by the headers' base times: every segment's is read (and checked).
            for index in segments.indices { _ = try reader.header(ofSegment: index) }
        }
        var candidate: Int? = switch moment {
        case nil: segments.isEmpty ? nil : 0
        case .sequence(let sequence)?: segments.lastIndex { $0.baseSequence <= sequence } ?? (segments.isEmpty ? nil : 0)
        case .time(let time)?: segments.lastIndex { ($0.header?.baseTime).map { $0 <= time } ?? false } ?? (segments.isEmpty ? nil : 0)
        }
        while let index = candidate {
            let segment = segments[index]
            if try reader.header(ofSegment: index) != nil {
                let stream = try FactStream(reader: reader, from: segment.baseSequence, decoding: decoding, readsAhead: readsAhead)
                if let first = try stream.next(), first.sequence == segment.baseSequence, case .snapshot(let state) = first.content {
                    return (state, stream, first)
                }
            }
            candidate = index > 0 ? index - 1 : nil
        }
        // No readable snapshot at or before the start: fold from an empty state at the first
        // record (right for a journal that still holds its first segment; the unreadable
        // snapshots are reported as skipped records).
        let stream = try FactStream(reader: reader, decoding: decoding, readsAhead: readsAhead)
        return (SDKState(), stream, try stream.next())
    }

    /// Folds records while `isBefore` holds for them. Each record is taken once and kept back (as
    /// the lookahead) only when it is the first past: no copy of it per record.
    private func foldWhile(_ isBefore: (DecodedRecord) -> Bool) throws {
        while let record = try next() {
            guard isBefore(record) else {
                lookahead = record
                lookaheadSkip = resumedAfter
                return
            }
            fold(record)
        }
    }

    /// Whether a walk at `position` has folded every record of `moment`: known for a sequence
    /// number only (a later record might still be at or before a time).
    private static func reached(_ moment: Moment, at position: (sequence: UInt64, time: JournalTime)?) -> Bool {
        guard case .sequence(let last) = moment else { return false }
        return position?.sequence == last
    }

    private func checkNotBeforeJournal(_ moment: Moment) throws {
        var first: SegmentHeader?
        for index in reader.segments.indices where first == nil { first = try reader.header(ofSegment: index) }
        guard let header = first else { return }
        switch moment {
        case .sequence(let sequence) where sequence < header.baseSequence:
            throw MomentError.beforeJournal(moment, first: "sequence \(header.baseSequence)")
        case .time(let time) where time < header.baseTime:
            throw MomentError.beforeJournal(moment, first: header.baseTime.description)
        default:
            break
        }
    }

    /// The next record without taking it.
    package func peek() throws -> DecodedRecord? {
        if lookahead == nil {
            let current = (followsSkip, skipBefore)
            lookahead = try next()
            lookaheadSkip = resumedAfter
            (followsSkip, skipBefore) = current
        }
        return lookahead
    }

    /// Takes the next record, not yet folded: look at ``state`` first if needed, then call
    /// ``fold(_:)``.
    package func next() throws -> DecodedRecord? {
        let record: DecodedRecord
        if let held = lookahead.take() {
            record = held
            skipBefore = lookaheadSkip.take()
            followsSkip = skipBefore != nil
        } else {
            if let failure = failureAhead {
                failureAhead = nil
                throw failure
            }
            guard let read = try stream.next() else { return nil }
            record = read
            // A flag a record; the skip itself is copied only for the record after one.
            followsSkip = stream.lastFollowsSkip
            if followsSkip { skipBefore = stream.lastSkip }
        }
        if let end, record.sequence >= end {
            lookahead = record
            lookaheadSkip = resumedAfter
            return nil
        }
        return record
    }

    /// Calls `body` with ``state`` lent in place. Reading the property copies the whole state
    /// (a retain and a release of each of its parts); a caller that looks at it once per record
    /// lends it instead.
    package func withState<Result>(_ body: (borrowing SDKState) throws -> Result) rethrows -> Result {
        // Through an inout access: a class's stored property read for a call is copied, even
        // for a borrowing parameter; the exclusive access to it is not.
        try Self.lend(&state, to: body)
    }

    /// Lends the state before `record` to `look` (as ``withState(_:)`` does), then folds
    /// `record`: how a command that reads each record against the state before it walks.
    package func fold(_ record: DecodedRecord, lookingBefore look: (borrowing SDKState) throws -> Void) rethrows {
        // Through one access to the state for both (each access to a class's stored property is
        // checked for exclusivity at run time, once per record here).
        try Self.lend(&state, to: look, thenApply: record)
        noteFolded(record)
    }

    private static func lend(_ state: inout SDKState, to look: (borrowing SDKState) throws -> Void,
                             thenApply record: DecodedRecord) rethrows {
        try look(state)
        apply(record, to: &state)
    }

    /// ``fold(_:lookingBefore:)`` for a command that reads the record's fact too: `look` gets
    /// the state before `record` and the fact it holds (nil for a snapshot or an unreadable
    /// record). The fact is taken out of the record once for both (each taking-out copies it:
    /// a retain and a release of each of its parts, a record).
    package func fold(_ record: DecodedRecord, lookingBeforeWithFact look: (borrowing SDKState, Fact?) throws -> Void) rethrows {
        try Self.lend(&state, to: look, thenApply: record)
        noteFolded(record)
    }

    private static func lend(_ state: inout SDKState, to look: (borrowing SDKState, Fact?) throws -> Void,
                             thenApply record: DecodedRecord) rethrows {
        guard case .fact(let fact) = record.content else {
            try look(state, nil)
            return apply(record, to: &state)
        }
        try look(state, fact)
        state.evolve(fact, at: record.time)
    }

    private static func lend<Result>(_ state: inout SDKState, to body: (borrowing SDKState) throws -> Result) rethrows -> Result {
        try body(state)
    }

    /// Replaces the state the walk continues from (a redacted copy of it, say); the next
    /// record folds onto it.
    func replaceState(_ replacement: SDKState) {
        state = replacement
    }

    /// Applies `record` to the state: a snapshot replaces it, a fact evolves it, an unreadable
    /// record is skipped.
    package func fold(_ record: DecodedRecord) {
        Self.apply(record, to: &state)
        noteFolded(record)
    }

    private static func apply(_ record: DecodedRecord, to state: inout SDKState) {
        switch record.content {
        case .snapshot(let snapshot): state = snapshot
        case .fact(let fact): state.evolve(fact, at: record.time)
        case .unreadable: break
        }
    }

    /// Runs today's `decide` for `input` on the walk's own state, in place (no copy of the
    /// state), and returns the facts it produced, the input first. The state is then the one
    /// folding those facts gives; the records are not counted as folded: the caller either
    /// confirms them with ``noteFolded(_:)`` (the recorded facts are the produced ones) or
    /// replaces the state (``replaceState(_:)``) and folds the recorded ones.
    func decideInPlace(_ input: Fact, at time: JournalTime) -> [Fact] {
        state.decide(input, at: time)
    }

    /// Counts `record` as folded, its effect already in the state (see ``decideInPlace(_:at:)``).
    func noteFolded(_ record: DecodedRecord) {
        position = (record.sequence, record.time)
        if remembersLastFolded { lastFolded = record }
        folded += 1
        if folded % Self.progressInterval == 0 { onProgress?(record.sequence) }
    }
}
