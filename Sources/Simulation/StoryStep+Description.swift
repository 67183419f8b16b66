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
        case .offline:
            "the device goes offline"
        case .online:
            "the network is back"
        case .networkReachable:
            "the app calls networkBecameReachable()"
        case .slowNetwork(let milliseconds):
            milliseconds > 0 ? "the network gets slow: requests held up to \(milliseconds) ms longer" : "the network is fast again"
        case .fetchAnswersAtReset(let on):
            on ? "message fetches are answered when a teardown resets messages" : "message fetches are answered as they come"
        case .jumpWallClock(let milliseconds):
            "the device's wall clock jumps \(milliseconds >= 0 ? "ahead" : "back") by \(milliseconds.magnitude) ms"
        case .authServer(let signedIn, let refuses):
            signedIn.map { "the auth server mints JWTs only for " + ($0.isEmpty ? "nobody" : $0.joined(separator: ", "))
                + (refuses ? " (it refuses the others as signed out)" : " (it fails for the others)") } ?? "the auth server mints JWTs for anyone"
        case .tokenLifetime(let milliseconds):
            milliseconds > 0 ? "JWTs expire \(milliseconds) ms after they are issued" : "JWTs last until the backend expires them"
        case .lossyNetwork(let on):
            on ? "every answer is lost on its way back" : "answers come back again"
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
            Self.abbreviated(Describe.call(call))
        }
    }

    /// `text` with every run of one character longer than 32 written as the character and the
    /// run's length (a call at its limit carries kilobytes of one letter).
    static func abbreviated(_ text: String) -> String {
        guard text.utf8.count > 200 else { return text }
        var output = ""
        var run: (character: Character, count: Int)?
        func flush() {
            guard let current = run else { return }
            output += current.count > 32 ? "\(current.character)×\(current.count)" : String(repeating: current.character, count: current.count)
        }
        for character in text {
            if run?.character == character {
                run?.count += 1
            } else {
                flush()
                run = (character, 1)
            }
        }
        flush()
        return output.count > 2_000 ? String(output.prefix(2_000)) + "…" : output
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
