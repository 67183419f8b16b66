#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Journal
import Locking
import SDKCore

/// The on-device file that maps project fingerprints to their API key, region and endpoint.
///
/// It is the only place the SDK keeps API keys: everything else (journal, logs, exports) names a
/// project by its `ProjectFingerprint`. The file, mode 0600, is JSON with sorted keys:
/// `{"entries":{"<hex fingerprint>":{"apiKey":…,"endpoint":…,"region":…}},"version":1}`.
/// It is replaced whole on every change: written to `path + ".tmp"`, synced, renamed over
/// `path`, and the directory synced, so after a crash the file holds either the old or the new
/// keyring, never a mix. Safe to use from any thread; one process should own a given path.
public final class Keyring: Sendable {
    /// The keyring file.
    public let path: String
    private let entries: Locked<[ProjectFingerprint: KeyringEntry]>
    /// What each new file is given before anything is written to it, and who applies it (nil:
    /// nothing beyond mode 0600).
    private let attributes: (StoredItemAttributes, any StoredItemAttributeSetter)?

    /// Opens the keyring at `path`, loading it if the file exists. A missing file is an empty
    /// keyring (nothing is created until the first `store`). Throws `KeyringError` naming
    /// `path` when the file cannot be read, is corrupt, or has a newer format. The containing
    /// directory must exist before the first `store`.
    public convenience init(path: String) throws(KeyringError) {
        try self.init(path: path, attributes: nil, setter: nil)
    }

    /// Opens the keyring at `path` as ``init(path:)`` does; every file it writes later is given
    /// `attributes` by `setter` (its protection class and backup exclusion) while still empty,
    /// before it replaces the previous file.
    package init(path: String, attributes: StoredItemAttributes?, setter: (any StoredItemAttributeSetter)?) throws(KeyringError) {
        self.path = path
        if let attributes, let setter {
            self.attributes = (attributes, setter)
        } else {
            self.attributes = nil
        }
        let loaded: [ProjectFingerprint: KeyringEntry]
        if let data = try Self.contentsIfPresent(of: path) {
            loaded = try KeyringFile.decode(data, path: path)
        } else {
            loaded = [:]
        }
        entries = Locked(loaded)
    }

    /// The entry stored for `fingerprint`, or nil.
    public func entry(for fingerprint: ProjectFingerprint) -> KeyringEntry? {
        entries.withLock { $0[fingerprint] }
    }

    /// Every stored fingerprint, in ascending order.
    public var fingerprints: [ProjectFingerprint] {
        entries.withLock { $0.keys.sorted() }
    }

    /// Stores `entry` for `fingerprint`, replacing any entry there, and persists the keyring.
    ///
    /// `fingerprint` must be the fingerprint of `entry.apiKey` (else `fingerprintMismatch`, and
    /// nothing changes). Storing the entry already there writes nothing. If it throws an `io`
    /// error for the directory sync, the new file is already in place (and `entry(for:)`
    /// returns the new entry) but may not survive a power loss; any other error leaves both
    /// the file and this keyring unchanged.
    public func store(_ entry: KeyringEntry, for fingerprint: ProjectFingerprint) throws(KeyringError) {
        guard entry.fingerprint == fingerprint else {
            throw .fingerprintMismatch(given: fingerprint, ofKey: entry.fingerprint)
        }
        try persist { entries in
            guard entries[fingerprint] != entry else { return false }
            entries[fingerprint] = entry
            return true
        }
    }

    /// Removes the entry for `fingerprint` and persists the keyring. Removing a fingerprint
    /// that is not stored writes nothing. Failures leave things as `store` describes.
    public func remove(_ fingerprint: ProjectFingerprint) throws(KeyringError) {
        try persist { entries in entries.removeValue(forKey: fingerprint) != nil }
    }

    /// Applies `change` to a copy of the entries; when it changed something (returns true),
    /// writes the file and only then keeps the copy. A failure leaves the entries as they were.
    private func persist(_ change: (inout [ProjectFingerprint: KeyringEntry]) -> Bool) throws(KeyringError) {
        try entries.withLock { (current: inout [ProjectFingerprint: KeyringEntry]) throws(KeyringError) in
            var updated = current
            guard change(&updated) else { return }
            try replaceFile(with: updated)
            current = updated
            try synchronizeDirectory()
        }
    }
}

extension Keyring {
    /// The bytes of the file at `path`, or nil when there is no such file.
    private static func contentsIfPresent(of path: String) throws(KeyringError) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .io(path: path, operation: "open", code: errno)
        }
        defer { close(descriptor) }
        var contents = Data()
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in read(descriptor, buffer.baseAddress, buffer.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, operation: "read", code: errno)
            }
            if count == 0 { return contents }
            contents.append(contentsOf: chunk[0..<count])
        }
    }

    /// Writes `entries` to `path + ".tmp"` (mode 0600, and the configured attributes), syncs it
    /// and renames it over `path`. On failure the temporary file is removed and `path` is untouched.
    private func replaceFile(with entries: [ProjectFingerprint: KeyringEntry]) throws(KeyringError) {
        let bytes: Data
        do {
            bytes = try KeyringFile(entries: entries).encoded()
        } catch {
            throw .cannotEncode(path: path)
        }
        let temporaryPath = path + ".tmp"
        // A crash may have left a temporary file behind; it never holds anything `path` lacks.
        if unlink(temporaryPath) != 0 && errno != ENOENT {
            throw .io(path: temporaryPath, operation: "unlink", code: errno)
        }
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .io(path: temporaryPath, operation: "create", code: errno)
        }
        // The protection class is set while the file is still empty: no key is ever written
        // under a weaker one.
        if let (attributes, setter) = attributes {
            do {
                try setter.apply(attributes, to: temporaryPath)
            } catch {
                close(descriptor)
                unlink(temporaryPath)
                throw .attributeRefused(error)
            }
        }
        do {
            try Self.writeAndClose(bytes, to: descriptor, path: temporaryPath)
        } catch {
            unlink(temporaryPath)
            throw error
        }
        guard rename(temporaryPath, path) == 0 else {
            let code = errno
            unlink(temporaryPath)
            throw .io(path: path, operation: "rename", code: code)
        }
    }

    /// Sets mode 0600 exactly (the umask may have narrowed it), writes all of `bytes`, syncs
    /// and closes `descriptor`, which is closed on every path.
    private static func writeAndClose(_ bytes: Data, to descriptor: Int32, path: String) throws(KeyringError) {
        var isOpen = true
        defer { if isOpen { close(descriptor) } }
        guard fchmod(descriptor, 0o600) == 0 else {
            throw .io(path: path, operation: "fchmod", code: errno)
        }
        var failure: KeyringError?
        bytes.withUnsafeBytes { buffer in
            guard var cursor = buffer.baseAddress else { return }
            var remaining = buffer.count
            while remaining > 0 {
                let written = write(descriptor, cursor, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = .io(path: path, operation: "write", code: errno)
                    return
                }
                cursor += written
                remaining -= written
            }
        }
        if let failure { throw failure }
        // Ordered before the rename is enough here: the directory's sync after it makes both
        // durable (on Apple platforms `F_FULLFSYNC` flushes the whole drive cache).
        if let code = FileSync.ordered(of: descriptor) {
            throw .io(path: path, operation: FileSync.orderedCall, code: code)
        }
        isOpen = false
        guard close(descriptor) == 0 else {
            throw .io(path: path, operation: "close", code: errno)
        }
    }

    /// Syncs the directory holding `path`, making the rename durable.
    private func synchronizeDirectory() throws(KeyringError) {
        let directory: String
        if let slash = path.lastIndex(of: "/") {
            directory = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            directory = "."
        }
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .io(path: directory, operation: "open directory", code: errno)
        }
        defer { close(descriptor) }
        if let code = FileSync.full(of: descriptor) {
            throw .io(path: directory, operation: "\(FileSync.fullCall) directory", code: code)
        }
    }
}
