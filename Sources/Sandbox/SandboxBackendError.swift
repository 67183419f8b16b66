/// Errors thrown by ``SandboxBackend`` for invalid configuration or an unusable socket.
public enum SandboxBackendError: Error, Sendable, Equatable {
    /// A socket system call failed while starting the server.
    case socketFailure(operation: String, errno: Int32)
    /// The loopback base URL could not be formed for the bound port.
    case invalidBaseURL(String)
    /// Another registered project already uses this name.
    case duplicateProjectName(String)
    /// Another registered project already uses this API key.
    case duplicateAPIKey(String)
    /// No project with this name is registered.
    case unknownProject(String)
    /// The data given as messages or placements is not a JSON array.
    case notAJSONArray
}

extension SandboxBackendError: CustomStringConvertible {
    /// What went wrong, in words (an API key is quoted as given: it is a test key).
    public var description: String {
        switch self {
        case .socketFailure(let operation, let errno): "\(operation) failed with errno \(errno)"
        case .invalidBaseURL(let url): "invalid base URL \(url)"
        case .duplicateProjectName(let name): "a project named \(name) is already registered"
        case .duplicateAPIKey(let key): "API key \(key) is already registered"
        case .unknownProject(let name): "no project named \(name) is registered"
        case .notAJSONArray: "the data is not a JSON array"
        }
    }
}
