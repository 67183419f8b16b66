import Locking
import SDK

/// Remembers the tokens a ``KeyedHash`` gave, so that an export computes one HMAC per distinct
/// value rather than one per occurrence (a journal repeats the same email, token and data values
/// in record after record). The same tokens as the hash; memory bounded: a kind's memo is
/// emptied whenever it holds ``capacity`` values (3 MiB or so).
package final class TokenMemo: Tokenizer {
    private let hash: KeyedHash
    /// The tokens given, by kind then value: one value's hash per lookup, not a pair's.
    private let tokens = Locked<[String: [String: String]]>([:])
    static let capacity = 1 << 14

    package init(_ hash: KeyedHash) {
        self.hash = hash
    }

    package func token(_ value: String, kind: String) -> String {
        if let known = tokens.withLock({ $0[kind]?[value] }) { return known }
        let token = hash.token(value, kind: kind)
        tokens.withLock { memo in
            memo[kind, default: [:]].remember(token, for: value, capacity: Self.capacity)
        }
        return token
    }
}

extension Dictionary where Key == String, Value == String {
    /// Adds `token` for `value`, first emptying the memo when it holds `capacity` values.
    fileprivate mutating func remember(_ token: String, for value: String, capacity: Int) {
        if count >= capacity { removeAll(keepingCapacity: true) }
        self[value] = token
    }
}
