#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A raw HTTP/1.1 client for the serve tests: sends the request bytes exactly as written (no
/// path normalization, so `..` and encoded traversal reach the server as a browser could not
/// send them) and reads the whole answer (the server closes each connection).
enum HTTPProbe {
    struct Answer {
        var status: Int
        var head: String
        var body: String
    }

    /// `GET target` (or `method`) on 127.0.0.1:`port` with `Host: host` (default: the address).
    static func get(_ target: String, port: UInt16, method: String = "GET", host: String? = nil) -> Answer {
        let hostLine = host.map { $0.isEmpty ? "" : "Host: \($0)\r\n" } ?? "Host: 127.0.0.1:\(port)\r\n"
        return send(Array("\(method) \(target) HTTP/1.1\r\n\(hostLine)Connection: close\r\n\r\n".utf8), port: port)
    }

    /// Sends `bytes` and reads until the server closes.
    static func send(_ bytes: [UInt8], port: UInt16) -> Answer {
        #if canImport(Darwin)
        let streamType = SOCK_STREAM
        #else
        let streamType = Int32(SOCK_STREAM.rawValue)
        #endif
        let descriptor = socket(AF_INET, streamType, 0)
        guard descriptor >= 0 else { return Answer(status: -1, head: "socket failed", body: "") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return Answer(status: -1, head: "connect failed", body: "") }
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            received.append(contentsOf: chunk[..<count])
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return Answer(status: -1, head: text, body: "") }
        let head = String(text[..<split.lowerBound])
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? -1
        return Answer(status: status, head: head, body: String(text[split.upperBound...]))
    }
}
