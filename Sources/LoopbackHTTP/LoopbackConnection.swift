#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// One accepted connection of a ``LoopbackHTTPServer``, as its handler reads a request from it
/// and writes interim answers to it.
///
/// Reads wait at most until the request's deadline (``HTTPLimits/requestTimeout`` from its first
/// byte), however the bytes trickle in; each write waits at most ``HTTPLimits/sendTimeout``. Both
/// then throw a ``SocketError`` whose ``SocketError/isTimeout`` is true. Never raises `SIGPIPE`.
///
/// The server's poller owns the connection until a request head has arrived, then exactly one
/// worker until its handler returns, then the poller again: one thread at a time, handed over
/// under the server's lock (hence `@unchecked Sendable`: no two threads touch it at once, and the
/// lock orders each one's accesses after the previous owner's).
package final class LoopbackConnection: @unchecked Sendable { // safe: one owner at a time, handed over under the server's lock.
    /// What the poller is doing with the connection.
    enum Phase {
        /// Waiting for a whole request head; closed at `deadline`.
        case reading(since: ContinuousClock.Instant, deadline: ContinuousClock.Instant)
        /// A worker's handler has it.
        case answering
        /// Writing an answer; closed at `deadline`, then read again (`keepOpen`) or lingering.
        case writing(bytes: [UInt8], offset: Int, deadline: ContinuousClock.Instant, keepOpen: Bool)
        /// Written and shut for writing: reading what the client still sends until it closes, so
        /// that the close does not reset the connection before the client read the answer.
        case lingering(since: ContinuousClock.Instant, deadline: ContinuousClock.Instant, drained: Int)
    }

    /// The connected socket's descriptor (non-blocking); valid until the server closes it.
    package let descriptor: Int32
    let limits: HTTPLimits
    /// Received and not yet parsed.
    var buffer: [UInt8] = []
    /// When the request being read must have arrived whole; nil before its first byte.
    var requestDeadline: ContinuousClock.Instant?
    var phase: Phase
    private(set) var isClosed = false

    init(descriptor: Int32, limits: HTTPLimits) {
        self.descriptor = descriptor
        self.limits = limits
        let now = ContinuousClock.now
        phase = .reading(since: now, deadline: now + limits.idleTimeout)
    }

    deinit {
        close()
    }

    /// Gives back bytes read past the end of a request (the start of the next one): the next
    /// request on this connection is parsed from them first.
    package func unread(_ bytes: [UInt8]) {
        buffer = bytes + buffer
    }

    /// Closes the descriptor; later calls do nothing.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        SystemSocket.close(descriptor)
    }

    /// Whether a whole request head is buffered (or more bytes than a head may have, which the
    /// parser refuses): a worker can parse it without waiting for the client. Drops the empty
    /// lines a request may be preceded by.
    var hasRequestHead: Bool {
        let leading = buffer.prefix { $0 == 13 || $0 == 10 }.count
        if leading > 0 { buffer.removeFirst(leading) }
        if buffer.count > limits.maxHeaderSectionBytes + 4 { return true }
        guard buffer.count >= 4 else { return false }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 {
            if buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 { return true }
        }
        return false
    }

    /// Reads once without waiting: the bytes read, an empty array at end of stream, nil when none
    /// are waiting; throws on a failed read.
    func receiveAvailable(maxBytes: Int) throws(SocketError) -> [UInt8]? {
        var failure: SocketError?
        var wouldBlock = false
        let bytes = [UInt8](unsafeUninitializedCapacity: maxBytes) { buffer, initializedCount in
            initializedCount = 0
            while true {
                let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
                if count >= 0 {
                    initializedCount = count
                    return
                }
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK {
                    wouldBlock = true
                } else {
                    failure = SocketError(operation: "recv", code: code)
                }
                return
            }
        }
        if let failure { throw failure }
        return wouldBlock ? nil : bytes
    }

    /// Sends what it can of `bytes[offset...]` without waiting: the new offset; throws on a
    /// failed write.
    func sendAvailable(_ bytes: [UInt8], from offset: Int) throws(SocketError) -> Int {
        var offset = offset
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return SystemSocket.send(descriptor, base + offset, raw.count - offset)
            }
            if sent > 0 {
                offset += sent
                continue
            }
            let code = errno
            if sent < 0 && code == EINTR { continue }
            if sent < 0 && (code == EAGAIN || code == EWOULDBLOCK) { return offset }
            throw SocketError(operation: "send", code: sent == 0 ? EPIPE : code)
        }
        return offset
    }
}

extension LoopbackConnection: ByteChannel {
    /// Buffered bytes first, then the socket's, waiting no later than the request's deadline.
    package func receive(maxBytes: Int) throws(SocketError) -> [UInt8] {
        if !buffer.isEmpty {
            let count = min(maxBytes, buffer.count)
            defer { buffer.removeFirst(count) }
            return Array(buffer[..<count])
        }
        let deadline = requestDeadline ?? ContinuousClock.now + limits.requestTimeout
        requestDeadline = deadline
        while true {
            if let bytes = try receiveAvailable(maxBytes: maxBytes) { return bytes }
            guard SystemSocket.wait(for: Int32(POLLIN), on: descriptor, until: deadline) else {
                throw SocketError(operation: "recv", code: EAGAIN)
            }
        }
    }

    /// Writes all of `bytes`, waiting at most ``HTTPLimits/sendTimeout`` in all.
    package func send(_ bytes: [UInt8]) throws(SocketError) {
        let deadline = ContinuousClock.now + limits.sendTimeout
        var offset = 0
        while true {
            offset = try sendAvailable(bytes, from: offset)
            if offset == bytes.count { return }
            guard SystemSocket.wait(for: Int32(POLLOUT), on: descriptor, until: deadline) else {
                throw SocketError(operation: "send", code: EAGAIN)
            }
        }
    }
}
