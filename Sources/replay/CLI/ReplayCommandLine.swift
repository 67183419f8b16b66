import Journal
import ReplayKit
import SDK

/// `replay`: the entry point, shared by the executable, the tests and the fuzzer.
package enum ReplayCommandLine {
    static let commands: [any Command.Type] = [
        DemoCommand.self, InfoCommand.self, VerifyCommand.self, CatCommand.self, TimelineCommand.self,
        StateCommand.self, DiffCommand.self, AuditCommand.self, ReconcileCommand.self, DiagnoseCommand.self, CheckCommand.self, RecheckCommand.self,
        ExportCommand.self, ReportCommand.self, StepCommand.self, ServeCommand.self, SimulateCommand.self, CompletionCommand.self,
    ]

    /// What every answer stopped or refused at damage advises, in its own words' parentheses.
    static let verifyAdvice = "run `replay verify` for the whole picture"

    /// The subcommands' names, in the order `--help` lists them.
    package static var commandNames: [String] { commands.map { $0.name } }

    static let overview = """
        replay: read, check and explain SDK journals taken off a device.

        usage: replay <command> [options] <journal>
               replay --version

        A journal is a directory of segment files (a redacted export is one too), or `-` for
        its segment files concatenated on standard input: cat DIR/segment-*.lz4 | replay info -
        Start with `replay demo`, which writes one.

        commands:
        \(commands.map { "  " + $0.name.padding(toLength: 12, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

        Run `replay <command> --help` for a command's options.
        Exit status: 0 fine, 1 findings (corruption, undecodable records, violations, differences),
        2 usage error or unreadable input (a newer journal format is refused by name and version).
        """

    /// What `replay --version` prints: the build's version, and the journal format versions it
    /// reads (every minor version of the major it knows) and writes.
    static var version: String {
        let current = SegmentFormat.currentVersion
        let oldest = FormatVersion(major: current.major, minor: 0)
        return """
            replay \(EngagementSDK.version) (engagement-sdk \(EngagementSDK.version))
            journal format: reads \(oldest) to \(current) (a newer \(current.major).x is read, skipping what it adds; a newer major version is refused); \
            writes \(current) (a segment labelled \(SegmentFormat.continuousSegmentVersion) when \(SegmentFormat.continuousSegmentVersion) readers read it as meant)
            """
    }

    /// Runs the command line `arguments` (without the program name); returns the exit status.
    package static func run(_ arguments: [String], console: Console) -> Int32 {
        if arguments == ["--version"] || arguments == ["-V"] || arguments == ["version"] {
            console.print(version)
            return ExitStatus.ok.rawValue
        }
        guard let name = arguments.first, name != "--help", name != "-h", name != "help" || arguments.count > 1 else {
            console.print(overview)
            return arguments.isEmpty ? ExitStatus.failure.rawValue : ExitStatus.ok.rawValue
        }
        if name == "help", let topic = arguments.dropFirst().first {
            return run([topic, "--help"], console: console)
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            console.printError("replay: unknown command '\(name)'. Run `replay --help` for the list.")
            return ExitStatus.failure.rawValue
        }
        var rest = Arguments(arguments.dropFirst())
        if rest.wantsHelp {
            console.print(command.help)
            return ExitStatus.ok.rawValue
        }
        do {
            let parsed = try command.init(arguments: &rest)
            try rest.finish()
            return try parsed.run(console: console).rawValue
        } catch let error as UsageError {
            console.printError("replay \(name): \(error.message)")
            console.printError("Run `replay \(name) --help` for usage.")
            return ExitStatus.failure.rawValue
        } catch JournalError.corrupted(let damage) {
            console.clearProgress()
            let salvage = command.takesSalvage ? "; `--salvage` goes on past it" : ""
            console.printError("replay \(name): stopped at \(damage) (\(Self.verifyAdvice)\(salvage))")
            return ExitStatus.findings.rawValue
        } catch {
            console.clearProgress()
            console.printError("replay \(name): \(error)")
            return ExitStatus.failure.rawValue
        }
    }
}
