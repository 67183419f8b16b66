import Locking
import SDK

/// Remembers the tokens a ``KeyedHash`` gave, so that an export computes one HMAC per distinct
/// value rather than one per occurrence (a journal repeats the same email, token and data values
/// in record after record). The same tokens as the hash; memory bounded: a kind's memo is
/// emptied whenever it holds ``capacity`` values (3 MiB or so).
package final class TokenMemo: Tokenizer, Sendable {
    private struct State {
        let hasher: TokenHasher
        /// The tokens given, per kind (a handful of kinds, told apart by comparing short strings:
        /// one hash per lookup, the value's).
        var memos: [(kind: String, tokens: [String: String])] = []
    }

    private let state: Locked<State>
    static let capacity = 1 << 14

    package init(_ hash: KeyedHash) {
        state = Locked(State(hasher: hash.makeTokenHasher()))
    }

    package func token(_ value: String, kind: String) -> String {
        state.withLock { state in
            guard let memo = state.memos.firstIndex(where: { $0.kind == kind }) else {
                let token = state.hasher.token(value, kind: kind)
                state.memos.append((kind, [value: token]))
                return token
            }
            if let known = state.memos[memo].tokens[value] { return known }
            let token = state.hasher.token(value, kind: kind)
            state.memos[memo].tokens.remember(token, for: value, capacity: Self.capacity)
            return token
        }
    }
}

extension Dictionary where Key == String, Value == String {
    /// Adds `token` for `value`, first emptying the memo when it holds `capacity` values.
    fileprivate mutating func remember(_ token: String, for value: String, capacity: Int) {
        if count >= capacity { removeAll(keepingCapacity: true) }
        self[value] = token
    }
}
