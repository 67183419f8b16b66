import Foundation
import Journal
import Locking
import SDK

/// Analyses of a walk's records on a second thread, beside the walk, so that one pass shares
/// the cores: the walk hands each record over as it reads it, with what the analyses read of
/// the state before it (`Look`, taken on the walk's thread: ``StateLooking``), and `body`, on
/// the side thread, reads them in the same order (``Feed``) without ever needing the state
/// itself (reading the walk's state from a second thread would copy it at every change).
///
/// Memory is bounded: at most ``batchesAhead`` batches of ``batchSize`` records wait for the side
/// thread; the walk waits while they do. ``finish(endingWith:)`` returns `body`'s result once the
/// side thread has read every record handed over. A fold dropped unfinished (the walk threw)
/// lets the side thread read what was handed over and end, and waits for it.
final class SideFold<Look: Sendable, Result: Sendable> {
    /// What the walk hands over, in its order.
    enum Item: Sendable {
        /// A record, with what the analyses read of the state before it.
        case record(DecodedRecord, Look)
        /// The walk stepped over records lost to damage; the next record is the first after them.
        case resumed(after: SkippedRange)
    }

    /// Records per hand-over (the lock is taken once per batch, not per record).
    static var batchSize: Int { 256 }
    /// Batches handed over and not yet read, at most.
    static var batchesAhead: Int { 32 }

    private let channel: BoundedChannel<[Item]>
    private let end: Locked<SDKState?>
    private let result = Locked<Result?>(nil)
    /// The batch being filled. Its exclusive access is not checked at run time: only the walk's
    /// thread touches it, in ``hand(_:looking:)`` and ``send()``, never with another access open
    /// (the fold is not Sendable); the check would cost two per record.
    @exclusivity(unchecked) private var batch: [Item] = []
    private var finished = false

    /// Starts the side thread, which runs `body` over what is handed over.
    init(body: @escaping @Sendable (Feed) -> Result) {
        let channel = BoundedChannel<[Item]>(capacity: Self.batchesAhead)
        let end = Locked<SDKState?>(nil)
        self.channel = channel
        self.end = end
        let result = result
        let thread = Thread {
            let value = body(Feed(channel: channel, end: end))
            result.withLock { $0 = value }
            result.notifyWaiters()
        }
        // The analyses run over a whole journal on it: the main thread's stack, not a helper's 512 KiB.
        thread.stackSize = 8 << 20
        thread.start()
        batch.reserveCapacity(Self.batchSize)
    }

    /// Hands `record` over (the record after those handed over before), with what the analyses
    /// read of the state before it.
    func hand(_ record: consuming DecodedRecord, looking look: consuming Look) {
        batch.append(.record(record, look))
        if batch.count >= Self.batchSize { send() }
    }

    /// Hands over that the walk stepped over records lost to damage before the next record.
    func handResumption(after skip: SkippedRange) {
        batch.append(.resumed(after: skip))
    }

    /// Hands over the walk's state after its last record (``Feed/end``), waits for the side
    /// thread to read everything handed over, and returns what `body` returned.
    func finish(endingWith state: SDKState) -> Result {
        send()
        end.withLock { $0 = state }
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
    /// What the walk hands over, as the side thread reads it.
    final class Feed {
        private let channel: BoundedChannel<[Item]>
        private let handedEnd: Locked<SDKState?>

        fileprivate init(channel: BoundedChannel<[Item]>, end: Locked<SDKState?>) {
            self.channel = channel
            handedEnd = end
        }

        /// Reads every item handed over, in order, until the walk finishes.
        func forEach(_ read: (Item) -> Void) {
            while let batch = channel.receive() {
                for item in batch { read(item) }
            }
        }

        /// The walk's state after its last record, once ``forEach(_:)`` has returned; nil when the
        /// walk did not finish (it threw).
        var end: SDKState? { handedEnd.withLock { $0 } }
    }
}
