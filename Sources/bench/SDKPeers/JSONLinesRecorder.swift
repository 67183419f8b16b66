import Foundation
import Journal
import Locking
import SDK

/// Records facts as JSON lines through Foundation's `JSONEncoder` and `FileHandle`, with an
/// fsync every 64 records: the SDK with this in place of its journal.
final class JSONLinesRecorder: RowRecorder {
    private struct Line: Encodable {
        var seq: UInt64
        var kind: UInt32
        var ts: Int64
        var payload: Data
    }

    private struct State {
        var sequence: UInt64 = 0
        var unsynced = 0
    }

    let streamID = UUID()
    private let handle: FileHandle
    private let encoder = JSONEncoder()
    private let state = Locked(State())

    init(directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/facts.jsonl"
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    var lastSequence: UInt64 { state.withLock { $0.sequence } }

    func recordRow(kind: UInt32, timestamp: JournalTime, payload: [UInt8]) throws -> UInt64 {
        try state.withLock { state in
            state.sequence += 1
            var line = try encoder.encode(Line(seq: state.sequence, kind: kind, ts: timestamp.microsecondsSince1970, payload: Data(payload)))
            line.append(0x0A)
            try handle.write(contentsOf: line)
            state.unsynced += 1
            if state.unsynced >= 64 {
                try handle.synchronize()
                state.unsynced = 0
            }
            return state.sequence
        }
    }

    func flush(completion: @escaping @Sendable (Result<UInt64, JournalError>) -> Void) {
        let sequence = state.withLock { state -> UInt64 in
            try? handle.synchronize()
            state.unsynced = 0
            return state.sequence
        }
        completion(.success(sequence))
    }

    func close() throws {
        try handle.synchronize()
        try handle.close()
    }
}
