import Locking


/// A file system in memory that remembers what was made durable, for tests and simulation.
///
/// ``simulatePowerLoss(_:)`` returns the storage a machine would find after losing power: each
/// file holds only the bytes it had at its last `synchronize()`, files whose directory entry
/// was never synchronized are gone, and the tail can be dirtied the way real disks do.
public final class InMemoryStorage: JournalStorage {
    /// One file: its current bytes and the bytes a power loss would leave.
    final class Node: Sendable {
        let state: Locked<(data: [UInt8], synced: [UInt8])>

        init(data: [UInt8] = [], synced: [UInt8] = []) {
            state = Locked((data, synced))
        }
    }

    /// What a power loss leaves after the last synchronized byte of each file.
    public enum LossTail: Sendable, Equatable {
        /// Nothing: the file ends at its last synchronized byte.
        case clean
        /// The first `count` bytes written after the last sync survived (a torn write).
        case unsyncedPrefix(Int)
        /// `count` zero bytes (blocks allocated but never written).
        case zeros(Int)
        /// `count` bytes of garbage from `seed`.
        case garbage(Int, seed: UInt64)
    }

    private struct Tree {
        /// Files by directory, then by name: a directory's listing and its sync read one entry.
        var files: [String: [String: Node]] = [:]
        /// Names whose directory entry is durable, per directory.
        var durableNames: [String: Set<String>] = [:]
        var directories: Set<String> = []
    }

    private let tree: Locked<Tree>

    public init() {
        tree = Locked(Tree())
    }

    private init(tree: Tree) {
        self.tree = Locked(tree)
    }

    // MARK: - JournalStorage

    public func createDirectory(at path: String) throws {
        tree.withLock { _ = $0.directories.insert(Self.normalized(path)) }
    }

    public func contentsOfDirectory(at path: String) throws -> [String] {
        let directory = Self.normalized(path)
        return try tree.withLock { tree in
            guard tree.directories.contains(directory) else {
                throw JournalError.io(path: path, operation: "opendir", code: 2)
            }
            return tree.files[directory].map { Array($0.keys) } ?? []
        }
    }

    public func createFile(at path: String) throws -> any WritableFile {
        let (directory, name) = Self.split(Self.normalized(path))
        let node = try tree.withLock { tree -> Node in
            guard tree.directories.contains(directory) else {
                throw JournalError.io(path: path, operation: "create", code: 2)
            }
            guard tree.files[directory]?[name] == nil else { throw JournalError.io(path: path, operation: "create", code: 17) }
            let node = Node()
            tree.files[directory, default: [:]][name] = node
            return node
        }
        return Handle(node: node)
    }

    public func openForAppending(at path: String) throws -> any WritableFile {
        Handle(node: try node(path, operation: "open"))
    }

    public func sizeOfFile(at path: String) throws -> Int {
        try node(path, operation: "stat").state.withLock { $0.data.count }
    }

    public func contents(of path: String) throws -> any FileContents {
        Snapshot(try node(path, operation: "open").state.withLock { $0.data })
    }

    public func removeFile(at path: String) throws {
        let (directory, name) = Self.split(Self.normalized(path))
        tree.withLock { tree in
            tree.files[directory]?[name] = nil
            tree.durableNames[directory]?.remove(name)
        }
    }

    public func synchronizeDirectory(at path: String) throws {
        let directory = Self.normalized(path)
        tree.withLock { tree in
            tree.durableNames[directory] = tree.files[directory].map { Set($0.keys) } ?? []
        }
    }

    // MARK: - Inspection and faults

    /// The current bytes of a file, or nil when it does not exist.
    public func bytes(of path: String) -> [UInt8]? {
        let (directory, name) = Self.split(Self.normalized(path))
        return tree.withLock { $0.files[directory]?[name] }?.state.withLock { $0.data }
    }

    /// Replaces a file's bytes (and its durable bytes): for tests that damage files.
    public func setBytes(_ bytes: [UInt8], of path: String) {
        let (directory, name) = Self.split(Self.normalized(path))
        tree.withLock { tree in
            tree.files[directory, default: [:]][name] = Node(data: bytes, synced: bytes)
            tree.durableNames[directory, default: []].insert(name)
        }
    }

    /// The names of the files in `directory`, sorted; none when it does not exist.
    public func fileNames(in directory: String) -> [String] {
        (try? contentsOfDirectory(at: directory))?.sorted() ?? [] // its only error is a missing directory: no files
    }

    /// A copy of this storage as it is now (every byte kept, durable or not).
    public func copy() -> InMemoryStorage {
        tree.withLock { tree in
            var copy = tree
            copy.files = tree.files.mapValues { directory in
                directory.mapValues { node in
                    let state = node.state.withLock { $0 }
                    return Node(data: state.data, synced: state.synced)
                }
            }
            return InMemoryStorage(tree: copy)
        }
    }

    /// The storage a power loss would leave; this storage is unchanged.
    public func simulatePowerLoss(_ tail: LossTail = .clean) -> InMemoryStorage {
        tree.withLock { tree in
            var after = Tree()
            after.directories = tree.directories
            after.durableNames = tree.durableNames
            for (directory, nodes) in tree.files {
                for (name, node) in nodes where tree.durableNames[directory]?.contains(name) == true {
                    let kept = Self.bytesSurviving(node.state.withLock { $0 }, tail)
                    after.files[directory, default: [:]][name] = Node(data: kept, synced: kept)
                }
            }
            return InMemoryStorage(tree: after)
        }
    }

    // MARK: - Helpers

    /// The bytes of a file (its current and its synchronized ones) that a power loss leaves.
    private static func bytesSurviving(_ state: (data: [UInt8], synced: [UInt8]), _ tail: LossTail) -> [UInt8] {
        var kept = state.synced
        switch tail {
        case .clean:
            break
        case .unsyncedPrefix(let count):
            if state.data.count > kept.count, state.data.starts(with: kept) {
                kept += state.data[kept.count..<min(state.data.count, kept.count + count)]
            }
        case .zeros(let count):
            if state.data.count > kept.count { kept += [UInt8](repeating: 0, count: count) }
        case .garbage(let count, let seed):
            if state.data.count > kept.count {
                var generator = seed
                kept += (0..<count).map { _ in
                    generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return UInt8(truncatingIfNeeded: generator >> 33)
                }
            }
        }
        return kept
    }

    private func node(_ path: String, operation: String) throws -> Node {
        let (directory, name) = Self.split(Self.normalized(path))
        guard let node = tree.withLock({ $0.files[directory]?[name] }) else {
            throw JournalError.io(path: path, operation: operation, code: 2)
        }
        return node
    }

    /// `path` with one leading slash, no empty parts and no trailing slash.
    private static func normalized(_ path: String) -> String {
        let bytes = path.utf8, slash = UInt8(ascii: "/")
        var isNormal = bytes.first == slash && (bytes.count == 1 || bytes.last != slash)
        var previous: UInt8 = 0
        for byte in bytes where isNormal {
            isNormal = !(byte == slash && previous == slash)
            previous = byte
        }
        if isNormal { return path }
        return "/" + path.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
    }

    /// A normalized path's directory and name.
    private static func split(_ key: String) -> (directory: String, name: String) {
        let bytes = key.utf8
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return ("/", key) }
        let directory = String(key[..<slash])
        return (directory.isEmpty ? "/" : directory, String(key[bytes.index(after: slash)...]))
    }
}

extension InMemoryStorage {
    /// A writable handle on a node.
    final class Handle: WritableFile {
        let node: Node

        init(node: Node) {
            self.node = node
        }

        var size: Int { node.state.withLock { $0.data.count } }

        func append(_ bytes: UnsafeRawBufferPointer) throws {
            node.state.withLock { $0.data.append(contentsOf: bytes) }
        }

        func synchronize() throws {
            node.state.withLock { $0.synced = $0.data }
        }

        func truncate(to length: Int) throws {
            node.state.withLock { state in
                state.data.removeSubrange(min(length, state.data.count)...)
                if state.synced.count > length { state.synced.removeSubrange(length...) }
            }
        }
    }

    /// A read-only copy of a file's bytes at a stable address.
    final class Snapshot: FileContents {
        // Immutable after init and freed only in deinit, so sharing it across threads is safe.
        nonisolated(unsafe) private let storage: UnsafeMutableRawBufferPointer

        init(_ data: [UInt8]) {
            let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
            data.withUnsafeBytes { storage.copyMemory(from: $0) }
            self.storage = storage
            count = data.count
        }

        deinit {
            storage.deallocate()
        }

        let count: Int
        var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[0..<count]) }

        func discard(_ range: Range<Int>) {}
    }
}
