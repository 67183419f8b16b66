import ReplayKit
import replay

/// The replay fuzz target: a fuzzed command line (see ``ReplayFuzzInput``), confined by
/// ``ReplayArgumentConfinement`` to the fixture journals and a scratch directory, run in-process
/// through `ReplayCommandLine.run` with standard input, output and error in memory.
///
/// Beyond never trapping or hanging, every run must end with status 0, 1 (findings) or 2 (usage
/// error or unreadable input), and a run that does not end with 0 must say something.
package enum ReplayCommandLineFuzzer {
    /// Runs one input; returns the invariants it broke.
    package static func run(_ input: [UInt8]) -> [String] {
        let workspace: ReplayFuzzWorkspace
        switch ReplayFuzzWorkspace.shared {
        case .success(let made): workspace = made
        case .failure(let error): return [error.description]
        }
        let parsed = ReplayFuzzInput(input)
        var confinement = ReplayArgumentConfinement(workspace: workspace)
        guard let arguments = confinement.confine(parsed.arguments) else { return [] }
        defer { workspace.clearScratch() }

        var outputBytes = 0
        var errorBytes = 0
        var lines = parsed.standardInput[...]
        let console = Console(out: { outputBytes += $0.utf8.count }, error: { errorBytes += $0.utf8.count },
                              input: { lines.popFirst() })
        let status = ReplayCommandLine.run(arguments, console: console)

        var checker = InvariantChecker()
        checker.expect([0, 1, 2].contains(status), "replay \(arguments) ended with status \(status)")
        checker.expect(status == 0 || outputBytes + errorBytes > 0, "replay \(arguments) ended with status \(status) and said nothing")
        return checker.violations
    }
}
