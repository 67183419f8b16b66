/// Appends sync points to a segment's index file as the writer creates them. Failures are
/// ignored on purpose: the index is a rebuildable cache and must never stop an append.
final class IndexFileWriter: Sendable {
    private let file: (any WritableFile)?

    /// Creates (or replaces) the index file with `entries` already known.
    init(storage: any JournalStorage, path: String, baseSequence: UInt64, entries: [IndexEntry] = []) {
        try? storage.removeFile(at: path) // a cache: a failure leaves no index, rebuilt by readers
        let created = try? storage.createFile(at: path) // a cache: nil means no index, never a failed append
        var bytes = IndexFile.header(baseSequence: baseSequence)
        for entry in entries { bytes += IndexFile.encode(entry) }
        if let created, (try? bytes.withUnsafeBytes { try created.append($0) }) != nil { // a header not written: no index
            file = created
        } else {
            file = nil
        }
    }

    func add(_ entry: IndexEntry) {
        guard let file else { return }
        _ = try? IndexFile.encode(entry).withUnsafeBytes { try file.append($0) } // a lost entry: readers confirm and rebuild
    }
}
