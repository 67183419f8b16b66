import Journal
import SDK

/// The calls a timeline kept, whole (``Timeline/calls``) or as the notable calls of a page's
/// pass (``PageCalls``), read alike.
extension Timeline {
    /// One kept call: an index into ``Timeline/calls`` or into the page's notable calls.
    enum Kept: Hashable {
        case whole(Int)
        case notable(Int)
    }

    /// Every kept call in the calls' order (received sequence, then time made, then id): the
    /// whole ones and the notable ones merged (both lists are sorted by the pass).
    func kept() -> [Kept] {
        guard let notable = pageCalls?.notable, !notable.isEmpty else { return calls.indices.map(Kept.whole) }
        var merged: [Kept] = []
        merged.reserveCapacity(calls.count + notable.count)
        var whole = 0, other = 0
        while whole < calls.count || other < notable.count {
            if other == notable.count || (whole < calls.count && order(.whole(whole)) < order(.notable(other))) {
                merged.append(.whole(whole))
                whole += 1
            } else {
                merged.append(.notable(other))
                other += 1
            }
        }
        return merged
    }

    private func order(_ kept: Kept) -> (UInt64, Int64, CallID) {
        (sequence(of: kept) ?? 0, madeAt(of: kept).microsecondsSince1970, call(of: kept))
    }

    private func key(_ index: Int) -> PageCalls.Key {
        guard let pageCalls else { preconditionFailure("a notable call without the page's calls") }
        return pageCalls.notable[index]
    }

    func call(of kept: Kept) -> CallID {
        switch kept {
        case .whole(let index): calls[index].row.call
        case .notable(let index): key(index).call
        }
    }

    /// Where it was received; nil when before the retained journal.
    func sequence(of kept: Kept) -> UInt64? {
        switch kept {
        case .whole(let index): calls[index].row.received?.sequence
        case .notable(let index): key(index).hasSequence ? key(index).sequence : nil
        }
    }

    func madeAt(of kept: Kept) -> JournalTime {
        switch kept {
        case .whole(let index): calls[index].row.madeAt
        case .notable(let index): JournalTime(microsecondsSince1970: key(index).madeAt)
        }
    }

    /// ``Timeline/receiver(of:)`` of its row.
    func receiver(of kept: Kept) -> ProjectFingerprint? {
        switch kept {
        case .whole(let index): Timeline.receiver(of: calls[index].row)
        case .notable(let index): pageCalls?.receiver(of: key(index))
        }
    }

    func status(of kept: Kept) -> String {
        switch kept {
        case .whole(let index): calls[index].row.status
        case .notable(let index): pageCalls?.status(of: key(index)) ?? "pending"
        }
    }

    /// Where the gate held it, if it did (a notable call's, read back).
    func held(_ kept: Kept) throws -> SwitchReport.HeldCall? {
        switch kept {
        case .whole(let index):
            return calls[index].held
        case .notable(let index):
            let key = key(index)
            guard key.held > 0, let pageCalls else { return nil }
            return try pageCalls.heldCalls.held(Int(key.held) - 1, name: key.name.rawValue)
        }
    }

    /// Whether the journal alone makes it worth a mark of its own: the gate held it, or
    /// ``Call/isNotable(_:)``.
    func isNotableOnItsOwn(_ kept: Kept) -> Bool {
        switch kept {
        case .whole(let index): calls[index].held != nil || Call.isNotable(calls[index].row)
        case .notable(let index): key(index).held > 0 || key(index).rowNotable
        }
    }
}
