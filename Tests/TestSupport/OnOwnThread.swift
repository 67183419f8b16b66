import Foundation

/// Runs `body` on a thread of its own (8 MiB of stack) and returns its result, or throws what it
/// threw.
///
/// For work that blocks (a child process's output, a command that waits for its story, a caller
/// that must wait for the mailbox): awaiting it here never holds one of the few threads Swift
/// concurrency shares with every other test running in parallel. `body` must not record test
/// issues (`#expect`): they would not be attributed to the test.
public func onOwnThread<Value: Sendable, Failure: Error>(
    _ body: @escaping @Sendable () throws(Failure) -> Value
) async throws(Failure) -> Value {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
        let thread = Thread {
            continuation.resume(returning: Result { () throws(Failure) -> Value in try body() })
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
    return try result.get()
}
