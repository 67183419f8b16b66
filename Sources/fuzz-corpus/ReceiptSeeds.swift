import FuzzHarness
import Journal
import ReplayKit
import SDK

/// The receipt-log target's seeds: well-formed logs (one line, a bulk's lines, every optional
/// member null or absent, CRLF, blank lines) and the malformed lines `replay reconcile` names.
enum ReceiptSeeds {
    typealias Seed = (name: String, bytes: [UInt8])

    static func make() -> [Seed] {
        let line = ReceiptLine(project: ProjectFingerprint(apiKey: "demo-us-key-0001"), region: "us", endpoint: "events/track",
                               callID: WireCallID(high: 0x19c3_cb28_0aee_bfa6, low: 0x48ca_902b_4339_5151),
                               idempotencyKey: "8dcf15a2-efdf-41c6-bd35-1e3f06493735-call-00000000-0000-4000-8000-000000000004",
                               user: "email:ada@example.com", receivedAt: JournalTime(microsecondsSince1970: 1_764_000_007_000_000),
                               status: 200, duplicate: false)
        var bare = line
        bare.idempotencyKey = nil
        bare.user = nil
        bare.status = nil
        var bulk: [String] = []
        for index in 0..<3 {
            var event = line
            event.endpoint = "events/trackBulk"
            event.callID = WireCallID(high: UInt64(index), low: 0xFEED)
            event.duplicate = index == 2
            bulk.append(event.json)
        }
        let texts: [(String, String)] = [
            ("one-line", line.json + "\n"),
            ("bulk", bulk.joined(separator: "\n") + "\n"),
            ("nulls", bare.json + "\n"),
            ("absent", #"{"project":"9e1f3d9d78320577","region":"eu","endpoint":"users/update","call_id":"00000000000000010000000000000002","received_at":"2025-11-24T16:00:07+01:00"}"#),
            ("crlf-blank", line.json + "\r\n\r\n  \n" + bare.json),
            ("not-json", "not json\n{\n[]\n\"text\"\n"),
            ("wrong-types", #"{"project":1,"region":"us","endpoint":"x","call_id":"0","received_at":"2025-11-24T16:00:07Z","status":"200","duplicate":"no"}"#),
            ("bad-time", #"{"project":"9e1f3d9d78320577","region":"us","endpoint":"x","call_id":"00000000000000010000000000000002","received_at":"2025-02-30T25:61:00.1234567890Z"}"#),
            ("deep", String(repeating: "[", count: 200) + "\n"),
        ]
        return texts.map { ($0.0, Array($0.1.utf8)) }
    }

    /// The schema's member names and the values' shapes.
    static func dictionary() -> [[UInt8]] {
        ["\"project\":", "\"region\":", "\"endpoint\":", "\"call_id\":", "\"idempotency_key\":", "\"user\":", "\"received_at\":",
         "\"status\":", "\"duplicate\":", "null", "true", "false", "\"2025-11-24T16:00:07.000000Z\"", "\"9e1f3d9d78320577\"",
         "\"19c3cb280aeebfa648ca902b43395151\"", "\"email:", "\"userId:", "\\u00", "\r\n"].map { Array($0.utf8) }
    }
}
