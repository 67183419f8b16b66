import ReplayKit
extension Arguments {
    /// Removes and returns `--name SEQ|TIME`, if given.
    mutating func moment(_ name: String) throws(UsageError) -> Moment? {
        try option(name, as: Moment.expectation, Moment.parse)
    }
}
