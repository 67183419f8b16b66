import Foundation
@testable import SDK
import Testing

extension TransportTests {
    @Suite("OneShotCompletion", .timeLimit(.minutes(3)))
    struct OneShotCompletionTests {
        @Test func onlyTheFirstDeliveryReachesTheCompletion() {
            let recorder = CompletionRecorder()
            let completion = OneShotCompletion(recorder.record)

            let first = completion.deliver(.networkError("first"))
            let second = completion.deliver(.networkError("second"))

            #expect(first)
            #expect(!second)
            #expect(recorder.results == [.networkError("first")])
        }

        @Test func racingDeliveriesReachTheCompletionOnce() async {
            let recorder = CompletionRecorder()
            let completion = OneShotCompletion(recorder.record)

            let winners = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<100 {
                    group.addTask { completion.deliver(.networkError("attempt \(index)")) }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }

            #expect(winners == 1)
            #expect(recorder.results.count == 1)
        }
    }
}
