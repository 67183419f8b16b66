/// A request as the privacy checks tell it apart: its idempotency key and a digest of its body
/// (a later task may reuse a number; its body, stamped with when it was made, differs).
struct SentRequest: Hashable {
    var idempotencyKey: String
    var path: String
    var bodyDigest: UInt64

    init(_ request: SimulatedRequest) {
        idempotencyKey = request.idempotencyKey
        path = request.path
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in request.body {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        bodyDigest = hash
    }
}
