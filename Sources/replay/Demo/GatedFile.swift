import Journal

/// A file whose `synchronize()` waits at the gate first.
final class GatedFile: WritableFile {
    private let file: any WritableFile
    private let gate: SyncGate

    init(file: any WritableFile, gate: SyncGate) {
        self.file = file
        self.gate = gate
    }

    var size: Int { file.size }
    func append(_ bytes: UnsafeRawBufferPointer) throws { try file.append(bytes) }
    func truncate(to length: Int) throws { try file.truncate(to: length) }

    func synchronize() throws {
        gate.passThrough()
        try file.synchronize()
    }
}
