/// Where quoted passages of free text close (``Redactor/redact(text:)``): a `'` followed by a
/// space, punctuation or the end. Asked in the text's order, it reads each byte at most once,
/// however many quotes open and never close.
struct ClosingQuotes {
    private let text: UnsafeBufferPointer<UInt8>
    /// Every closing quote before it has been handed out or passed.
    private var next = 0

    init(_ text: UnsafeBufferPointer<UInt8>) {
        self.text = text
    }

    /// The first closing quote after the quote that opens at `open`; nil when none follows
    /// (the quote is an apostrophe). `open` must not be before a quote already handed out.
    mutating func close(after open: Int) -> Int? {
        next = max(next, open + 1)
        while next < text.count {
            if text[next] == UInt8(ascii: "'") && (next + 1 == text.count || Self.endsQuote(text[next + 1])) { return next }
            next += 1
        }
        return nil
    }

    private static func endsQuote(_ byte: UInt8) -> Bool {
        FreeTextWords.isSpace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ";")
            || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?")
    }
}
