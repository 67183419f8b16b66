import Testing

/// The parent suite of the security tests, so `swift test --filter SecurityTests` runs them all.
@Suite("Security: hashing, fingerprints and the keyring", .timeLimit(.minutes(3)))
enum SecurityTests {}
