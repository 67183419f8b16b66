#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SDKCore

/// Everything the keyring reports as a failure. Each case names the file it concerns; none ever
/// contains an API key.
public enum KeyringError: Error, Sendable, Equatable {
    /// A file operation failed: the path, the operation (e.g. `fsync`) and `errno`.
    case io(path: String, operation: String, code: Int32)
    /// The keyring file exists but is not a keyring this build can read: the path and why.
    case corrupt(path: String, reason: String)
    /// The keyring file was written by a newer keyring format than this build reads.
    case unsupportedVersion(path: String, found: Int, supported: Int)
    /// An entry was offered under a fingerprint that is not the fingerprint of its API key.
    case fingerprintMismatch(given: ProjectFingerprint, ofKey: ProjectFingerprint)
    /// The keyring could not be encoded as JSON for the file at the path.
    case cannotEncode(path: String)
    /// The system refused the protection class or backup exclusion the configuration asks for
    /// (``SDKConfiguration/keyringProtection``): the error names the file and the attribute.
    case attributeRefused(StoredItemAttributeError)
}

extension KeyringError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .io(let path, let operation, let code):
            "keyring \(path): \(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .corrupt(let path, let reason):
            "keyring \(path) is corrupt: \(reason)"
        case .unsupportedVersion(let path, let found, let supported):
            "keyring \(path) has format version \(found); this build reads version \(supported)"
        case .fingerprintMismatch(let given, let ofKey):
            "entry offered under fingerprint \(given), but its API key has fingerprint \(ofKey)"
        case .cannotEncode(let path):
            "keyring \(path): the entries could not be encoded as JSON"
        case .attributeRefused(let error):
            "keyring \(error)"
        }
    }
}

extension KeyringError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` names the file too.
    public var errorDescription: String? { description }
}
