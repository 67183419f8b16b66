/// Shell completion for `replay`, made from the command table: every command's name and
/// summary, and the options its `--help` text names (so a new command or option completes as
/// soon as its help mentions it).
enum CompletionScript {
    /// The shells a script is made for.
    enum Shell: String, CaseIterable, Sendable {
        case bash
        case zsh
    }

    /// One command as completion sees it.
    struct Entry: Equatable, Sendable {
        var name: String
        var summary: String
        var options: [String]
    }

    /// Every command with the options its help text names, in the table's order.
    static func entries(_ commands: [any Command.Type]) -> [Entry] {
        commands.map { Entry(name: $0.name, summary: $0.summary, options: options(inHelp: $0.help)) }
    }

    /// The options a help text names: each `--word` or `-x` in its usage line or beginning one
    /// of its lines (the option list), once each, in order of appearance, then `--help`. Options
    /// of other commands that the prose mentions (`replay timeline --from SEQ`) are not its own.
    static func options(inHelp help: String) -> [String] {
        var found: [String] = []
        for line in help.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            let words: [Substring] = if trimmed.hasPrefix("usage:") {
                trimmed.split { $0 == " " || $0 == "[" || $0 == "]" || $0 == "|" || $0 == "(" || $0 == ")" }
            } else if trimmed.hasPrefix("-") {
                trimmed.split(separator: " ").prefix(1) + trimmed.split(separator: ",").dropFirst().compactMap { $0.split(separator: " ").first }
            } else {
                []
            }
            for word in words {
                let option = word.prefix { $0 == "-" || $0.isLetter || $0.isNumber }
                let isOption = (option.hasPrefix("--") && option.count > 3 && option.dropFirst(2).first?.isLetter == true)
                    || (option.count == 2 && option.first == "-" && option.last?.isLetter == true)
                if isOption, !found.contains(String(option)) { found.append(String(option)) }
            }
        }
        if !found.contains("--help") { found.append("--help") }
        return found
    }

    /// The completion script for `shell`.
    static func script(for shell: Shell, commands: [any Command.Type]) -> String {
        switch shell {
        case .bash: bash(entries(commands))
        case .zsh: zsh(entries(commands))
        }
    }

    /// Options after which a file or directory name follows.
    private static let pathOptions = ["-o", "--output", "--out", "--keep", "--dir"]

    static func bash(_ entries: [Entry]) -> String {
        let cases = entries.map { entry in
            "        \(entry.name)) options=\(quoted(entry.options.joined(separator: " "))) ;;"
        }.joined(separator: "\n")
        return """
            # bash completion for replay (made by `replay completion bash`). Load it with
            #   source <(replay completion bash)
            # or save it as ~/.local/share/bash-completion/completions/replay.
            _replay() {
                local current=${COMP_WORDS[COMP_CWORD]}
                local previous=${COMP_WORDS[COMP_CWORD-1]}
                if [ "$COMP_CWORD" -eq 1 ]; then
                    COMPREPLY=($(compgen -W \(quoted((entries.map(\.name) + ["help", "--help", "--version"]).joined(separator: " "))) -- "$current"))
                    return
                fi
                local options=""
                case ${COMP_WORDS[1]} in
            \(cases)
                    help) COMPREPLY=($(compgen -W \(quoted(entries.map(\.name).joined(separator: " "))) -- "$current")); return ;;
                esac
                case $previous in
                    \(pathOptions.joined(separator: "|"))) COMPREPLY=($(compgen -f -- "$current")); return ;;
                esac
                if [[ $current == -* ]]; then
                    COMPREPLY=($(compgen -W "$options" -- "$current"))
                else
                    COMPREPLY=($(compgen -f -- "$current"))
                fi
            }
            complete -o filenames -F _replay replay

            """
    }

    static func zsh(_ entries: [Entry]) -> String {
        let commandLines = entries.map { "        \(quoted($0.name + ":" + $0.summary))" }.joined(separator: "\n")
        let cases = entries.map { entry in
            let specs = entry.options.map { option in
                pathOptions.contains(option) ? quoted(option + ":path:_files") : quoted(option)
            }
            return "        \(entry.name)) _arguments -s \(specs.joined(separator: " ")) '*:journal:_files' ;;"
        }.joined(separator: "\n")
        return """
            #compdef replay
            # zsh completion for replay (made by `replay completion zsh`). Save it as _replay in a
            # directory on $fpath, or load it with: source <(replay completion zsh)
            _replay() {
                local -a commands
                commands=(
            \(commandLines)
                )
                if (( CURRENT == 2 )); then
                    _describe -t commands 'replay command' commands
                    _arguments '--help' '--version'
                    return
                fi
                case $words[2] in
            \(cases)
                    help) _describe -t commands 'replay command' commands ;;
                esac
            }
            if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
                _replay "$@"
            else
                compdef _replay replay
            fi

            """
    }

    /// `text` in single quotes for either shell.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
