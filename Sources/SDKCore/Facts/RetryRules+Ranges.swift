extension RetryRules {
    /// The attempts a request may be given (``maxAttempts``).
    public static let attemptsRange = 1...1_000
    /// The delays between attempts, in milliseconds (``baseDelayMilliseconds``,
    /// ``maxDelayMilliseconds``): at least 1 ms, so that a device offline never retries in a
    /// loop; at most a day.
    public static let delayRange: ClosedRange<Int64> = 1...86_400_000
    /// The JWT refreshes an instance may ask for (``jwtRefreshBudget``).
    public static let jwtRefreshBudgetRange = 0...100

    /// The first value outside its range, named as `ProjectConfig.retryPolicy` names it (e.g.
    /// `retryPolicy.maxAttempts 0 is outside 1...1000`); nil when every value is within. A
    /// project whose rules have a problem is refused by `initialize` and `switchProject`
    /// (`CallFailure.rejected(_:)`) and by the SDK's configuration (`knownProjects`).
    package var problem: String? {
        func outside<Value: Comparable & CustomStringConvertible>(_ name: String, _ value: Value, _ range: ClosedRange<Value>) -> String? {
            range.contains(value) ? nil : "retryPolicy.\(name) \(value) is outside \(range.lowerBound)...\(range.upperBound)"
        }
        return outside("maxAttempts", maxAttempts, Self.attemptsRange)
            ?? outside("baseDelayMilliseconds", baseDelayMilliseconds, Self.delayRange)
            ?? outside("maxDelayMilliseconds", maxDelayMilliseconds, Self.delayRange)
            ?? outside("jwtRefreshBudget", jwtRefreshBudget, Self.jwtRefreshBudgetRange)
    }
}
