import Testing
@testable import ReplayKit

/// The heap that picks the next item across many time-ordered streams: it hands them out in
/// time order, ties to the lower stream, as a pass over every stream would.
@Suite("Earliest first across streams")
struct EarliestFirstTests {
    @Test("1,000 streams of random times, ties included, read in the order a sort gives")
    func mergesLikeASort() {
        var generator = SystemRandomNumberGenerator()
        let streams = (0..<1_000).map { _ in (0..<Int.random(in: 0...20, using: &generator)).map { _ in Int64.random(in: 0...50, using: &generator) }.sorted() }
        var next = streams.map { _ in 0 }
        var order = EarliestFirst()
        for (index, stream) in streams.enumerated() where !stream.isEmpty { order.insert(time: stream[0], index: index) }
        var read: [(time: Int64, index: Int)] = []
        while let first = order.first {
            read.append(first)
            next[first.index] += 1
            if next[first.index] < streams[first.index].count {
                order.replaceFirst(time: streams[first.index][next[first.index]])
            } else {
                order.removeFirst()
            }
        }
        var expected: [(time: Int64, index: Int)] = []
        for (index, stream) in streams.enumerated() {
            for time in stream { expected.append((time, index)) }
        }
        expected.sort { lhs, rhs in lhs.time != rhs.time ? lhs.time < rhs.time : lhs.index < rhs.index }
        let readTimes: [Int64] = read.map { $0.time }
        let readIndices: [Int] = read.map { $0.index }
        #expect(readTimes == expected.map { $0.time })
        #expect(readIndices == expected.map { $0.index })
    }
}
