import ReplayKit
import SDK

extension StoryStep: CustomStringConvertible {
    /// One line, naming projects by their catalog names (`A`…`D`).
    package var description: String {
        switch self {
        case .call(let caller, let call, let engineKeepsUp):
            "caller \(caller): \(call)" + (engineKeepsUp ? "" : " (next call posted before the engine catches up)")
        case .wait(let milliseconds):
            "wait \(milliseconds) ms"
        case .notification(let name):
            "notification \(name)"
        case .expireTokens(let project):
            "backend expires the JWTs of \(Self.projectName(project))"
        case .crash(let tail, let after, let relaunchOn):
            "power loss (\(tail)), relaunch \(after) ms later" + (relaunchOn.map { " and initialize \(Self.projectName($0))" } ?? " without initializing")
        case .shutdown(let after, let relaunchOn):
            "shutdown, relaunch \(after) ms later" + (relaunchOn.map { " and initialize \(Self.projectName($0))" } ?? " without initializing")
        }
    }

    static func projectName(_ index: Int) -> String {
        SimulatedProject.catalog[index % SimulatedProject.catalog.count].name
    }
}

extension StoryCall: CustomStringConvertible {
    package var description: String {
        switch self {
        case .initialize(let project):
            "initialize(\(StoryStep.projectName(project)))"
        case .switchProject(let project, let reaction):
            "switchProject(\(StoryStep.projectName(project)))" + (reaction.map { ", then from its callback " + Describe.call($0) } ?? "")
        case .sdk(let call):
            Describe.call(call)
        }
    }
}

extension CrashTail: CustomStringConvertible {
    package var description: String {
        switch self {
        case .clean: "clean tail"
        case .tornWrite(let bytes): "torn write of \(bytes) B"
        case .zeros(let bytes): "\(bytes) zero bytes"
        case .garbage(let bytes, _): "\(bytes) B of garbage"
        }
    }
}
