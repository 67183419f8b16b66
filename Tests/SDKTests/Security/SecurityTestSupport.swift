/// Helpers for the security tests. The hex conversions are written independently of the SDK's
/// own hex code so the tests do not check the SDK against itself.
enum SecurityTestSupport {
    /// Lowercase hex of `bytes`.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let text = String(byte, radix: 16)
            return text.count == 1 ? "0" + text : text
        }.joined()
    }

    /// The bytes of even-length hex `text`; an empty array if it is malformed.
    static func bytes(fromHex text: String) -> [UInt8] {
        let characters = Array(text)
        guard characters.count % 2 == 0 else { return [] }
        return stride(from: 0, to: characters.count, by: 2).compactMap { index in
            UInt8(String(characters[index...index + 1]), radix: 16)
        }
    }

    /// What `dump` prints for `value`: what a debugger or a careless log line would show.
    static func dumped(_ value: Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }
}
