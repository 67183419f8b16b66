import Foundation

/// Reads successive HTTP/1.x requests from a ``ByteChannel``.
///
/// Handles `Content-Length` and `Transfer-Encoding: chunked` bodies, answers
/// `Expect: 100-continue` before reading a body, and enforces ``HTTPLimits``. It never reads
/// beyond the limits: an oversized head or body is reported as an error as soon as it is detected.
/// Bytes received past the end of one request are kept for the next (pipelining).
package struct HTTPRequestParser {
    /// How a request's body is delimited.
    package enum BodyFraming: Equatable {
        case none
        case contentLength(Int)
        case chunked
    }

    private static let receiveSize = 64 * 1024
    private static let carriageReturn: UInt8 = 13
    private static let lineFeed: UInt8 = 10
    private static let continueResponse = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    private let channel: any ByteChannel
    private let limits: HTTPLimits
    private var buffer: [UInt8] = []

    package init(channel: any ByteChannel, limits: HTTPLimits = .standard) {
        self.channel = channel
        self.limits = limits
    }

    /// The bytes received past the last request read (the start of a pipelined one), which the
    /// connection keeps for the next parser.
    package var unparsedBytes: [UInt8] {
        buffer
    }

    /// Reads the next request, or returns nil when the peer closed the connection between requests.
    package mutating func nextRequest() throws(HTTPParseError) -> HTTPRequest? {
        guard let head = try readHead() else { return nil }
        var request = try Self.parseHead(head)
        let framing = try Self.bodyFraming(of: request.headers)
        if case .contentLength(let length) = framing, length > limits.maxBodyBytes {
            throw .bodyTooLarge
        }
        if framing != .none && request.expectsContinue {
            try send(Self.continueResponse)
        }
        switch framing {
        case .none:
            break
        case .contentLength(let length):
            request.body = Data(try readExactly(length))
        case .chunked:
            request.body = Data(try readChunkedBody())
        }
        return request
    }

    // MARK: - Reading

    /// Returns the head (request line and fields, without the blank line), or nil on a clean EOF.
    private mutating func readHead() throws(HTTPParseError) -> [UInt8]? {
        var searchStart = 0
        while true {
            // RFC 9112 §2.2: ignore empty lines received before the request line.
            let leadingLineBreaks = buffer.prefix { $0 == Self.carriageReturn || $0 == Self.lineFeed }.count
            if leadingLineBreaks > 0 {
                buffer.removeFirst(leadingLineBreaks)
                searchStart = 0
            }
            if let end = Self.firstIndex(of: [13, 10, 13, 10], in: buffer, from: searchStart) {
                guard end <= limits.maxHeaderSectionBytes else { throw .headerSectionTooLarge }
                let head = Array(buffer[..<end])
                buffer.removeFirst(end + 4)
                return head
            }
            guard buffer.count < limits.maxHeaderSectionBytes + 4 else { throw .headerSectionTooLarge }
            searchStart = max(0, buffer.count - 3)
            guard try receiveMore() else {
                if buffer.isEmpty { return nil }
                throw .connectionClosed
            }
        }
    }

    private mutating func readChunkedBody() throws(HTTPParseError) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let sizeLine = try readLine(limit: limits.maxChunkLineBytes, overflow: .malformedChunkedBody)
            let size = try Self.chunkSize(from: sizeLine)
            if size == 0 {
                try skipTrailerSection()
                return body
            }
            guard size <= limits.maxBodyBytes - body.count else { throw .bodyTooLarge }
            body += try readExactly(size)
            guard try readExactly(2) == [Self.carriageReturn, Self.lineFeed] else { throw .malformedChunkedBody }
        }
    }

    private mutating func skipTrailerSection() throws(HTTPParseError) {
        var remaining = limits.maxHeaderSectionBytes
        while true {
            let line = try readLine(limit: remaining, overflow: .headerSectionTooLarge)
            if line.isEmpty { return }
            remaining -= line.count + 2
            guard remaining > 0 else { throw .headerSectionTooLarge }
        }
    }

    /// Reads up to the next CRLF (which is consumed but not returned).
    private mutating func readLine(limit: Int, overflow: HTTPParseError) throws(HTTPParseError) -> [UInt8] {
        var searchStart = 0
        while true {
            if let end = Self.firstIndex(of: [13, 10], in: buffer, from: searchStart) {
                guard end <= limit else { throw overflow }
                let line = Array(buffer[..<end])
                buffer.removeFirst(end + 2)
                return line
            }
            guard buffer.count <= limit else { throw overflow }
            searchStart = max(0, buffer.count - 1)
            guard try receiveMore() else { throw .connectionClosed }
        }
    }

    private mutating func readExactly(_ count: Int) throws(HTTPParseError) -> [UInt8] {
        while buffer.count < count {
            guard try receiveMore() else { throw .connectionClosed }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    /// Appends whatever the channel delivers; returns false on EOF.
    private mutating func receiveMore() throws(HTTPParseError) -> Bool {
        let bytes: [UInt8]
        do throws(SocketError) {
            bytes = try channel.receive(maxBytes: Self.receiveSize)
        } catch {
            throw .transport(error)
        }
        buffer += bytes
        return !bytes.isEmpty
    }

    private func send(_ bytes: [UInt8]) throws(HTTPParseError) {
        do throws(SocketError) {
            try channel.send(bytes)
        } catch {
            throw .transport(error)
        }
    }

    private static func firstIndex(of pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= pattern.count, start <= bytes.count - pattern.count else { return nil }
        for index in start...(bytes.count - pattern.count)
        where bytes[index] == pattern[0] && bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
            return index
        }
        return nil
    }
}

// MARK: - Grammar

extension HTTPRequestParser {
    /// Parses a request head (request line and header fields separated by CRLF, without the
    /// terminating blank line). The returned request has an empty body.
    package static func parseHead(_ head: [UInt8]) throws(HTTPParseError) -> HTTPRequest {
        var lines = head.split(separator: [13, 10])
        guard !lines.isEmpty else { throw .malformedRequestLine }
        let requestLine = lines.removeFirst()
        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3,
              !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte),
              parts[1].first == UInt8(ascii: "/"), parts[1].allSatisfy(isVisibleASCII),
              let version = HTTPRequest.Version(rawValue: String(decoding: parts[2], as: UTF8.self))
        else { throw .malformedRequestLine }

        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { throw .malformedHeader }
            let name = line[line.startIndex..<colon]
            let value = line[(colon + 1)...].trimmingHTTPWhitespace()
            guard !name.isEmpty, name.allSatisfy(isTokenByte), value.allSatisfy(isFieldValueByte) else {
                throw .malformedHeader
            }
            headers.append(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
        }
        return HTTPRequest(
            method: String(decoding: parts[0], as: UTF8.self),
            target: String(decoding: parts[1], as: UTF8.self),
            version: version,
            headers: headers
        )
    }

    /// Decides how the body is delimited, rejecting ambiguous or unsupported framing.
    package static func bodyFraming(of headers: HTTPHeaders) throws(HTTPParseError) -> BodyFraming {
        let transferCodings = headers.tokens("transfer-encoding")
        let contentLength = headers["content-length"]
        if headers["transfer-encoding"] != nil {
            guard contentLength == nil else { throw .conflictingFraming }
            guard transferCodings == ["chunked"] else { throw .unsupportedTransferEncoding }
            return .chunked
        }
        guard let contentLength else { return .none }
        // Repeated fields are legal when they all agree ("5, 5").
        let values = contentLength.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .httpWhitespace) }
        guard let first = values.first,
              values.allSatisfy({ $0 == first }),
              (1...18).contains(first.utf8.count),
              first.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let length = Int(first)
        else { throw .invalidContentLength }
        return length == 0 ? .none : .contentLength(length)
    }

    /// Parses `chunk-size [; extensions]`.
    package static func chunkSize(from line: [UInt8]) throws(HTTPParseError) -> Int {
        let sizeField = line.prefix { $0 != UInt8(ascii: ";") }.trimmingHTTPWhitespace()
        guard (1...15).contains(sizeField.count),
              sizeField.allSatisfy(isHexDigit),
              let size = Int(String(decoding: sizeField, as: UTF8.self), radix: 16)
        else { throw .malformedChunkedBody }
        return size
    }

    /// RFC 9110 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
             UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }

    private static func isVisibleASCII(_ byte: UInt8) -> Bool {
        (0x21...0x7E).contains(byte)
    }

    /// Field values may hold visible characters, spaces, tabs and obs-text, but no other controls.
    private static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x7E).contains(byte) || byte >= 0x80
    }
}

private extension ArraySlice<UInt8> {
    /// The bytes without leading and trailing spaces and tabs.
    func trimmingHTTPWhitespace() -> ArraySlice<UInt8> {
        let isWhitespace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = firstIndex(where: { !isWhitespace($0) }),
              let last = lastIndex(where: { !isWhitespace($0) })
        else { return self[endIndex...] }
        return self[first...last]
    }
}
