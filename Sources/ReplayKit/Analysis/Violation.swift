/// One breach of a rule, with the sequence numbers that prove it.
struct Violation: Sendable {
    var rule: ContractRule
    var message: String
    var sequences: [UInt64]
}
