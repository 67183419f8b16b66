import Journal

/// The POSIX storage, with every file's sync passing through a ``SyncGate``.
struct GatedStorage: JournalStorage {
    let base = PosixStorage()
    let gate: SyncGate

    func createDirectory(at path: String) throws { try base.createDirectory(at: path) }
    func contentsOfDirectory(at path: String) throws -> [String] { try base.contentsOfDirectory(at: path) }
    func createFile(at path: String) throws -> any WritableFile { GatedFile(file: try base.createFile(at: path), gate: gate) }
    func openForAppending(at path: String) throws -> any WritableFile {
        GatedFile(file: try base.openForAppending(at: path), gate: gate)
    }
    func sizeOfFile(at path: String) throws -> Int { try base.sizeOfFile(at: path) }
    func contents(of path: String) throws -> any FileContents { try base.contents(of: path) }
    func removeFile(at path: String) throws { try base.removeFile(at: path) }
    func synchronizeDirectory(at path: String) throws { try base.synchronizeDirectory(at: path) }
}
