/// Size and time bounds the server enforces on every connection.
struct HTTPLimits: Sendable {
    /// Largest accepted request line plus header fields, in bytes (larger: 431 and close).
    var maxHeaderSectionBytes = 64 * 1024
    /// Largest accepted request body, in bytes, before or after de-chunking (larger: 413 and close).
    var maxBodyBytes = 8 * 1024 * 1024
    /// Largest accepted chunk-size line of a chunked body, in bytes (larger: 400 and close).
    var maxChunkLineBytes = 4 * 1024
    /// How long a connection may sit without sending or accepting a byte before it is closed.
    var idleTimeout: Duration = .seconds(60)
    /// How many connections may be open at once; further ones are closed right after `accept`.
    var maxConnections = 256

    /// The limits described in the package documentation.
    static let standard = HTTPLimits()
}
