import Journal

/// The POSIX storage, with every file's sync passing through a ``SyncHold``.
public struct SyncHoldStorage: JournalStorage {
    public let base = PosixStorage()
    public let hold: SyncHold

    /// Storage whose files' syncs pass through `hold`.
    public init(hold: SyncHold) {
        self.hold = hold
    }

    public func createDirectory(at path: String) throws { try base.createDirectory(at: path) }
    public func contentsOfDirectory(at path: String) throws -> [String] { try base.contentsOfDirectory(at: path) }
    public func createFile(at path: String) throws -> any WritableFile { SyncHoldFile(file: try base.createFile(at: path), hold: hold) }
    public func openForAppending(at path: String) throws -> any WritableFile {
        SyncHoldFile(file: try base.openForAppending(at: path), hold: hold)
    }
    public func sizeOfFile(at path: String) throws -> Int { try base.sizeOfFile(at: path) }
    public func contents(of path: String) throws -> any FileContents { try base.contents(of: path) }
    public func removeFile(at path: String) throws { try base.removeFile(at: path) }
    public func synchronizeDirectory(at path: String) throws { try base.synchronizeDirectory(at: path) }
}
