/// Rewrites a fuzzed `replay` command line so that running it reads only the fixture journals
/// (or whatever relative names resolve to in the working directory) and writes only inside the
/// workspace's scratch directory:
///
/// - `demo` is not run (it plays a whole SDK story against a loopback server and writes a
///   journal), nor `serve` (it listens until interrupted); `help demo` and the like still print
///   their help;
/// - the placeholders `@journal` (the fixture SDK journal), `@damaged` (the same, with a flipped
///   byte in a sealed segment and a torn tail), `@raw` (records that are not SDK facts),
///   `@empty` (a fresh empty directory) and `@missing` (a path that does not exist) become paths;
/// - every other argument holding `/` or `..` becomes the missing path, so no argument can name
///   a file outside the working directory;
/// - the value of every `-o` and `--output` (also as `-o=…`, `--output=…`), the only options
///   that make `replay` write (`export`), becomes a fresh path in the scratch directory. Values
///   are rewritten left to right the way the parser takes them (`-o -o x` rewrites the second
///   `-o`), so whatever the parser ends up taking as the output is one of these paths.
struct ReplayArgumentConfinement {
    static let placeholders = ["@journal", "@damaged", "@raw", "@empty", "@missing"]
    private static let outputOptions = ["-o", "--output"]

    let workspace: ReplayFuzzWorkspace
    private var made = 0

    init(workspace: ReplayFuzzWorkspace) {
        self.workspace = workspace
    }

    /// The command line to run, or nil for one that is not run.
    mutating func confine(_ arguments: [String]) -> [String]? {
        guard arguments.first != "demo", arguments.first != "serve" else { return nil }
        var confined: [String] = []
        for argument in arguments { confined.append(resolve(argument)) }
        var index = 0
        while index < confined.count {
            let argument = confined[index]
            if Self.outputOptions.contains(argument) {
                if index + 1 < confined.count { confined[index + 1] = freshPath("output") }
                index += 2
                continue
            }
            for option in Self.outputOptions where argument.hasPrefix(option + "=") {
                confined[index] = option + "=" + freshPath("output")
            }
            index += 1
        }
        return confined
    }

    private mutating func resolve(_ argument: String) -> String {
        switch argument {
        case "@journal": return workspace.journal
        case "@damaged": return workspace.damaged
        case "@raw": return workspace.raw
        case "@empty": return workspace.makeEmptyDirectory(freshPath("empty"))
        case "@missing": return workspace.missing
        default: return argument.contains("/") || argument.contains("..") ? workspace.missing : argument
        }
    }

    private mutating func freshPath(_ label: String) -> String {
        made += 1
        return workspace.scratch + "/\(label)-\(made)"
    }
}
