/// Size, time and concurrency bounds a ``LoopbackHTTPServer`` enforces on every connection.
///
/// The deadlines bound reading a request and writing its answer, never the time the handler
/// takes to decide the answer (a held response waits as long as its handler waits).
package struct HTTPLimits: Sendable {
    /// Largest accepted request line plus header fields, in bytes (larger: 431 and close).
    package var maxHeaderSectionBytes = 64 * 1024
    /// Largest accepted request body, in bytes, before or after de-chunking (larger: 413 and close).
    package var maxBodyBytes = 8 * 1024 * 1024
    /// Largest accepted chunk-size line of a chunked body, in bytes (larger: 400 and close).
    package var maxChunkLineBytes = 4 * 1024
    /// How long a connection may wait between requests (or before its first) without sending a
    /// byte before it is closed.
    package var idleTimeout: Duration = .seconds(60)
    /// How long a request may take to arrive whole, head and body, from its first byte: one
    /// deadline for the whole request, not per read, so a client trickling a byte at a time
    /// cannot hold the connection longer.
    package var requestTimeout: Duration = .seconds(60)
    /// How long writing one response (or an interim `100 Continue`) may take before the
    /// connection is closed: a client that never reads holds nothing longer.
    package var sendTimeout: Duration = .seconds(60)
    /// How many connections may be open at once. At the limit, a new connection closes the one
    /// that has waited longest for a request; when every open connection is being answered, the
    /// new one gets 503. Lowered to three quarters of the process's descriptor limit.
    package var maxConnections = 256
    /// How many requests are answered at once, each on a worker thread of its own (started when
    /// first needed, kept until shutdown).
    package var workers = 256
    /// How many complete requests may wait for a worker; a request over it is answered 503 at once.
    package var backlog = 256
    /// Each worker thread's stack, in bytes.
    package var workerStackBytes = 1 << 20

    /// The limits described in the package documentation.
    package static let standard = HTTPLimits()

    package init() {}
}
