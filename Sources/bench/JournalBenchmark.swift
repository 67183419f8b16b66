import CLZ4
import Foundation
import Journal

/// `bench journal`: the journal against its peers on one workload, plus scan, seek and memory.
struct JournalBenchmark {
    var records = 500_000
    var seekRecords = 10_000_000
    /// Only these peers (by name), when set.
    var peerNames: [String]?
    /// Whether to measure the scan, seeks and scan memory after the appends.
    var scans = true
    var keep: String?
    var scratch: String

    struct Report {
        var rows: [PeerResult] = []
        var ceilingRatio = 0.0
        var journalRatio = 0.0
        var scanRecordsPerSecond = 0.0
        var seekMilliseconds = 0.0
        var seekMaxMilliseconds = 0.0
        var scanPeakRSSMiB = 0.0
        var seekJournalRecords = 0
    }

    func run(log: (String) -> Void) throws -> Report {
        var report = Report()
        log("generating \(records) records")
        let workload = Workload.make(records)
        report.ceilingRatio = Self.ceilingRatio(workload)

        let peers: [any AppendPeer] = [
            JournalPeer(name: "journal-buffered", durable: false),
            JournalPeer(name: "journal-durable", durable: true),
            JSONLinesPeer(),
            SQLitePeer(),
            LZ4PerRecordPeer(),
        ].filter { peer in peerNames.map { $0.contains(peer.name) } ?? true }
        for peer in peers {
            let directory = peer.name == "journal-buffered" && keep != nil ? keep! : scratch + "/" + peer.name
            try? FileManager.default.removeItem(atPath: directory)
            log("running \(peer.name)")
            let stopwatch = Stopwatch()
            let bytes = try peer.record(workload, into: directory)
            let seconds = stopwatch.seconds
            // The rate counts only if every record is there to read back (outside the timing).
            let stored = try peer.storedRecords(in: directory)
            guard stored == records else {
                throw BenchmarkFailure(description: "\(peer.name) stored \(stored) of \(records) records (-1: unreadable): no rate reported")
            }
            report.rows.append(PeerResult(name: peer.name, records: records, seconds: seconds, bytes: bytes))
            if peer is JournalPeer && report.journalRatio == 0 {
                let raw = Self.rawStreamBytes(workload)
                let segmentBytes = try JournalReader(directory: directory).segments.reduce(0) { $0 + $1.bytes }
                report.journalRatio = Double(raw) / Double(segmentBytes)
            }
            if directory != keep { try? FileManager.default.removeItem(atPath: directory) }
        }

        guard scans else {
            report.scanRecordsPerSecond = .nan
            report.seekMilliseconds = .nan
            report.seekMaxMilliseconds = .nan
            report.scanPeakRSSMiB = .nan
            return report
        }
        let large = scratch + "/seek-journal"
        try? FileManager.default.removeItem(atPath: large)
        log("writing a \(seekRecords)-record journal for scan and seek")
        try Self.writeLargeJournal(records: seekRecords, into: large)
        report.seekJournalRecords = seekRecords

        log("verified scan")
        let scan = Stopwatch()
        let cursor = try JournalReader(directory: large).records()
        var scanned = 0
        while try cursor.nextView() != nil { scanned += 1 }
        report.scanRecordsPerSecond = Double(scanned) / scan.seconds

        log("random seeks")
        let reader = try JournalReader(directory: large)
        var generator = SystemRandomNumberGenerator()
        var samples: [Double] = []
        for _ in 0..<200 {
            let target = UInt64.random(in: 1...UInt64(scanned), using: &generator)
            let stopwatch = Stopwatch()
            guard let found = try reader.records(from: target).nextView(), found.sequence == target else {
                throw JournalError.sequenceNotFound(target)
            }
            samples.append(stopwatch.seconds * 1000)
        }
        report.seekMilliseconds = percentile(samples, 0.5)
        report.seekMaxMilliseconds = samples.max() ?? 0

        log("scan memory (child process)")
        report.scanPeakRSSMiB = try Self.scanPeakRSSInChild(large)
        try? FileManager.default.removeItem(atPath: large)
        return report
    }

    /// Raw record stream bytes over whole-buffer LZ4 of the same bytes: the best LZ4 can do.
    static func ceilingRatio(_ workload: [Workload.Record]) -> Double {
        let raw = rawStream(workload)
        var compressed = [UInt8](repeating: 0, count: Int(LZ4_compressBound(Int32(raw.count))))
        let size = compressed.withUnsafeMutableBytes { out in
            raw.withUnsafeBytes { LZ4_compress_default($0.baseAddress, out.baseAddress, Int32(raw.count), Int32(out.count)) }
        }
        return Double(raw.count) / Double(size)
    }

    static func rawStream(_ workload: [Workload.Record]) -> [UInt8] {
        var raw: [UInt8] = []
        var previous = workload.first?.timestamp ?? JournalTime(microsecondsSince1970: 0)
        for record in workload {
            raw += record.rawEncoding(previousTime: previous)
            previous = record.timestamp
        }
        return raw
    }

    static func rawStreamBytes(_ workload: [Workload.Record]) -> Int {
        rawStream(workload).count
    }

    /// A large buffered journal, generated as it is written (never all in memory).
    static func writeLargeJournal(records: Int, into directory: String) throws {
        var options = JournalOptions()
        options.segmentBytes = 64 << 20
        options.retainedBytes = nil
        options.groupCommit = GroupCommit(maxRecords: 64, maxDelay: .milliseconds(2), synchronizesEachGroup: false)
        let writer = try JournalWriter(directory: directory, options: options) { _ in [] }
        var workload = Workload(seed: 7)
        for _ in 0..<records {
            let record = workload.next()
            try record.payload.withUnsafeBytes { _ = try writer.append(kind: record.kind, timestamp: record.timestamp, payload: $0) }
        }
        try writer.close()
    }

    /// Runs `bench _scan-rss DIR` in a fresh process, so the peak covers the scan alone.
    static func scanPeakRSSInChild(_ directory: String) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        if !FileManager.default.isExecutableFile(atPath: process.executableURL!.path) {
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        }
        process.arguments = ["_scan-rss", directory]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
    }

    /// The child side: scan everything, print the peak RSS in MiB.
    static func scanAndReportPeak(_ directory: String) throws {
        let cursor = try JournalReader(directory: directory).records()
        var count = 0
        while try cursor.nextView() != nil { count += 1 }
        print(Format.fixed(ProcessStats.peakResidentMiB(), digits: 1))
    }
}
