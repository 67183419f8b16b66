import Journal

/// The head of one HTTP/1.x request as ``LoopbackServer`` hands it on: the method, the path as
/// sent (never percent-decoded, so a route matches only its own spelling) and the query's
/// parameters (decoded).
package struct HTTPRequestHead: Sendable {
    package var method: String
    /// The target's path, as sent: `/j/0/state`.
    package var path: String
    /// The query's parameters, percent-decoded (`+` is a space); the last of a repeated name.
    package var query: [String: String]
    /// Header names lowercased, values trimmed; the last of a repeated name.
    package var headers: [String: String]

    package init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
    }

    /// Why a request head was refused.
    package enum ParseError: Error, Equatable {
        case malformed(String)
    }

    /// Parses the bytes of a request head (up to and without the blank line).
    package static func parse(_ bytes: some Collection<UInt8>) throws(ParseError) -> HTTPRequestHead {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
        guard let requestLine = lines.popFirst() else { throw .malformed("empty request") }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { throw .malformed("not an HTTP/1.x request line") }
        let target = parts[1]
        guard target.hasPrefix("/"), !target.contains("#") else { throw .malformed("the target must be a path") }
        var headers: [String: String] = [:]
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw .malformed("a header line without a colon") }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
        }
        let path: Substring
        var query: [String: String] = [:]
        if let mark = target.firstIndex(of: "?") {
            path = target[..<mark]
            for pair in target[target.index(after: mark)...].split(separator: "&") {
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = decode(halves[0]), let value = decode(halves.count > 1 ? halves[1] : "") else {
                    throw .malformed("a query parameter that is not valid percent-encoded UTF-8")
                }
                query[name] = value
            }
        } else {
            path = target
        }
        return HTTPRequestHead(method: String(parts[0]), path: String(path), query: query, headers: headers)
    }

    /// `text` percent-decoded (`+` a space); nil when an escape is malformed or the bytes are not UTF-8.
    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return UTF8Validation.string(bytes)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

private extension Substring {
    func trimmingCharacters(in characters: String) -> String {
        String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}
