import Locking
import SDK

/// Remembers the tokens a ``KeyedHash`` gave, so that an export computes one HMAC per distinct
/// value rather than one per occurrence (a journal repeats the same email, token and data values
/// in record after record). The same tokens as the hash, whether a value comes as a string or
/// as the bytes of a request body; memory bounded: a kind's memo (``TokenTable``) is emptied
/// whenever it holds ``capacity`` values.
package final class TokenMemo: Tokenizer, Sendable {
    private struct State {
        let hasher: TokenHasher
        /// The tokens given, per kind (a handful of kinds, told apart by comparing short strings:
        /// one hash per lookup, the value's).
        var memos: [(kind: String, tokens: TokenTable)] = []
    }

    private let state: Locked<State>
    static let capacity = 1 << 14

    package init(_ hash: KeyedHash) {
        state = Locked(State(hasher: hash.makeTokenHasher()))
    }

    package func token(_ value: String, kind: String) -> String {
        value.utf8.withContiguousBytes { token(utf8: $0, kind: kind) { $0 } }
    }

    package func writeToken(utf8 value: UnsafeBufferPointer<UInt8>, kind: String, to output: inout ScratchBytes) {
        token(utf8: value, kind: kind) { JSONValue.writeString($0, to: &output) }
    }

    /// Calls `use` with the token of the UTF-8 `value` as a `kind`, under the lock.
    private func token<Result>(utf8 value: UnsafeBufferPointer<UInt8>, kind: String, _ use: (String) -> Result) -> Result {
        let hash = TokenTable.hash(of: value)
        return state.withLock { state in
            let memo: Int
            if let known = state.memos.firstIndex(where: { $0.kind == kind }) {
                memo = known
                if let result = state.memos[memo].tokens.withToken(for: value, hash: hash, use) { return result }
            } else {
                memo = state.memos.count
                state.memos.append((kind, TokenTable(capacity: Self.capacity)))
            }
            let token = state.hasher.token(utf8: value, kind: kind)
            state.memos[memo].tokens.insert(token, for: value, hash: hash)
            return use(token)
        }
    }
}
