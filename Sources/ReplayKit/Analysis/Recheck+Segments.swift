import Journal
import SDK

extension Recheck {
    /// What a recheck counted and kept: its answer, without the walk.
    package struct Summary: Sendable {
        package var inputs = 0
        package var checked = 0
        package var skipped = 0
        package var mismatchCount = 0
        package var mismatches: [Mismatch] = []

        /// Adds `later`'s (a recheck of the records after these), keeping at most `limit` mismatches.
        mutating func append(_ later: Summary, limit: Int) {
            inputs += later.inputs
            checked += later.checked
            skipped += later.skipped
            mismatchCount += later.mismatchCount
            mismatches += later.mismatches.prefix(max(0, limit - mismatches.count))
        }
    }

    package var summary: Summary {
        Summary(inputs: inputs, checked: checked, skipped: skipped, mismatchCount: mismatchCount, mismatches: mismatches)
    }

    /// Rechecks every segment of `reader` on its own, `jobs` at a time, and adds up their
    /// answers in order. Each input's decisions end where the next snapshot begins (a snapshot
    /// closes the input before it), so a segment that begins with its snapshot is rechecked
    /// alone as the walk over the whole journal rechecks it. Nil when a segment does not begin
    /// with a readable snapshot or reading one failed: the caller walks the journal in order,
    /// which reports what is wrong where it is met (nothing is printed before the end).
    package static func inSegments(_ reader: JournalReader, limit: Int, jobs: Int) -> (Summary, StreamProblems)? {
        var total = Summary()
        var problems = StreamProblems()
        var split = true
        struct Unsplit: Error {}
        do {
            try SegmentFolds.run(segments: reader.segments.count, jobs: jobs, fold: { index -> (Summary, StreamProblems)? in
                do {
                    guard let walk = try JournalWalk(reader: reader, segment: index, after: nil, readsAhead: false) else { return nil }
                    let recheck = Recheck(limit: limit)
                    while let record = try walk.next() { try recheck.take(record, on: walk) }
                    try recheck.finish(on: walk)
                    return (recheck.summary, walk.stream.problems)
                } catch {
                    return nil
                }
            }, join: { _, part in
                guard let (summary, skipped) = part else { throw Unsplit() }
                total.append(summary, limit: limit)
                problems.append(skipped)
            })
        } catch {
            split = false
        }
        return split ? (total, problems) : nil
    }
}
