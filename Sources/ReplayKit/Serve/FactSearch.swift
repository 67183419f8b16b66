import Journal
import SDK

/// Search over a journal's facts for `replay serve`: the records whose kind and one-line
/// summary (as `replay timeline` words them) contain the query, ignoring case, from a sequence
/// number on. A request reads at most ``scanLimit`` records and returns at most ``hitLimit``
/// hits, with where to go on from: a long journal is searched page by page, each answered
/// promptly.
package enum FactSearch {
    static let hitLimit = 50
    static let scanLimit = 100_000

    /// The hits for `query` from `from` (the journal's start when nil), as JSON:
    /// `{"query", "hits": [{"seq", "time", "kind", "summary"}], "scanned_to", "next_from"}`.
    package static func json(reader: JournalReader, query: String, from: UInt64?) throws -> JSONValue {
        let needle = query.lowercased()
        let stream = try FactStream(reader: reader, from: from)
        var labels = ProjectLabels()
        var hits: [JSONValue] = []
        var scanned = 0
        var last: UInt64?
        var nextFrom: UInt64?
        while let record = try stream.next() {
            if scanned == scanLimit || hits.count == hitLimit {
                nextFrom = record.sequence
                break
            }
            labels.learn(from: record)
            scanned += 1
            last = record.sequence
            guard !needle.isEmpty else { continue }
            let summary = FactSummary.text(record, labels: labels)
            if record.kindName.lowercased().contains(needle) || summary.lowercased().contains(needle) {
                hits.append(.object([("seq", .unsigned(record.sequence)), ("time", .string(record.time.description)),
                                     ("kind", .string(record.kindName)), ("summary", .string(summary))]))
            }
        }
        return .object([("query", .string(query)), ("hits", .array(hits)), ("scanned_to", .optional(last) { .unsigned($0) }),
                        ("next_from", .optional(nextFrom) { .unsigned($0) })])
    }
}
