import Foundation
import Journal

/// One request to one project, bound when it was made to that project's fingerprint, region and
/// endpoint, so it goes there whatever the SDK is on when it is sent (even after a restart).
package struct DeliveryTask: Sendable, Hashable {
    public enum Method: String, Sendable, Hashable {
        case get = "GET"
        case post = "POST"
    }

    public var id: TaskID
    /// The call whose completion this task resolves; nil for the SDK's own requests.
    public var call: CallID?
    public var project: ProjectFingerprint
    public var region: String
    public var endpoint: String
    /// The API path after the endpoint, e.g. `events/track`.
    public var path: String
    public var method: Method
    public var query: String?
    /// The JSON body.
    public var body: [UInt8]
    public var createdAt: JournalTime
    /// The generation of the instance that made it (nil in journals older than the field): a
    /// fetch's messages are kept only while that instance runs.
    public var generation: UInt64?
    /// The user the request is made for, as its body names them (nil: no user was known). Its
    /// JWT is asked for this user, and only events of this user join its bulk.
    public var user: UserIdentity?
    /// The calls of the events that joined an `events/track` task while it waited its turn, in
    /// call order (empty for every other task, and in journals older than bulk delivery).
    public private(set) var batchCalls: [CallID] = []
    /// Their bodies, each after a comma, back to back: what the task's bulk request carries
    /// after its own event. One buffer for the batch, not an array per event: a burst's events
    /// are not each allocated, copied into the request and freed.
    private var batchBodies: [UInt8] = []
    /// Where each event's body ends in ``batchBodies``.
    private var batchEnds: [Int] = []
    /// When each event of the batch joined the task (its call, or its release for an event held
    /// for an unknown user): an event's age is its own, never its task's.
    public private(set) var batchQueuedAt: [JournalTime] = []
    /// Whether the task's own event (its `call`'s, `body`) waited past the age limit and left
    /// it (``Fact/eventsExpired(task:calls:)``): the task goes on with its batch's younger
    /// events, under the same `Idempotency-Key`.
    public private(set) var leadExpired = false
    /// Calls that asked for this same request while it waited (a repeated `disableDevice`,
    /// ``Fact/disableCoalesced(task:call:)``): resolved with it.
    public private(set) var coalescedCalls: [CallID] = []

    public init(id: TaskID, call: CallID?, project: ProjectFingerprint, region: String, endpoint: String, path: String,
                method: Method, query: String?, body: [UInt8], createdAt: JournalTime, generation: UInt64? = nil,
                user: UserIdentity? = nil) {
        self.id = id
        self.call = call
        self.project = project
        self.region = region
        self.endpoint = endpoint
        self.path = path
        self.method = method
        self.query = query
        self.body = body
        self.createdAt = createdAt
        self.generation = generation
        self.user = user
    }

    /// The path of a disableDevice request.
    public static let disableDevicePath = "users/disableDevice"

    /// A disableDevice request: logout and switches keep it queued.
    public var isDisableDevice: Bool { path == Self.disableDevicePath }

    /// The path of a single tracked event, the only kind of task a batch joins.
    public static let trackPath = "events/track"
    /// The path of a request that carries a batch: the task's event and its batch, in order.
    public static let bulkTrackPath = "events/trackBulk"

    /// Whether later `track` calls may join this task's batch (it is a call's `events/track`).
    public var takesEvents: Bool { path == Self.trackPath && method == .post && call != nil }

    /// The events that joined the task (``batchCalls`` with their bodies), in call order.
    public var batch: [BatchedEvent] {
        batchCalls.indices.map { BatchedEvent(call: batchCalls[$0], body: Array(batchBodies[batchBodyRange($0)])) }
    }

    /// Whether events joined the task.
    public var hasBatch: Bool { !batchCalls.isEmpty }

    /// The body bytes of the batch (kept with it: the queue checks its bound at every event).
    public var batchBytes: Int { batchBodies.count - batchCalls.count }

    /// Where the body of the batch's event `index` lies in ``batchBodies`` (after its comma).
    private func batchBodyRange(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : batchEnds[index - 1]) + 1..<batchEnds[index]
    }

    /// The calls this task resolves, in call order: its own (unless it expired), then its batch's.
    public var calls: [CallID] {
        var calls: [CallID] = []
        calls.reserveCapacity(1 + batchCalls.count)
        if let call, !leadExpired { calls.append(call) }
        calls.append(contentsOf: batchCalls)
        calls.append(contentsOf: coalescedCalls)
        return calls
    }

    /// How many events (calls) the task carries: the delivery queue is bounded in events.
    public var eventCount: Int { (leadExpired ? 0 : 1) + batchCalls.count + coalescedCalls.count }

    /// `call` asked for this same request: it resolves with the task.
    public mutating func coalesce(_ call: CallID) {
        coalescedCalls.append(call)
    }

    /// When the task's oldest event was queued: its own, or once that expired, its batch's first.
    public var oldestEventQueuedAt: JournalTime {
        leadExpired ? batchQueuedAt.first ?? createdAt : createdAt
    }

    /// When each event the task carries was queued, in the order of ``calls``.
    public var eventsQueuedAt: [JournalTime] {
        leadExpired ? batchQueuedAt : [createdAt] + batchQueuedAt
    }

    /// The body bytes the task holds in the queue: its own and its batch's (what bounds a bulk
    /// request's size).
    public var queuedBytes: Int {
        body.count + batchBytes
    }

    /// What the task takes of the delivery queue's byte bound (`EngineRules.queueByteCapacity`):
    /// its bodies, its address, query and user, and an allowance for what the SDK keeps besides
    /// (ids, times, the pending call) per task and per event, so that the bound bounds the
    /// queue's part of a snapshot (docs/ARCHITECTURE.md, "Bounds").
    public var footprint: Int {
        Self.footprint(bodyBytes: body.count, path: path, endpoint: endpoint, region: region, query: query, user: user)
            + batchBodies.count + (batchCalls.count + coalescedCalls.count) * Self.eventAllowance
    }

    /// The footprint of a task of these parts, without a batch.
    public static func footprint(bodyBytes: Int, path: String, endpoint: String, region: String, query: String?, user: UserIdentity?) -> Int {
        bodyBytes + path.utf8.count + endpoint.utf8.count + region.utf8.count + (query?.utf8.count ?? 0) + (user?.value.utf8.count ?? 0)
            + taskAllowance
    }

    /// What one event joining a batch adds to the queue's footprint besides its body (and comma).
    public static let eventAllowance = 96
    /// What a task adds to the queue's footprint besides its strings.
    public static let taskAllowance = 160

    /// Adds an event, queued at `time`, to the batch (``Fact/eventBatched(task:event:executedOn:)``).
    public mutating func addToBatch(_ event: BatchedEvent, at time: JournalTime) {
        event.body.withUnsafeBufferPointer { addToBatch(call: event.call, body: $0, at: time) }
    }

    /// Adds the event of `call`, whose body `body` points at (copied), queued at `time`. The
    /// first event of a batch makes room for `roomForFirst` events of that many body bytes in
    /// all (an estimate: the batch grows past it as it must).
    public mutating func addToBatch(call: CallID, body: UnsafeBufferPointer<UInt8>, at time: JournalTime,
                                    roomForFirst: (events: Int, bytes: Int) = (0, 0)) {
        if batchCalls.isEmpty {
            batchCalls.reserveCapacity(roomForFirst.events)
            batchEnds.reserveCapacity(roomForFirst.events)
            batchQueuedAt.reserveCapacity(roomForFirst.events)
            batchBodies.reserveCapacity(roomForFirst.bytes + roomForFirst.events)
        }
        batchCalls.append(call)
        batchQueuedAt.append(time)
        let end = batchBodies.count + 1 + body.count
        // Grown by doubling: a batch past its room copies itself a few times, not once per event.
        if end > batchBodies.capacity { batchBodies.reserveCapacity(Swift.max(end, 2 * batchBodies.capacity)) }
        batchBodies.append(UInt8(ascii: ","))
        batchBodies.append(contentsOf: body)
        batchEnds.append(end)
    }

    /// Replaces the batch (decoding, redaction), each event queued at its time in `queuedAt`
    /// (the task's creation where `queuedAt` has none: journals older than per-event ages).
    public mutating func replaceBatch(_ events: [BatchedEvent], queuedAt: [JournalTime]) {
        batchCalls = []
        batchBodies = []
        batchEnds = []
        batchQueuedAt = []
        for (index, event) in events.enumerated() {
            addToBatch(event, at: queuedAt.indices.contains(index) ? queuedAt[index] : createdAt)
        }
    }

    /// Removes the events of `calls` that waited past the age limit: the task's own first, then
    /// a prefix of its batch (events wait in the order they were queued). A call the task does
    /// not carry is ignored.
    public mutating func removeExpiredEvents(_ calls: [CallID]) {
        if let call, !leadExpired, calls.contains(call) {
            leadExpired = true
            body = []
        }
        var expired = 0
        while expired < batchCalls.count && calls.contains(batchCalls[expired]) { expired += 1 }
        guard expired > 0 else { return }
        let cut = batchEnds[expired - 1]
        let kept = batchEnds[expired...].map { $0 - cut }
        batchBodies.removeFirst(cut)
        batchEnds = Array(kept)
        batchCalls.removeFirst(expired)
        batchQueuedAt.removeFirst(expired)
    }

    /// Restores ``leadExpired`` (decoding a snapshot).
    public mutating func markLeadExpired() {
        leadExpired = true
        body = []
    }

    /// The path the task is sent to: `events/trackBulk` once it carries a batch.
    public var wirePath: String { hasBatch || leadExpired ? Self.bulkTrackPath : path }

    /// Appends the JSON body the task is sent with in journal stream `stream`
    /// (``writeWireBody(into:stream:)``'s bytes).
    public func appendWireBody(to output: inout [UInt8], stream: UUID) {
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: wireBodyCount))
        output.withUnsafeMutableBytes { writeWireBody(into: UnsafeMutableRawBufferPointer(rebasing: $0[start...]), stream: stream) }
    }

    /// The ids the task's request carries (``WireCallID``), in the order of the JSON objects
    /// of its body: its own call's (unless it expired), then its batch's. A request of the
    /// SDK's own carries its task's; calls coalesced into the task ride on the task's own id.
    public func wireCallIDs(stream: UUID) -> [WireCallID] {
        wireCallIDs(stream: WireCallID.Stream(stream))
    }

    private func wireCallIDs(stream: WireCallID.Stream) -> [WireCallID] {
        var ids: [WireCallID] = []
        ids.reserveCapacity(1 + batchCalls.count)
        if call == nil || !leadExpired { ids.append(leadWireCallID(stream: stream)) }
        for call in batchCalls { ids.append(WireCallID(stream: stream, call: call)) }
        return ids
    }

    /// The id of the task's own object on the wire: its call's, or for a request of the SDK's
    /// own, its task's.
    private func leadWireCallID(stream: WireCallID.Stream) -> WireCallID {
        if let call { return WireCallID(stream: stream, call: call) }
        return WireCallID(stream: stream, task: id, createdAt: createdAt)
    }

    /// The query the task is sent with in journal stream `stream`: its own, then its call's
    /// `callId` (a fetch names its call there, having no body). Nil for a task without a query
    /// that has a body.
    public func wireQuery(stream: UUID) -> String? {
        guard method == .get else { return query }
        let id = Self.callIDKey + "=" + (call == nil || !leadExpired ? leadWireCallID(stream: WireCallID.Stream(stream)).hex : "")
        guard let query, !query.isEmpty else { return id }
        return query + "&" + id
    }

    /// The member name of the id each call carries on the wire.
    public static let callIDKey = "callId"

    /// The bytes `"callId":"<32 hex digits>"` takes in an object (a comma after it not counted).
    private static let callIDMemberCount = 10 + WireCallID.hexCount + 1

    /// What naming its call adds to a JSON object's bytes: the member, and a comma unless the
    /// object was empty. Nothing for bytes that are not an object.
    fileprivate static func callIDRoom(_ object: UnsafeRawBufferPointer) -> Int {
        guard object.count >= 2, object[0] == UInt8(ascii: "{") else { return 0 }
        return callIDMemberCount + (object[1] == UInt8(ascii: "}") ? 0 : 1)
    }

    /// How many bytes ``writeWireBody(into:stream:)`` writes.
    public var wireBodyCount: Int {
        var room = 0
        if !leadExpired { room += body.withUnsafeBytes(Self.callIDRoom) }
        batchBodies.withUnsafeBytes { all in
            for index in batchCalls.indices { room += Self.callIDRoom(UnsafeRawBufferPointer(rebasing: all[batchBodyRange(index)])) }
        }
        guard hasBatch else { return body.count + room }
        // Without its own event, the batch's first comma is left out.
        let events = leadExpired ? batchBodies.count - 1 : body.count + batchBodies.count
        return Self.bulkPrefix.utf8CodeUnitCount + events + room + Self.bulkSuffix.utf8CodeUnitCount
    }

    /// Writes the JSON body the task is sent with in journal stream `stream` at the start of
    /// `output`, which holds at least ``wireBodyCount`` bytes: its own body, or, with a batch,
    /// `{"events":[<its event>,<each batched event>]}`, each object with its call's
    /// `"callId"` (``wireCallIDs(stream:)``) as its first member. Each part is copied once.
    public func writeWireBody(into output: UnsafeMutableRawBufferPointer, stream: UUID) {
        // Each part is checked against the room given as it is written: the caller sized it with
        // ``wireBodyCount``, which is not counted again here.
        var writer = WireBodyWriter(cursor: output.baseAddress!, end: output.baseAddress! + output.count)
        guard hasBatch else {
            // One event: its id is made here, without the list a batch needs.
            if leadExpired { body.withUnsafeBytes { writer.put($0) } } else { body.withUnsafeBytes { writer.put($0, id: leadWireCallID(stream: WireCallID.Stream(stream))) } }
            return
        }
        let ids = wireCallIDs(stream: WireCallID.Stream(stream))
        writer.put(Self.bulkPrefix)
        var next = 0
        if !leadExpired {
            body.withUnsafeBytes { writer.put($0, id: ids[0]) }
            next = 1
        }
        batchBodies.withUnsafeBytes { all in
            for index in batchCalls.indices {
                if index > 0 || !leadExpired { writer.put(",") }
                writer.put(UnsafeRawBufferPointer(rebasing: all[batchBodyRange(index)]), id: ids[next + index])
            }
        }
        writer.put(Self.bulkSuffix)
    }

    private static let bulkPrefix: StaticString = #"{"events":["#
    private static let bulkSuffix: StaticString = "]}"

    /// The body of the event at `index` of the request (0: the task's own, unless it expired,
    /// then its batch's).
    public func eventBody(at index: Int) -> [UInt8]? {
        let batchIndex = leadExpired ? index : index - 1
        if batchIndex < 0 { return body }
        return batchCalls.indices.contains(batchIndex) ? Array(batchBodies[batchBodyRange(batchIndex)]) : nil
    }

    /// The `Idempotency-Key` its requests carry in the journal `stream`: the same for every
    /// attempt of this task, in any process.
    ///
    /// A task made for a public call is keyed by that call (whose id is durable before any of
    /// its requests leave): when a crash loses the decision that queued it after the request
    /// left (a gated call replayed at a landing, a held event released by an identification),
    /// the decision is made again after the restart, and the new task carries the same key, so
    /// the backend takes it once. A task of the SDK's own (a switch's disable, a token
    /// re-registration) is keyed by its number and creation time, so a task that reuses a
    /// number a crash freed never shares a key with the first holder; such a task may reach the
    /// backend twice if a crash loses its decision after it left (both are idempotent there).
    package func idempotencyKey(stream: UUID) -> String {
        if let call {
            return "\(stream.lowercasedText)-call-\(call.uuid.lowercasedText)"
        }
        return "\(stream.lowercasedText)-\(id.number)-\(createdAt.microsecondsSince1970)"
    }
}

/// Writes a request's wire body part after part at a cursor, never past `end`: a value, so its
/// moves need no runtime exclusivity check.
private struct WireBodyWriter {
    var cursor: UnsafeMutableRawPointer
    let end: UnsafeMutableRawPointer

    private func ensureRoom(_ count: Int) {
        precondition(end - cursor >= count, "no room for the task's body")
    }

    mutating func put(_ part: UnsafeRawBufferPointer) {
        guard let source = part.baseAddress, part.count > 0 else { return }
        ensureRoom(part.count)
        cursor.copyMemory(from: source, byteCount: part.count)
        cursor += part.count
    }

    mutating func put(_ text: StaticString) {
        put(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A JSON object with `"callId":"…"` put first: the rest of its members follow unchanged.
    mutating func put(_ object: UnsafeRawBufferPointer, id: WireCallID) {
        guard DeliveryTask.callIDRoom(object) > 0 else { return put(object) }
        ensureRoom(11 + WireCallID.hexCount + 2) // `{"callId":"`, the digits, `"` and a comma, stored directly
        // `{"callId":"` as one 8-byte store and three bytes: this runs once per event sent.
        cursor.storeBytes(of: UInt64(0x6449_6C6C_6163_227B).littleEndian, as: UInt64.self)
        cursor.storeBytes(of: UInt8(ascii: "\""), toByteOffset: 8, as: UInt8.self)
        cursor.storeBytes(of: UInt8(ascii: ":"), toByteOffset: 9, as: UInt8.self)
        cursor.storeBytes(of: UInt8(ascii: "\""), toByteOffset: 10, as: UInt8.self)
        cursor += 11
        id.writeHex(into: UnsafeMutableRawBufferPointer(start: cursor, count: WireCallID.hexCount))
        cursor += WireCallID.hexCount
        cursor.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        cursor += 1
        if object[1] != UInt8(ascii: "}") {
            cursor.storeBytes(of: UInt8(ascii: ","), as: UInt8.self)
            cursor += 1
        }
        put(UnsafeRawBufferPointer(rebasing: object.dropFirst()))
    }
}
