/// Everything the journal reports as a failure. Each case names what was wrong and where.
public enum JournalError: Error, Sendable, Equatable {
    /// A file operation failed: the path, the operation (e.g. `fdatasync`) and `errno`.
    case io(path: String, operation: String, code: Int32)
    /// The directory holds something that is not a journal segment of this format.
    case notAJournal(path: String, reason: String)
    /// A segment was written by a newer major format version than this build reads.
    case newerFormat(path: String, found: FormatVersion, supported: FormatVersion)
    /// Segments of different journals (different ids) were found in one directory.
    case mixedJournals(path: String)
    /// Invalid bytes were found where valid records must be (not a torn tail).
    case corrupted(Damage)
    /// A record is longer than the journal's configured maximum.
    case recordTooLarge(bytes: Int, limit: Int)
    /// The record kind is reserved (kind 0 is the snapshot written by the journal itself).
    case reservedKind(UInt32)
    /// The options cannot work together.
    case invalidOptions(String)
    /// The writer was closed.
    case closed
    /// An earlier write or sync failed; the writer accepts nothing more (reopen to recover).
    case failed(String)
    /// No record with this sequence number is retained.
    case sequenceNotFound(UInt64)
    /// The journal's sequence numbers ran out: a damaged segment claimed sequences near 2^64 and
    /// recovery resumed past them. Nothing more can be appended to this journal.
    case sequenceSpaceExhausted
}

extension JournalError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .io(let path, let operation, let code):
            "\(path): \(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .notAJournal(let path, let reason):
            "\(path): not a journal segment: \(reason)"
        case .newerFormat(let path, let found, let supported):
            "\(path): written by journal format \(found), this build reads format \(supported.major).x; upgrade replay"
        case .mixedJournals(let path):
            "\(path): segments of different journals are mixed in one directory"
        case .corrupted(let damage):
            "corruption: \(damage)"
        case .recordTooLarge(let bytes, let limit):
            "record of \(bytes) bytes exceeds the journal's limit of \(limit) bytes"
        case .reservedKind(let kind):
            "record kind \(kind) is reserved for the journal's snapshots"
        case .invalidOptions(let reason):
            "invalid journal options: \(reason)"
        case .closed:
            "the journal writer is closed"
        case .failed(let reason):
            "the journal writer stopped after an earlier failure: \(reason)"
        case .sequenceNotFound(let sequence):
            "sequence \(sequence) is not in the journal"
        case .sequenceSpaceExhausted:
            "the journal has no sequence numbers left (a damaged segment claimed sequences near 2^64); start a new journal"
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
