/// The segment files of a journal directory, oldest first.
struct JournalDirectory {
    struct Entry {
        let baseSequence: UInt64
        let name: String
    }

    let path: String
    let segments: [Entry]

    init(path: String, storage: any JournalStorage) throws {
        self.path = path
        segments = try storage.contentsOfDirectory(at: path)
            .compactMap { name in SegmentFormat.baseSequence(ofSegmentFileName: name).map { Entry(baseSequence: $0, name: name) } }
            .sorted { $0.baseSequence < $1.baseSequence }
    }

    func path(of name: String) -> String {
        path + "/" + name
    }

    func indexPath(of entry: Entry) -> String {
        path + "/" + SegmentFormat.indexFileName(baseSequence: entry.baseSequence)
    }
}
