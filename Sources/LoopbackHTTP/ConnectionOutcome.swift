/// What a ``LoopbackHTTPServer`` handler did with the request it read: the server writes the
/// answer (within ``HTTPLimits/sendTimeout``, without holding a worker) and then reads the
/// connection's next request or closes it.
package enum ConnectionOutcome: Sendable {
    /// Write `bytes`; then wait for the next request (`keepOpen`) or close gracefully.
    case respond([UInt8], keepOpen: Bool)
    /// Close the connection without answering.
    case close
}
