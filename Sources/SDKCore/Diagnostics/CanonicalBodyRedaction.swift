/// Redacts a request body in one pass over its bytes, writing as it reads, when the body is JSON
/// in the form the SDK's own writers give it: no whitespace, strings of printable ASCII with no
/// escapes, numbers whose integer part has no leading zeros (a fraction or an exponent is read
/// as the tree's parser reads it), at most ``maximumDepth`` levels, an object or an array at
/// the top. Gives exactly the bytes ``Redactor/redact(body:)`` gives by parsing the
/// body into a tree and writing it again, without the tree; any other body (which may still be
/// JSON) is refused, and the redactor takes the tree's path for it.
struct CanonicalBodyRedaction: ~Copyable {
    static let maximumDepth = 32

    private let redactor: Redactor
    private let input: UnsafeBufferPointer<UInt8>
    private var reader: JSONReader
    private var output: ScratchBytes

    private struct Refused: Error {}

    /// The redacted body, or nil when `body` is not in the canonical form.
    static func redact(_ body: [UInt8], with redactor: Redactor) -> [UInt8]? {
        body.withUnsafeBufferPointer { input in
            ScratchBytes.withScratch(capacity: 2048) { scratch in
                var redaction = CanonicalBodyRedaction(redactor: redactor, input: input, output: scratch)
                let redacted: [UInt8]?
                do {
                    guard let first = input.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { throw Refused() }
                    try redaction.value(key: nil, inData: false, depth: 0)
                    redacted = redaction.reader.isAtEnd ? redaction.output.array : nil
                } catch {
                    redacted = nil
                }
                scratch = redaction.finish()
                return redacted
            }
        }
    }

    private init(redactor: Redactor, input: UnsafeBufferPointer<UInt8>, output: consuming ScratchBytes) {
        self.redactor = redactor
        self.input = input
        reader = JSONReader(UnsafeRawBufferPointer(input))
        self.output = output
    }

    private consuming func finish() -> ScratchBytes {
        output
    }

    /// One value, redacted as ``Redactor``'s tree walk redacts it: strings become tokens of the
    /// kind their key gives (or `data` under `dataFields`), every number and boolean under
    /// `dataFields` becomes a `data` token of its JSON text, the rest (null included) is kept;
    /// a key that is not identifier-shaped becomes a token (``Redactor/keeps(key:)``).
    private mutating func value(key: UnsafeBufferPointer<UInt8>?, inData: Bool, depth: Int) throws(Refused) {
        guard depth < Self.maximumDepth, let byte = reader.next else { throw Refused() }
        switch byte {
        case UInt8(ascii: "{"):
            guard opensNonEmpty(UInt8(ascii: "{"), closedBy: UInt8(ascii: "}")) else { return }
            repeat {
                let name = UnsafeBufferPointer(rebasing: input[try string()])
                guard reader.take(UInt8(ascii: ":")) else { throw Refused() }
                let inData = inData || name.hasSameBytes(as: "dataFields")
                if IdentifierShape.isIdentifier(name) || FreeTextWords.isToken(name) {
                    output.append(UInt8(ascii: "\""))
                    output.append(UnsafeRawBufferPointer(name))
                    output.append(UInt8(ascii: "\""))
                } else {
                    redactor.writeToken(utf8: name, inData ? "data" : "body", to: &output)
                }
                output.append(UInt8(ascii: ":"))
                try value(key: name, inData: inData, depth: depth + 1)
            } while reader.take(UInt8(ascii: ",")) && comma()
            try close(UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            guard opensNonEmpty(UInt8(ascii: "["), closedBy: UInt8(ascii: "]")) else { return }
            repeat {
                try value(key: key, inData: inData, depth: depth + 1)
            } while reader.take(UInt8(ascii: ",")) && comma()
            try close(UInt8(ascii: "]"))
        case UInt8(ascii: "\""):
            let text = UnsafeBufferPointer(rebasing: input[try string()])
            redactor.writeToken(utf8: text, inData ? "data" : Redactor.kind(forKeyBytes: key), to: &output)
        default:
            let scalar = try scalar()
            if let number = scalar.number {
                // Written as the tree writes a `Double`: its description, in full or as a token.
                let text = String(number)
                if inData {
                    text.utf8.withContiguousBytes { redactor.writeToken(utf8: $0, "data", to: &output) }
                } else {
                    output.append(text)
                }
            } else if inData, input[scalar.range.lowerBound] != UInt8(ascii: "n") {
                redactor.writeToken(utf8: UnsafeBufferPointer(rebasing: input[scalar.range]), "data", to: &output)
            } else {
                output.append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(input)[scalar.range]))
            }
        }
    }

    /// Steps past and writes the `open` bracket the input is at; when `close` follows at once,
    /// steps past and writes it too, and returns false: the object or array is empty.
    private mutating func opensNonEmpty(_ open: UInt8, closedBy close: UInt8) -> Bool {
        _ = reader.take(open)
        output.append(open)
        guard reader.take(close) else { return true }
        output.append(close)
        return false
    }

    /// Steps past and writes the `close` bracket that ends an object or array, or refuses.
    private mutating func close(_ close: UInt8) throws(Refused) {
        guard reader.take(close) else { throw Refused() }
        output.append(close)
    }

    /// Writes the comma between two members or elements; always true (for `while`).
    private mutating func comma() -> Bool {
        output.append(UInt8(ascii: ","))
        return true
    }

    /// The range of a string's text between its quotes, which it steps past: printable ASCII
    /// without a backslash, or refused.
    private mutating func string() throws(Refused) -> Range<Int> {
        guard let (range, ascii) = reader.plainString(), ascii else { throw Refused() }
        return range
    }

    /// The range of `true`, `false`, `null` or a number, which it steps past. A number is the
    /// run of bytes a number may hold (``JSONReader/numberRun()``), as ``JSONParser`` reads one: an integer as the writers
    /// spell one (an optional `-`, then `0` or 1 to 18 digits without a leading zero; not `-0`)
    /// is kept as it is; any other run the parser reads as a finite `Double` comes with it
    /// (`number`), to be written as the tree writes it; a run the parser reads as an integer
    /// in some other spelling, or not at all, is refused.
    private mutating func scalar() throws(Refused) -> (range: Range<Int>, number: Double?) {
        let start = reader.position
        do {
            if try reader.keyword() != nil { return (start..<reader.position, nil) }
        } catch {
            throw Refused()
        }
        let range = reader.numberRun()
        let run = UnsafeBufferPointer(rebasing: input[range])
        if Self.isWritersInteger(run) { return (range, nil) }
        let text = String(decoding: run, as: UTF8.self)
        guard Int64(text) == nil, let number = Double(text), number.isFinite else { throw Refused() }
        return (range, number)
    }

    /// Whether `text` is an integer as the writers spell one: an optional `-`, then `0` or 1 to
    /// 18 digits without a leading zero, not `-0` (what the parser reads back as the same text).
    private static func isWritersInteger(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let negative = text.first == UInt8(ascii: "-")
        let digits = UnsafeBufferPointer(rebasing: text[(negative ? 1 : 0)...])
        guard let first = digits.first, (1...18).contains(digits.count),
              digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return false }
        return first != UInt8(ascii: "0") || (digits.count == 1 && !negative)
    }
}
