import Foundation
import Testing
import TestSupport
@testable import Journal

/// One writer per journal directory (``JournalOptions/locksDirectory``): a second opening is
/// refused while the first is open, naming the lock file and its holder, and succeeds once the
/// first closed; readers never take the lock, and its file is no segment to them.
@Suite("Journal lock")
struct JournalDirectoryLockTests {
    static func options() -> JournalOptions {
        var options = JournalOptions()
        options.locksDirectory = true
        return options
    }

    @Test("a second writer is refused while the first is open, and opens once it closed")
    func oneWriter() throws {
        let directory = TemporaryDirectory()
        let first = try JournalWriter(directory: directory.path, options: Self.options()) { _ in [1] }
        #expect(first.locksDirectory)
        try [UInt8]("one".utf8).withUnsafeBytes { _ = try first.append(kind: 16, timestamp: JournalTime(microsecondsSince1970: 1), payload: $0) }
        do {
            _ = try JournalWriter(directory: directory.path, options: Self.options()) { _ in [1] }
            Issue.record("a second writer opened the journal")
        } catch let error as JournalLockError {
            guard case .held(let path, let holder) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(path == directory.path + "/lock")
            #expect(holder == (try String(contentsOfFile: path, encoding: .utf8)))
            #expect(error.description.contains("one writer per journal"))
        }
        try first.close()
        let second = try JournalWriter(directory: directory.path, options: Self.options()) { _ in [1] }
        #expect(second.lastSequence == first.lastSequence)
        try second.close()
        let reader = try JournalReader(directory: directory.path)
        #expect(reader.segments.count == 1)
        #expect(reader.verify().isClean)
    }

    @Test("without the option, or on storage with no other process, no lock is taken")
    func optional() throws {
        let directory = TemporaryDirectory()
        let plain = try JournalWriter(directory: directory.path, options: JournalOptions()) { _ in [1] }
        #expect(!plain.locksDirectory)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/lock"))
        try plain.close()
        var options = Self.options()
        options.storage = InMemoryStorage()
        let inMemory = try JournalWriter(directory: "/in-memory", options: options) { _ in [1] }
        #expect(!inMemory.locksDirectory)
        try inMemory.close()
    }
}
