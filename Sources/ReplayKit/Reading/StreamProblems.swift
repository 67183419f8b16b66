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
    /// The damage a walk went on past (a reader in ``JournalReader/ReadMode/skipToNextSegment``
    /// mode), each with where it resumed.
    package var skippedDamage: [SkippedRange] = []
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
        skippedDamage += later.skippedDamage
        tornTail = later.tornTail
    }

    /// Prints what was skipped or where the journal stopped, on standard error; returns whether
    /// there was anything worth exit status 1 (unreadable records, damage gone on past).
    @discardableResult
    package func report(command: String, console: Console) -> Bool {
        for skip in skippedDamage {
            console.printError("replay \(command): \(Self.wentOnPast(skip))")
        }
        for (sequence, reason) in unreadableSample {
            console.printError("replay \(command): record \(sequence) skipped: \(reason)")
        }
        if unreadableCount > unreadableSample.count {
            console.printError("replay \(command): \(unreadableCount - unreadableSample.count) more unreadable record(s) skipped")
        }
        if let tornTail {
            console.printError("replay \(command): the journal ends in a torn tail (\(tornTail)); records after it are lost")
        }
        return unreadableCount > 0 || !skippedDamage.isEmpty
    }

    /// What a walk that went on past damage says of `skip`: what was lost and where it resumed.
    package static func wentOnPast(_ skip: SkippedRange) -> String {
        guard let resumed = skip.resumedAtSequence else { return "went on past damage: \(skip); nothing readable follows it" }
        switch skip.resumedAtOffset {
        case 0? where skip.damage.offset == 0:
            // A segment file missing (or a segment that does not follow on): nothing was read past.
            return "went on past a gap: \(skip.damage.reason); the answer goes on from sequence \(resumed), where \(skip.damage.segment) begins"
        case nil, 0?:
            return "went on past damage: \(skip); the answer goes on from sequence \(resumed), where the next segment begins"
        case _?:
            return "went on past damage: \(skip); reading goes on from sequence \(resumed), at the next readable block"
        }
    }
}
