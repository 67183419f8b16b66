import Foundation
import SDK

/// A project the simulated app can be on: its API key (known to the app and the simulated
/// backend, never to the journal), its region and whether it authenticates with JWTs.
struct SimulatedProject: Sendable, Hashable {
    /// A short name for stories and reports (`A`, `B`, ...).
    var name: String
    var apiKey: String
    /// The region identifier the journal records (`us`, `eu`, `custom`).
    var region: String
    /// The base URL requests go to; the simulated backend serves one region per base URL.
    var endpoint: String
    var usesJWT: Bool
    /// The project as the journal knows it (what `Project.reference(endpoints:)` makes).
    var reference: ProjectRef

    init(name: String, apiKey: String, region: String, endpoint: String, usesJWT: Bool) {
        self.name = name
        self.apiKey = apiKey
        self.region = region
        self.endpoint = endpoint
        self.usesJWT = usesJWT
        reference = ProjectRef(fingerprint: ProjectFingerprint(apiKey: apiKey), region: region, endpoint: endpoint,
                               usesJWT: usesJWT, retry: RetryRules(maxAttempts: 5, baseDelayMilliseconds: 500,
                                                                   maxDelayMilliseconds: 8_000, jwtRefreshBudget: 3))
    }

    var fingerprint: ProjectFingerprint { reference.fingerprint }

    /// The same project, configured with `retry` instead of the catalog's retry rules.
    func configured(retry: RetryRules?) -> SimulatedProject {
        guard let retry else { return self }
        var project = self
        project.reference.retry = retry
        return project
    }

    /// The catalog's projects as the app hands them to the SDK, in catalog order.
    static let appProjects = catalog.map(\.project)

    /// The project as the app hands it to the SDK: its key, region or base URL, and an auth
    /// provider when it uses JWTs (the simulated environment answers for it).
    var project: Project {
        let base = URL(string: endpoint)
        let dataRegion: DataRegion = switch region {
        case "us": .us
        case "eu": .eu
        default: .custom(base ?? URL(fileURLWithPath: "/"))
        }
        let config = ProjectConfig(region: dataRegion, authProvider: usesJWT ? SimulatedAuthProvider() : nil,
                                   retryPolicy: reference.retry, endpointOverride: base)
        return Project(apiKey: apiKey, config: config)!
    }

    /// The projects every story draws from: two regions, a JWT project in each of two of them,
    /// and one behind a custom base URL (a proxy).
    static let catalog: [SimulatedProject] = [
        SimulatedProject(name: "A", apiKey: "sim-key-alpha-0001", region: "us", endpoint: "https://api.us.sim.test/api/", usesJWT: false),
        SimulatedProject(name: "B", apiKey: "sim-key-bravo-0002", region: "eu", endpoint: "https://api.eu.sim.test/api/", usesJWT: false),
        SimulatedProject(name: "C", apiKey: "sim-key-charlie-0003", region: "us", endpoint: "https://api.us.sim.test/api/", usesJWT: true),
        SimulatedProject(name: "D", apiKey: "sim-key-delta-0004", region: "custom", endpoint: "https://proxy.sim.test/api/", usesJWT: true),
    ]

    /// The region each base URL serves (what the backend checks a key against).
    static let regionOfEndpoint: [String: String] = [
        "https://api.us.sim.test/api/": "us",
        "https://api.eu.sim.test/api/": "eu",
        "https://proxy.sim.test/api/": "custom",
    ]

    /// The catalog's project with this fingerprint, if any.
    static func named(by fingerprint: ProjectFingerprint) -> SimulatedProject? {
        catalog.first { $0.fingerprint == fingerprint }
    }
}
