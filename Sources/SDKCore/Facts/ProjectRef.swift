/// A project as the journal knows it: its fingerprint, where its requests go, and the parts of
/// its configuration that decisions depend on. Never its API key.
package struct ProjectRef: Sendable, CustomStringConvertible {
    /// The fields, in one shared box that is never changed (a change makes a new box): a
    /// project is copied into most decisions (the live one into every call's), and a copy is
    /// then one reference, not the strings one by one.
    private var box: Box

    public var fingerprint: ProjectFingerprint {
        get { box.fields.fingerprint }
        set { change { $0.fingerprint = newValue } }
    }
    /// `us`, `eu` or `custom`.
    public var region: String {
        get { box.fields.region }
        set { change { $0.region = newValue } }
    }
    /// The base URL requests go to, e.g. `https://api.eu.iterable.com/api/`.
    public var endpoint: String {
        get { box.fields.endpoint }
        set { change { $0.endpoint = newValue } }
    }
    /// Whether requests carry a JWT from the project's auth provider.
    public var usesJWT: Bool {
        get { box.fields.usesJWT }
        set { change { $0.usesJWT = newValue } }
    }
    public var retry: RetryRules {
        get { box.fields.retry }
        set { change { $0.retry = newValue } }
    }
    /// The name the app gave the project ("US", "EU brand B"), if any: journaled (it is not a
    /// secret) and shown beside the fingerprint. Not part of what makes two projects the same.
    public var label: String? {
        get { box.fields.label }
        set { change { $0.label = newValue } }
    }

    public init(fingerprint: ProjectFingerprint, region: String, endpoint: String, usesJWT: Bool, retry: RetryRules,
                label: String? = nil) {
        box = Box(Fields(fingerprint: fingerprint, region: region, endpoint: endpoint, usesJWT: usesJWT, retry: retry, label: label))
    }

    /// Puts the fields `update` makes of these in a new box (rare: projects are made whole).
    private mutating func change(_ update: (inout Fields) -> Void) {
        var fields = box.fields
        update(&fields)
        box = Box(fields)
    }

    /// Whether `other` is the same project: the same key (fingerprint) *and* the same
    /// configuration (region, endpoint, auth, retry rules). The label does not count.
    public func isSameProject(as other: ProjectRef) -> Bool {
        fingerprint == other.fingerprint && region == other.region && endpoint == other.endpoint
            && usesJWT == other.usesJWT && retry == other.retry
    }

    /// The fingerprint and region, after the label when there is one: `US 1a2b3c4d5e6f (us)`.
    public var description: String { "\(label.map { "\($0) " } ?? "")\(fingerprint) (\(region))" }
}

extension ProjectRef {
    /// A project's fields, as a value: equal and hashed field by field, the label included.
    fileprivate struct Fields: Sendable, Hashable {
        var fingerprint: ProjectFingerprint
        var region: String
        var endpoint: String
        var usesJWT: Bool
        var retry: RetryRules
        var label: String?
    }

    /// The shared box: immutable, so `Sendable` as it is.
    fileprivate final class Box: Sendable {
        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }
}

extension ProjectRef: Hashable {
    /// Every field equal, the label included (``isSameProject(as:)`` leaves it out).
    public static func == (lhs: ProjectRef, rhs: ProjectRef) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    public func hash(into hasher: inout Hasher) {
        box.fields.hash(into: &hasher)
    }
}

/// How delivery retries, in numbers the journal can record. Each value has a range
/// (``attemptsRange``, ``delayRange``, ``jwtRefreshBudgetRange``): a project with a value
/// outside it is refused by `initialize` and `switchProject`, naming the value.
public struct RetryRules: Sendable, Hashable {
    /// How many 5xx or 429 answers a request may get before it fails
    /// (`CallFailure.retriesExhausted(_:)`). Attempts that got no response at all (offline,
    /// refused, dropped, timed out) are not counted: such a request waits and tries again, with
    /// the same backoff, until its age limit (`EngineRules.deliveryAgeLimitMilliseconds`).
    public var maxAttempts: Int
    /// The delay before the second attempt; it doubles per attempt up to ``maxDelayMilliseconds``.
    public var baseDelayMilliseconds: Int64
    /// The longest wait between two attempts: five minutes by default, so a device offline for
    /// hours tries about twelve times an hour, and at once when the app says the network is back.
    public var maxDelayMilliseconds: Int64
    /// How many fresh JWTs an instance may ask its auth provider for after 401s.
    public var jwtRefreshBudget: Int

    public init(maxAttempts: Int = 5, baseDelayMilliseconds: Int64 = 1_000, maxDelayMilliseconds: Int64 = 300_000, jwtRefreshBudget: Int = 3) {
        self.maxAttempts = maxAttempts
        self.baseDelayMilliseconds = baseDelayMilliseconds
        self.maxDelayMilliseconds = maxDelayMilliseconds
        self.jwtRefreshBudget = jwtRefreshBudget
    }

    /// The wait before attempt `attempt + 1` after attempt `attempt` failed, in microseconds.
    func delay(afterAttempt attempt: Int) -> Int64 {
        let exponent = attempt <= 1 ? 0 : min(attempt &- 1, 30)
        let delay = max(min(baseDelayMilliseconds << Int64(exponent), maxDelayMilliseconds), 0)
        let (micros, overflow) = delay.multipliedReportingOverflow(by: 1_000)
        return overflow ? Int64.max : micros
    }
}
