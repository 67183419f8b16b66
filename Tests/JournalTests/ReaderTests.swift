import Foundation
import Testing
import TestSupport
@testable import Journal

@Suite("Reader: seeking, the index, the lz4 tool", .timeLimit(.minutes(3)))
struct ReaderTests {
    @Test("seek by sequence lands on exactly that record, with or without index files")
    func seekBySequence() throws {
        let fixture = try JournalFixture(count: 400)
        for withIndex in [true, false] {
            let storage = fixture.storage.copy()
            if !withIndex {
                for name in storage.fileNames(in: JournalFixture.directory) where name.hasSuffix(".idx") {
                    try storage.removeFile(at: JournalFixture.directory + "/" + name)
                }
            }
            let reader = try JournalReader(directory: JournalFixture.directory, storage: storage)
            for target in stride(from: UInt64(1), through: UInt64(fixture.records.count), by: 7) {
                let record = try #require(try reader.records(from: target).next())
                #expect(record.sequence == target)
                #expect(record == fixture.records[Int(target - 1)].record)
            }
        }
    }

    @Test("seek by time returns the first record at or after the time")
    func seekByTime() throws {
        let fixture = try JournalFixture(count: 300)
        let reader = try JournalReader(directory: JournalFixture.directory, storage: fixture.storage)
        for located in fixture.records.filter({ !$0.record.isSnapshot }).enumerated().filter({ $0.offset % 11 == 0 }).map(\.element) {
            let record = try #require(try reader.records(fromTime: located.record.timestamp).next())
            #expect(record.timestamp == located.record.timestamp)
            let later = JournalTime(microsecondsSince1970: located.record.timestamp.microsecondsSince1970 + 1)
            let after = try #require(try reader.records(fromTime: later).next())
            #expect(after.timestamp > located.record.timestamp)
        }
    }

    @Test("a stale or garbage index is never trusted over the data")
    func staleIndex() throws {
        let fixture = try JournalFixture(count: 300)
        let storage = fixture.storage.copy()
        let indexName = try #require(storage.fileNames(in: JournalFixture.directory).first { $0.hasSuffix(".idx") })
        var bytes = try #require(storage.bytes(of: JournalFixture.directory + "/" + indexName))
        // Point every entry at the wrong offset while keeping entry checksums valid.
        var entry = 16
        while entry + 28 <= bytes.count {
            var offset = bytes[entry..<(entry + 8)].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << UInt64(8 * $1.offset) }
            offset += 3
            for byte in 0..<8 { bytes[entry + byte] = UInt8(truncatingIfNeeded: offset >> UInt64(8 * byte)) }
            let checksum = XXHash32.hash(bytes[entry..<(entry + 24)])
            for byte in 0..<4 { bytes[entry + 24 + byte] = UInt8(truncatingIfNeeded: checksum >> UInt32(8 * byte)) }
            entry += 28
        }
        storage.setBytes(bytes, of: JournalFixture.directory + "/" + indexName)
        let reader = try JournalReader(directory: JournalFixture.directory, storage: storage)
        for target in stride(from: UInt64(2), through: UInt64(60), by: 5) {
            #expect(try reader.records(from: target).next()?.sequence == target)
        }
    }

    @Test("`lz4 -dc` prints each sealed segment's raw record stream", .enabled(if: LZ4Tool.path != nil))
    func lz4ToolReadsSegments() throws {
        let directory = TemporaryDirectory()
        let writer = try JournalWriter(directory: directory.path, options: TestJournal.options(segmentBytes: 2048), snapshot: TestJournal.snapshot)
        try TestJournal.appendRecords(writer, count: 200)
        try writer.close()
        let reader = try JournalReader(directory: directory.path)
        var fromTool: [(kind: UInt64, payload: [UInt8])] = []
        for segment in reader.segments {
            let (status, output) = try LZ4Tool.decompress(directory.path + "/" + segment.name)
            #expect(status == 0, "\(segment.name)")
            fromTool += try RawRecordStream.parse(output).filter { $0.kind != 1 }
        }
        let records = try TestJournal.readAll(directory.path).records
        #expect(fromTool.map(\.kind) == records.map { UInt64($0.kind) })
        #expect(fromTool.map(\.payload) == records.map(\.payload))
    }
}

/// The `lz4` command-line tool, when installed.
enum LZ4Tool {
    static let path: String? = ["/usr/bin/lz4", "/usr/local/bin/lz4"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static func decompress(_ file: String) throws -> (Int32, [UInt8]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path!)
        process.arguments = ["-dc", file]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, Array(data))
    }
}

/// Parses the decompressed record stream as docs/FORMAT.md describes it.
enum RawRecordStream {
    static func parse(_ bytes: [UInt8]) throws -> [(kind: UInt64, payload: [UInt8])] {
        var reader = ByteReader(bytes)
        var records: [(UInt64, [UInt8])] = []
        while !reader.isAtEnd {
            let body = Array(try reader.readLengthPrefixed())
            var fields = ByteReader(body)
            let kind = try fields.readVarint()
            _ = try fields.readSignedVarint()
            records.append((kind, Array(body[fields.offset...])))
        }
        return records
    }
}
