import Foundation
import FuzzHarness
import replay
import ReplayKit
import SDK

/// Seeds of the replay target: typical command lines of every command (but `demo`) on the
/// fixture journals, help and usage errors, and `step` sessions; and a dictionary of every
/// command name, every option the commands' help texts name, the step commands, fact kinds and
/// moments.
enum ReplaySeeds {
    typealias Seed = (name: String, bytes: [UInt8])

    static let commandLines: [(name: String, arguments: [String], input: [String])] = [
        ("overview", [], []),
        ("help", ["--help"], []),
        ("help-topic", ["help", "timeline"], []),
        ("unknown-command", ["frobnicate", "@journal"], []),
        ("info", ["info", "@journal"], []),
        ("info-json-damaged", ["info", "--json", "@damaged"], []),
        ("info-empty-directory", ["info", "@empty"], []),
        ("verify", ["verify", "@journal"], []),
        ("verify-json-damaged", ["verify", "--json", "@damaged"], []),
        ("verify-missing", ["verify", "@missing"], []),
        ("cat-window", ["cat", "--from", "40", "--limit", "5", "@journal"], []),
        ("cat-json-raw", ["cat", "--json", "@raw"], []),
        ("cat-missing-value", ["cat", "--from"], []),
        ("timeline-window", ["timeline", "--from", "2025-11-24T16:00:00.050Z", "--to", "120", "@journal"], []),
        ("timeline-kinds", ["timeline", "--kind", "switchStarted", "--kind", "switchLanded", "--json", "@journal"], []),
        ("timeline-project", ["timeline", "--project", "abcd", "@damaged"], []),
        ("state-at-sequence", ["state", "--at", "60", "@journal"], []),
        ("state-at-time-json", ["state", "--at", "2025-11-24T17:00:00.1+01:00", "--json", "@journal"], []),
        ("diff", ["diff", "--from", "10", "--to", "90", "@journal"], []),
        ("diff-json-times", ["diff", "--from", "2025-11-24T16:00:00Z", "--to", "2025-11-24T16:00:01Z", "--json", "@journal"], []),
        ("audit", ["audit", "@journal"], []),
        ("audit-calls", ["audit", "--call", "track", "--call", "trackPurchase", "--json", "@journal"], []),
        ("audit-received", ["audit", "@journal", "--received", "@missing"], []),
        ("reconcile", ["reconcile", "--json", "@journal", "@damaged", "--received", "@empty"], []),
        ("reconcile-skew", ["reconcile", "--all", "--clock-skew", "250", "@journal", "--received=@missing"], []),
        ("diagnose", ["diagnose", "@journal"], []),
        ("diagnose-switch", ["diagnose", "--switch", "s2", "--json", "@journal"], []),
        ("check", ["check", "@journal"], []),
        ("check-json-damaged", ["check", "--json", "@damaged"], []),
        ("recheck", ["recheck", "--limit", "3", "@journal"], []),
        ("export-journal", ["export", "--redact", "-o", "copy", "@journal"], []),
        ("export-ndjson", ["export", "--redact", "--format", "ndjson", "--output=copy.ndjson", "--json", "@damaged"], []),
        ("export-into-empty", ["export", "--redact", "-o", "@empty", "@raw"], []),
        ("export-without-redact", ["export", "-o", "copy", "@journal"], []),
        ("step", ["step", "@journal"], ["next 5", "prev", "goto 30", "switch 1", "state", "diff", "find track", "where", "help", "quit"]),
        ("step-times", ["step", "@journal"], ["goto 2025-11-24T16:00:00.2Z", "", "n 3", "p 2", "s 2", "f switchLanded", "q"]),
        ("step-damaged", ["step", "@damaged"], ["next 1000", "prev 1000", "goto 99999", "diff"]),
        ("positionals-after-dashes", ["cat", "--", "--json"], []),
    ]

    static func make() -> [Seed] {
        commandLines.map { ($0.name, ReplayFuzzInput(arguments: $0.arguments, standardInput: $0.input).encoded) }
    }

    static func dictionary() -> [[UInt8]] {
        var tokens = ReplayCommandLine.commandNames + ["help", "--help", "-h", "--", "@journal", "@damaged", "@raw", "@empty", "@missing"]
        for name in ReplayCommandLine.commandNames {
            let help = helpText(of: name)
            tokens += matches(of: #"(?<![\w-])--?[a-z][a-z-]*"#, in: help)
            if name == "step" { tokens += matches(of: #"(?m)^ {2,}([a-z]+)\b"#, in: help, group: 1) }
        }
        tokens += FactKind.allCases.map(\.name) + ["snapshot", "s1", "s3", "2025-11-24T16:00:00Z", "2025-11-24T16:00:00.5+01:00", "18446744073709551615"]
        return tokens.map { Array($0.utf8) } + [[0x00], [0xFF], [0x0A]]
    }

    /// What `replay <name> --help` prints.
    private static func helpText(of name: String) -> String {
        var text = ""
        let console = Console(out: { text += $0 }, error: { text += $0 })
        _ = ReplayCommandLine.run([name, "--help"], console: console)
        return text
    }

    private static func matches(of pattern: String, in text: String, group: Int = 0) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: group), in: text).map { String(text[$0]) }
        }
    }
}
