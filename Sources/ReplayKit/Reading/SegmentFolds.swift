import Journal

/// Folds a journal's segments side by side, each from the snapshot that begins it, and hands
/// their answers to the calling thread in segment order, so that a command can join them into
/// the answer one walk over the whole journal gives.
///
/// `fold` runs on up to `jobs` threads of its own, one segment at a time; `join` runs on the
/// calling thread, segment 0 first. Memory stays bounded by the segments in flight: a thread
/// starts a segment only while fewer than ``window(jobs:)`` segments are folded or waiting to
/// be joined. When `join` throws, no segment is started any more; the call returns once the
/// threads have finished the ones they were folding.
package enum SegmentFolds {
    /// Whether `reader`'s segments can be folded each on its own: more than one, each header
    /// readable and of this journal, base sequences increasing, and a reader that stops at
    /// damage (one that goes on past it walks in order, where the damage is met). Otherwise a
    /// command walks the journal in order (which reports whatever is wrong where it is met).
    package static func canSplit(_ reader: JournalReader) -> Bool {
        let segments = reader.segments
        guard segments.count > 1, reader.readMode == .strict else { return false }
        for index in segments.indices {
            guard (try? reader.header(ofSegment: index)) != nil else { return false }
            if index > 0 && segments[index].baseSequence <= segments[index - 1].baseSequence { return false }
        }
        return true
    }

    /// The segments folded or waiting to be joined at most.
    static func window(jobs: Int) -> Int {
        2 * jobs
    }

    /// Folds segments `0..<count` with `fold` on `jobs` threads and hands each result to `join`
    /// in order, on the calling thread (``InOrderWork``, within ``window(jobs:)``).
    package static func run<Part: Sendable>(segments count: Int, jobs: Int, fold: @escaping @Sendable (Int) -> Part,
                                            join: (Int, Part) throws -> Void) rethrows {
        try InOrderWork.run(count: count, jobs: jobs, window: window(jobs: jobs), work: fold, deliver: join)
    }
}
