/// The scripted story the crash tests run in a child process and check in the parent: both sides
/// compute it from the same seed, so the parent knows where every call belongs.
public struct CrashStory: Sendable {
    /// One step of the story.
    public enum Step: Sendable, Equatable {
        case track
        case setEmail(String)
        case registerToken(String)
        case pushOpen
        case switchTo(project: Int)
        case flush
    }

    /// The projects the story moves between: API key, region, sandbox name.
    public static let projects: [(key: String, region: String, name: String)] = [
        ("crash-us-key", "us", "p0"), ("crash-eu-key", "eu", "p1"), ("crash-us2-key", "us", "p2"),
    ]
    public static var projectCount: Int { projects.count }

    public let steps: [Step]

    public init(seed: UInt64, length: Int = 400) {
        // Spread the seed first: `seed | 1` alone gave seeds 2k and 2k+1 the same story.
        var state = (seed &+ 1) &* 0x9E37_79B9_7F4A_7C15 | 1
        func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
        var steps: [Step] = [.setEmail("user0@example.com"), .registerToken("token-0")]
        var project = 0
        while steps.count < length {
            switch next(20) {
            case 0, 1:
                project = (project + 1 + next(CrashStory.projectCount - 1)) % CrashStory.projectCount
                steps.append(.switchTo(project: project))
                // The app identifies the user again after a switch, as the contract asks.
                steps.append(.setEmail("user\(steps.count)@example.com"))
                steps.append(.registerToken("token-\(steps.count)"))
            case 2: steps.append(.pushOpen)
            case 3, 4: steps.append(.flush)
            default: steps.append(.track)
            }
        }
        steps.append(.flush)
        self.steps = steps
    }

    /// The project step `index` belongs to: the target of the last switch before it.
    public func project(atStep index: Int) -> Int {
        for step in steps[..<min(index, steps.count)].reversed() {
            if case .switchTo(let project) = step { return project }
        }
        return 0
    }

    /// The event name of a track step in a given run (runs re-issue unacknowledged steps).
    public static func eventName(step: Int, run: Int) -> String {
        "s\(step)-r\(run)"
    }
}
