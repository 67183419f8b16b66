#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import Locking
import LoopbackHTTP
import ReplayKit
import Testing
@testable import replay

/// `replay serve` holds by design: idle, trickling and never-reading connections cost no worker,
/// a request over the workers and backlog gets 503 at once, a request's deadline is for the whole
/// head, IPv6 loopback is served, and the page and index are made once however many ask at once.
extension ServeTests {
    /// Short deadlines and a small server: 64 connections stand for a small descriptor limit.
    private static var siegeLimits: HTTPLimits {
        var limits = LoopbackServer.serveLimits
        limits.maxConnections = 64
        limits.workers = 2
        limits.backlog = 4
        limits.idleTimeout = .seconds(1)
        limits.requestTimeout = .seconds(1)
        limits.sendTimeout = .seconds(1)
        return limits
    }

    @Test("under siege (idle, trickling and never-reading connections, far more than the server keeps) a normal request is answered")
    func holdsUnderSiege() async throws {
        let journal = await DemoFixture.shared.journal().journal
        let journals = ServedJournals(paths: [journal])
        // Room for the never-reading clients' requests to wait for the two workers: over it they
        // would be answered 503 (overloadIs503), which is not what this test is about.
        var limits = Self.siegeLimits
        limits.backlog = 32
        let server = try LoopbackServer(limits: limits) { journals.answer($0) }
        server.start()
        defer { server.stop() }
        let port = server.port
        var attackers: [Int32] = []
        defer { attackers.forEach { close($0) } }
        // Never read: each asks for the page, its receive buffer as small as the kernel allows.
        for _ in 0..<20 {
            let descriptor = try #require(RawClient.connect(port: port, receiveBuffer: 1024))
            RawClient.send(descriptor, "GET /j/0/ HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            attackers.append(descriptor)
        }
        let trickle = Array("GET /j/0/ HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Slow: ".utf8)
        var tricklers: [Int32] = []
        for _ in 0..<40 {
            let descriptor = try #require(RawClient.connect(port: port))
            RawClient.send(descriptor, [trickle[0]])
            tricklers.append(descriptor)
        }
        attackers += tricklers
        for round in 1...6 {
            // More idle connections than the server keeps, and a byte more from each trickler.
            for _ in 0..<30 { if let descriptor = RawClient.connect(port: port) { attackers.append(descriptor) } }
            for descriptor in tricklers { RawClient.send(descriptor, [trickle[min(round, trickle.count - 1)]]) }
            let answer = RawClient.get("/j/0/state?at=5", port: port)
            #expect(answer.status == 200, "round \(round): \(answer.head)")
        }
        #expect(RawClient.get("/j/0/", port: port).status == 200)
    }

    @Test("a request no worker can take, with the backlog full, is answered 503 at once; the held one is answered when released")
    func overloadIs503() throws {
        var limits = Self.siegeLimits
        limits.workers = 1
        limits.backlog = 0
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let server = try LoopbackServer(limits: limits) { request in
            if request.path == "/hold" {
                started.signal()
                release.wait()
            }
            return .text("ok")
        }
        server.start()
        defer { server.stop() }
        let held = try #require(RawClient.connect(port: server.port))
        defer { close(held) }
        RawClient.send(held, "GET /hold HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
        #expect(started.wait(timeout: .now() + 30) == .success)
        let refused = RawClient.get("/", port: server.port)
        #expect(refused.status == 503)
        release.signal()
        #expect(RawClient.read(held).status == 200)
        #expect(RawClient.get("/", port: server.port).status == 200)
    }

    @Test("the deadline is for the whole request head: a client sending a byte at a time is closed however often it sends")
    func wholeHeadDeadline() throws {
        let server = try LoopbackServer(limits: Self.siegeLimits) { _ in .text("ok") }
        server.start()
        defer { server.stop() }
        let descriptor = try #require(RawClient.connect(port: server.port))
        defer { close(descriptor) }
        // A byte every 100 ms (each wait is for the server closing the connection) for at most
        // 30 s: a per-read timeout of 1 s would never fire, the head's deadline of 1 s does.
        var closed = false
        for byte in Array(repeating: UInt8(ascii: "G"), count: 300) {
            RawClient.send(descriptor, [byte])
            if RawClient.closedWithin(descriptor, milliseconds: 100) {
                closed = true
                break
            }
        }
        #expect(closed)
    }

    @Test("IPv6 loopback is served beside IPv4, and answers to [::1]")
    func ipv6Loopback() throws {
        let server = try LoopbackServer { _ in .text("ok") }
        server.start()
        defer { server.stop() }
        #expect(server.addresses.first == "127.0.0.1")
        guard server.addresses.contains("::1") else { return }  // a machine without IPv6
        let answer = RawClient.get("/", port: server.port, host: "[::1]:\(server.port)", ipv6: true)
        #expect(answer.status == 200)
        #expect(RawClient.get("/", port: server.port, host: "[::1]:\(server.port)").status == 200)
    }

    @Test("the page and the moment index are made once, however many requests ask at once")
    func singleFlight() async throws {
        let journal = await DemoFixture.shared.journal().journal
        let journals = ServedJournals(paths: [journal])
        let pages = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let path = index.isMultiple(of: 2) ? "/j/0/" : "/j/0/moment"
            let reply = journals.answer(HTTPRequestHead(method: "GET", path: path, query: ["at": "5"], headers: ["host": "127.0.0.1"]))
            pages.withLock { $0.append("\(path) \(reply.status) \(reply.body.count)") }
        }
        #expect(journals.pages.makeCount == 1)
        #expect(journals.indexes.makeCount == 1)
        #expect(Set(pages.withLock { $0 }).count == 2, "\(pages.withLock { $0 })")
        #expect(pages.withLock { $0 }.allSatisfy { $0.contains(" 200 ") })
    }

    @Test("a progress request that waits is answered once the page is made, not at its next poll")
    func progressWaitsForThePage() throws {
        let flights = SingleFlight<Int, String>()
        // Nothing is being made: it answers at once, whatever the patience.
        guard case .notMade(nil) = flights.state(of: 0, waitingAtMost: .seconds(600)) else {
            Issue.record("not made yet")
            return
        }
        let release = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0)
        let made = try flights.value(for: 0, waitingAtMost: .nanoseconds(0)) {
            started.signal()
            release.wait()
            return "page"
        }
        #expect(made == nil)
        started.wait()
        // The wait ends when the page is made (the bound, ten minutes, is never what ends it).
        DispatchQueue.global().async { release.signal() }
        guard case .made = flights.state(of: 0, waitingAtMost: .seconds(600)) else {
            Issue.record("made")
            return
        }
        #expect(flights.makeCount == 1)
    }
}

/// Raw loopback sockets for the siege tests: connect, send without `SIGPIPE`, read an answer
/// with a generous timeout.
private enum RawClient {
    static func connect(port: UInt16, ipv6: Bool = false, receiveBuffer: Int32? = nil) -> Int32? {
        #if canImport(Darwin)
        let streamType = SOCK_STREAM
        #else
        let streamType = Int32(SOCK_STREAM.rawValue)
        #endif
        let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, streamType, 0)
        guard descriptor >= 0 else { return nil }
        #if canImport(Darwin)
        var yes: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        if var size = receiveBuffer {
            _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            _ = inet_pton(AF_INET6, "::1", &address.sin6_addr)
            connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
            connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    static func send(_ descriptor: Int32, _ text: String) {
        send(descriptor, Array(text.utf8))
    }

    /// Sends what the socket takes; a connection the server closed is not an error here.
    static func send(_ descriptor: Int32, _ bytes: [UInt8]) {
        #if canImport(Darwin)
        let flags: Int32 = 0
        #else
        let flags = Int32(MSG_NOSIGNAL)
        #endif
        _ = bytes.withUnsafeBytes { systemSend(descriptor, $0.baseAddress, $0.count, flags) }
    }

    /// Whether the server closed the connection within `milliseconds`.
    static func closedWithin(_ descriptor: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, milliseconds) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT)) <= 0
    }

    /// The answer read until the server closes (or 20 s pass).
    static func read(_ descriptor: Int32) -> HTTPProbe.Answer {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            received.append(contentsOf: chunk[..<count])
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return HTTPProbe.Answer(status: -1, head: text, body: "") }
        let head = String(text[..<split.lowerBound])
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? -1
        return HTTPProbe.Answer(status: status, head: head, body: String(text[split.upperBound...]))
    }

    /// `GET target` on a fresh connection, its answer.
    static func get(_ target: String, port: UInt16, host: String? = nil, ipv6: Bool = false) -> HTTPProbe.Answer {
        guard let descriptor = connect(port: port, ipv6: ipv6) else { return HTTPProbe.Answer(status: -1, head: "connect failed", body: "") }
        defer { close(descriptor) }
        send(descriptor, "GET \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n\r\n")
        return read(descriptor)
    }
}

/// The C functions, which `RawClient`'s own `connect` and `send` hide.
private func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}

private func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(descriptor, bytes, count, flags)
}
