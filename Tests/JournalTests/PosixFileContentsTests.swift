import Foundation
import Testing
@testable import Journal

/// ``PosixFileContents``: a file up to ``PosixFileContents/wholeReadLimit`` bytes is read into
/// memory, a larger one mapped; the bytes are the file's either way, and only regular files
/// reached without a symbolic link are read.
@Suite("a file's bytes for reading", .timeLimit(.minutes(1)))
struct PosixFileContentsTests {
    private static func scratch() throws -> String {
        let path = NSTemporaryDirectory() + "file-contents-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    @Test("read up to the limit, mapped past it, the file's bytes either way; released pages read again the same",
          arguments: [0, 1, 4_517, PosixFileContents.wholeReadLimit, PosixFileContents.wholeReadLimit + 1, 3 * PosixFileContents.wholeReadLimit])
    func bytesEitherWay(size: Int) throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var generator = UInt64(size) &+ 0x9E37_79B9_7F4A_7C15
        let written = (0..<size).map { _ in
            generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: generator >> 33)
        }
        let path = directory + "/segment"
        try Data(written).write(to: URL(fileURLWithPath: path))
        let contents = try #require(try PosixStorage().contents(of: path) as? PosixFileContents)
        #expect(contents.isMapped == (size > PosixFileContents.wholeReadLimit))
        #expect(Array(contents.bytes) == written)
        contents.discard(0..<(size / 2))
        #expect(Array(contents.bytes) == written)
    }

    @Test("a symbolic link and a directory are not read")
    func onlyRegularFiles() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: directory + "/segment"))
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: directory + "/segment")
        #expect {
            _ = try PosixStorage().contents(of: directory + "/link")
        } throws: { error in
            guard case JournalError.notAJournal(_, let reason)? = error as? JournalError else { return false }
            return reason.contains("symbolic link")
        }
        #expect {
            _ = try PosixStorage().contents(of: directory)
        } throws: { error in
            guard case JournalError.notAJournal(_, let reason)? = error as? JournalError else { return false }
            return reason == "not a regular file"
        }
    }
}
