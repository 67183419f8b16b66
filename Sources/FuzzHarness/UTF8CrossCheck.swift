import Journal

/// The package's UTF-8 validator (``UTF8Validation``, which stands in for `String(validating:as:)`
/// below iOS 18 and macOS 15) held to the standard library's on hostile bytes: `fuzz-journal`
/// hands it every input, whole and with each of its first seven bytes dropped (so every byte
/// meets the validator's eight-byte ASCII stride at every alignment).
///
/// What must hold: both accept the same inputs, and make the same string of them, whose UTF-8
/// is the input itself.
package enum UTF8CrossCheck {
    package static func run(_ input: [UInt8]) -> [String] {
        var checker = InvariantChecker()
        for dropped in 0..<min(8, input.count + 1) {
            let bytes = input[dropped...]
            let ours = UTF8Validation.string(bytes)
            let reference = standardLibrary(bytes)
            checker.expect(ours == reference, "UTF8Validation \(ours == nil ? "refuses" : "accepts") \(bytes.count) bytes "
                           + "(the input without its first \(dropped)) the standard library \(reference == nil ? "refuses" : "accepts")")
            checker.expect(ours.map { $0.utf8.elementsEqual(bytes) } ?? true,
                           "UTF8Validation's string of \(bytes.count) bytes is not those bytes")
        }
        return checker.violations
    }

    /// `String(validating:as:)`: every Linux toolchain of Swift 6 has it; Apple platforms from
    /// iOS 18 and macOS 15 (the fuzzers run on Linux only).
    package static func standardLibrary(_ bytes: some Collection<UInt8>) -> String? {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return String(validating: bytes, as: UTF8.self)
        }
        preconditionFailure("String(validating:as:) is not available here: run the UTF-8 cross-check on Linux")
    }
}
