import LoopbackHTTP

// The HTTP types the Sandbox reads requests with come from the loopback core; these names keep
// them reachable as the Sandbox's own (its code and its tests use them unqualified).
typealias HTTPRequest = LoopbackHTTP.HTTPRequest
typealias HTTPHeaders = LoopbackHTTP.HTTPHeaders
typealias HTTPLimits = LoopbackHTTP.HTTPLimits
typealias HTTPParseError = LoopbackHTTP.HTTPParseError
typealias HTTPRequestParser = LoopbackHTTP.HTTPRequestParser
typealias ByteChannel = LoopbackHTTP.ByteChannel
typealias SocketError = LoopbackHTTP.SocketError
