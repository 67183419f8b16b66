import Foundation
import Journal

/// Opens the journal a command was pointed at: a directory of segment files, `-` for the
/// segment files concatenated on standard input (`cat DIR/segment-*.lz4 | replay info -`), or
/// a file holding one segment file or several concatenated (a segment sent on its own).
package enum JournalSource {
    /// The largest journal read from standard input (it is held in memory).
    static let maxStreamBytes = 1 << 30
    /// How errors name the journal read from standard input.
    static let standardInputName = "standard input"

    /// A reader over the journal at `path` (`-`: the console's standard input); throws when it
    /// holds no segments. `headers` says when the segments' headers are read: a command that
    /// reads a few segments of a long journal (`state --at`) reads them on demand. `readMode`
    /// is how its walks meet damage (strict: they stop; `--salvage`: they go on at the next
    /// segment).
    package static func open(_ path: String, console: Console, headers: JournalReader.HeaderReading = .everySegment,
                             readMode: JournalReader.ReadMode = .strict) throws -> JournalReader {
        var reader = path == "-" ? try reader(forStream: try console.readAllBytes())
            : isFile(path) ? try reader(forStream: try readFile(path), source: path)
            : try JournalReader(directory: path, headers: headers)
        guard !reader.segments.isEmpty else {
            throw JournalError.notAJournal(path: path, reason: "no segment files (segment-*.lz4) in this directory")
        }
        reader.readMode = readMode
        return reader
    }

    /// The process's standard input, up to ``maxStreamBytes``.
    static func readStandardInput() throws -> [UInt8] {
        try readAll(FileHandle.standardInput, source: standardInputName)
    }

    /// Whether `path` names a file (or a link to one), not a directory.
    static func isFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// The bytes of the file at `path`, up to ``maxStreamBytes``.
    private static func readFile(_ path: String) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw JournalError.notAJournal(path: path, reason: "the file cannot be opened for reading")
        }
        defer { try? handle.close() }  // read to its end already: closing has nothing left to lose
        return try readAll(handle, source: path)
    }

    /// Everything `handle` gives, read from `source`, up to ``maxStreamBytes``.
    private static func readAll(_ handle: FileHandle, source: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            bytes.append(contentsOf: chunk)
            guard bytes.count <= maxStreamBytes else {
                throw JournalError.notAJournal(path: source, reason: "more than \(maxStreamBytes >> 20) MiB; copy the journal to a directory instead")
            }
        }
        return bytes
    }

    /// A reader over a journal given as its concatenated segment files, read from `source` (a
    /// file's path, or standard input): the segments are named as if in a directory of that name.
    static func reader(forStream bytes: [UInt8], source: String = standardInputName) throws -> JournalReader {
        let storage = InMemoryStorage()
        let directory = source == standardInputName ? "/standard-input" : source
        _ = try SegmentStream.unpack(bytes, source: source, into: storage, directory: directory)
        return try JournalReader(directory: directory, storage: storage)
    }
}
