import Journal

/// The benchmark's records: 150-250 bytes of event text with repetitive keys, varying emails,
/// UUIDs and amounts, generated deterministically so every peer stores the same bytes.
struct Workload {
    struct Record {
        var kind: UInt32
        var timestamp: JournalTime
        var payload: [UInt8]
    }

    private static let events = ["purchase_completed", "add_to_cart", "screen_view", "push_open", "inapp_click", "session_start"]
    private static let names = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi",
                                "ivan", "judy", "mallory", "oscar", "peggy", "trent", "victor", "walter"]
    private static let domains = ["example.com", "mail.example.org", "corp.test", "shop.example.net"]

    private var random: UInt64
    private var time: Int64 = 1_764_000_000_000_000

    init(seed: UInt64 = 0x5EED) {
        random = seed | 1
    }

    mutating func next() -> Record {
        time += Int64(next(below: 5_000))
        let event = Self.events[next(below: Self.events.count)]
        let email = "\(Self.names[next(below: 16)]).\(Self.names[next(below: 16)])\(next(below: 1000))@\(Self.domains[next(below: 4)])"
        var text = "{\"type\":\"track\",\"event\":\"\(event)\",\"email\":\"\(email)\",\"messageId\":\"\(uuid())\","
            + "\"amount\":\(next(below: 500)).\(next(below: 90) + 10),\"currency\":\"USD\",\"platform\":\"iOS\""
        for property in 0..<next(below: 3) {
            text += ",\"prop\(property)\":\"value-\(next(below: 50))\""
        }
        text += "}"
        return Record(kind: 16 + UInt32(next(below: 8)), timestamp: JournalTime(microsecondsSince1970: time), payload: Array(text.utf8))
    }

    /// `count` records.
    static func make(_ count: Int, seed: UInt64 = 0x5EED) -> [Record] {
        var workload = Workload(seed: seed)
        return (0..<count).map { _ in workload.next() }
    }

    private mutating func next(below bound: Int) -> Int {
        random ^= random << 13
        random ^= random >> 7
        random ^= random << 17
        return Int(random % UInt64(bound))
    }

    private mutating func uuid() -> String {
        let hex = Array("0123456789abcdef")
        var text = ""
        for index in 0..<32 {
            if [8, 12, 16, 20].contains(index) { text += "-" }
            text.append(hex[next(below: 16)])
        }
        return text
    }
}

extension Workload.Record {
    /// The record as the journal encodes it in its decompressed stream (length, kind, time
    /// delta, payload), for the whole-buffer compression ceiling.
    func rawEncoding(previousTime: JournalTime) -> [UInt8] {
        var body = ByteWriter()
        body.writeVarint(UInt64(kind))
        body.writeSignedVarint(timestamp.microsecondsSince1970 - previousTime.microsecondsSince1970)
        body.writeBytes(payload)
        var record = ByteWriter()
        record.writeLengthPrefixed(body.bytes)
        return record.bytes
    }
}
