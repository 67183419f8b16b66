import Dispatch
import Foundation
import Journal
import Locking
import SDK
import SDKTesting

/// `bench offline`: a phone offline for a while makes `events` track calls; the network comes
/// back and the app says so. How many requests carry the backlog, in call order, how long it
/// takes, and the resident memory it took. Time offline passes on a manual clock (the SDK's
/// retries fire meanwhile, each refused at once by the network); the drain is timed on the wall
/// clock, through an in-process backend that answers at once.
struct OfflineBenchmark {
    var events = 16_000
    var offline: Duration = .seconds(30 * 60)
    var scratch: String

    struct Report {
        var events = 0
        var offlineSeconds = 0
        /// Attempts the SDK made while offline (each refused at once).
        var attemptsOffline = 0
        /// Requests that carried the backlog once the network was back, and the events in each.
        var requestsToDrain = 0
        var largestRequestEvents = 0
        var drainSeconds = 0.0
        var delivered = 0
        var inCallOrder = false
        /// Resident memory before the calls, with the backlog queued, and at its peak (MiB).
        var residentBeforeMiB = 0.0
        var residentWithBacklogMiB = 0.0
        var peakResidentMiB = 0.0
        var journalBytes = 0
    }

    /// The in-process platform: accepts every request and records each event's name, in
    /// arrival order. Offline, ``SwitchableNetwork`` refuses requests before they reach it.
    final class Backend: Sendable {
        private let state = Locked((requests: [Int](), names: [String]()))

        var requests: [Int] { state.withLock { $0.requests } }
        var names: [String] { state.withLock { $0.names } }

        func answer(_ request: TransportRequest) -> TransportResult {
            var names: [String] = []
            if let body = request.body, let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] {
                let events = (object["events"] as? [[String: Any]]) ?? [object]
                names = events.compactMap { $0["eventName"] as? String }
            }
            state.withLock { state in
                if !names.isEmpty { state.requests.append(names.count) }
                state.names += names
            }
            let count = names.count
            return .response(status: 200, headers: ["content-type": "application/json"],
                             body: Data(#"{"code":"Success","successCount":\#(count),"failCount":0}"#.utf8))
        }
    }

    func run(log: @Sendable (String) -> Void) async throws -> Report {
        var report = Report()
        report.events = events
        report.offlineSeconds = Int(offline.components.seconds)
        try? FileManager.default.removeItem(atPath: scratch)
        let backend = Backend()
        let clock = ManualClock()
        let network = SwitchableNetwork(base: InProcessTransport { backend.answer($0) })
        let configuration = SDKConfiguration(storageDirectory: scratch, clock: clock, transport: network, modules: [])
        let sdk = try EngagementSDK(configuration: configuration)
        guard let project = Project(apiKey: "bench-offline-key", label: "US", config: ProjectConfig(region: .us)) else {
            throw BenchError("the bench project is invalid")
        }
        await sdk.outcome.initialize(project)
        await sdk.outcome.setEmail("ada@example.com")
        await sdk.settle()
        report.residentBeforeMiB = ProcessStats.residentMiB()

        log("offline: \(events) track calls")
        network.goOffline()
        let tally = OutcomeTally()
        for index in 0..<events {
            sdk.track("event-\(index)", dataFields: ["n": .integer(Int64(index))], completion: tally.completion)
        }
        let steps = 60
        for _ in 0..<steps {
            await sdk.settle()
            clock.advance(by: offline / steps)
        }
        await sdk.settle()
        report.attemptsOffline = network.refusedRequests
        report.residentWithBacklogMiB = ProcessStats.residentMiB()
        // The path measured is a backlog kept while offline: the SDK tried and was refused, and
        // no call ended (none delivered, discarded or failed) before the network came back.
        let endedOffline = tally.outcomes
        guard report.attemptsOffline > 0, endedOffline.isEmpty else {
            throw BenchError("not an offline backlog: \(report.attemptsOffline) attempt(s) refused offline, calls that ended offline: \(endedOffline)")
        }

        log("back online")
        network.goOnline()
        let drain = Stopwatch()
        sdk.networkBecameReachable()
        await sdk.settle()
        report.drainSeconds = drain.seconds
        report.requestsToDrain = backend.requests.count
        report.largestRequestEvents = backend.requests.max() ?? 0
        report.delivered = tally.outcomes["delivered"] ?? 0
        report.inCallOrder = backend.names == (0..<events).map { "event-\($0)" }
        report.peakResidentMiB = ProcessStats.peakResidentMiB()
        sdk.shutdown()
        report.journalBytes = directorySize(scratch + "/journal")
        try? FileManager.default.removeItem(atPath: scratch)
        guard tally.allDelivered(events), report.inCallOrder else {
            throw BenchError("the backlog did not drain: \(tally.outcomes) of \(events) calls, in call order: \(report.inCallOrder)")
        }
        return report
    }
}

enum OfflineReportFormatter {
    static func table(_ report: OfflineBenchmark.Report) -> String {
        """
        offline backlog: \(report.events) track calls made during \(report.offlineSeconds / 60) minutes offline
          attempts while offline (each refused at once)  \(report.attemptsOffline)
          requests that drained the backlog              \(report.requestsToDrain) (largest: \(report.largestRequestEvents) events)
          delivered, in call order                       \(report.delivered) of \(report.events), \(report.inCallOrder ? "in order" : "OUT OF ORDER")
          drain time (networkBecameReachable to settled) \(String(format: "%.2f", report.drainSeconds)) s
          resident memory: before / with the backlog / peak  \(String(format: "%.1f / %.1f / %.1f MiB", report.residentBeforeMiB, report.residentWithBacklogMiB, report.peakResidentMiB))
          journal on disk                                \(report.journalBytes / 1024) KiB
        """
    }

    static func json(_ report: OfflineBenchmark.Report) -> String {
        let fields: [(String, String)] = [
            ("events", "\(report.events)"), ("offline_seconds", "\(report.offlineSeconds)"), ("attempts_offline", "\(report.attemptsOffline)"),
            ("requests_to_drain", "\(report.requestsToDrain)"), ("largest_request_events", "\(report.largestRequestEvents)"),
            ("delivered", "\(report.delivered)"), ("in_call_order", "\(report.inCallOrder)"),
            ("drain_seconds", String(format: "%.3f", report.drainSeconds)),
            ("resident_before_mib", String(format: "%.1f", report.residentBeforeMiB)),
            ("resident_with_backlog_mib", String(format: "%.1f", report.residentWithBacklogMiB)),
            ("peak_resident_mib", String(format: "%.1f", report.peakResidentMiB)), ("journal_bytes", "\(report.journalBytes)"),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
