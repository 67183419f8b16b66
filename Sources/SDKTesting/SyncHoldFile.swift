import Journal

/// A file whose `synchronize()` waits at the ``SyncHold`` first.
public final class SyncHoldFile: WritableFile {
    private let file: any WritableFile
    private let hold: SyncHold

    public init(file: any WritableFile, hold: SyncHold) {
        self.file = file
        self.hold = hold
    }

    public var size: Int { file.size }
    public func append(_ bytes: UnsafeRawBufferPointer) throws { try file.append(bytes) }
    public func truncate(to length: Int) throws { try file.truncate(to: length) }

    public func synchronize() throws {
        hold.passThrough()
        try file.synchronize()
    }
}
