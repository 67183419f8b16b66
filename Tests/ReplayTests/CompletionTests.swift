import Foundation
import Journal
import Testing
@testable import replay

/// `replay --version` and `replay completion bash|zsh`: the scripts hold every command of the
/// table and every option each command's help names, and the shells accept them.
@Suite("version and shell completion", .timeLimit(.minutes(1)))
struct CompletionTests {
    @Test("--version names the build's version and the journal format versions read and written")
    func version() {
        let run = ReplayHarness.run(["--version"])
        #expect(run.status == 0)
        #expect(run.out.hasPrefix("replay 0."))
        #expect(run.out.contains("reads 1.0 to \(SegmentFormat.currentVersion)"))
        #expect(run.out.contains("writes \(SegmentFormat.currentVersion)"))
        #expect(ReplayHarness.run(["--version", "extra"]).status == 2)
    }

    @Test("options come from the help text: words that begin with a dash, not dashes inside words")
    func optionsFromHelp() {
        let help = """
            usage: x [--json] [--at SEQ|TIME] -o OUT.html <journal>

            Prose naming another command's option (`replay timeline --from SEQ`) and a dash-word.

              --jobs J   run side-by-side (non-blocking); e-mail -- end
              -q, --quiet  less
            """
        #expect(CompletionScript.options(inHelp: help) == ["--json", "--at", "-o", "--jobs", "-q", "--quiet", "--help"])
    }

    @Test("every command and each of its options appears in both scripts", arguments: CompletionScript.Shell.allCases)
    func everyCommandAndOption(_ shell: CompletionScript.Shell) {
        let run = ReplayHarness.run(["completion", shell.rawValue])
        #expect(run.status == 0, "\(run.error)")
        let script = run.out
        for command in ReplayCommandLine.commands {
            let options = CompletionScript.options(inHelp: command.help)
            #expect(options.contains("--help"))
            // The command's own line (bash: `name) options='…'`; zsh: `name) _arguments …`).
            guard let line = script.split(separator: "\n").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(command.name + ")") }) else {
                Issue.record("\(shell): no case for \(command.name)")
                continue
            }
            for option in options {
                #expect(line.contains("'\(option)") || line.contains(" \(option) ") || line.contains(" \(option)'"),
                        "\(shell): \(command.name) lacks \(option)")
            }
        }
        #expect(ReplayHarness.run(["completion", "fish"]).status == 2)
    }

    @Test("the options completed are those the commands' parsers know", arguments: ReplayCommandLine.commandNames)
    func parsersKnowTheOptions(_ name: String) throws {
        let command = try #require(ReplayCommandLine.commands.first { $0.name == name })
        for option in CompletionScript.options(inHelp: command.help) where option != "--help" {
            // An option the parser does not know is the first leftover, reported as unknown; one
            // it knows is consumed, and the run stops at the trailing unknown option instead
            // (nothing runs).
            let run = ReplayHarness.run([name, option, "1", "--not-an-option"])
            #expect(run.status == 2)
            #expect(!run.error.contains("unknown option \(option)"), "\(name) \(option): \(run.error)")
        }
    }

    @Test("bash completes commands, a command's options and, after -o, paths")
    func bashCompletes() throws {
        let script = ReplayHarness.run(["completion", "bash"]).out
        let words = try Self.bash(script, line: ["replay", ""])
        #expect(Set(ReplayCommandLine.commandNames).isSubset(of: words))
        #expect(words.contains("--version"))
        #expect(try Self.bash(script, line: ["replay", "di"]) == ["diagnose", "diff"])
        #expect(try Self.bash(script, line: ["replay", "audit", "--p"]) == ["--project"])
        #expect(try Self.bash(script, line: ["replay", "state", "--"]).contains("--at"))
    }

    @Test("zsh loads the script under compinit", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh")))
    func zshLoads() throws {
        let path = ReplayHarness.temporaryDirectory() + "/_replay"
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        try ReplayHarness.run(["completion", "zsh"]).out.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Self.shell("/usr/bin/zsh", ["-f", "-c", "autoload -U compinit && compinit -u -D && source \(path) && print -r -- ${_comps[replay]}"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "_replay")
    }

    /// What bash's completion function offers for the command line `line` (the cursor on its
    /// last word).
    private static func bash(_ script: String, line: [String]) throws -> Set<String> {
        let words = line.map { "'\($0)'" }.joined(separator: " ")
        let program = script + "\nCOMP_WORDS=(\(words)); COMP_CWORD=\(line.count - 1); _replay; printf '%s\\n' \"${COMPREPLY[@]}\"\n"
        let result = try shell("/bin/bash", ["-c", program])
        #expect(result.status == 0, "\(result.output)")
        return Set(result.output.split(separator: "\n").map(String.init))
    }

    private static func shell(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
