// The check scripts/journal-without-liblz4.sh runs in a build of the Journal without CLZ4, as
// iOS builds it: the journal's own LZ4 in Swift writes and reads every block.
//
//   NoLZ4Check GOLDEN_ROOT OUTPUT_JOURNAL
//
// Writes OUTPUT_JOURNAL (2,000 records over several segments) and reads it back record for
// record; reads every golden journal under GOLDEN_ROOT (v*/NAME) and prints, per journal, its
// records and whether it read clean: `golden v1.0/demo 197 clean`. Exits 1 on any difference.
import Foundation
import Journal

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: NoLZ4Check GOLDEN_ROOT OUTPUT_JOURNAL\n".utf8))
    exit(2)
}
let (goldenRoot, output) = (arguments[1], arguments[2])
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("NoLZ4Check: \(message)\n".utf8))
    exit(1)
}
func payload(_ index: Int) -> [UInt8] {
    Array("{\"event\":\"screen_view\",\"screen\":\"settings\",\"index\":\(index)}".utf8)
}

do {
    var options = JournalOptions()
    options.groupCommit = GroupCommit(maxRecords: 4, maxDelay: nil, synchronizesEachGroup: false)
    options.segmentBytes = 8192
    options.retainedBytes = nil
    let count = 2_000
    let writer = try JournalWriter(directory: output, options: options) { _ in Array("snapshot".utf8) }
    for index in 0..<count {
        try writer.append(kind: 16, timestamp: JournalTime(microsecondsSince1970: 1_700_000_000_000_000 + Int64(index)),
                          payload: payload(index))
    }
    try writer.close()
    let reader = try JournalReader(directory: output)
    let cursor = try reader.records()
    var read = 0
    while let record = try cursor.next() {
        guard record.kind == 16 else { continue }
        guard record.payload == payload(read) else { fail("record \(read) of \(output) reads back differently") }
        read += 1
    }
    guard read == count else { fail("\(output): \(read) of \(count) records read back") }
    print("written \(output) \(reader.verify().records) records in \(reader.segments.count) segments")

    let files = FileManager.default
    for version in try files.contentsOfDirectory(atPath: goldenRoot).sorted() where version.hasPrefix("v") {
        for name in try files.contentsOfDirectory(atPath: goldenRoot + "/" + version).sorted() where !name.hasSuffix(".md") {
            let report = try JournalReader(directory: goldenRoot + "/" + version + "/" + name).verify()
            let clean = report.corruption.isEmpty && report.unreadable == nil
            print("golden \(version)/\(name) \(report.records) \(clean ? "clean" : "damaged")")
        }
    }
} catch {
    fail("\(error)")
}
