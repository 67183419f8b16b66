import ReplayKit

/// The note on standard error that says a `--jobs J` asked for a journal's segments side by
/// side and some or all of them were walked in order instead: a journal of one segment, a
/// segment header unreadable or out of order (the whole journal in order), or a segment that
/// does not begin with a readable snapshot (that segment in order). Printed only when `--jobs`
/// was given and above 1, so that a timing of `--jobs J` can tell it measured a split; the
/// answer on standard output is the same either way.
enum JobsNote {
    /// Notes how `walked` went, when `jobs` was given.
    static func report(_ walked: SegmentFolds.Walked, command: String, jobs: Int, given: Bool, because: String? = nil,
                       console: Console) {
        report(command: command, jobs: jobs, given: given, segments: walked.segmentsAlone + walked.segmentsInOrder,
               inOrder: walked.segmentsInOrder, wholeInOrder: walked.walkedInOrder, because: because, console: console)
    }

    /// Notes that `inOrder` of `segments` segments were walked in order (all of them, from the
    /// journal's start, when `wholeInOrder`), when `jobs` was given.
    /// `because` says why the whole journal was walked in order when the segments could be
    /// split (a fold that gives up on a segment without a readable snapshot).
    static func report(command: String, jobs: Int, given: Bool, segments: Int, inOrder: Int, wholeInOrder: Bool,
                       because: String? = nil, console: Console) {
        guard given, jobs > 1, inOrder > 0 else { return }
        let why: String
        if wholeInOrder {
            why = segments <= 1 ? "the journal has one segment" : because ?? "a segment header is unreadable or out of order"
            console.printError("replay \(command): --jobs \(jobs): walked in order (\(why))")
        } else {
            console.printError("replay \(command): --jobs \(jobs): \(inOrder) of \(segments) segment(s) walked in order "
                               + "(no readable snapshot at their start)")
        }
    }
}
