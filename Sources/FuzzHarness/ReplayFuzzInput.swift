/// One input of the replay fuzz target: a command line, and what standard input holds.
///
/// ```
/// input := arguments [0xFF standard-input]
/// ```
///
/// Arguments are separated by NUL bytes; standard input, after the first 0xFF (a byte that never
/// occurs in UTF-8, so never inside an argument), is split into lines at `\n`. Bytes that are
/// not UTF-8 become U+FFFD, as they would coming from a shell. Arguments may use the
/// placeholders of ``ReplayArgumentConfinement`` for the fixture journals.
package struct ReplayFuzzInput: Sendable, Equatable {
    package var arguments: [String]
    package var standardInput: [String]

    package init(arguments: [String], standardInput: [String] = []) {
        self.arguments = arguments
        self.standardInput = standardInput
    }

    package init(_ input: [UInt8]) {
        let split = input.firstIndex(of: 0xFF)
        let commandLine = input[..<(split ?? input.count)]
        arguments = commandLine.isEmpty ? [] : commandLine.split(separator: 0, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        standardInput = split.map { input[($0 + 1)...].split(separator: 0x0A, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) } } ?? []
    }

    /// The input bytes that parse back to this value (for writing seeds).
    package var encoded: [UInt8] {
        var output = Array(arguments.joined(separator: "\u{0}").utf8)
        if !standardInput.isEmpty {
            output.append(0xFF)
            output += Array(standardInput.joined(separator: "\n").utf8)
        }
        return output
    }
}
