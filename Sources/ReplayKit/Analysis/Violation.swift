/// One breach of a rule, with the sequence numbers that prove it.
package struct Violation: Sendable {
    var rule: ContractRule
    package var message: String
    package var sequences: [UInt64]
}
