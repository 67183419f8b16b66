/// A benchmark run that cannot report: its work was not done as claimed, or a step failed.
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
}
