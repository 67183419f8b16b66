/// One way of recording the workload durably, measured side by side with the others.
protocol AppendPeer {
    /// The row name in the report.
    var name: String { get }
    /// Records everything into files under `directory`; returns the bytes those files hold.
    func record(_ records: [Workload.Record], into directory: String) throws -> Int
    /// How many records the files under `directory` hold, read back after the timed run: a
    /// rate is reported only when it equals the workload's count (the work was done).
    func storedRecords(in directory: String) throws -> Int
}

/// What one peer achieved.
struct PeerResult {
    var name: String
    var records: Int
    var seconds: Double
    var bytes: Int

    var recordsPerSecond: Double { Double(records) / seconds }
    var bytesPerRecord: Double { Double(bytes) / Double(records) }
}
