import Foundation
import ReplayKit

/// The `[--jobs J] <journal>...` that `check`, `audit`, `diagnose`, `info` and `verify` take:
/// one journal directory (or `-`), several, or folders of journal folders.
struct JournalList: Sendable {
    /// The paths as given.
    let paths: [String]
    /// How many threads fold side by side: journals when there are several, one journal's
    /// segments when the command folds them in parallel.
    let jobs: Int
    /// Whether `--jobs` was given (a command notes on standard error when it could not
    /// split a journal's segments as asked: ``JobsNote``).
    let jobsGiven: Bool

    /// Parses `--jobs J`, then the journals' paths (a usage error when there is none, or when
    /// `-` is one of several).
    init(arguments: inout Arguments) throws(UsageError) {
        (jobs, jobsGiven) = try Self.parseJobs(&arguments)
        var paths = [try arguments.positional("journal directory")]
        while let more = arguments.optionalPositional() { paths.append(more) }
        if paths.count > 1 && paths.contains("-") {
            throw UsageError("`-` (standard input) is one journal: give it alone")
        }
        self.paths = paths
    }

    /// The one journal when one journal directory (or `-`) was given: the command answers as
    /// it always has. Nil when several were given or the one path is a folder of journals.
    var single: String? {
        paths.count == 1 && !FleetExport.isFolderOfJournals(paths[0]) ? paths[0] : nil
    }

    /// Every journal named, folders of journals expanded (their subdirectories, by name).
    var journals: [String] {
        FleetExport.journalPaths(paths)
    }

    /// Parses `--jobs J` (a positive count, a usage error otherwise): J, or ``defaultJobs``
    /// when it is not given, and whether it was given.
    static func parseJobs(_ arguments: inout Arguments) throws(UsageError) -> (jobs: Int, given: Bool) {
        let given = try arguments.option("--jobs", as: "a positive count") { Int($0).flatMap { $0 > 0 ? $0 : nil } }
        return (given ?? defaultJobs, given != nil)
    }

    /// The default `--jobs`: the cores this process may use.
    static var defaultJobs: Int {
        ProcessInfo.processInfo.activeProcessorCount
    }

    /// The lines the commands' help texts share about many journals, the option's description
    /// starting at `column` as the command's other options' do; `splitsSegments` for a command
    /// that also folds one journal's segments side by side.
    static func help(column: Int, splitsSegments: Bool = false) -> String {
        let indent = "\n" + String(repeating: " ", count: column)
        return "  " + "--jobs J".padding(toLength: column - 2, withPad: " ", startingAt: 0)
            + (splitsSegments
                ? "threads: J journals read side by side, or one journal's segments" + indent
                    + "folded J side by side, each from its snapshot (default: the cores;" + indent
                    + "1 walks in order); the answer is the same whatever J"
                : "with several journals: read J of them side by side (default: the cores)")
            + "\n\n" + manyJournals
    }

    private static let manyJournals = """
        Several journals, or a folder of journal folders (each subdirectory one journal), are
        answered in one process, each read once: each journal's answer under a `== PATH ==`
        heading, then the total. With --json, every line is one JSON object tagged with its
        journal ("journal": the path, "journal_id": the id in its segment headers), then one
        {"total": …}. A journal that cannot be read is named on standard error and in the
        output, and skipped; the others are answered (exit status at least 1).
        """
}
