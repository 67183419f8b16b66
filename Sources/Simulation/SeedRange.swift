import Dispatch
import Journal
import Locking
import ReplayKit

/// Runs the stories of a range of seeds, on `jobs` threads (each takes every `jobs`-th seed), and
/// gathers the figures and the failing outcomes. Each story runs in its own world, so threads
/// share nothing but the tally.
package struct SeedRange: Sendable {
    var firstSeed: UInt64
    var count: Int
    var steps: Int
    var jobs: Int
    /// Whether commit groups are cut inside an input's facts (`FaultProfile.groupsCutInsideInputs`).
    var cutsGroupsInsideInputs = false
    /// Whether projection equality is checked after every input (else at crashes and the end).
    var checksEveryInput = false
    /// Where to keep each story's final journal, as `KEEP/<seed>/` (nil: kept nowhere).
    var keep: String?
    /// Whether each kept journal gets its backend's receipt log beside its segments, as
    /// `KEEP/<seed>/received.ndjson` (``StoryRunner/receiptLogName``).
    var keepsReceiptLogs = false

    package init(firstSeed: UInt64, count: Int, steps: Int, jobs: Int, cutsGroupsInsideInputs: Bool = false,
                 checksEveryInput: Bool = false, keep: String? = nil, keepsReceiptLogs: Bool = false) {
        self.firstSeed = firstSeed
        self.count = count
        self.steps = steps
        self.jobs = jobs
        self.cutsGroupsInsideInputs = cutsGroupsInsideInputs
        self.checksEveryInput = checksEveryInput
        self.keep = keep
        self.keepsReceiptLogs = keepsReceiptLogs
    }

    /// What the range's stories found.
    package struct Tally: Sendable {
        package var stories = 0
        package var records = 0
        package var requestsReceived = 0
        package var launches = 0
        package var explained: [String: Int] = [:]
        /// Every story's journal digest, mixed with its seed, summed: the same for the same
        /// seeds whatever the order they ran in (equal across runs, processes and job counts).
        package var journalsDigest: UInt64 = 0
        /// The failing stories, by seed.
        package var failed: [StoryOutcome] = []
        /// Journals that could not be kept (`--keep`), each with the path and why.
        package var unkept: [String] = []

        mutating func add(_ other: Tally) {
            stories += other.stories
            records += other.records
            requestsReceived += other.requestsReceived
            launches += other.launches
            explained.merge(other.explained, uniquingKeysWith: +)
            journalsDigest &+= other.journalsDigest
            failed += other.failed
            unkept += other.unkept
        }
    }

    /// Runs the range's stories; `progress` hears the number of stories done every 1,000 (one job only).
    package func run(progress: ((Int) -> Void)? = nil) -> Tally {
        let jobs = max(1, min(jobs, count))
        var result: Tally
        if jobs == 1 {
            result = runJob(0, of: 1, progress: progress)
        } else {
            let total = Locked(Tally())
            DispatchQueue.concurrentPerform(iterations: jobs) { job in
                let tally = runJob(job, of: jobs, progress: nil)
                total.withLock { $0.add(tally) }
            }
            result = total.withLock { $0 }
        }
        result.failed.sort { $0.seed < $1.seed }
        return result
    }

    /// The stories of seeds `firstSeed + job`, `firstSeed + job + jobs`, ...
    private func runJob(_ job: Int, of jobs: Int, progress: ((Int) -> Void)?) -> Tally {
        var tally = Tally()
        var index = job
        while index < count {
            let seed = firstSeed &+ UInt64(index)
            var kept: InMemoryStorage?
            var receipts: [ReceiptLine]?
            let outcome = StoryRunner.run(StoryGenerator.story(seed: seed, length: steps, cutsGroupsInsideInputs: cutsGroupsInsideInputs),
                                          checksEveryInput: checksEveryInput, journal: keep == nil ? nil : { kept = $0 },
                                          receiptLog: keep == nil || !keepsReceiptLogs ? nil : { receipts = $0 })
            if let keep, let kept {
                let directory = keep + "/\(seed)"
                do {
                    try StoryRunner.write(kept, to: directory)
                    if let receipts { try StoryRunner.write(receiptLog: receipts, to: directory + "/" + StoryRunner.receiptLogName) }
                } catch { tally.unkept.append("\(directory): \(error)") }
            }
            tally.stories += 1
            tally.records += outcome.records
            tally.requestsReceived += outcome.requestsReceived
            tally.launches += outcome.launches
            tally.explained.merge(outcome.explained, uniquingKeysWith: +)
            var mixer = SimulationRandom(seed: outcome.journalDigest ^ seed)
            tally.journalsDigest &+= mixer.next()
            if !outcome.passed { tally.failed.append(outcome) }
            index += jobs
            if tally.stories % 1_000 == 0 { progress?(tally.stories) }
        }
        return tally
    }
}
