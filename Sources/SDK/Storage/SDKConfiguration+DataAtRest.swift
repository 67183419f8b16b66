import Foundation

extension SDKConfiguration {
    /// Creates the journal's directory and gives it, and every file already in it, the journal's
    /// ``StoredItemAttributes``: segments and indexes the journal creates later take the
    /// directory's protection class when they are created, and a backup that skips the directory
    /// skips all of them. Does nothing more when the journal's storage keeps no directory on disk
    /// (an in-memory storage).
    func prepareJournalDirectory() throws {
        try journalStorage.createDirectory(at: journalDirectory)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: journalDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
            return
        }
        try storedItemAttributes.apply(journalAttributes, to: journalDirectory)
        for name in try FileManager.default.contentsOfDirectory(atPath: journalDirectory).sorted() {
            try storedItemAttributes.apply(journalAttributes, to: journalDirectory + "/" + name)
        }
    }
}
