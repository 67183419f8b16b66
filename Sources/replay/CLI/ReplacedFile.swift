import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ReplayKit

/// A file a command writes whole (`report -o`), replacing the regular file at its path, if any.
///
/// The path is checked before the command reads anything (``check(_:option:example:)``): a
/// directory, a device or other file that is not a regular one, and a path whose folder does
/// not exist are refused with their reason, so nothing but a regular file is ever replaced
/// (never a folder and what it holds). The new bytes are written beside it under a temporary
/// name and renamed over it (``write(_:to:)``): the path holds the old file or the new one,
/// never a part of it. A symbolic link is followed: the file it names is the one replaced.
enum ReplacedFile {
    /// Throws a usage error naming what is wrong with `path` as the output of `option`;
    /// `example` is a file name to suggest inside a directory given by mistake.
    static func check(_ path: String, option: String, example: String) throws(UsageError) {
        guard !path.isEmpty else { throw UsageError("\(option) expects a file path, not an empty one") }
        let target = resolved(path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw UsageError("\(option) \(path) is a directory: give a file's path, e.g. "
                                 + (path.hasSuffix("/") ? path : path + "/") + example)
            }
            var status = stat()
            guard stat(target, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
                throw UsageError("\(option) \(path) is not a regular file: give a file's path (it is replaced whole)")
            }
            return
        }
        let folder = Self.folder(of: target)
        var folderIsDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &folderIsDirectory),
              folderIsDirectory.boolValue else {
            throw UsageError("\(option) \(path): no directory \(folder) to write it in")
        }
    }

    /// Writes `bytes` to `path` with mode 0600 (a report shows personal data): to a temporary
    /// file in the same folder, then renamed over `path`. Throws ``ExportError/cannotWrite(_:)``
    /// and leaves `path` as it was when either step fails.
    static func write(_ bytes: Data, to path: String) throws {
        let target = resolved(path)
        let temporary = Self.folder(of: target) + "/." + Self.name(of: target) + ".\(getpid()).part"
        let manager = FileManager.default
        guard manager.createFile(atPath: temporary, contents: bytes, attributes: [.posixPermissions: 0o600]) else {
            throw ExportError.cannotWrite(path)
        }
        guard rename(temporary, target) == 0 else {
            try? manager.removeItem(atPath: temporary) // the old file stays; the error says the path
            throw ExportError.cannotWrite(path)
        }
    }

    /// `path` with a final symbolic link followed (the file it names is the one replaced).
    private static func resolved(_ path: String) -> String {
        // Its only error: `path` is not a link (or not there), so the path itself is the file.
        guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else { return path }
        if destination.hasPrefix("/") { return destination }
        return folder(of: path) + "/" + destination
    }

    /// The folder `path` names a file in: what comes before its last `/` (`.` for none). (Not
    /// `NSString.deletingLastPathComponent`, which traps on a one-component path here.)
    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The file's own name: what follows the last `/` of `path`.
    private static func name(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }
}
