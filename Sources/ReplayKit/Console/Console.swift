#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import SDK

/// Where a command writes: standard output for results, standard error for messages and
/// progress. Tests capture both in memory.
package final class Console {
    private let writeOut: (String) -> Void
    /// Lets a writer append one line of JSON straight into the output's bytes, then a newline
    /// (nil: through ``print(_:)``).
    private let writeOutJSON: (((inout ScratchBytes) -> Void) -> Void)?
    private let writeError: (String) -> Void
    /// Whether standard error is a terminal (progress is only drawn there).
    let errorIsTerminal: Bool

    private let flushOutput: () -> Void
    private let readInput: () -> String?
    private let readAllInput: () throws -> [UInt8]
    /// Whether standard input is a terminal (interactive commands prompt only there).
    let inputIsTerminal: Bool

    package convenience init(out: @escaping (String) -> Void, error: @escaping (String) -> Void, errorIsTerminal: Bool = false,
         flush: @escaping () -> Void = {}, input: @escaping () -> String? = { nil }, inputIsTerminal: Bool = false,
         inputBytes: @escaping () throws -> [UInt8] = { [] }) {
        self.init(out: out, outJSON: nil, error: error, errorIsTerminal: errorIsTerminal, flush: flush, input: input,
                  inputIsTerminal: inputIsTerminal, inputBytes: inputBytes)
    }

    /// The process's own standard input, standard output (buffered; see ``flush()``) and
    /// standard error.
    package static func standard() -> Console {
        let output = FileDescriptorBuffer(descriptor: 1)
        return Console(
            out: { output.write($0) },
            outJSON: { output.writeLine($0) },
            error: { FileDescriptorBuffer.writeAll($0, to: 2) },
            errorIsTerminal: isatty(2) != 0,
            flush: { output.flush() },
            input: { Swift.readLine(strippingNewline: true) },
            inputIsTerminal: isatty(0) != 0,
            inputBytes: { try JournalSource.readStandardInput() })
    }

    private init(out: @escaping (String) -> Void, outJSON: (((inout ScratchBytes) -> Void) -> Void)?, error: @escaping (String) -> Void,
                 errorIsTerminal: Bool, flush: @escaping () -> Void, input: @escaping () -> String?, inputIsTerminal: Bool,
                 inputBytes: @escaping () throws -> [UInt8]) {
        writeOut = out
        writeOutJSON = outJSON
        writeError = error
        self.errorIsTerminal = errorIsTerminal
        flushOutput = flush
        readInput = input
        readAllInput = inputBytes
        self.inputIsTerminal = inputIsTerminal
    }

    /// The next line of standard input, without its newline; nil at its end.
    func readLine() -> String? {
        readInput()
    }

    /// All of standard input, as bytes (a journal given as `-`).
    func readAllBytes() throws -> [UInt8] {
        try readAllInput()
    }

    /// Writes `text` without a newline and flushes (a prompt).
    func prompt(_ text: String) {
        writeOut(text)
        flushOutput()
    }

    /// Writes out anything buffered.
    package func flush() {
        flushOutput()
    }

    /// Writes `text` as it is, without a newline (a line printed in pieces).
    package func write(_ text: String) {
        writeOut(text)
    }

    package func print(_ line: String = "") {
        writeOut(line + "\n")
    }

    /// Prints `value`'s compact JSON on a line: the same bytes as `print(value.serialized())`,
    /// written without making the string when the output is a file descriptor.
    package func printJSON(_ value: JSONValue) {
        printLine { value.write(to: &$0) }
    }

    /// Prints one line that `write` appends as UTF-8 bytes (a row of text, the compact JSON of one
    /// value), without its newline: straight into the output's buffer when it is a file
    /// descriptor.
    package func printLine(_ write: (inout ScratchBytes) -> Void) {
        if let writeOutJSON {
            writeOutJSON(write)
        } else {
            print(ScratchBytes.withScratch { bytes in
                write(&bytes)
                return String(decoding: bytes.written, as: UTF8.self)
            })
        }
    }

    package func printError(_ line: String) {
        writeError(line + "\n")
    }

    /// Redraws a one-line progress indicator on a terminal; does nothing otherwise.
    package func progress(_ text: String) {
        guard errorIsTerminal else { return }
        writeError("\r\u{1B}[2K" + text)
    }

    package func clearProgress() {
        guard errorIsTerminal else { return }
        writeError("\r\u{1B}[2K")
    }
}

/// Output gathered in memory and written to a file descriptor in large pieces.
final class FileDescriptorBuffer {
    private let descriptor: Int32
    private var pending: [UInt8] = []

    init(descriptor: Int32) {
        self.descriptor = descriptor
        pending.reserveCapacity(1 << 16)
    }

    func write(_ text: String) {
        pending.append(contentsOf: text.utf8)
        if pending.count >= 1 << 16 { flush() }
    }

    /// Appends the JSON `write` appends, and a newline.
    func writeLine(_ write: (inout ScratchBytes) -> Void) {
        // 1,024 bytes: the most the standard library places on the stack without asking the
        // system (a larger scratch buffer was allocated on the heap for every line); a longer
        // line moves to the heap as it grows.
        ScratchBytes.withScratch(capacity: 1024) { line in
            write(&line)
            line.append(UInt8(ascii: "\n"))
            pending.append(contentsOf: line.written)
        }
        if pending.count >= 1 << 16 { flush() }
    }

    func flush() {
        Self.writeAll(pending, to: descriptor)
        pending.removeAll(keepingCapacity: true)
    }

    static func writeAll(_ text: String, to descriptor: Int32) {
        writeAll(Array(text.utf8), to: descriptor)
    }

    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}

/// The C library's `write`, which the console's own `write` methods hide inside the type.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
