import Journal

/// Opens the journal a command was pointed at.
enum JournalSource {
    /// A reader over the journal directory at `path`; throws when it holds no segments.
    static func open(_ path: String) throws -> JournalReader {
        let reader = try JournalReader(directory: path)
        guard !reader.segments.isEmpty else {
            throw JournalError.notAJournal(path: path, reason: "no segment files (segment-*.lz4) in this directory")
        }
        return reader
    }
}
