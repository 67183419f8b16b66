import Journal
import ReplayKit
import SDK

/// `replay check`: the switch contract's invariants over a journal.
struct CheckCommand: JournalListCommand {
    static let name = "check"
    static let summary = "verify the switch contract's invariants; exit 1 on any violation"
    static let help = """
        usage: replay check [--json] [--salvage] [--jobs J] <journal>...

        Checks, over the whole journal, the invariants of the switch contract:

        \(ContractRule.allCases.map { "  \($0.rawValue.padding(toLength: 25, withPad: " ", startingAt: 0))\($0.summary)" }.joined(separator: "\n"))

        Each violation is printed with the sequence numbers that prove it (look them up with
        `replay timeline --from SEQ`). Exit status: 0 when every rule holds, 1 otherwise.

          --json     one JSON object: every rule with its violations
        \(SalvageOption.help(column: 13))
                     (the rules begin again from that snapshot: what the lost records
                     would have shown is not a violation)
        \(JournalList.help(column: 13, splitsSegments: true))
        """

    let journal: JournalArgument
    let salvage: SalvageOption
    static let takesSalvage = true

    init(journal: JournalArgument) {
        self.journal = journal
        salvage = SalvageOption()
    }

    init(arguments: inout Arguments) throws(UsageError) {
        salvage = SalvageOption(arguments: &arguments)
        journal = try JournalArgument(arguments: &arguments)
    }

    func run(console: Console) throws -> ExitStatus {
        try journal.run(Self.name, console: console) { [json = journal.json, list = journal.list, salvage] path, console, many in
            try Self.answer(path, json: json, console: console, jobs: many ? 1 : list.jobs, jobsGiven: list.jobsGiven && !many,
                            salvage: salvage)
        }
    }

    /// Checks one journal and prints its findings (as one of many: its segments in order).
    static func answer(_ path: String, json: Bool, console: Console, many: Bool) throws -> ManyJournals.Answer {
        try answer(path, json: json, console: console, jobs: 1, jobsGiven: false, salvage: SalvageOption())
    }

    /// Checks one journal and prints its findings; its segments decoded and folded `jobs` at a
    /// time (the rules take the records in order, on this thread: they follow calls, tasks
    /// and switches across the segments).
    static func answer(_ path: String, json: Bool, console: Console, jobs: Int, jobsGiven: Bool,
                       salvage: SalvageOption) throws -> ManyJournals.Answer {
        let reader = try JournalSource.open(path, console: console, readMode: salvage.readMode())
        let checker = ContractChecker()
        let walk = try checker.consume(reader, jobs: jobs, onProgress: { console.progress("checking seq \($0)") })
        console.clearProgress()
        JobsNote.report(walk, command: Self.name, jobs: jobs, given: jobsGiven, because: salvage.walksInOrderBecause, console: console)
        checker.finish(state: walk.state)
        if json {
            console.print(JSONValue.object([
                ("clean", .bool(checker.isClean)),
                ("records", .integer(Int64(checker.records))),
                ("rules", .array(ContractRule.allCases.map { rule in
                    .object([("rule", .string(rule.rawValue)), ("summary", .string(rule.summary)),
                             ("violations", .integer(Int64(checker.counts[rule] ?? 0))),
                             ("details", .array((checker.violations[rule] ?? []).map { violation in
                                 .object([("message", .string(violation.message)),
                                          ("sequences", .array(violation.sequences.map { .unsigned($0) }))])
                             }))])
                })),
            ]).serialized())
        } else {
            let span = walk.position.map { " (up to seq \($0.sequence))" } ?? ""
            console.print("check: \(ContractRule.allCases.count) rules over \(Format.count(checker.records)) records\(span)")
            for rule in ContractRule.allCases {
                let count = checker.counts[rule] ?? 0
                let name = rule.rawValue.padding(toLength: 25, withPad: " ", startingAt: 0)
                console.print(count == 0 ? "  ok    \(name)\(rule.summary)" : "  FAIL  \(name)\(count) violation(s)")
                for violation in checker.violations[rule] ?? [] {
                    let proof = violation.sequences.isEmpty ? "" : "seq " + violation.sequences.map(String.init).joined(separator: ", ") + ": "
                    console.print("          \(proof)\(violation.message)")
                }
                if count > (checker.violations[rule]?.count ?? 0) {
                    console.print("          ... and \(count - (checker.violations[rule]?.count ?? 0)) more")
                }
            }
            console.print(checker.isClean ? "no violation" : "\(checker.counts.values.reduce(0, +)) violation(s)")
        }
        let unreadable = walk.problems.report(command: Self.name, console: console)
        let violations = checker.counts.values.reduce(0, +)
        var tally = Tally([("records", checker.records), ("clean_journals", checker.isClean ? 1 : 0),
                           ("journals_with_violations", checker.isClean ? 0 : 1), ("violations", violations)])
        for rule in ContractRule.allCases { tally.add("violations_" + rule.rawValue, checker.counts[rule] ?? 0) }
        return ManyJournals.Answer(status: checker.isClean && !unreadable ? .ok : .findings, journalID: reader.journalID?.uuidString,
                                   tally: tally)
    }
}
