import Journal
import SDK

extension SegmentFolds {
    /// How a walk by ``walk(_:jobs:look:consume:passOver:consumeInOrder:onProgress:)`` went: where it
    /// stopped, what its streams skipped, and which segments were folded side by side.
    package struct Walked: Sendable {
        /// What the streams skipped, and the torn tail that ended the journal, if any.
        package var problems = StreamProblems()
        /// The state after the last record.
        package var state = SDKState()
        /// The last record handed out (sequence and time), if any.
        package var position: (sequence: UInt64, time: JournalTime)?
        /// Segments folded on their own, from their snapshots, on the worker threads.
        package var segmentsAlone = 0
        /// Segments walked in order on the calling thread: every segment when the journal could
        /// not be split (one segment, a header unreadable, `jobs` 1), or one that did not begin
        /// with a readable snapshot.
        package var segmentsInOrder = 0
        /// Whether the journal was walked in order from its start, without a split.
        package var walkedInOrder = false

        /// A journal of `segments` segments walked in order from its start, without a split.
        package static func inOrder(segments: Int) -> Walked {
            var walked = Walked()
            walked.walkedInOrder = true
            walked.segmentsInOrder = segments
            return walked
        }
    }

    /// A record of a segment folded alone, as the calling thread takes it.
    private enum Input<Look: Sendable>: Sendable {
        /// A record and what the command reads of the state before it.
        case record(DecodedRecord, Look)
        /// Records in a row the command passes over (it only counts them).
        case passedOver(Int)
    }

    /// The records of one segment as a worker hands them over.
    private enum LookedAt<Look: Sendable>: Sendable {
        /// The segment's first record (its snapshot, looked at on the calling thread against
        /// the state the segments before ended with; `start` for segment 0: its own snapshot),
        /// the others, its stream's problems, end state and last record, and the error that stopped it, if one did.
        case folded(first: DecodedRecord?, inputs: [Input<Look>], start: SDKState?, problems: StreamProblems, end: SDKState,
                    position: (sequence: UInt64, time: JournalTime)?, failure: HandedOverError?)
        /// The segment does not begin with a readable snapshot.
        case unsplit
    }

    /// Hands every record of `reader` to the calling thread in order, each with the state before
    /// it, while the decoding and the folding of the state run on `jobs` threads, a segment
    /// each from its snapshot: for a command whose own bookkeeping crosses the segments (and so
    /// cannot be split), but which reads only a little of the state before each record.
    ///
    /// `look` (on a worker) takes from the state before a record what the command needs of it,
    /// or nil for a record the command passes over (taking it in changes nothing but a count);
    /// `consume` (on the calling thread) gets a record and its look, `passOver` the number of
    /// records in a row passed over. The first record of a segment (its snapshot), a segment
    /// without a readable snapshot (walked in order from the state the one before ended with),
    /// and the whole journal when it cannot be split (one segment, an unreadable header, `jobs`
    /// 1) go to `consumeInOrder` with the state itself, as a walk in order hands them. Every
    /// record goes to one of the three, in the order of the walk over the whole journal, against
    /// the same state; an error is thrown after the records the walk in order hands out before
    /// throwing it. `onProgress` gets a sequence now and then. A reader that goes on past
    /// damage is walked in order; `resume` hears of each skip before the record after it (the
    /// snapshot the walk resumes at).
    package static func walk<Look: Sendable>(_ reader: JournalReader, jobs: Int,
                                             look: @escaping @Sendable (DecodedRecord, borrowing SDKState) -> Look?,
                                             consume: (DecodedRecord, Look) -> Void,
                                             passOver: (Int) -> Void,
                                             consumeInOrder: (DecodedRecord, borrowing SDKState) -> Void,
                                             resume: (SkippedRange) -> Void = { _ in },
                                             onProgress: ((UInt64) -> Void)? = nil) throws -> Walked {
        var walked = Walked()
        guard jobs > 1, canSplit(reader) else {
            let walk = try JournalWalk(reader: reader, onProgress: onProgress)
            walked = .inOrder(segments: reader.segments.count)
            while let record = try walk.next() {
                if let skip = walk.resumedAfter { resume(skip) }
                walk.fold(record) { consumeInOrder(record, $0) }
            }
            walked.problems = walk.stream.problems
            walked.state = walk.state
            walked.position = walk.position
            return walked
        }
        try run(segments: reader.segments.count, jobs: jobs, fold: { index in
            lookAlone(reader, segment: index, look: look)
        }, join: { index, part in
            guard case .folded(let first, let inputs, let start, let problems, let end, let position, let failure) = part else {
                walked.segmentsInOrder += 1
                guard let walk = try JournalWalk(reader: reader, segment: index, after: walked.state) else { return }
                while let record = try walk.next() {
                    walk.fold(record) { consumeInOrder(record, $0) }
                }
                walked.problems.append(walk.stream.problems)
                walked.state = walk.state
                walked.position = walk.position ?? walked.position
                return
            }
            walked.segmentsAlone += 1
            if let first {
                consumeInOrder(first, start ?? walked.state)
                for input in inputs {
                    switch input {
                    case .record(let record, let look): consume(record, look)
                    case .passedOver(let count): passOver(count)
                    }
                }
            }
            walked.problems.append(problems)
            walked.state = end
            walked.position = position ?? walked.position
            if let position = walked.position { onProgress?(position.sequence) }
            if let failure { throw failure.error }
        })
        return walked
    }

    /// Folds segment `index` alone from its snapshot, looking at the state before each record
    /// after the snapshot.
    private static func lookAlone<Look: Sendable>(_ reader: JournalReader, segment index: Int,
                                                  look: (DecodedRecord, borrowing SDKState) -> Look?) -> LookedAt<Look> {
        guard let walk = JournalWalk.alone(reader, segment: index) else { return .unsplit }
        let start = index == 0 ? walk.state : nil
        var first: DecodedRecord?
        var inputs: [Input<Look>] = []
        var passed = 0
        do {
            if let record = try walk.next() {
                walk.fold(record)
                first = record
            }
            while let record = try walk.next() {
                if let looked = walk.withState({ look(record, $0) }) {
                    if passed > 0 { inputs.append(.passedOver(passed)) }
                    passed = 0
                    walk.fold(record)
                    inputs.append(.record(record, looked))
                } else {
                    passed += 1
                    walk.fold(record)
                }
            }
        } catch {
            if passed > 0 { inputs.append(.passedOver(passed)) }
            return .folded(first: first, inputs: inputs, start: start, problems: walk.stream.problems, end: walk.state,
                           position: walk.position, failure: HandedOverError(error: error))
        }
        if passed > 0 { inputs.append(.passedOver(passed)) }
        return .folded(first: first, inputs: inputs, start: start, problems: walk.stream.problems, end: walk.state,
                       position: walk.position, failure: nil)
    }
}
