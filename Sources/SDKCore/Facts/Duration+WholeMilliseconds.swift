extension Duration {
    /// The duration in whole milliseconds, rounded toward zero (saturating at the bounds of `Int64`).
    package var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (fromSeconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (total, overflowAdding) = fromSeconds.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        return overflowAdding ? (seconds < 0 ? .min : .max) : total
    }

    /// The duration in whole microseconds, rounded toward zero (saturating at the bounds of `Int64`).
    package var wholeMicroseconds: Int64 {
        let (seconds, attoseconds) = components
        let (fromSeconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (total, overflowAdding) = fromSeconds.addingReportingOverflow(attoseconds / 1_000_000_000_000)
        return overflowAdding ? (seconds < 0 ? .min : .max) : total
    }
}
