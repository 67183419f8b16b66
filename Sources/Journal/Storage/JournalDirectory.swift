/// The segment files of a journal directory, oldest first.
struct JournalDirectory {
    struct Entry {
        let baseSequence: UInt64
        let name: String
    }

    let path: String
    let segments: [Entry]

    init(path: String, storage: any JournalStorage) throws {
        self.path = path
        segments = try storage.contentsOfDirectory(at: path)
            .compactMap { name in Self.baseSequence(ofFileName: name).map { Entry(baseSequence: $0, name: name) } }
            .sorted { $0.baseSequence < $1.baseSequence }
    }

    func path(of name: String) -> String {
        path + "/" + name
    }

    func indexPath(of entry: Entry) -> String {
        path + "/" + SegmentFormat.indexFileName(baseSequence: entry.baseSequence)
    }

    /// The base sequence a segment file's name states, or nil when `name` is not a segment
    /// file's: the same answer as ``SegmentFormat/baseSequence(ofSegmentFileName:)``, read from
    /// the name's UTF-8 bytes (a listing of a long journal holds a thousand names).
    static func baseSequence(ofFileName name: String) -> UInt64? {
        var name = name
        return name.withUTF8 { bytes -> UInt64? in
            // "segment-" (8 bytes), 20 ASCII digits, ".lz4" (4 bytes): anything else, a
            // non-ASCII digit included, is not a segment file's name.
            guard bytes.count == 32, bytes.starts(with: prefix), bytes[28..<32].elementsEqual(suffix) else { return nil }
            var value: UInt64 = 0
            for byte in bytes[8..<28] {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
                let (sum, carry) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
                guard !overflow && !carry else { return nil }
                value = sum
            }
            return value
        }
    }

    private static let prefix = Array("segment-".utf8)
    private static let suffix = Array(".lz4".utf8)
}
