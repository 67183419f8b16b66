import ReplayKit

extension Console {
    /// Says on standard error that the journal at `path` holds no record `range` (e.g. `at or
    /// after sequence 9`): a command asked for a range the journal does not reach printed
    /// nothing, as for an empty journal.
    func noteNoRecord(_ range: String, command: String, path: String) {
        printError("replay \(command): \(path): no record \(range) (`replay info` gives the journal's range)")
    }
}
