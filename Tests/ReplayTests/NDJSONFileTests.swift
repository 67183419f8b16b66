import Foundation
import SDK
import Testing
@testable import ReplayKit

@Suite("NDJSON file", .timeLimit(.minutes(1)))
struct NDJSONFileTests {
    @Test("lines written in place, lines that outgrow the room left and raw lines come out in order, each once")
    func linesOfEverySize() throws {
        let path = NSTemporaryDirectory() + "ndjson-\(UUID().uuidString).ndjson"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try NDJSONFile(creating: path)
        var expected: [UInt8] = []
        // Enough bytes to fill the buffer several times over, in lines from empty to larger than
        // the buffer itself, so that some start with little room left and outgrow it.
        let sizes = (0..<400).map { $0 * 7_919 % 40_001 } + [0, 1, (1 << 20) + 17, 3, 1 << 20]
        for (index, size) in sizes.enumerated() {
            let byte = UInt8(ascii: "a") + UInt8(index % 26)
            if index % 97 == 5 {
                let raw = Array(repeating: UInt8(ascii: "r"), count: size % 100) + [UInt8(ascii: "\n")]
                try file.writeRaw(raw)
                expected += raw
                continue
            }
            try file.writeLine { line in
                for _ in 0..<size { line.append(byte) }
            }
            expected += Array(repeating: byte, count: size) + [UInt8(ascii: "\n")]
        }
        try file.close()
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(written.count == expected.count)
        #expect(written == expected)
    }

    @Test("lines of a start held elsewhere and a rest written in place come out whole and in order, between single lines")
    func linesInPieces() throws {
        let path = NSTemporaryDirectory() + "ndjson-\(UUID().uuidString).ndjson"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try NDJSONFile(creating: path)
        var expected: [UInt8] = []
        try file.writeLine { $0.append("first" as StaticString) }
        expected += Array("first\n".utf8)
        // Batches of many lines (more bytes than the buffer holds), with empty starts and rests
        // and rests larger than the buffer.
        for batch in 0..<3 {
            let lines = 1_500 + batch
            let starts = (0..<lines).map { index in Array(repeating: UInt8(ascii: "s"), count: index * 31 % 700) + [UInt8(ascii: ":")] }
            let restSizes = (0..<lines).map { index in index == 700 ? (1 << 20) + 5 : index % 5 == 0 ? 0 : index * 7_919 % 2_000 }
            let flat = starts.flatMap { $0 }
            var ends: [Int] = []
            for start in starts { ends.append((ends.last ?? 0) + start.count) }
            try flat.withUnsafeBytes { bytes in
                try file.writeLines(count: lines, start: { index in
                    UnsafeRawBufferPointer(rebasing: bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]])
                }, rest: { index, line in
                    for _ in 0..<restSizes[index] { line.append(UInt8(ascii: "a") + UInt8(index % 26)) }
                })
            }
            for index in 0..<lines {
                expected += starts[index] + Array(repeating: UInt8(ascii: "a") + UInt8(index % 26), count: restSizes[index]) + [UInt8(ascii: "\n")]
            }
            try file.writeRaw(Array("raw \(batch)\n".utf8))
            expected += Array("raw \(batch)\n".utf8)
        }
        try file.writeLines(count: 0, start: { _ in UnsafeRawBufferPointer(start: nil, count: 0) }, rest: { _, _ in })
        try file.writeLine { $0.append("last" as StaticString) }
        expected += Array("last\n".utf8)
        try file.close()
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(written.count == expected.count)
        #expect(written == expected)
    }

    @Test("a file that exists is refused, not overwritten")
    func existing() throws {
        let path = NSTemporaryDirectory() + "ndjson-\(UUID().uuidString).ndjson"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("kept\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ExportError.self) { try NDJSONFile(creating: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "kept\n")
    }

    @Test("a held file: lines that fit in its buffer handed back, no file made; more, and the file holds them all")
    func held() throws {
        let path = NSTemporaryDirectory() + "ndjson-\(UUID().uuidString).ndjson"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let small = NDJSONFile(holding: path)
        try small.writeLine { $0.append("one" as StaticString) }
        try small.writeLine { $0.append("two" as StaticString) }
        #expect(try small.closeHolding() == Array("one\ntwo\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: path))
        let large = NDJSONFile(holding: path)
        var expected: [UInt8] = []
        for index in 0..<300 {
            let byte = UInt8(ascii: "a") + UInt8(index % 26)
            try large.writeLine { line in
                for _ in 0..<(index * 7_919 % 10_000) { line.append(byte) }
            }
            expected += Array(repeating: byte, count: index * 7_919 % 10_000) + [UInt8(ascii: "\n")]
        }
        #expect(expected.count > 1 << 20)
        #expect(try large.closeHolding() == nil)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == expected)
        // A file that exists by the time the buffer is full is refused, not overwritten.
        let late = NDJSONFile(holding: path)
        #expect(throws: ExportError.self) {
            for _ in 0..<300 { try late.writeLine { line in for _ in 0..<10_000 { line.append(UInt8(ascii: "z")) } } }
        }
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == expected)
    }
}
