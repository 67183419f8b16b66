import Sandbox

/// Projects and a backend configuration shared by the tests.
enum Fixture {
    /// A project in the US region.
    static let usProject = SandboxProject(name: "ios-app", apiKey: "us-key", region: "us")
    /// A project in the EU region.
    static let euProject = SandboxProject(name: "eu-app", apiKey: "eu-key", region: "eu")
    /// A US project that requires a bearer JWT.
    static let jwtProject = SandboxProject(name: "secure-app", apiKey: "jwt-key", region: "us", requiresJWT: true)

    /// A fresh backend on its own port with the three projects registered.
    static func makeBackend() throws -> SandboxBackend {
        try SandboxBackend(projects: [usProject, euProject, jwtProject])
    }
}
