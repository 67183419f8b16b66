/// The exit statuses every subcommand uses.
package enum ExitStatus: Int32 {
    /// Done; nothing wrong found.
    case ok = 0
    /// Done, and it found something: corruption, violations, differences.
    case findings = 1
    /// Could not do it: a usage error or unreadable input.
    case failure = 2
}
