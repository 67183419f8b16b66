import Journal

/// A file whose `synchronize()` waits at the ``SyncHold`` first.
final class SyncHoldFile: WritableFile {
    private let file: any WritableFile
    private let hold: SyncHold

    init(file: any WritableFile, hold: SyncHold) {
        self.file = file
        self.hold = hold
    }

    var size: Int { file.size }
    func append(_ bytes: UnsafeRawBufferPointer) throws { try file.append(bytes) }
    func truncate(to length: Int) throws { try file.truncate(to: length) }

    func synchronize() throws {
        hold.passThrough()
        try file.synchronize()
    }
}
