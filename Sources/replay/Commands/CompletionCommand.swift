import ReplayKit

/// `replay completion bash|zsh`: the shell completion script, on standard output.
struct CompletionCommand: Command {
    static let name = "completion"
    static let summary = "the bash or zsh completion script for replay's commands and options"
    static let help = """
        usage: replay completion bash|zsh

        Prints a completion script made from replay's own command table: every command, and
        for each the options its --help names; journal paths complete as files.

          bash   source <(replay completion bash), or save it as
                 ~/.local/share/bash-completion/completions/replay
          zsh    save it as _replay in a directory on $fpath (or source <(replay completion zsh))
        """

    let shell: CompletionScript.Shell

    init(arguments: inout Arguments) throws(UsageError) {
        let text = try arguments.positional("shell (bash or zsh)")
        guard let shell = CompletionScript.Shell(rawValue: text) else {
            throw UsageError("completion scripts are for bash or zsh, not '\(text)'")
        }
        self.shell = shell
    }

    func run(console: Console) throws -> ExitStatus {
        console.write(CompletionScript.script(for: shell, commands: ReplayCommandLine.commands))
        return .ok
    }
}
