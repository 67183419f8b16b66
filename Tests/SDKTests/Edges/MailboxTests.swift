import Foundation
import Locking
import Testing
@testable import SDK

/// The engine's inbox, taken the way the engine loop takes it: into one array whose buffer goes
/// back and forth between the loop and the mailbox.
@Suite("Edges: the engine's mailbox", .tags(.endToEnd), .timeLimit(.minutes(1)))
struct MailboxTests {
    @Test("taking into one array gets every message once, in each poster's order, and false once closed and drained")
    func takesEveryMessageInOrder() {
        let mailbox = Mailbox<Int>(capacity: 64)
        let posters = 4, perPoster = 5_000
        // Each poster and the taker on a thread of its own, as the engine's callers and loop are:
        // a poster blocks while the mailbox is full, which no task of the cooperative pool may
        // do (with as many posters waiting as the pool has threads, the taker never runs: the
        // test hung so on a 2-core machine).
        let refused = Locked(0)
        let postersDone = Locked(0)
        let taken = Locked<(seen: [[Int]], largestCapacity: Int, emptyBatches: Int, leftOver: Int)?>(nil)
        for poster in 0..<posters {
            Thread {
                var refusals = 0
                for index in 0..<perPoster where mailbox.postWaitingForRoom(poster * perPoster + index) != nil { refusals += 1 }
                refused.withLock { $0 += refusals }
                if postersDone.withLock({ count -> Bool in count += 1; return count == posters }) { mailbox.close() }
            }.start()
        }
        Thread {
            var seen = Array(repeating: [Int](), count: posters)
            var batch: [Int] = []
            var largestCapacity = 0
            var emptyBatches = 0
            while mailbox.takeAll(into: &batch) {
                if batch.isEmpty { emptyBatches += 1 }
                largestCapacity = max(largestCapacity, batch.capacity)
                for message in batch { seen[message / perPoster].append(message % perPoster) }
            }
            taken.withLock { $0 = (seen, largestCapacity, emptyBatches, batch.count) }
            taken.notifyWaiters()
        }.start()
        let (seen, largestCapacity, emptyBatches, leftOver) = taken.withLock(waitingUntil: { $0 != nil }) { $0! }
        #expect(refused.withLock { $0 } == 0)
        #expect(emptyBatches == 0 && leftOver == 0)
        for poster in 0..<posters { #expect(seen[poster] == Array(0..<perPoster), "poster \(poster)") }
        // Posts that wait for room keep the batches within the capacity's order of size.
        #expect(largestCapacity <= 4 * 64)
    }

    @Test("a buffer grown past twice the capacity is let go, not handed back; messages posted without waiting are all taken")
    func oversizedBufferIsDropped() {
        let mailbox = Mailbox<Int>(capacity: 8)
        var batch: [Int] = []
        #expect(Self.roomAfterBurst(of: 100, in: mailbox, taking: &batch) < 100)
        mailbox.close()
        #expect(!mailbox.takeAll(into: &batch))
        #expect(mailbox.takeAll() == nil)
    }

    @Test("the buffer handed to the mailbox has room for the most messages that ever waited (up to twice the capacity)")
    func handedBufferHasRoomForTheLargestBurst() {
        let mailbox = Mailbox<Int>(capacity: 64)
        var batch: [Int] = []
        // The empty array handed over for the burst was given room for it first: the next
        // message lands in a buffer that a burst as large does not grow, and comes back in it.
        #expect(Self.roomAfterBurst(of: 100, in: mailbox, taking: &batch) >= 100)
        // Past twice the capacity, the room stops at twice the capacity.
        let room = Self.roomAfterBurst(of: 500, in: mailbox, taking: &batch)
        #expect(room >= 128 && room < 500)
        mailbox.close()
    }

    /// Posts `count` messages without waiting and takes them into `batch`, then posts one more
    /// and takes it: the room of the buffer that one came back in.
    private static func roomAfterBurst(of count: Int, in mailbox: Mailbox<Int>, taking batch: inout [Int]) -> Int {
        for index in 0..<count { mailbox.post(index) }
        #expect(mailbox.takeAll(into: &batch))
        #expect(batch == Array(0..<count))
        mailbox.post(count)
        #expect(mailbox.takeAll(into: &batch))
        #expect(batch == [count])
        return batch.capacity
    }
}
