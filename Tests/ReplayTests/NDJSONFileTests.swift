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

    @Test("a file that exists is refused, not overwritten")
    func existing() throws {
        let path = NSTemporaryDirectory() + "ndjson-\(UUID().uuidString).ndjson"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("kept\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ExportError.self) { try NDJSONFile(creating: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "kept\n")
    }
}
