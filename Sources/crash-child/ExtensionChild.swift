import Foundation
import SDK

/// One process of an app with extensions, for the device-folder tests: an SDK instance of role
/// `role` in the shared `directory`. It prints "open" once its journal is open (its lock held),
/// or "refused ERROR" and exits 3 when the journal cannot be opened; then waits for a line on
/// standard input, makes `count` track calls named `ROLE-N` as fast as it can, shuts down,
/// prints "done" and exits 0. Nothing is sent: the instance is never initialized.
struct ExtensionChild {
    let directory: String
    let role: String
    let count: Int

    func run() -> Never {
        var configuration = SDKConfiguration(storageDirectory: directory)
        configuration.processRole = role
        let sdk: EngagementSDK
        do {
            sdk = try EngagementSDK(configuration: configuration)
        } catch {
            FileHandle.standardOutput.write(Data("refused \(error)\n".utf8))
            exit(3)
        }
        FileHandle.standardOutput.write(Data("open\n".utf8))
        _ = readLine()
        for index in 1...max(count, 1) { sdk.track("\(role)-\(index)") }
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            await sdk.settle()
            finished.signal()
        }
        finished.wait()
        sdk.shutdown()
        FileHandle.standardOutput.write(Data("done\n".utf8))
        exit(0)
    }
}
