import CrashStory
import Dispatch
import Foundation
import SDK

/// The SDK half of the crash child: runs the crash story from a step, against the sandbox on
/// `port`, printing "flushed N" once every step before N is durable, and "done" at the end.
struct SDKCrashChild {
    let directory: String
    let port: Int
    let seed: UInt64
    let fromStep: Int
    let runNumber: Int
    let length: Int


    func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("crash-child: \(message)\n".utf8))
        exit(2)
    }

    func run() -> Never {
        let story = CrashStory(seed: seed, length: length)
        guard let us = URL(string: "http://127.0.0.1:\(port)/us/api/"), let eu = URL(string: "http://127.0.0.1:\(port)/eu/api/") else {
            fail("bad port")
        }
        let retry = RetryRules(maxAttempts: 1_000, baseDelayMilliseconds: 5, maxDelayMilliseconds: 50)
        let projects = CrashStory.projects.compactMap { project in
            Project(apiKey: project.key, config: ProjectConfig(region: project.region == "eu" ? .eu : .us, retryPolicy: retry))
        }
        let configuration = SDKConfiguration(
            storageDirectory: directory, modules: BuiltInModules.standard(),
            rules: EngineRules(disableDurabilityBoundMilliseconds: 1_000), regionEndpoints: RegionEndpoints(us: us, eu: eu),
            // Small segments: kills also land during rotations (a new segment, its snapshot).
            journalSegmentBytes: 64 << 10)
        let sdk: EngagementSDK
        do {
            sdk = try EngagementSDK(configuration: configuration)
        } catch {
            fail("open: \(error)")
        }
        if let failure = sdk.journalFailure { fail("journal: \(failure)") }
        sdk.initialize(projects[story.project(atStep: fromStep)])
        for index in fromStep..<story.steps.count {
            switch story.steps[index] {
            case .track: sdk.track(CrashStory.eventName(step: index, run: runNumber), completion: nil)
            case .setEmail(let email): sdk.setEmail(email, completion: nil)
            case .registerToken(let token): sdk.registerToken(token, completion: nil)
            case .pushOpen:
                sdk.trackPushOpen(PushOpen(campaignID: 1, templateID: 2, messageID: "m\(index)", appAlreadyRunning: true), completion: nil)
            case .switchTo(let project): sdk.switchProject(to: projects[project]) { _ in }
            case .flush:
                // The app waits for each flush before going on, as an app that checkpoints does:
                // a run makes steady progress between kills instead of posting the whole rest of
                // the story at once (which would queue thousands of switches behind each other).
                let step = index
                let flushed = DispatchSemaphore(value: 0)
                sdk.flush { outcome in
                    if case .applied = outcome {
                        FileHandle.standardOutput.write(Data("flushed \(step)\n".utf8))
                    } else {
                        FileHandle.standardError.write(Data("crash-child: flush at step \(step) failed: \(outcome)\n".utf8))
                    }
                    flushed.signal()
                }
                flushed.wait()
            }
        }
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            await sdk.settle()
            finished.signal()
        }
        finished.wait()
        if let failure = sdk.journalFailure { fail("journal: \(failure)") }
        sdk.shutdown()
        FileHandle.standardOutput.write(Data("done\n".utf8))
        exit(0)
    }
}
