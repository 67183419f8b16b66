import Testing
@testable import SDKCore

/// The text check of a call's strings (no control character, judged on the UTF-8 bytes): every
/// ASCII byte, at every position of short and long strings, is judged as the scalar rule says,
/// and non-ASCII text never counts as a control character.
@Suite("Call validation: control characters in text")
struct CallValidationTextTests {
    @Test("each ASCII byte at each position of a 1- to 19-byte event name: invalid exactly when it is below 0x20 or 0x7F")
    func everyByteEveryPosition() {
        for length in 1...19 {
            for position in 0..<length {
                for byte in UInt8(0)...0x7F {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = byte
                    let name = String(decoding: bytes, as: UTF8.self)
                    let problem = CallValidation.problem(in: .track(event: name, dataFields: nil))
                    let control = byte < 0x20 || byte == 0x7F
                    #expect((problem?.reason == "eventName contains a control character") == control,
                            "byte \(byte) at \(position) of \(length): \(String(describing: problem))")
                    if !control { #expect(problem == nil) }
                }
            }
        }
    }

    @Test("non-ASCII names (bytes 0x80 and up, 0xFF-free UTF-8 of every length) are not control characters",
          arguments: ["é", "ünïcödé_näme", "日本語のイベント名", "emoji 🎉🎉🎉🎉", "\u{80}\u{9F}\u{A0}", "\u{7FF}\u{800}\u{FFFF}\u{10FFFF}"])
    func nonASCIIIsText(name: String) {
        #expect(CallValidation.problem(in: .track(event: name, dataFields: nil)) == nil)
    }

    @Test("a control character after non-ASCII text in the same word is found")
    func controlAfterNonASCII() {
        #expect(CallValidation.problem(in: .track(event: "é\u{1}", dataFields: nil))?.reason == "eventName contains a control character")
        #expect(CallValidation.problem(in: .track(event: "日本\u{7F}語", dataFields: nil))?.reason == "eventName contains a control character")
    }
}

extension CallValidationTextTests {
    @Test("the eight-at-a-time check agrees with the byte rule on 20,000 random buffers of 0 to 40 bytes, high bytes included")
    func wordCheckAgreesWithByteRule() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...40, using: &generator)
            // Mostly printable bytes, so that a single control byte, anywhere, decides the answer.
            let bytes = (0..<length).map { _ -> UInt8 in
                Int.random(in: 0..<16, using: &generator) == 0 ? UInt8.random(in: 0...0xFF, using: &generator)
                    : UInt8.random(in: 0x20...0x7E, using: &generator)
            }
            let expected = bytes.contains { $0 < 0x20 || $0 == 0x7F }
            #expect(bytes.withUnsafeBufferPointer(CallValidation.containsControl) == expected, "\(bytes)")
        }
    }
}
