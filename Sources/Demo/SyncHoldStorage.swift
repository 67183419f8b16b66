import Journal

/// The POSIX storage, with every file's sync passing through a ``SyncHold``.
struct SyncHoldStorage: JournalStorage {
    let base = PosixStorage()
    let hold: SyncHold

    func createDirectory(at path: String) throws { try base.createDirectory(at: path) }
    func contentsOfDirectory(at path: String) throws -> [String] { try base.contentsOfDirectory(at: path) }
    func createFile(at path: String) throws -> any WritableFile { SyncHoldFile(file: try base.createFile(at: path), hold: hold) }
    func openForAppending(at path: String) throws -> any WritableFile {
        SyncHoldFile(file: try base.openForAppending(at: path), hold: hold)
    }
    func sizeOfFile(at path: String) throws -> Int { try base.sizeOfFile(at: path) }
    func contents(of path: String) throws -> any FileContents { try base.contents(of: path) }
    func removeFile(at path: String) throws { try base.removeFile(at: path) }
    func synchronizeDirectory(at path: String) throws { try base.synchronizeDirectory(at: path) }
}
