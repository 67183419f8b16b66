import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A temporary file with no name: created in the temporary directory (owner-only, never
/// through an existing file or link) and unlinked at once, so only this descriptor reaches it.
/// What a pass spills there (calls of a journal, with their personal data) goes when the
/// descriptor is closed, and with the process however it ends: nothing is left in the
/// temporary directory after a crash or a kill.
///
/// Not thread-safe: one owner on one thread.
final class UnlinkedTemporaryFile {
    private let descriptor: Int32
    /// What the file was made for, for errors (it has no path to name).
    let label: String
    /// How many bytes were written: where the next append goes.
    private(set) var size: UInt64 = 0

    /// `label` names the file in errors and in its short-lived name (`replay-LABEL-…`).
    init(label: String) throws(SpillError) {
        self.label = label
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(label)-\(UUID().uuidString)").path
        let opened = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard opened >= 0 else { throw SpillError.unwritable(label, Self.systemError()) }
        descriptor = opened
        unlink(path)
    }

    deinit {
        close(descriptor)
    }

    /// Appends `bytes` after those written.
    func append(_ bytes: UnsafeRawBufferPointer) throws(SpillError) {
        var done = 0
        while done < bytes.count {
            let wrote = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(size) + off_t(done))
            if wrote < 0 {
                if errno == EINTR { continue }
                throw SpillError.unwritable(label, Self.systemError())
            }
            done += wrote
        }
        size += UInt64(bytes.count)
    }

    /// Fills `buffer` with the bytes at `offset`; returns how many there were (fewer than it
    /// holds only at the end of the file).
    func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(SpillError) -> Int {
        var done = 0
        while done < buffer.count {
            let got = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if got < 0 {
                if errno == EINTR { continue }
                throw SpillError.unreadable(label, Self.systemError())
            }
            if got == 0 { break }
            done += got
        }
        return done
    }

    /// The `count` bytes at `offset`, or a cut-short error when the file ends before them.
    func read(at offset: UInt64, count: Int) throws(SpillError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { buffer in Result { () throws(SpillError) in try read(at: offset, into: buffer) } }
        guard try got.get() == count else { throw SpillError.cutShort(label) }
        return bytes
    }

    private static func systemError() -> any Error {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
