import Foundation
import Locking
import SDK
import Testing

extension TransportTests {
    @Suite("InProcessTransport", .timeLimit(.minutes(3)))
    struct InProcessTransportTests {
        static let request = TransportRequest(
            method: .post,
            url: URL(fileURLWithPath: "/in-process/events/track"),
            headers: [("Api-Key", "key")],
            body: Data("{}".utf8)
        )

        @Test func answersAtOnceOnTheCallingThreadWithTheHandlersResult() {
            let answer = TransportResult.response(status: 202, headers: ["x-answer": "yes"], body: Data("{}".utf8))
            let seen = Locked<[TransportRequest]>([])
            let transport = InProcessTransport { request in
                seen.withLock { $0.append(request) }
                return answer
            }
            let recorder = CompletionRecorder()

            transport.send(Self.request, completion: recorder.record)

            #expect(recorder.results == [answer])
            #expect(seen.withLock { $0 } == [Self.request])
            #expect(transport.requestCount == 1)
        }

        @Test func passesNetworkErrorsThrough() {
            let transport = InProcessTransport { _ in .networkError("offline") }
            let recorder = CompletionRecorder()

            transport.send(Self.request, completion: recorder.record)

            #expect(recorder.results == [.networkError("offline")])
        }

        @Test func startsWithNoRequests() {
            let transport = InProcessTransport { _ in .networkError("unused") }

            #expect(transport.requestCount == 0)
        }

        @Test func countsRequestsSentFromManyTasks() async {
            let transport = InProcessTransport { request in
                .response(status: 200, headers: [:], body: request.body ?? Data())
            }
            let recorder = CompletionRecorder()

            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<200 {
                    group.addTask {
                        transport.send(Self.request, completion: recorder.record)
                    }
                }
            }

            #expect(transport.requestCount == 200)
            #expect(recorder.results.count == 200)
            #expect(recorder.results.allSatisfy { $0.status == 200 })
        }

        @Test func worksThroughTheTransportProtocol() async {
            let transport: any Transport = InProcessTransport { _ in .response(status: 204, headers: [:], body: Data()) }

            let result = await transport.result(for: Self.request)

            #expect(result.status == 204)
        }
    }
}
