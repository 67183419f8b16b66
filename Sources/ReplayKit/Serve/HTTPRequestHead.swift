import Journal
import LoopbackHTTP

/// The head of one HTTP/1.x request as ``LoopbackServer`` hands it on: the method, the path as
/// sent (never percent-decoded, so a route matches only its own spelling) and the query's
/// parameters (decoded).
package struct HTTPRequestHead: Sendable {
    package var method: String
    /// The target's path, as sent: `/j/0/state`.
    package var path: String
    /// The query's parameters, percent-decoded (`+` is a space); the last of a repeated name.
    package var query: [String: String]
    /// Header names lowercased, values trimmed; a repeated name's values joined with ", ".
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

    /// The head of a request the loopback core read: the path as sent, the query decoded.
    /// Throws when the target carries a fragment or its query is not valid percent-encoded UTF-8.
    package init(_ request: HTTPRequest) throws(ParseError) {
        guard !request.target.contains("#") else { throw .malformed("the target must be a path") }
        var query: [String: String] = [:]
        for pair in (request.query ?? "").split(separator: "&") {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(halves[0]), let value = Self.decode(halves.count > 1 ? halves[1] : "") else {
                throw .malformed("a query parameter that is not valid percent-encoded UTF-8")
            }
            query[name] = value
        }
        self.init(method: request.method, path: request.path, query: query, headers: request.headers.dictionary)
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
