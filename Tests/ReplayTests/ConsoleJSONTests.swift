import Foundation
import SDK
import Testing
@testable import ReplayKit

/// `Console.printJSON` writes JSON straight into the output's bytes; they must be the bytes of
/// printing the serialized string.
@Suite("printing JSON without making strings", .timeLimit(.minutes(1)))
struct ConsoleJSONTests {
    static let value = JSONValue.object([
        ("text", .string("tab\tquote\"back\\slash\nnewline \u{1} é ü 🙂")), ("n", .integer(-42)), ("u", .unsigned(UInt64.max)),
        ("x", .number(1.5)), ("nan", .number(.nan)), ("t", .bool(true)), ("none", .null),
        ("list", .array([.string(""), .object([]), .array([])])),
    ])

    @Test("a file descriptor's buffer gets the bytes of the serialized line")
    func sameBytes() throws {
        let path = NSTemporaryDirectory() + "console-json-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(descriptor >= 0)
        let buffer = FileDescriptorBuffer(descriptor: descriptor)
        buffer.write("before\n")
        buffer.writeLine { Self.value.write(to: &$0) }
        buffer.write("after\n")
        buffer.flush()
        close(descriptor)
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(written == Data(("before\n" + Self.value.serialized() + "\n" + "after\n").utf8))
    }

    @Test("a console made of closures prints the serialized line")
    func closures() {
        var out = ""
        let console = Console(out: { out += $0 }, error: { _ in })
        console.printJSON(Self.value)
        #expect(out == Self.value.serialized() + "\n")
    }
}
