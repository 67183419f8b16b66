import CSQLite
import Foundation
import Journal
import Locking
import SDK

/// Records facts as SQLite rows (WAL, synchronous=FULL, a transaction per 64 rows): the SDK with
/// this in place of its journal.
final class SQLiteRecorder: RowRecorder {
    private struct State {
        var sequence: UInt64 = 0
        var inTransaction = 0
    }

    // Unchecked: the connection and statement are only used under `state`'s lock.
    private struct Connection: @unchecked Sendable { // used only under `state`'s lock
        let database: OpaquePointer
        let insert: OpaquePointer
    }

    let streamID = UUID()
    private let connection: Connection
    private let state = Locked(State())

    init(directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var database: OpaquePointer?
        guard sqlite3_open(directory + "/facts.sqlite", &database) == SQLITE_OK, let database else {
            throw SQLitePeer.Failure(description: "sqlite3_open failed")
        }
        for sql in ["PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL",
                    "CREATE TABLE facts(seq INTEGER PRIMARY KEY, kind INTEGER NOT NULL, ts INTEGER NOT NULL, payload BLOB NOT NULL)"] {
            guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else { throw SQLitePeer.Failure(description: sql) }
        }
        var insert: OpaquePointer?
        guard sqlite3_prepare_v2(database, "INSERT INTO facts VALUES (?, ?, ?, ?)", -1, &insert, nil) == SQLITE_OK, let insert else {
            throw SQLitePeer.Failure(description: "prepare failed")
        }
        connection = Connection(database: database, insert: insert)
    }

    var lastSequence: UInt64 { state.withLock { $0.sequence } }

    func recordRow(kind: UInt32, timestamp: JournalTime, payload: [UInt8]) throws -> UInt64 {
        try state.withLock { state in
            if state.inTransaction == 0 { sqlite3_exec(connection.database, "BEGIN", nil, nil, nil) }
            state.sequence += 1
            sqlite3_bind_int64(connection.insert, 1, Int64(state.sequence))
            sqlite3_bind_int64(connection.insert, 2, Int64(kind))
            sqlite3_bind_int64(connection.insert, 3, timestamp.microsecondsSince1970)
            _ = payload.withUnsafeBytes { sqlite3_bind_blob(connection.insert, 4, $0.baseAddress, Int32($0.count), nil) }
            guard sqlite3_step(connection.insert) == SQLITE_DONE else { throw SQLitePeer.Failure(description: "insert failed") }
            sqlite3_reset(connection.insert)
            state.inTransaction += 1
            if state.inTransaction >= 64 {
                sqlite3_exec(connection.database, "COMMIT", nil, nil, nil)
                state.inTransaction = 0
            }
            return state.sequence
        }
    }

    func flush(completion: @escaping @Sendable (Result<UInt64, JournalError>) -> Void) {
        let sequence = state.withLock { state -> UInt64 in
            if state.inTransaction > 0 {
                sqlite3_exec(connection.database, "COMMIT", nil, nil, nil)
                state.inTransaction = 0
            }
            return state.sequence
        }
        completion(.success(sequence))
    }

    func close() throws {
        flush { _ in }
        sqlite3_finalize(connection.insert)
        sqlite3_close(connection.database)
    }
}
