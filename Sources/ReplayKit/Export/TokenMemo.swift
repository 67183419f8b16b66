import Locking
import SDK

/// Remembers the tokens a ``KeyedHash`` gave, so that an export computes one HMAC per distinct
/// value rather than one per occurrence (a journal repeats the same email, token and data values
/// in record after record). The same tokens as the hash; memory bounded: the memo is emptied
/// whenever it holds ``capacity`` values (3 MiB or so).
package final class TokenMemo: Tokenizer {
    private struct Key: Hashable {
        var kind: String
        var value: String
    }

    private let hash: KeyedHash
    private let tokens = Locked<[Key: String]>([:])
    static let capacity = 1 << 14

    package init(_ hash: KeyedHash) {
        self.hash = hash
    }

    package func token(_ value: String, kind: String) -> String {
        let key = Key(kind: kind, value: value)
        if let known = tokens.withLock({ $0[key] }) { return known }
        let token = hash.token(value, kind: kind)
        tokens.withLock { memo in
            if memo.count >= Self.capacity { memo.removeAll(keepingCapacity: true) }
            memo[key] = token
        }
        return token
    }
}
