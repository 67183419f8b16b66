import Foundation

/// The system refused a data-at-rest attribute the configuration asks for
/// (``SDKConfiguration/journalProtection`` and the like): the path, the attribute and why.
public struct StoredItemAttributeError: Error, Sendable, Equatable {
    /// The file or directory.
    public let path: String
    /// The attribute: `file protection` or `backup exclusion`.
    public let attribute: String
    /// What the system said.
    public let reason: String

    package init(path: String, attribute: String, reason: String) {
        self.path = path
        self.attribute = attribute
        self.reason = reason
    }
}

extension StoredItemAttributeError: CustomStringConvertible, LocalizedError {
    public var description: String { "\(path): could not set its \(attribute): \(reason)" }
    /// The same text as `description`.
    public var errorDescription: String? { description }
}
