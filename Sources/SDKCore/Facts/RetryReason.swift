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

extension RetryReason: DeclaredVariantCodable {
    /// The variants, by the cases they stand for.
    private enum Wire {
        static let noResponse = ValueVariant(1, ValueField(2, "error", .string, .defaulted("")), make: RetryReason.noResponse)
        static let serverBusy = ValueVariant(
            2, ValueField(2, "error", .string, .defaulted("")), ValueField(3, "failures", .int, .defaulted(0)),
            make: { RetryReason.serverBusy($0, failures: $1) })
        static let notSent = ValueVariant(3, ValueField(4, "why the attempt was not sent", .message, .required), make: RetryReason.notSent)
    }
    static let variants = VariantLayout("retry reason", [Wire.noResponse.reader, Wire.serverBusy.reader, Wire.notSent.reader])

    func encode(to writer: inout FieldWriter) {
        switch self {
        case .noResponse(let error): Wire.noResponse.write(error, to: &writer)
        case .serverBusy(let error, let failures): Wire.serverBusy.write(error, failures, to: &writer)
        case .notSent(let reason): Wire.notSent.write(reason, to: &writer)
        }
    }
}
