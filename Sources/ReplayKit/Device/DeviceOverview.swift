import Journal
import SDK

/// The picture at the top of a device's page: a lane per process, the device's time across,
/// each lane's facts counted in ``bucketCount`` equal spans of time and drawn as a bar stacked
/// by fact family (``FactFamily``, plus records that could not be read). An SVG with no script:
/// each bar links to its first fact in its process's page and names its span, its counts and its
/// sequence numbers in a tooltip.
///
/// Built while the merged stream is read (``add(lane:record:)``), in memory bounded by the
/// lanes times ``bucketCount`` whatever the journals' length: the span of a bucket starts at a
/// microsecond and doubles (neighbouring buckets merged) whenever a record falls past the last.
/// Records come in time order from ``DeviceMerge``; one earlier than the first counts in the
/// first bucket.
package struct DeviceOverview {
    /// The bars across one lane.
    package static let bucketCount = 440

    /// What a bar shows: its facts by category, and their sequence numbers' range.
    struct Bucket {
        var counts = [Int](repeating: 0, count: Category.allCases.count)
        var firstSequence: UInt64 = .max
        var lastSequence: UInt64 = 0

        var total: Int { counts.reduce(0, +) }

        mutating func merge(_ other: Bucket) {
            for index in counts.indices { counts[index] += other.counts[index] }
            firstSequence = min(firstSequence, other.firstSequence)
            lastSequence = max(lastSequence, other.lastSequence)
        }
    }

    /// How a bar's parts are coloured: a fact's family, or a record that could not be read (an
    /// unknown kind from a newer SDK, or damage).
    enum Category: Int, CaseIterable {
        case input, call, delivery, module, `switch`, unreadable

        init(_ record: DecodedRecord) {
            guard case .fact = record.content, let kind = FactKind(rawValue: record.kind) else {
                self = .unreadable
                return
            }
            switch kind.declaration.family {
            case .input: self = .input
            case .call: self = .call
            case .delivery: self = .delivery
            case .module: self = .module
            case .switch: self = .switch
            }
        }

        /// Its colour, its name in a bar's tooltip and what the legend says of it.
        var look: (color: String, name: String, legend: String) {
            switch self {
            case .input: ("#4e79a7", "input", "input: calls, answers, timers, lifecycle")
            case .call: ("#59a14f", "call", "call: what became of a call")
            case .delivery: ("#f28e2b", "delivery", "delivery: tasks and their timers")
            case .module: ("#b07aa1", "module", "module: signals, hooks, messages")
            case .switch: ("#e15759", "switch", "switch: the gate, routing, teardown, landing")
            case .unreadable: ("#333333", "unreadable", "unreadable: a kind this replay does not know, or damage")
            }
        }
    }

    private let roles: [String]
    private var buckets: [[Bucket]]
    private var start: JournalTime?
    private var last: JournalTime?
    /// Microseconds one bucket spans.
    package private(set) var bucketSpan: Int64 = 1

    /// An empty picture of lanes named `roles`.
    package init(roles: [String]) {
        self.roles = roles
        buckets = roles.map { _ in [Bucket](repeating: Bucket(), count: Self.bucketCount) }
    }

    /// Counts `record` (not a snapshot) in lane `lane`.
    package mutating func add(lane: Int, record: DecodedRecord) {
        let start = self.start ?? record.time
        self.start = start
        last = max(last ?? record.time, record.time)
        let (offset, overflow) = record.time.microsecondsSince1970.subtractingReportingOverflow(start.microsecondsSince1970)
        let distance = overflow ? Int64.max : max(0, offset)
        while distance / bucketSpan >= Int64(Self.bucketCount), bucketSpan <= Int64.max / 2 { widen() }
        let slot = Int(min(Int64(Self.bucketCount - 1), distance / bucketSpan))
        buckets[lane][slot].counts[Category(record).rawValue] += 1
        buckets[lane][slot].firstSequence = min(buckets[lane][slot].firstSequence, record.sequence)
        buckets[lane][slot].lastSequence = max(buckets[lane][slot].lastSequence, record.sequence)
    }

    /// Doubles the span of a bucket, merging each pair of neighbours.
    private mutating func widen() {
        bucketSpan *= 2
        for lane in buckets.indices {
            var merged = [Bucket](repeating: Bucket(), count: Self.bucketCount)
            for (slot, bucket) in buckets[lane].enumerated() where bucket.total > 0 { merged[slot / 2].merge(bucket) }
            buckets[lane] = merged
        }
    }

    /// The SVG; `page(lane)` is the address of lane `lane`'s page (its facts are `#seq=N` there).
    package func svg(page: (Int) -> String) -> String {
        let labelWidth = 90, barWidth = 2, laneHeight = 44, top = 18
        let width = labelWidth + barWidth * Self.bucketCount + 10
        let height = top + laneHeight * roles.count + 22
        let busiest = buckets.joined().map(\.total).max() ?? 0
        var svg = "<svg class=\"device-overview\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
            + "viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"each process's facts over the device's time\">"
        svg += "<text x=\"\(labelWidth)\" y=\"12\" class=\"axis\">\(start.map { "\($0)" } ?? "no facts")</text>"
        if let last, start != nil {
            svg += "<text x=\(quoted(width - 10)) y=\"12\" text-anchor=\"end\" class=\"axis\">\(last)</text>"
        }
        for (lane, role) in roles.enumerated() {
            let base = top + laneHeight * (lane + 1) - 4
            svg += "<text x=\"0\" y=\(quoted(base - 14)) class=\"role\">\(ReportPage.escape(role))</text>"
            svg += "<line x1=\(quoted(labelWidth)) x2=\(quoted(width - 10)) y1=\(quoted(base)) y2=\(quoted(base)) stroke=\"#d5d9e0\"/>"
            for (slot, bucket) in buckets[lane].enumerated() where bucket.total > 0 {
                svg += bar(bucket, lane: lane, slot: slot, x: labelWidth + slot * barWidth, base: base,
                           height: Double(laneHeight - 8) * (Double(bucket.total) / Double(max(1, busiest))).squareRoot(),
                           page: page(lane))
            }
        }
        let spanText = bucketSpan >= 1_000_000 ? "\(Double(bucketSpan) / 1_000_000) s"
            : bucketSpan >= 1_000 ? "\(Double(bucketSpan) / 1_000) ms" : "\(bucketSpan) µs"
        svg += "<text x=\(quoted(labelWidth)) y=\(quoted(height - 6)) class=\"axis\">a bar: \(spanText) of one process's facts "
            + "(height: the square root of its count, \(busiest) at the highest); click one for its first fact</text>"
        return svg + "</svg>"
    }

    /// The legend: each category's colour and name.
    package static var legend: String {
        Category.allCases.map { category in
            let look = category.look
            return "<span><i style=\"background:\(look.color)\"></i>\(ReportPage.escape(look.legend))</span>"
        }.joined()
    }

    /// One bar: its parts stacked from the lane's base line, in a link to its first fact.
    private func bar(_ bucket: Bucket, lane: Int, slot: Int, x: Int, base: Int, height: Double, page: String) -> String {
        // A clock far ahead widens the span to where this sum no longer fits: the last time there is.
        let (offset, overOffset) = Int64(slot).multipliedReportingOverflow(by: bucketSpan)
        let (sum, overSum) = (start?.microsecondsSince1970 ?? 0).addingReportingOverflow(offset)
        let from = overOffset || overSum ? Int64.max : sum
        let parts = Category.allCases.filter { bucket.counts[$0.rawValue] > 0 }
        let counts = parts.map { "\(bucket.counts[$0.rawValue]) \($0.look.name)" }.joined(separator: ", ")
        let title = "\(roles[lane]): \(bucket.total) fact(s) from \(JournalTime(microsecondsSince1970: from)), "
            + "seq \(bucket.firstSequence)…\(bucket.lastSequence) (\(counts))"
        var text = "<a href=\"\(ReportPage.escape(page))#seq=\(bucket.firstSequence)\"><title>\(ReportPage.escape(title))</title>"
        var y = Double(base)
        let total = Double(bucket.total)
        for category in parts {
            let part = max(1, height * Double(bucket.counts[category.rawValue]) / total)
            y -= part
            text += "<rect x=\(quoted(x)) y=\"\(rounded(y))\" width=\"2\" height=\"\(rounded(part))\" fill=\"\(category.look.color)\"/>"
        }
        return text + "</a>"
    }

    private func quoted(_ value: Int) -> String { "\"\(value)\"" }
    private func rounded(_ value: Double) -> String { String(Double(Int(value * 10)) / 10) }
}
