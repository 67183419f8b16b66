import Demo
import Foundation
import Journal
import ReplayKit
import SDK

/// `replay demo`: runs the scripted two-region story and explains its journal.
struct DemoCommand: Command {
    static let name = "demo"
    static let summary = "run a scripted two-region story and explain its journal"
    static let help = """
        usage: replay demo [--out DIR] [--json]

        Runs a real SDK, in this process, against a loopback sandbox backend with a US and an EU
        project, on a manual clock: it initializes on US, identifies the user, registers for
        push, tracks and purchases; switches to EU (tapped twice) while the US disable is held
        on the wire, with calls made during the switch and a push opened mid-switch; refuses a
        late attribution write after the clear; then switches back to US while the journal is
        slow to make the disable durable. The journal is written to DIR and is the same on every
        run (but for its id); the sandbox's receipt log (what each project received, one line
        per call, docs/RECONCILE.md) beside it as DIR/received.ndjson, for `replay reconcile`.
        Then it prints the diagnosis of each switch and commands to try.

          --out DIR   where to write the journal (created; must be empty); default: a new
                      temporary directory
          --json      print the outcome as one JSON object instead
        """

    let output: String?
    let json: Bool

    init(arguments: inout Arguments) throws(UsageError) {
        output = try arguments.option("--out")
        json = arguments.flag("--json")
    }

    func run(console: Console) throws -> ExitStatus {
        let directory = output ?? NSTemporaryDirectory() + "replay-demo-\(UUID().uuidString.prefix(8).lowercased())"
        let outcome = try DemoStory.runToCompletion(into: directory)
        let reader = try JournalSource.open(outcome.journal, console: console)
        if json {
            console.print(JSONValue.object([
                ("journal", .string(outcome.journal)),
                ("receipt_log", .string(outcome.receiptLog)),
                ("projects", .object(outcome.projects.map { ($0.name, .string($0.fingerprint.hex)) })),
                ("switch_results", .array(outcome.switchResults.map { .string(Describe.result($0)) })),
                ("received", .object(outcome.received.keys.sorted().map { name in
                    (name, .array((outcome.received[name] ?? []).map(JSONValue.string)))
                })),
            ]).serialized())
            return .ok
        }
        console.print("replay demo: a two-region story, run against a loopback sandbox on a manual clock")
        console.print()
        for (name, fingerprint) in outcome.projects { console.print("  project \(name.uppercased()) is \(fingerprint)") }
        console.print()
        console.print("journal: \(outcome.journal)")
        console.print("what the sandbox's projects received: \(outcome.receiptLog)")
        console.print()
        let diagnosis = try SwitchDiagnosis.run(reader: reader, only: nil)
        for line in SwitchDiagnosis.lines(diagnosis.reports) { console.print(line) }
        console.print()
        console.print("try next:")
        for command in ["timeline", "audit", "check", "state --at 2025-11-24T16:00:19.500Z", "diff --from 2025-11-24T16:00:18Z --to 2025-11-24T16:00:20Z",
                        "diagnose --switch 3", "recheck", "report -o report.html",
                        "export --redact --format ndjson -o redacted.ndjson", "export --redact --format trace -o trace.json"] {
            console.print("  replay \(command) \(outcome.journal)")
        }
        console.print("  replay reconcile \(outcome.journal) --received \(outcome.receiptLog)")
        return .ok
    }
}
