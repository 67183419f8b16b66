import Foundation

/// Foundation's `JSONEncoder`, one line per record through `FileHandle`, fsync every 64 records.
struct JSONLinesPeer: AppendPeer {
    let name = "jsonl-fsync64"

    private struct Line: Encodable {
        var seq: Int
        var kind: UInt32
        var ts: Int64
        var payload: String
    }

    func record(_ records: [Workload.Record], into directory: String) throws -> Int {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/records.jsonl"
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let encoder = JSONEncoder()
        for (index, record) in records.enumerated() {
            var line = try encoder.encode(Line(seq: index + 1, kind: record.kind, ts: record.timestamp.microsecondsSince1970,
                                               payload: String(decoding: record.payload, as: UTF8.self)))
            line.append(0x0A)
            try handle.write(contentsOf: line)
            if (index + 1) % 64 == 0 { try handle.synchronize() }
        }
        try handle.synchronize()
        try handle.close()
        return directorySize(directory)
    }

    /// Counts the lines (the encoder escapes newlines inside strings, so each line is a record).
    func storedRecords(in directory: String) throws -> Int {
        try Data(contentsOf: URL(fileURLWithPath: directory + "/records.jsonl")).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }
}
