/// A configuration value outside its range (``SDKConfiguration/validate()``):
/// ``EngagementSDK/init(configuration:)`` throws it before it creates a file or starts a thread.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The value, as the configuration names it: `journalRetentionAge`, `rules.gateCapacity`,
    /// `modules[1].info.name`.
    public let field: String
    /// The value given, as text (`0.0 seconds`, `-1`, `300 bytes`).
    public let value: String
    /// What is allowed, e.g. `1 hour...3,650 days, or nil`.
    public let allowed: String

    /// An error naming `field`, the `value` it had and what is `allowed`.
    public init(field: String, value: String, allowed: String) {
        self.field = field
        self.value = value
        self.allowed = allowed
    }

    /// `SDKConfiguration.journalRetentionAge is 0.0 seconds; allowed: 1 hour...3,650 days, or nil`.
    public var description: String { "SDKConfiguration.\(field) is \(value); allowed: \(allowed)" }
}
