import Foundation
import Testing

/// `replay export --format trace` on the demo journal: the Chrome Trace Event format's rules
/// (the JSON object form Perfetto UI and chrome://tracing open), and a golden file.
@Suite("trace export", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct TraceExportTests {
    private func demoTrace() async throws -> (text: String, events: [[String: Any]], journal: String) {
        let journal = await DemoFixture.shared.journal().journal
        let output = ReplayHarness.temporaryDirectory() + "/demo.trace.json"
        defer { try? FileManager.default.removeItem(atPath: (output as NSString).deletingLastPathComponent) }
        let run = ReplayHarness.run(["export", "--redact", "--format", "trace", "-o", output, journal])
        #expect(run.status == 0, "\(run.error)")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["displayTimeUnit"] as? String == "ms")
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        return (text, events, journal)
    }

    @Test("every event has the fields its phase requires; pids and tids are small integers", .timeLimit(.minutes(1)))
    func phases() async throws {
        let (_, events, _) = try await demoTrace()
        #expect(!events.isEmpty)
        for event in events {
            let phase = try #require(event["ph"] as? String)
            #expect(["M", "X", "i", "C", "s", "f"].contains(phase), "unexpected phase \(phase)")
            #expect(event["name"] is String, "\(event)")
            let pid = try #require(event["pid"] as? Int), tid = try #require(event["tid"] as? Int)
            #expect((0..<64).contains(pid) && (0..<64).contains(tid), "\(event)")
            if phase != "M" { #expect((event["ts"] as? Int).map { $0 >= 0 } == true, "\(event)") }
            switch phase {
            case "M":
                let args = try #require(event["args"] as? [String: Any])
                #expect(args["name"] is String || args["sort_index"] is Int, "\(event)")
            case "X": #expect((event["dur"] as? Int).map { $0 >= 0 } == true, "\(event)")
            case "i": #expect(["g", "p", "t"].contains(event["s"] as? String ?? ""), "\(event)")
            case "C": #expect((event["args"] as? [String: Any])?.values.allSatisfy { $0 is Int } == true, "\(event)")
            case "s", "f": #expect(event["id"] is Int, "\(event)")
            default: break
            }
            if phase == "f" { #expect(event["bp"] as? String == "e") }
        }
        // Every flow that starts finishes, once.
        let starts = events.filter { $0["ph"] as? String == "s" }.compactMap { $0["id"] as? Int }
        let finishes = events.filter { $0["ph"] as? String == "f" }.compactMap { $0["id"] as? Int }
        #expect(Set(starts) == Set(finishes) && starts.count == Set(starts).count && !starts.isEmpty)
    }

    @Test("complete events nest per thread, in time order; the demo's two projects are named processes", .timeLimit(.minutes(1)))
    func nesting() async throws {
        let (_, events, _) = try await demoTrace()
        var threads: [String: [(ts: Int, end: Int, name: String)]] = [:]
        for event in events where event["ph"] as? String == "X" {
            let ts = event["ts"] as? Int ?? 0, dur = event["dur"] as? Int ?? 0
            threads["\(event["pid"] ?? 0)/\(event["tid"] ?? 0)", default: []].append((ts, ts + dur, event["name"] as? String ?? ""))
        }
        for (thread, slices) in threads {
            for (index, slice) in slices.enumerated() {
                if index > 0 { #expect(slice.ts >= slices[index - 1].ts, "\(thread): \(slice.name) is written before an earlier slice") }
                for other in slices[..<index] {
                    let disjoint = other.end <= slice.ts || slice.end <= other.ts
                    let nested = (other.ts <= slice.ts && slice.end <= other.end) || (slice.ts <= other.ts && other.end <= slice.end)
                    #expect(disjoint || nested, "\(thread): \(slice.name) and \(other.name) overlap without nesting")
                }
            }
        }
        let switches = events.filter { $0["ph"] as? String == "X" && $0["cat"] as? String == "switch" }
        #expect(switches.count == 2, "s1 and s3 ran teardowns; s2 was absorbed")
        let steps = events.filter { $0["ph"] as? String == "X" && $0["cat"] as? String != "switch" }
        #expect(steps.count == 16)
        #expect(steps.contains { $0["cat"] as? String == "noisy" && $0["name"] as? String == "disable push" })
        let processes = events.filter { $0["name"] as? String == "process_name" }.compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(processes.contains("US") && processes.contains("EU"))
    }

    @Test("the demo's trace matches its golden file, personal data redacted", .timeLimit(.minutes(1)))
    func golden() async throws {
        let (text, _, journal) = try await demoTrace()
        #expect(!text.contains("ada@") && !text.contains("@example"))
        Golden.expect(text, matches: "trace.json", journal: journal)
    }
}
