import Journal

/// Human-readable renderings shared by the commands.
package enum Format {
    /// 1234567 → "1,234,567".
    package static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(character)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    /// 1536 → "1.5 KiB".
    package static func bytes(_ value: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var amount = Double(value)
        var unit = 0
        while amount >= 1024 && unit < units.count - 1 {
            amount /= 1024
            unit += 1
        }
        return unit == 0 ? "\(value) B" : "\(fixed(amount, digits: 1)) \(units[unit])"
    }

    /// A duration in microseconds as "1h 02m 03s", "2.5s", "340ms" or "17us".
    static func duration(microseconds: Int64) -> String {
        let value = microseconds.magnitude
        let sign = microseconds < 0 ? "-" : ""
        if value < 1_000 { return "\(sign)\(value)us" }
        if value < 1_000_000 { return "\(sign)\(fixed(Double(value) / 1_000, digits: 1))ms" }
        if value < 60_000_000 { return "\(sign)\(fixed(Double(value) / 1_000_000, digits: 2))s" }
        let seconds = value / 1_000_000
        let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        let two = { (number: UInt64) in number < 10 ? "0\(number)" : "\(number)" }
        return hours > 0 ? "\(sign)\(hours)h \(two(minutes))m \(two(rest))s" : "\(sign)\(minutes)m \(two(rest))s"
    }

    /// A number with exactly `digits` decimals, without Foundation's locale.
    package static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value * scale).rounded()
        let whole = Int64(scaled / scale)
        let fraction = Int64(abs(scaled - Double(whole) * scale))
        guard digits > 0 else { return String(whole) }
        let fractionText = String(fraction)
        let sign = value < 0 && whole == 0 ? "-" : ""
        return "\(sign)\(whole)." + String(repeating: "0", count: max(0, digits - fractionText.count)) + fractionText
    }
}

/// Rows of cells printed as aligned columns.
package struct Table {
    package enum Alignment { case left, right }

    var alignments: [Alignment]
    private(set) var rows: [[String]] = []

    package init(_ alignments: [Alignment]) {
        self.alignments = alignments
    }

    package mutating func add(_ cells: [String]) {
        rows.append(cells)
    }

    /// The rows, each cell padded to its column's width, separated by two spaces.
    package func lines() -> [String] {
        var widths: [Int] = []
        for row in rows {
            for (column, cell) in row.enumerated() {
                if column >= widths.count { widths.append(0) }
                widths[column] = max(widths[column], cell.count)
            }
        }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                let isLast = column == row.count - 1
                switch alignments.indices.contains(column) ? alignments[column] : .left {
                case .left: return isLast ? cell : cell + padding
                case .right: return padding + cell
                }
            }.joined(separator: "  ")
        }
    }
}
