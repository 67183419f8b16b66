import Foundation
import Glibc

/// A failure of a test client (raw socket or URLSession), with a readable explanation.
struct TestClientError: Error, CustomStringConvertible {
    let description: String

    static func lastError(_ operation: String) -> TestClientError {
        TestClientError(description: "\(operation) failed with errno \(errno)")
    }
}

/// A response read off a raw connection.
struct RawHTTPResponse {
    let status: Int
    /// Header fields by lowercased name.
    let headers: [String: String]
    let body: Data

    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }
}

/// A blocking TCP client for tests that need byte-level control over what is sent.
///
/// Reads time out after `timeout` (a safety net so a broken server fails the test instead of hanging it).
final class RawHTTPConnection {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16, timeout: Duration = .seconds(10)) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestClientError.lastError("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = TestClientError.lastError("connect")
            close(descriptor)
            throw error
        }
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// A request in wire form with the given head fields and body.
    static func request(
        _ method: String,
        _ path: String,
        headers: [(String, String)] = [],
        body: String = ""
    ) -> String {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers {
            text += "\(name): \(value)\r\n"
        }
        if !body.isEmpty {
            text += "Content-Length: \(body.utf8.count)\r\n"
        }
        return text + "\r\n" + body
    }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                Glibc.send(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw TestClientError.lastError("send") }
            offset += sent
        }
    }

    /// Tells the server nothing more will be sent (half-close), so it sees end of stream.
    func finishSending() {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Reads one response (an interim `1xx` response has no body).
    func readResponse() throws -> RawHTTPResponse {
        let head = try readHead()
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
            throw TestClientError(description: "malformed status line in \(head)")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = (100..<200).contains(status) ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        return RawHTTPResponse(status: status, headers: headers, body: Data(try readExactly(length)))
    }

    /// Reads until the server closes the connection; returns whatever arrived before that.
    func readUntilClosed() throws -> [UInt8] {
        var received = buffer
        buffer = []
        while let chunk = try receive() {
            received += chunk
        }
        return received
    }

    private func readHead() throws -> String {
        while true {
            if let end = buffer.indices.dropLast(3).first(where: { buffer[$0..<($0 + 4)].elementsEqual([13, 10, 13, 10]) }) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                return head
            }
            guard let chunk = try receive() else {
                throw TestClientError(description: "connection closed before a complete response head")
            }
            buffer += chunk
        }
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard let chunk = try receive() else {
                throw TestClientError(description: "connection closed inside a response body")
            }
            buffer += chunk
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    /// The next bytes from the socket, or nil at end of stream (including a reset by the peer).
    private func receive() throws -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            return Array(chunk[..<count])
        }
        if count == 0 || errno == ECONNRESET {
            return nil
        }
        throw TestClientError.lastError("recv")
    }
}
