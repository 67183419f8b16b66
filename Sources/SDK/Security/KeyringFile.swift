import Foundation
import SDKCore

/// The JSON document a keyring file holds:
/// `{"entries":{"<hex fingerprint>":{"apiKey":…,"endpoint":…,"region":…}},"version":1}`.
struct KeyringFile: Codable {
    /// The format version this build writes and reads.
    static let currentVersion = 1

    /// Just the version field, decoded first so a newer format is reported as such rather than
    /// as corruption.
    struct VersionProbe: Decodable {
        var version: Int
    }

    var version: Int
    /// Entries by the hex form of their fingerprint.
    var entries: [String: KeyringEntry]

    init(entries: [ProjectFingerprint: KeyringEntry]) {
        version = Self.currentVersion
        self.entries = Dictionary(uniqueKeysWithValues: entries.map { ($0.key.hex, $0.value) })
    }

    /// The file's bytes: compact JSON with sorted keys, so equal keyrings give equal files.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// The entries in `data`, read from the file at `path` (named in every error).
    static func decode(_ data: Data, path: String) throws(KeyringError) -> [ProjectFingerprint: KeyringEntry] {
        let decoder = JSONDecoder()
        let version: Int
        do {
            version = try decoder.decode(VersionProbe.self, from: data).version
        } catch {
            throw .corrupt(path: path, reason: reason(for: error))
        }
        guard version == currentVersion else {
            throw .unsupportedVersion(path: path, found: version, supported: currentVersion)
        }
        let file: KeyringFile
        do {
            file = try decoder.decode(KeyringFile.self, from: data)
        } catch {
            throw .corrupt(path: path, reason: reason(for: error))
        }
        var entries: [ProjectFingerprint: KeyringEntry] = [:]
        for (hex, entry) in file.entries {
            guard let fingerprint = ProjectFingerprint(hex: hex) else {
                throw .corrupt(path: path, reason: "an entry is filed under a name that is not a 16-character lowercase hex fingerprint")
            }
            guard entry.fingerprint == fingerprint else {
                throw .corrupt(path: path, reason: "entry \(hex) holds an API key whose fingerprint is \(entry.fingerprint)")
            }
            entries[fingerprint] = entry
        }
        return entries
    }

    /// A short account of a decoding failure built from field names only. The decoder's own
    /// messages may quote the file's text, which holds API keys, so they are never passed on.
    private static func reason(for error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not a keyring document" }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field \"\(key.stringValue)\"\(location(context.codingPath))"
        case .typeMismatch(let type, let context):
            return "expected \(type)\(location(context.codingPath))"
        case .valueNotFound(let type, let context):
            return "null where \(type) belongs\(location(context.codingPath))"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not valid JSON"
        case .dataCorrupted(let context):
            return "invalid value\(location(context.codingPath))"
        @unknown default:
            return "not a keyring document"
        }
    }

    private static func location(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? " at the top level" : " at " + codingPath.map(\.stringValue).joined(separator: ".")
    }
}
