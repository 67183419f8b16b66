import Foundation
import Journal
import Locking
import SDK

/// A second fold of the records a walk reads, on a thread of its own, so that the analyses of
/// one pass share the cores: the walk hands each record over as it reads it (``hand(_:)``), and
/// `body`, on the side thread, reads them in the same order (``Feed``) against a state of its
/// own, folded from the walk's starting state as the walk folds its own. (Reading the walk's
/// state from a second thread would copy it at every change.)
///
/// Memory is bounded: at most ``batchesAhead`` batches of ``batchSize`` records wait for the side
/// thread; the walk waits while they do. ``finish()`` returns `body`'s result once the side
/// thread has read every record handed over. A fold dropped unfinished (the walk threw) lets the
/// side thread read what was handed over and end, and waits for it.
final class SideFold<Result: Sendable> {
    /// What the walk hands over, in its order.
    enum Item: Sendable {
        case record(DecodedRecord)
        /// The walk stepped over records lost to damage; the next record is the first after them.
        case resumed(after: SkippedRange)
    }

    /// Records per hand-over (the lock is taken once per batch, not per record).
    static var batchSize: Int { 256 }
    /// Batches handed over and not yet read, at most.
    static var batchesAhead: Int { 32 }

    private let channel: BoundedChannel<[Item]>
    private let result = Locked<Result?>(nil)
    private var batch: [Item] = []
    private var finished = false

    /// Starts the side thread, which runs `body` over the records handed over, from `state` (the
    /// walk's state before the first of them).
    init(startingFrom state: SDKState, body: @escaping @Sendable (Feed) -> Result) {
        let channel = BoundedChannel<[Item]>(capacity: Self.batchesAhead)
        self.channel = channel
        let result = result
        let thread = Thread {
            let value = body(Feed(channel: channel, state: state))
            result.withLock { $0 = value }
            result.notifyWaiters()
        }
        // The analyses fold a whole journal on it: the main thread's stack, not a helper's 512 KiB.
        thread.stackSize = 8 << 20
        thread.start()
        batch.reserveCapacity(Self.batchSize)
    }

    /// Hands `record` over (the record after those handed over before).
    func hand(_ record: DecodedRecord) {
        batch.append(.record(record))
        if batch.count >= Self.batchSize { send() }
    }

    /// Hands over that the walk stepped over records lost to damage before the next record.
    func handResumption(after skip: SkippedRange) {
        batch.append(.resumed(after: skip))
    }

    /// Waits for the side thread to read every record handed over, and returns what `body` returned.
    func finish() -> Result {
        send()
        return waitForSide()
    }

    deinit {
        if !finished { _ = waitForSide() }
    }

    private func send() {
        guard !batch.isEmpty else { return }
        _ = channel.send(batch)
        batch = []
        batch.reserveCapacity(Self.batchSize)
    }

    private func waitForSide() -> Result {
        finished = true
        channel.finish()
        return result.withLock(waitingUntil: { $0 != nil }) { $0! }
    }
}

extension SideFold {
    /// The records handed over, as the side thread reads them.
    final class Feed {
        private let channel: BoundedChannel<[Item]>
        /// The state after the items read so far (the starting state before ``forEach(_:)``).
        private(set) var state: SDKState

        fileprivate init(channel: BoundedChannel<[Item]>, state: SDKState) {
            self.channel = channel
            self.state = state
        }

        /// Reads every item handed over, in order, until the walk finishes: a record with the
        /// state before it (then folded into ``state``), or a resumption after lost records.
        func forEach(_ look: (Item, borrowing SDKState) -> Void) {
            // A local state: a class's stored property lent to `look` would be copied each time.
            var state = self.state
            while let batch = channel.receive() {
                for item in batch {
                    look(item, state)
                    if case .record(let record) = item { JournalWalk.apply(record, to: &state) }
                }
            }
            self.state = state
        }
    }
}
