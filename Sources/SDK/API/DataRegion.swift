import Foundation

/// Where a project's data lives. A typed value, never a free string: a typo does not compile.
public enum DataRegion: Sendable, Hashable {
    /// The platform's US data center.
    case us
    /// The platform's EU data center.
    case eu
    /// A base URL of your own, e.g. a proxy: requests go to `<url>/<endpoint path>`.
    case custom(URL)

    /// The id the journal records: `us`, `eu` or `custom`.
    public var identifier: String {
        switch self {
        case .us: "us"
        case .eu: "eu"
        case .custom: "custom"
        }
    }
}

/// The base URL of each region's API. The defaults are the platform's; tests point them at a
/// sandbox backend.
public struct RegionEndpoints: Sendable {
    /// The base URL of the US region's API.
    public var us: URL
    /// The base URL of the EU region's API.
    public var eu: URL

    /// Endpoints with these base URLs (each ending in `/`, e.g. `https://api.example.com/api/`).
    public init(us: URL, eu: URL) {
        self.us = us
        self.eu = eu
    }

    /// The platform's production endpoints.
    public static let production = RegionEndpoints(
        us: URL(string: "https://api.iterable.com/api/")!,
        eu: URL(string: "https://api.eu.iterable.com/api/")!)

    /// The base URL for `region`.
    public func url(for region: DataRegion) -> URL {
        switch region {
        case .us: us
        case .eu: eu
        case .custom(let url): url
        }
    }
}
