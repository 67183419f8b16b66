import CSQLite
import Foundation

/// SQLite in WAL mode (synchronous=FULL), one transaction per 64 rows, a prepared INSERT.
struct SQLitePeer: AppendPeer {
    let name = "sqlite-wal-txn64"

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func record(_ records: [Workload.Record], into directory: String) throws -> Int {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var database: OpaquePointer?
        guard sqlite3_open(directory + "/records.sqlite", &database) == SQLITE_OK, let database else {
            throw Failure(description: "sqlite3_open failed")
        }
        defer { sqlite3_close(database) }
        func execute(_ sql: String) throws {
            guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
                throw Failure(description: "\(sql): \(String(cString: sqlite3_errmsg(database)))")
            }
        }
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=FULL")
        try execute("CREATE TABLE records(seq INTEGER PRIMARY KEY, kind INTEGER NOT NULL, ts INTEGER NOT NULL, payload BLOB NOT NULL)")
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, "INSERT INTO records(seq, kind, ts, payload) VALUES (?, ?, ?, ?)", -1, &statement, nil) == SQLITE_OK else {
            throw Failure(description: "prepare: \(String(cString: sqlite3_errmsg(database)))")
        }
        defer { sqlite3_finalize(statement) }
        for (index, record) in records.enumerated() {
            if index % 64 == 0 { try execute("BEGIN") }
            sqlite3_bind_int64(statement, 1, Int64(index + 1))
            sqlite3_bind_int64(statement, 2, Int64(record.kind))
            sqlite3_bind_int64(statement, 3, record.timestamp.microsecondsSince1970)
            _ = record.payload.withUnsafeBytes { sqlite3_bind_blob(statement, 4, $0.baseAddress, Int32($0.count), nil) }
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw Failure(description: "insert: \(String(cString: sqlite3_errmsg(database)))")
            }
            sqlite3_reset(statement)
            if index % 64 == 63 || index == records.count - 1 { try execute("COMMIT") }
        }
        try execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return directorySize(directory)
    }

    func storedRecords(in directory: String) throws -> Int {
        var database: OpaquePointer?
        guard sqlite3_open(directory + "/records.sqlite", &database) == SQLITE_OK, let database else {
            throw Failure(description: "sqlite3_open failed")
        }
        defer { sqlite3_close(database) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, "SELECT count(*) FROM records", -1, &statement, nil) == SQLITE_OK else {
            throw Failure(description: "prepare: \(String(cString: sqlite3_errmsg(database)))")
        }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw Failure(description: "count: \(String(cString: sqlite3_errmsg(database)))") }
        return Int(sqlite3_column_int64(statement, 0))
    }
}
