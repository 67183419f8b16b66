import Locking

/// A segment file's length and header, read the first time either is asked for (or given at
/// once by a reader that reads every header when it opens).
///
/// Reading is idempotent and the result is kept under a lock, so a reader and its copies may
/// share one slot across threads.
final class SegmentHeaderSlot: Sendable {
    /// What reading the segment's first bytes found.
    struct Reading: Sendable {
        /// The file's length in bytes (0 when it could not be opened).
        var bytes: Int
        /// The decoded header, or nil when it could not be read.
        var header: SegmentHeader?
        /// Why there is no header: the decoding error, or the file error met opening it.
        var problem: String?
        /// Whether the header is cut short (a torn tail when this is the last segment).
        var isTruncated: Bool
        /// Set when the header is of a newer major version than this build reads.
        var newerVersion: FormatVersion?
    }

    private let path: String
    private let storage: any JournalStorage
    private let reading: Locked<Reading?>

    /// A slot that reads `path` through `storage` when first asked.
    init(path: String, storage: any JournalStorage) {
        self.path = path
        self.storage = storage
        reading = Locked(nil)
    }

    /// A slot that already holds what reading found.
    init(path: String, storage: any JournalStorage, reading: Reading) {
        self.path = path
        self.storage = storage
        self.reading = Locked(reading)
    }

    /// What the segment's header says, reading it now if it was not read yet.
    var value: Reading {
        if let known = reading.withLock({ $0 }) { return known }
        let fresh: Reading
        do {
            fresh = try Self.read(path: path, storage: storage)
        } catch {
            fresh = Reading(bytes: 0, header: nil, problem: "\(error)", isTruncated: false, newerVersion: nil)
        }
        return reading.withLock { stored in
            if stored == nil { stored = fresh }
            return stored!
        }
    }

    /// Maps the file and decodes its header; throws only when the file cannot be opened.
    static func read(path: String, storage: any JournalStorage) throws -> Reading {
        let contents = try storage.contents(of: path)
        do throws(SegmentHeader.DecodingError) {
            let (header, _) = try SegmentHeader.decode(from: contents.bytes)
            return Reading(bytes: contents.bytes.count, header: header, problem: nil, isTruncated: false, newerVersion: nil)
        } catch {
            let newer: FormatVersion? = if case .newerMajorVersion(let version) = error { version } else { nil }
            return Reading(bytes: contents.bytes.count, header: nil, problem: "\(error)",
                           isTruncated: error == .truncated, newerVersion: newer)
        }
    }
}
