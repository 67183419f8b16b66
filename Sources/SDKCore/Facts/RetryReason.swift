/// Why a task's next attempt waits (``Fact/retryScheduled(task:attempt:due:reason:)``).
package enum RetryReason: Sendable, Hashable {
    /// No response came: the device is offline, the connection was refused or dropped, the
    /// request timed out. Never uses the task up: it waits, with a capped backoff, for as long
    /// as it may (`EngineRules.deliveryAgeLimitMilliseconds`), and goes at once when the app says
    /// the network is back.
    case noResponse(String)
    /// The project answered 5xx or 429 (`failures` times so far): retried with the same backoff
    /// until `RetryRules.maxAttempts` such answers.
    case serverBusy(String, failures: Int)
    /// The attempt could not be made (no JWT for the task's user, no API key, no auth provider):
    /// the task waits aside, its user's later tasks behind it, while the rest of its project's
    /// queue goes on; it is tried again after the backoff, at once when the network comes back
    /// or an instance starts, and fails with the reason once it waited aside for the age limit.
    case notSent(NotSentReason)
}

extension RetryReason: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        switch self {
        case .noResponse(let error): writer.unsigned(1, 1); writer.string(2, error)
        case .serverBusy(let error, let failures): writer.unsigned(1, 2); writer.string(2, error); writer.int(3, failures)
        case .notSent(let reason): writer.unsigned(1, 3); writer.message(4, reason)
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try VariantFields(&reader)
        switch fields.tag {
        case 1: self = .noResponse(try fields.string(2) ?? "")
        case 2: self = .serverBusy(try fields.string(2) ?? "", failures: try fields.int(3) ?? 0)
        case 3:
            self = .notSent(try fields.requiredMessage(4, "why the attempt was not sent"))
        default: throw fields.unknown("retry reason")
        }
    }
}
