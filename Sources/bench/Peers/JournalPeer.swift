import Journal

/// This project's journal, buffered (groups reach the OS, fsync only at the end) or durable
/// (group commit: a fdatasync per 64 records or 2 ms, off the appending thread).
struct JournalPeer: AppendPeer {
    let name: String
    let durable: Bool
    var segmentBytes = 64 << 20

    func record(_ records: [Workload.Record], into directory: String) throws -> Int {
        var options = JournalOptions()
        options.segmentBytes = segmentBytes
        options.retainedBytes = nil
        options.groupCommit = GroupCommit(maxRecords: 64, maxDelay: .milliseconds(2), synchronizesEachGroup: durable)
        let writer = try JournalWriter(directory: directory, options: options) { _ in [] }
        for record in records {
            try record.payload.withUnsafeBytes { payload in
                _ = try writer.append(kind: record.kind, timestamp: record.timestamp, payload: payload)
            }
        }
        try writer.sync()
        try writer.close()
        return directorySize(directory)
    }

    func storedRecords(in directory: String) throws -> Int {
        let report = try JournalReader(directory: directory).verify()
        return report.isClean ? report.records - report.snapshots : -1
    }
}
