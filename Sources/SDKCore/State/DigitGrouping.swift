/// Numbers in the SDK's own reasons, grouped in threes so a size reads at a glance.
package enum DigitGrouping {
    /// `3145728` as `3,145,728`; `-1234` as `-1,234`.
    package static func grouped<Value: BinaryInteger>(_ value: Value) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return value < 0 ? "-" + grouped : grouped
    }
}
