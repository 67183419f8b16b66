import ReplayKit

/// A `replay` subcommand: parses its own arguments (so each has its own `--help`) and runs.
protocol Command: Sendable {
    /// The word after `replay`.
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// The full `--help` text.
    static var help: String { get }

    /// Parses the arguments after the subcommand's name.
    init(arguments: inout Arguments) throws(UsageError)

    func run(console: Console) throws -> ExitStatus

    /// Whether the command takes `--salvage` (``SalvageOption``): its error at damage says so.
    static var takesSalvage: Bool { get }
}

extension Command {
    static var takesSalvage: Bool { false }
}
