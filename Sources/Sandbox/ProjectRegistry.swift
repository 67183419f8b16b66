import Foundation
import Locking

/// The registered projects and the messages each one serves.
final class ProjectRegistry: Sendable {
    private struct State {
        var projectsByName: [String: SandboxProject] = [:]
        var projectsByAPIKey: [String: SandboxProject] = [:]
        var inAppMessages: [String: Data] = [:]
        var embeddedPlacements: [String: Data] = [:]
        var trackedLinks: [String: TrackedLink] = [:]
    }

    private static let emptyArray = Data("[]".utf8)

    private let state = Locked(State())

    /// Adds `project`; throws when its name or API key is already taken.
    func register(_ project: SandboxProject) throws(SandboxBackendError) {
        try state.withLock { (state) throws(SandboxBackendError) in
            guard state.projectsByName[project.name] == nil else { throw .duplicateProjectName(project.name) }
            guard state.projectsByAPIKey[project.apiKey] == nil else { throw .duplicateAPIKey(project.apiKey) }
            state.projectsByName[project.name] = project
            state.projectsByAPIKey[project.apiKey] = project
        }
    }

    /// Every registered project, sorted by name.
    var allProjects: [SandboxProject] {
        state.withLock { $0.projectsByName.values.sorted { $0.name < $1.name } }
    }

    /// The project using `apiKey`, if any.
    func project(apiKey: String) -> SandboxProject? {
        state.withLock { $0.projectsByAPIKey[apiKey] }
    }

    /// Serves `link` at `/a/<code>` (replacing one with the same code).
    func setTrackedLink(_ link: TrackedLink) {
        state.withLock { $0.trackedLinks[link.code] = link }
    }

    /// The tracked link with this code, if any.
    func trackedLink(code: String) -> TrackedLink? {
        state.withLock { $0.trackedLinks[code] }
    }

    /// Whether a project called `name` is registered.
    func contains(projectNamed name: String) -> Bool {
        state.withLock { $0.projectsByName[name] != nil }
    }

    func setInAppMessages(_ json: Data, projectName: String) throws(SandboxBackendError) {
        try store(json, projectName: projectName, in: \.inAppMessages)
    }

    func setEmbeddedPlacements(_ json: Data, projectName: String) throws(SandboxBackendError) {
        try store(json, projectName: projectName, in: \.embeddedPlacements)
    }

    /// The configured in-app messages array for `projectName` (default `[]`).
    func inAppMessages(projectName: String) -> Data {
        state.withLock { $0.inAppMessages[projectName] ?? Self.emptyArray }
    }

    /// The configured embedded placements array for `projectName` (default `[]`).
    func embeddedPlacements(projectName: String) -> Data {
        state.withLock { $0.embeddedPlacements[projectName] ?? Self.emptyArray }
    }

    private func store(
        _ json: Data,
        projectName: String,
        in keyPath: WritableKeyPath<State, [String: Data]> & Sendable
    ) throws(SandboxBackendError) {
        guard (try? JSONSerialization.jsonObject(with: json)) is [Any] else { throw .notAJSONArray }
        try state.withLock { (state) throws(SandboxBackendError) in
            guard state.projectsByName[projectName] != nil else { throw .unknownProject(projectName) }
            state[keyPath: keyPath][projectName] = json
        }
    }
}
