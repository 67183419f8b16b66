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
        var files: [String: Node] = [:]
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
            return tree.files.keys.compactMap { Self.split($0).directory == directory ? Self.split($0).name : nil }
        }
    }

    public func createFile(at path: String) throws -> any WritableFile {
        let key = Self.normalized(path)
        let node = try tree.withLock { tree -> Node in
            guard tree.directories.contains(Self.split(key).directory) else {
                throw JournalError.io(path: path, operation: "create", code: 2)
            }
            guard tree.files[key] == nil else { throw JournalError.io(path: path, operation: "create", code: 17) }
            let node = Node()
            tree.files[key] = node
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
        let key = Self.normalized(path)
        tree.withLock { tree in
            tree.files[key] = nil
            tree.durableNames[Self.split(key).directory]?.remove(Self.split(key).name)
        }
    }

    public func synchronizeDirectory(at path: String) throws {
        let directory = Self.normalized(path)
        tree.withLock { tree in
            tree.durableNames[directory] = Set(tree.files.keys.compactMap {
                Self.split($0).directory == directory ? Self.split($0).name : nil
            })
        }
    }

    // MARK: - Inspection and faults

    /// The current bytes of a file, or nil when it does not exist.
    public func bytes(of path: String) -> [UInt8]? {
        tree.withLock { $0.files[Self.normalized(path)] }?.state.withLock { $0.data }
    }

    /// Replaces a file's bytes (and its durable bytes): for tests that damage files.
    public func setBytes(_ bytes: [UInt8], of path: String) {
        let key = Self.normalized(path)
        tree.withLock { tree in
            tree.files[key] = Node(data: bytes, synced: bytes)
            tree.durableNames[Self.split(key).directory, default: []].insert(Self.split(key).name)
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
            copy.files = tree.files.mapValues { node in
                let state = node.state.withLock { $0 }
                return Node(data: state.data, synced: state.synced)
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
            for (key, node) in tree.files {
                let (directory, name) = Self.split(key)
                guard tree.durableNames[directory]?.contains(name) == true else { continue }
                let state = node.state.withLock { $0 }
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
                after.files[key] = Node(data: kept, synced: kept)
            }
            return InMemoryStorage(tree: after)
        }
    }

    // MARK: - Helpers

    private func node(_ path: String, operation: String) throws -> Node {
        guard let node = tree.withLock({ $0.files[Self.normalized(path)] }) else {
            throw JournalError.io(path: path, operation: operation, code: 2)
        }
        return node
    }

    private static func normalized(_ path: String) -> String {
        "/" + path.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
    }

    private static func split(_ key: String) -> (directory: String, name: String) {
        guard let slash = key.lastIndex(of: "/") else { return ("/", key) }
        let directory = String(key[..<slash])
        return (directory.isEmpty ? "/" : directory, String(key[key.index(after: slash)...]))
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
