import Journal
import ReplayKit
import SDK

/// `replay check`: the switch contract's invariants over a journal.
struct CheckCommand: JournalListCommand {
    static let name = "check"
    static let summary = "verify the switch contract's invariants; exit 1 on any violation"
    static let help = """
        usage: replay check [--json] [--jobs J] <journal>...

        Checks, over the whole journal, the invariants of the switch contract:

        \(ContractRule.allCases.map { "  \($0.rawValue.padding(toLength: 25, withPad: " ", startingAt: 0))\($0.summary)" }.joined(separator: "\n"))

        Each violation is printed with the sequence numbers that prove it (look them up with
        `replay timeline --from SEQ`). Exit status: 0 when every rule holds, 1 otherwise.

          --json     one JSON object: every rule with its violations
        \(JournalList.help(column: 13))
        """

    let journal: JournalArgument

    /// Checks one journal and prints its findings.
    static func answer(_ path: String, json: Bool, console: Console, many: Bool) throws -> ManyJournals.Answer {
        let reader = try JournalArgument.open(path, console: console)
        let walk = try JournalWalk(reader: reader, onProgress: { console.progress("checking seq \($0)") })
        let checker = ContractChecker()
        while let record = try walk.next() {
            walk.fold(record) { checker.consume(record, before: $0) }
        }
        console.clearProgress()
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
        let unreadable = walk.stream.reportProblems(command: Self.name, console: console)
        let violations = checker.counts.values.reduce(0, +)
        var tally = Tally([("records", checker.records), ("clean_journals", checker.isClean ? 1 : 0),
                           ("journals_with_violations", checker.isClean ? 0 : 1), ("violations", violations)])
        for rule in ContractRule.allCases { tally.add("violations_" + rule.rawValue, checker.counts[rule] ?? 0) }
        return ManyJournals.Answer(status: checker.isClean && !unreadable ? .ok : .findings, journalID: reader.journalID?.uuidString,
                                   tally: tally)
    }
}
