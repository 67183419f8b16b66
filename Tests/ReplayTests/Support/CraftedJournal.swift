import Foundation
import Journal
import SDK

/// Writes SDK journals fact by fact, for tests that need journals the SDK would never write
/// (contract violations, hostile values) or shapes the demo does not have (many segments).
///
/// Keeps the fold of what it wrote, so the snapshots it writes agree with the facts unless a
/// test says otherwise.
final class CraftedJournal {
    let directory: String
    private let writer: JournalWriter
    private(set) var time = JournalTime(microsecondsSince1970: 1_764_000_000_000_000)
    /// The fold of every fact written so far.
    private(set) var state = SDKState()
    private(set) var lastSequence: UInt64 = 0

    /// A new journal in `directory` (its first record, a snapshot of the empty state, is
    /// written at once). Segments roll only when ``rotate(snapshot:)`` asks and the current
    /// one holds at least `segmentBytes`.
    init(directory: String, segmentBytes: Int = 1 << 20) throws {
        self.directory = directory
        var options = JournalOptions()
        options.rotation = .onRequest
        options.segmentBytes = segmentBytes
        options.frameBytes = 1024
        options.retainedBytes = nil
        options.groupCommit = GroupCommit(maxRecords: 8, maxDelay: nil, synchronizesEachGroup: false)
        options.journalID = UUID(uuidString: "5EED0000-0000-4000-8000-000000000002")
        options.producer = "replay-tests"
        options.monotonicNanoseconds = { 0 }
        writer = try JournalWriter(directory: directory, options: options, snapshot: nil)
        let empty = StateCodec.encode(state)
        try writer.rotateIfNeeded(time: time) { _ in empty }
        lastSequence = 1
    }

    /// A launch on ``us``: the engine started with the default rules, then call 1, `initialize(us)`,
    /// applied.
    func appendLaunchOnUS() throws {
        try append(.engineStarted(EngineStart(sdkVersion: "0.1.0", restored: false, options: EngineRules())))
        try append(.callReceived(Self.received(1, .initialize(Self.us))))
        try append(.initialized(project: Self.us, generation: 1))
        try append(.callResolved(call: Self.call(1), outcome: .applied(project: Self.us.fingerprint)))
    }

    /// Appends `fact`, `after` microseconds after the previous one; returns its sequence number.
    @discardableResult
    func append(_ fact: Fact, after micros: Int64 = 1_000) throws -> UInt64 {
        time = JournalTime(microsecondsSince1970: time.microsecondsSince1970 + micros)
        lastSequence = try writer.append(kind: FactCodec.kind(of: fact), timestamp: time, payload: FactCodec.payload(of: fact))
        state.evolve(fact, at: time)
        return lastSequence
    }

    /// Appends `fact` without folding it (for facts the SDK's fold would trap on).
    @discardableResult
    func appendUnfolded(_ fact: Fact, after micros: Int64 = 1_000) throws -> UInt64 {
        try appendRaw(kind: FactCodec.kind(of: fact), payload: FactCodec.payload(of: fact), after: micros)
    }

    /// Appends raw bytes as a record of `kind` (not folded).
    @discardableResult
    func appendRaw(kind: UInt32, payload: [UInt8], after micros: Int64 = 1_000) throws -> UInt64 {
        time = JournalTime(microsecondsSince1970: time.microsecondsSince1970 + micros)
        lastSequence = try writer.append(kind: kind, timestamp: time, payload: payload)
        return lastSequence
    }

    /// Starts a new segment if the current one is big enough, with `snapshot` (the fold by
    /// default) as its first record; returns whether it did.
    @discardableResult
    func rotate(snapshot: SDKState? = nil) throws -> Bool {
        let payload = StateCodec.encode(snapshot ?? state)
        let rotated = try writer.rotateIfNeeded(time: time) { _ in payload }
        if rotated { lastSequence += 1 }
        return rotated
    }

    /// Starts a new segment if the current one is big enough, its first record a snapshot whose
    /// payload is `payload` (bytes no build reads, say); returns whether it did.
    @discardableResult
    func rotate(snapshotPayload payload: [UInt8]) throws -> Bool {
        let rotated = try writer.rotateIfNeeded(time: time) { _ in payload }
        if rotated { lastSequence += 1 }
        return rotated
    }

    func close() throws {
        try writer.close()
    }

    // MARK: - Values

    static let us = project(key: "test-us-key", region: "us")
    static let eu = project(key: "test-eu-key", region: "eu")

    static func project(key: String, region: String) -> ProjectRef {
        ProjectRef(fingerprint: ProjectFingerprint(apiKey: key), region: region, endpoint: "http://sandbox.test/\(region)/api/",
                   usesJWT: false, retry: RetryRules())
    }

    /// Call id number `n`: 00000000-0000-4000-8000-00000000000n.
    static func call(_ number: UInt64) -> CallID {
        CallID(CallIDGenerator.sequentialUUID(number))
    }

    static func received(_ number: UInt64, _ call: PublicCall) -> ReceivedCall {
        ReceivedCall(id: Self.call(number), caller: 1, call: call)
    }

    static func task(_ number: UInt64, call: UInt64?, project: ProjectRef, path: String, body: String = "{}") -> DeliveryTask {
        DeliveryTask(id: TaskID(number), call: call.map(Self.call), project: project.fingerprint, region: project.region,
                     endpoint: project.endpoint, path: path, method: .post, query: nil, body: Array(body.utf8),
                     createdAt: JournalTime(microsecondsSince1970: 1_764_000_000_000_000))
    }
}
