import Journal
import SDKCore

/// Rebuilds the state from a journal: the latest readable snapshot, then every fact after it.
/// Package-visible so `replay simulate` restarts its simulated SDK exactly as the SDK does.
package enum StateRestorer {
    package struct Restored {
        package var state: SDKState
        /// Whether the journal held any fact (a restart rather than a first start).
        package var hadFacts: Bool
        /// Facts that could not be decoded (skipped), with their sequence numbers.
        package var undecodable: [(sequence: UInt64, reason: String)]
    }

    /// Folds the journal in `directory`. Corruption is skipped (salvage), never fatal.
    package static func restore(directory: String, storage: any JournalStorage) throws -> Restored {
        let reader = try JournalReader(directory: directory, storage: storage)
        var undecodable: [(UInt64, String)] = []
        for segment in reader.segments.reversed() {
            let cursor = try reader.records(from: segment.baseSequence, mode: .salvage)
            guard let first = try cursor.next(), first.isSnapshot, first.sequence == segment.baseSequence,
                  var state = try? StateCodec.decode(first.payload) else { continue }
            var hadFacts = false
            while let record = try cursor.nextView() {
                if record.isSnapshot { continue }
                hadFacts = true
                do {
                    state.evolve(try FactCodec.decode(kind: record.kind, payload: record.payload), at: record.timestamp)
                } catch {
                    undecodable.append((record.sequence, error.description))
                }
            }
            return Restored(state: state, hadFacts: hadFacts || segment.baseSequence > 1, undecodable: undecodable)
        }
        return Restored(state: SDKState(), hadFacts: false, undecodable: [])
    }
}
