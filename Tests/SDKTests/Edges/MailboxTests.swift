import Foundation
import Testing
@testable import SDK

/// The engine's inbox, taken the way the engine loop takes it: into one array whose buffer goes
/// back and forth between the loop and the mailbox.
@Suite("Edges: the engine's mailbox", .tags(.endToEnd), .timeLimit(.minutes(1)))
struct MailboxTests {
    @Test("taking into one array gets every message once, in each poster's order, and false once closed and drained")
    func takesEveryMessageInOrder() async {
        let mailbox = Mailbox<Int>(capacity: 64)
        let posters = 4, perPoster = 5_000
        let posting = Task.detached {
            await withTaskGroup(of: Void.self) { group in
                for poster in 0..<posters {
                    group.addTask {
                        for index in 0..<perPoster { #expect(mailbox.postWaitingForRoom(poster * perPoster + index) == nil) }
                    }
                }
            }
            mailbox.close()
        }
        let taking = Task.detached { () -> (seen: [[Int]], largestCapacity: Int) in
            var seen = Array(repeating: [Int](), count: posters)
            var batch: [Int] = []
            var largestCapacity = 0
            while mailbox.takeAll(into: &batch) {
                #expect(!batch.isEmpty)
                largestCapacity = max(largestCapacity, batch.capacity)
                for message in batch { seen[message / perPoster].append(message % perPoster) }
            }
            #expect(batch.isEmpty)
            return (seen, largestCapacity)
        }
        await posting.value
        let (seen, largestCapacity) = await taking.value
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
