#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A connected TCP socket, owned by exactly one connection thread (hence not `Sendable`).
///
/// It never raises `SIGPIPE` (``SystemSocket/send(_:_:_:)``) and never closes its descriptor twice.
final class ClientSocket {
    /// The connected socket's descriptor; valid until ``close()``.
    let descriptor: Int32
    private var isClosed = false

    /// Takes ownership of an accepted descriptor.
    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close()
    }

    /// Applies per-connection options: an idle timeout for reads and writes, and `TCP_NODELAY`
    /// so small keep-alive responses are not delayed. Failures are ignored (the defaults still work).
    func configure(idleTimeout: Duration) {
        try? SocketOptions.setTimeout(SO_RCVTIMEO, to: idleTimeout, on: descriptor)
        try? SocketOptions.setTimeout(SO_SNDTIMEO, to: idleTimeout, on: descriptor)
        try? SocketOptions.enable(Int32(TCP_NODELAY), level: Int32(IPPROTO_TCP), on: descriptor)
    }

    /// Closes the write side after an error response, then reads and discards what the client is still
    /// sending (up to `limit` bytes or `timeout`), so that closing the socket afterwards does not make
    /// the kernel reset the connection before the client has read the response.
    func finishWritingAndDrain(limit: Int, timeout: Duration) {
        SystemSocket.shutdown(descriptor, SystemSocket.stopWriting)
        try? SocketOptions.setTimeout(SO_RCVTIMEO, to: timeout, on: descriptor)
        var discarded = 0
        while discarded < limit, let bytes = try? receive(maxBytes: 64 * 1024), !bytes.isEmpty {
            discarded += bytes.count
        }
    }

    /// Closes the descriptor; later calls do nothing.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        SystemSocket.close(descriptor)
    }
}

extension ClientSocket: ByteChannel {
    func receive(maxBytes: Int) throws(SocketError) -> [UInt8] {
        var failure: SocketError?
        let bytes = [UInt8](unsafeUninitializedCapacity: maxBytes) { buffer, initializedCount in
            initializedCount = 0
            while true {
                let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
                if count >= 0 {
                    initializedCount = count
                    return
                }
                if errno != EINTR {
                    failure = .lastError("recv")
                    return
                }
            }
        }
        if let failure {
            throw failure
        }
        return bytes
    }

    func send(_ bytes: [UInt8]) throws(SocketError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return SystemSocket.send(descriptor, base + offset, raw.count - offset)
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && errno == EINTR {
                continue
            } else {
                throw .lastError("send")
            }
        }
    }
}
