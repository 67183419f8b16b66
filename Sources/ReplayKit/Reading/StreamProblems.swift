import Journal

/// What a walk over a journal skipped or where it stopped: the first unreadable records, how
/// many there were, and the torn tail that ended the journal. The problems of consecutive
/// segments' streams add up (``append(_:)``) to those of one stream over the whole journal.
package struct StreamProblems: Sendable {
    /// The first unreadable records (sequence and reason), at most ``sampleLimit``.
    var unreadableSample: [(sequence: UInt64, reason: String)] = []
    /// How many unreadable records were read.
    var unreadableCount = 0
    /// The torn tail that ended the journal, if it ended on one.
    var tornTail: Damage?
    static let sampleLimit = 20

    package init() {}

    mutating func noteUnreadable(_ sequence: UInt64, _ reason: String) {
        unreadableCount += 1
        if unreadableSample.count < Self.sampleLimit { unreadableSample.append((sequence, reason)) }
    }

    /// Adds the problems of the stream that read the records after this one's.
    package mutating func append(_ later: StreamProblems) {
        unreadableSample += later.unreadableSample.prefix(Self.sampleLimit - unreadableSample.count)
        unreadableCount += later.unreadableCount
        tornTail = later.tornTail
    }

    /// Prints what was skipped or where the journal stopped, on standard error; returns whether
    /// there was anything worth exit status 1 (unreadable records).
    @discardableResult
    package func report(command: String, console: Console) -> Bool {
        for (sequence, reason) in unreadableSample {
            console.printError("replay \(command): record \(sequence) skipped: \(reason)")
        }
        if unreadableCount > unreadableSample.count {
            console.printError("replay \(command): \(unreadableCount - unreadableSample.count) more unreadable record(s) skipped")
        }
        if let tornTail {
            console.printError("replay \(command): the journal ends in a torn tail (\(tornTail)); records after it are lost")
        }
        return unreadableCount > 0
    }
}
