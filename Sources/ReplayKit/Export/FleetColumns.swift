import Foundation
import Journal
import SDK

/// The flat columns every NDJSON export row carries, so that SQL over many journals (DuckDB,
/// Spark; `fleet/`) can group and join rows without reaching into nested members whose shape
/// varies by kind. docs/EXPORT.md publishes them: names and types are fixed, a column a row has
/// no value for is `null`, never absent.
///
/// Journal columns come from the first segment header (`journal_id`; `sdk_version` and
/// `platform` parsed from the producer, `engagement-sdk/0.1.0 linux-x86_64`); state columns
/// from the fold before the row (`live_project`); subject columns from the fact itself (the
/// call, switch and task it is about, its decision and outcome). Project labels are learned
/// from the journal's `ProjectRef`s (calls, `initialized`, switches, snapshots) as the walk goes,
/// so a fingerprint's label is known from the first record that names its project in full.
/// Delivery columns (`task_region`, `task_endpoint`, `wire_call_ids`) say which calls a row puts
/// on the wire or ends there, by the id each carries (``WireCallID``), so that SQL can match
/// them with a project's receipt log (`fleet/reconcile/`, docs/RECONCILE.md).
struct FleetColumns {
    /// The column names, in the order rows carry them (after `seq`, `time`, `kind`).
    static let names = ["journal_id", "sdk_version", "platform", "day", "live_project", "live_project_label", "row_project",
                        "row_project_label", "call_id", "call_name", "switch_id", "task_id", "gate_decision", "outcome_status",
                        "outcome_reason", "durability_purpose", "task_region", "task_endpoint", "wire_call_ids"]
    /// ``names`` by their UTF-8 length, so that telling whether a key is one takes a few
    /// comparisons of short strings rather than a hash.
    private static let namesByLength: [[(text: String, bytes: [UInt8])]] = names.reduce(into: []) { table, name in
        let length = name.utf8.count
        if table.count <= length { table += Array(repeating: [], count: length + 1 - table.count) }
        table[length].append((name, Array(name.utf8)))
    }

    /// The key a row writes for a fact's top-level member whose UTF-8 bytes are `key`: `fact_` and the key when a
    /// column has its name (engineStarted's `sdk_version`), nil when the key stays as it is.
    static func rowKey(forFactMember key: UnsafeBufferPointer<UInt8>) -> String? {
        guard key.count < namesByLength.count else { return nil }
        for name in namesByLength[key.count] where name.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, key.baseAddress!, key.count) == 0 }) {
            return "fact_" + name.text
        }
        return nil
    }

    /// `,"name":` for each of ``names``, one after the other: what ``write(for:before:time:to:)``
    /// puts before each value; ``keyEnds`` says where each ends.
    private static let keyBytes: [UInt8] = names.flatMap { Array(",\"\($0)\":".utf8) }
    private static let keyEnds: [Int] = names.reduce(into: []) { ends, name in ends.append((ends.last ?? 0) + name.utf8.count + 4) }
    /// `,"name":null` for each of ``names``, one after the other (a column without a value is
    /// one append); ``nullEnds`` says where each ends.
    private static let nullBytes: [UInt8] = names.flatMap { Array(",\"\($0)\":null".utf8) }
    private static let nullEnds: [Int] = names.reduce(into: []) { ends, name in ends.append((ends.last ?? 0) + name.utf8.count + 8) }

    /// The journal columns' bytes (`journal_id`, `sdk_version`, `platform`), the same in every row.
    private let journalColumns: [UInt8]
    /// The journal's stream id, under which its calls' wire ids are derived; nil when its
    /// headers carry none (then the delivery rows' `wire_call_ids` are empty).
    private let stream: UUID?
    private var labels: [ProjectFingerprint: String] = [:]
    /// The project and label learned last (``labels`` holds them).
    private var lastLearned: (project: ProjectFingerprint, label: String)?
    /// The JSON of each project's fingerprint and label as the columns write them, made once per
    /// project (and again when its label is learned).
    private var projectJSON: [ProjectFingerprint: ProjectJSON] = [:]
    private typealias ProjectJSON = (fingerprint: [UInt8], label: [UInt8])
    /// The last two projects ``json(of:)`` gave, with their JSON (emptied when a label is learned).
    private var recentJSON: [(project: ProjectFingerprint, json: ProjectJSON)] = []
    /// Whether ``unknownLabels`` is kept: for columns written over one segment alone
    /// (``SegmentRows``), whose rows learn the labels of the segments before at the join.
    private let notesUnknownLabels: Bool
    /// Where the last rows written put `null` for a project label because no label was known
    /// for the project (only when ``notesUnknownLabels``): the offset of the `null` in the output
    /// the row was written to, and the project. The caller takes them away after each row.
    var unknownLabels: [(offset: Int, project: ProjectFingerprint)] = []

    /// The columns of `reader`'s rows; with `notingUnknownLabels`, for the rows of one segment
    /// alone (``unknownLabels``).
    init(reader: JournalReader, notingUnknownLabels: Bool = false) {
        notesUnknownLabels = notingUnknownLabels
        let producer = reader.producer
        let (sdkVersion, platform) = Self.parse(producer: producer ?? "")
        let journalID = reader.journalID?.uuidString
        var journalColumns: [UInt8] = []
        for (index, value) in [journalID, sdkVersion, platform].enumerated() {
            journalColumns += Self.keyBytes[(index == 0 ? 0 : Self.keyEnds[index - 1])..<Self.keyEnds[index]]
            JSONValue.optional(value, JSONValue.string).write(to: &journalColumns)
        }
        self.journalColumns = journalColumns
        stream = reader.journalID
    }

    /// `engagement-sdk/VERSION PLATFORM` anywhere in a producer string (a redacted copy's is
    /// `replay export (redacted) of engagement-sdk/…`); nils when it names no SDK.
    static func parse(producer: String) -> (version: String?, platform: String?) {
        let words = producer.split(separator: " ")
        guard let index = words.firstIndex(where: { $0.hasPrefix("engagement-sdk/") }) else { return (nil, nil) }
        let version = String(words[index].dropFirst("engagement-sdk/".count))
        let platform = index + 1 < words.count ? String(words[index + 1]) : nil
        return (version.isEmpty ? nil : version, platform)
    }

    /// Writes the columns for `record`, each as `,"name":value`, given the state before it and
    /// the record's `time` as text (`YYYY-MM-DDT…`, whose first ten characters are the `day`);
    /// learns the labels it names.
    mutating func write(for record: DecodedRecord, before state: SDKState, time: String, to output: inout ScratchBytes) {
        learnLabels(record, state)
        switch record.content {
        case .fact(let fact):
            let rowProject = FactProjects.mentions(by: fact, in: state).first
            write(Subject.of(fact, before: state, stream: stream), rowProject: rowProject, before: state, time: time, to: &output)
        case .snapshot, .unreadable:
            write(Subject(), rowProject: nil, before: state, time: time, to: &output)
        }
    }

    /// Writes the columns of a row about `subject` and `rowProject`; the subject is lent, not
    /// copied (its words are strings).
    private mutating func write(_ subject: borrowing Subject, rowProject: ProjectFingerprint?, before state: SDKState,
                                time: String, to output: inout ScratchBytes) {
        var callName = subject.callName?.rawValue
        if let call = subject.call, let pending = state.pendingCall(call) { callName = pending.name.rawValue }
        // Both projects are among the last two looked up; their JSON is read in place there.
        if let live = state.live { remember(live.fingerprint) }
        if let rowProject { remember(rowProject) }
        let live = state.live.flatMap { live in recentJSON.firstIndex { $0.project == live.fingerprint } }
        let row = rowProject.flatMap { project in recentJSON.firstIndex { $0.project == project } }
        func stringRoom(_ text: String?) -> Int { text.map { JSONValue.escapedRoom(forUTF8Count: $0.utf8.count) } ?? 0 }
        func projectRoom(_ index: Int?) -> Int { index.map { recentJSON[$0].json.fingerprint.count + recentJSON[$0].json.label.count } ?? 0 }
        var room = journalColumns.count + Self.nullBytes.count + Self.dayLength + Self.callIDLength + 2 * Self.decimalLength
        room += projectRoom(live) + projectRoom(row)
        room += stringRoom(callName) + stringRoom(subject.gateDecision) + stringRoom(subject.outcomeStatus)
        room += stringRoom(subject.outcomeReason) + stringRoom(subject.durabilityPurpose)
        room += stringRoom(subject.region) + stringRoom(subject.endpoint) + Self.wireCallIDsRoom(subject.wireCallIDs.count)
        // Where a label written as null because none is known goes (-1: nowhere).
        var unknownAt = (live: -1, row: -1)
        let base = output.count
        // One reservation for the whole run of columns, written through a pointer: a row has
        // nineteen columns, and an append per key and value costs more than the bytes it copies.
        output.appendWriting(atMost: room) { start in
            Self.keyBytes.withUnsafeBytes { keys in Self.keyEnds.withUnsafeBufferPointer { keyEnds in
            Self.nullBytes.withUnsafeBytes { nulls in Self.nullEnds.withUnsafeBufferPointer { nullEnds in
                var columns = ColumnWriter(at: start, keys: keys, keyEnds: keyEnds, nulls: nulls, nullEnds: nullEnds)
                columns.copy(journalColumns)
                columns.day(of: time)
                for (which, project) in [live, row].enumerated() {
                    if let project {
                        columns.bytes(recentJSON[project].json.fingerprint)
                        columns.bytes(recentJSON[project].json.label)
                        if notesUnknownLabels && recentJSON[project].json.label.first != UInt8(ascii: "\"") {
                            let offset = base + (columns.end - start) - Self.nullLength
                            if which == 0 { unknownAt.live = offset } else { unknownAt.row = offset }
                        }
                    } else {
                        columns.skip(2)
                    }
                }
                columns.call(subject.call)
                columns.string(callName)
                columns.number(subject.switchID?.number)
                columns.number(subject.task?.number)
                columns.string(subject.gateDecision)
                columns.string(subject.outcomeStatus)
                columns.string(subject.outcomeReason)
                columns.string(subject.durabilityPurpose)
                columns.string(subject.region)
                columns.string(subject.endpoint)
                columns.wireCallIDs(subject.wireCallIDs, present: subject.carriesCalls)
                assert(columns.column == Self.names.count, "a column written for each name")
                return columns.end - start
            } } } }
        }
        if let live = state.live?.fingerprint, unknownAt.live >= 0 { unknownLabels.append((unknownAt.live, live)) }
        if let rowProject, unknownAt.row >= 0 { unknownLabels.append((unknownAt.row, rowProject)) }
    }

    /// The bytes of `null`, what a label column without a known label holds.
    private static let nullLength = 4

    /// The labels learned so far, each project's last.
    var learnedLabels: [ProjectFingerprint: String] { labels }

    /// The label learned last for `project`, if any.
    func label(of project: ProjectFingerprint) -> String? {
        labels[project]
    }

    /// Learns `learned` (the labels the rows of a later stretch of the journal learned, each
    /// project's last) over the labels learned so far, as if those rows had been written here.
    mutating func learn(_ learned: [ProjectFingerprint: String]) {
        for (project, label) in learned where labels[project] != label {
            labels[project] = label
            projectJSON[project] = nil
            recentJSON.removeAll()
            lastLearned = nil
        }
    }

    /// Learns the labels `record` names itself (not those of the state before it), as writing
    /// its row does: for the first record of a segment alone, whose row is written at the join.
    mutating func learnLabels(namedBy record: DecodedRecord) {
        switch record.content {
        case .snapshot(let snapshot): learn(snapshot.live)
        case .fact, .unreadable: learn(ProjectLabels.project(namedBy: record))
        }
    }

    /// The most the `day` column's value takes (`"YYYY-MM-DD"`).
    private static let dayLength = 12
    /// The most a call id's value takes (36 characters and the quotes).
    private static let callIDLength = UUID.lowercasedTextLength + 2
    /// The most a number's value takes (`UInt64.max` has 20 digits).
    private static let decimalLength = 20

    /// The most `count` wire call ids take as a JSON array of strings (or `null`).
    private static func wireCallIDsRoom(_ count: Int) -> Int {
        4 + count * (WireCallID.hexCount + 3)
    }

    /// Makes `project` one of ``recentJSON``'s two, with the JSON of its fingerprint
    /// (``FactJSON/project(_:)``) and of its label (null while none is known).
    private mutating func remember(_ project: ProjectFingerprint) {
        // Rows name the same one or two projects for long stretches: those are compared before
        // any is hashed.
        if recentJSON.contains(where: { $0.project == project }) { return }
        let json = projectJSON[project] ?? {
            var made: ProjectJSON = ([], [])
            FactJSON.project(project).write(to: &made.fingerprint)
            JSONValue.optional(labels[project], JSONValue.string).write(to: &made.label)
            projectJSON[project] = made
            return made
        }()
        if recentJSON.count == 2 { recentJSON.removeFirst() }
        recentJSON.append((project, json))
    }

    private mutating func learnLabels(_ record: DecodedRecord, _ state: SDKState) {
        learn(state.live)
        learnLabels(namedBy: record)
    }

    private mutating func learn(_ project: ProjectRef?) {
        guard let project, let label = project.label else { return }
        // The live project comes by with every row: its label is looked up once, not per row.
        if let last = lastLearned, last.project == project.fingerprint, last.label == label { return }
        lastLearned = (project.fingerprint, label)
        if labels[project.fingerprint] != label {
            labels[project.fingerprint] = label
            projectJSON[project.fingerprint] = nil
            recentJSON.removeAll()
        }
    }

    /// Writes a row's columns, from `day` on, at a pointer into room reserved for all of them:
    /// each as its key and value, or as its key and `null` (``keyBytes``, ``nullBytes``).
    private struct ColumnWriter {
        private(set) var end: UnsafeMutablePointer<UInt8>
        /// The column written next (the three journal columns come first, as one copy).
        private(set) var column = 3
        private let keys: UnsafeRawBufferPointer
        private let keyEnds: UnsafeBufferPointer<Int>
        private let nulls: UnsafeRawBufferPointer
        private let nullEnds: UnsafeBufferPointer<Int>

        init(at start: UnsafeMutablePointer<UInt8>, keys: UnsafeRawBufferPointer, keyEnds: UnsafeBufferPointer<Int>,
             nulls: UnsafeRawBufferPointer, nullEnds: UnsafeBufferPointer<Int>) {
            end = start
            self.keys = keys
            self.keyEnds = keyEnds
            self.nulls = nulls
            self.nullEnds = nullEnds
        }

        /// The `day` column: the first ten characters of the record's time.
        mutating func day(of time: String) {
            key()
            byte(UInt8(ascii: "\""))
            time.utf8.withContiguousBytes { copy(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer($0).prefix(10))) }
            byte(UInt8(ascii: "\""))
        }

        mutating func bytes(_ json: [UInt8]) {
            key()
            json.withUnsafeBytes { copy($0) }
        }

        /// Writes `count` columns as null.
        mutating func skip(_ count: Int) {
            for _ in 0..<count { null() }
        }

        mutating func call(_ id: CallID?) {
            guard let id else { return null() }
            key()
            byte(UInt8(ascii: "\""))
            end += id.uuid.writeLowercasedText(at: end)
            byte(UInt8(ascii: "\""))
        }

        mutating func string(_ text: String?) {
            guard let text else { return null() }
            key()
            end += JSONValue.writeString(text, at: end)
        }

        /// The `wire_call_ids` column: `ids` as an array of their hex strings when `present`,
        /// else null.
        mutating func wireCallIDs(_ ids: [WireCallID], present: Bool) {
            guard present else { return null() }
            key()
            byte(UInt8(ascii: "["))
            for (index, id) in ids.enumerated() {
                if index > 0 { byte(UInt8(ascii: ",")) }
                byte(UInt8(ascii: "\""))
                id.writeHex(into: UnsafeMutableRawBufferPointer(start: end, count: WireCallID.hexCount))
                end += WireCallID.hexCount
                byte(UInt8(ascii: "\""))
            }
            byte(UInt8(ascii: "]"))
        }

        /// A task's or switch's number (the JSON FactJSON.task and FactJSON.switchID give).
        mutating func number(_ value: UInt64?) {
            guard let value else { return null() }
            key()
            end += JSONValue.writeDecimal(value, at: end)
        }

        mutating func copy(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { copy($0) }
        }

        @inline(__always)
        private mutating func key() {
            copy(Self.slice(keys, from: keyEnds[column - 1], to: keyEnds[column]))
            column += 1
        }

        @inline(__always)
        private mutating func null() {
            copy(Self.slice(nulls, from: nullEnds[column - 1], to: nullEnds[column]))
            column += 1
        }

        /// `table`'s bytes from `start` to `end`, which the column tables' ends keep in bounds.
        @inline(__always)
        private static func slice(_ table: UnsafeRawBufferPointer, from start: Int, to end: Int) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(start: table.baseAddress! + start, count: end - start)
        }

        @inline(__always)
        private mutating func byte(_ value: UInt8) {
            end.pointee = value
            end += 1
        }

        /// Copies `bytes`; those of 8 to 32 (keys, nulls, fingerprints) as overlapping words,
        /// without calling memcpy.
        @inline(__always)
        private mutating func copy(_ bytes: UnsafeRawBufferPointer) {
            guard let from = bytes.baseAddress else { return }
            let to = UnsafeMutableRawPointer(end)
            let count = bytes.count
            func word(at offset: Int) { (to + offset).storeBytes(of: (from + offset).loadUnaligned(as: UInt64.self), as: UInt64.self) }
            switch count {
            case 16...32:
                word(at: 0)
                word(at: 8)
                word(at: count - 16)
                word(at: count - 8)
            case 8..<16:
                word(at: 0)
                word(at: count - 8)
            default:
                to.copyMemory(from: from, byteCount: count)
            }
            end += count
        }
    }

    /// What one fact is about: the ids it names and, for decisions and outcomes, their names
    /// (the same words the nested members use).
    private struct Subject {
        var call: CallID? = nil
        var callName: PublicCall.Name? = nil
        var switchID: SwitchID? = nil
        var task: TaskID? = nil
        var gateDecision: String? = nil
        var outcome: OutcomeColumnWords? = nil
        var durabilityPurpose: String? = nil
        /// The region and API path of the row's task (a delivery row's: see ``carriesCalls``).
        var region: String? = nil
        var endpoint: String? = nil
        /// The wire ids of the calls the row puts on the wire or ends there, in the order of
        /// ``DeliveryTask/wireCallIDs(stream:)``.
        var wireCallIDs: [WireCallID] = []
        /// Whether the row is one of the four that say which calls a task carries (taskQueued,
        /// eventBatched, taskCompleted, eventsExpired): its `wire_call_ids` is an array, maybe
        /// empty, where any other row's is null.
        var carriesCalls = false

        var outcomeStatus: String? { outcome?.status }
        var outcomeReason: String? { outcome?.reason }

        /// What `fact` is about; each case is built whole, with no default subject copied over.
        /// `stream` is the journal's id, under which its calls' wire ids are derived.
        static func of(_ fact: borrowing Fact, before state: borrowing SDKState, stream: UUID?) -> Subject {
            switch fact {
            case .callReceived(let received):
                return Subject(call: received.id, callName: received.call.name)
            case .gateDecided(let id, let decision):
                var switchID: SwitchID?
                if case .queued(let into, _, _) = decision { switchID = into }
                if case .replayed(let by, _) = decision { switchID = by }
                return Subject(call: id, switchID: switchID, gateDecision: Describe.decisionName(decision))
            case .callRejected(let id, _), .unknownUserEventHeld(_, let id, _):
                return Subject(call: id)
            case .callResolved(let id, let outcome):
                return Subject(call: id, outcome: OutcomeColumnWords(outcome))
            case .callsResolved(let id, _, let outcome):
                // Many calls: the row names their task, whose taskQueued and eventBatched rows
                // name each call (docs/EXPORT.md).
                return Subject(task: id, outcome: OutcomeColumnWords(outcome))
            case .switchRouted(let id, let by, _, _):
                return Subject(call: by, switchID: id)
            case .switchStarted(let id, _, _), .teardownStepBegan(let id, _), .switchLanded(let id, _, _, _), .callbacksDelivered(let id):
                return Subject(switchID: id)
            case .teardownStepFinished(let id, _, let outcome, _):
                let described = FactJSON.stepOutcome(outcome)
                // The reason's shape only: it may quote a module's error, and this column is
                // written from the record as recorded, redacted copy or not.
                return Subject(switchID: id, outcome: OutcomeColumnWords(status: string(described, "outcome"),
                                                                   reason: string(described, "reason").map(Redactor.shape(of:))))
            case .taskQueued(let queued):
                // The calls of a task as queued: its own call's, or the SDK's own request's.
                return Subject(call: queued.call, task: queued.id, region: queued.region, endpoint: queued.wirePath,
                               wireCallIDs: stream.map { queued.wireCallIDs(stream: $0) } ?? [], carriesCalls: true)
            case .eventBatched(let id, let event, let executedOn):
                // With the gate's decision when it travels here (format 1.3). The event travels
                // in its task's bulk request.
                return Subject(call: event.call, task: id, gateDecision: executedOn.map { Describe.decisionName(.executed(project: $0)) },
                               region: state.tasks[id]?.task.region, endpoint: DeliveryTask.bulkTrackPath,
                               wireCallIDs: stream.map { [WireCallID(stream: $0, call: event.call)] } ?? [], carriesCalls: true)
            case .taskDispatched(let id, _):
                return Subject(call: state.tasks[id]?.task.call, task: id)
            case .taskCompleted(let id, let outcome):
                // Every call the task still carried when it ended (expired events are gone from it).
                let task = state.tasks[id]?.task
                return Subject(call: task?.call, task: id, outcome: OutcomeColumnWords(outcome), region: task?.region, endpoint: task?.wirePath,
                               wireCallIDs: stream.flatMap { stream in task?.wireCallIDs(stream: stream) } ?? [], carriesCalls: true)
            case .eventsExpired(let id, let calls):
                let task = state.tasks[id]?.task
                return Subject(task: id, region: task?.region, endpoint: task?.wirePath,
                               wireCallIDs: stream.map { stream in calls.map { WireCallID(stream: stream, call: $0) } } ?? [], carriesCalls: true)
            case .disableCoalesced(let id, let call):
                return Subject(call: call, task: id)
            case .transportCompleted(let completion):
                let task = state.tasks[completion.task]?.task
                guard let task, !completion.refusedEvents.isEmpty, case .response(let status, _, _, _) = completion.outcome else {
                    return Subject(call: task?.call, task: completion.task)
                }
                // A bulk answer that refused some of its events: each of those calls fails alone
                // (the task is delivered), so the row ends them, with that failure.
                let events = (task.call.map { [$0] } ?? []) + task.batchCalls
                let refused = completion.refusedEvents.compactMap { events.indices.contains($0.index) ? events[$0.index] : nil }
                let failure = refused.isEmpty ? nil : OutcomeColumnWords(CallOutcome.failed(.httpStatus(status, code: "EventRefused", message: completion.refusedEvents[0].reason)))
                return Subject(call: task.call, task: completion.task, outcome: failure, region: task.region, endpoint: task.wirePath,
                               wireCallIDs: stream.map { stream in refused.map { WireCallID(stream: stream, call: $0) } } ?? [],
                               carriesCalls: !refused.isEmpty)
            case .timerSet(let timer, _), .timerFired(let timer):
                if case .retry(let id, _) = timer { return Subject(task: id) }
                if case .teardownBound(let id, _) = timer { return Subject(switchID: id) }
                return Subject()
            case .retryScheduled(let id, _, _, _):
                return Subject(task: id)
            case .switchCancelled(let id, _):
                return Subject(switchID: id)
            case .linkResolutionStarted(_, let call, _, _, _):
                return Subject(call: call)
            case .durabilityRequested(_, let wait):
                return purpose(wait)
            case .durabilityConfirmed(let confirmation):
                return state.durabilityWaits[confirmation.request].map(purpose) ?? Subject()
            // Facts whose row names no call, task or switch (each one a fact declares is named:
            // `FleetExportTests.subjectsFollowTheDeclarations`).
            case .engineStarted, .moduleHookCompleted, .authTokenReceived, .notificationReceived, .engineStopping,
                 .linkResolved, .networkReachable, .localDataErased, .clockJumped, .backgroundTaskBegan, .backgroundTaskExpired, .backgroundFlushFinished, .backgroundTaskEnded, .storageWasUnavailable, .keyringWriteFailed,
                 .initialized, .identityChanged, .pushTokenChanged, .attributionChanged, .attributionRefused,
                 .unknownUserSessionCounted, .unknownUserEventsReleased, .staleResultRefused,
                 .authRefreshRequested, .authRefreshFinished, .journalGap,
                 .moduleEventDelivered, .moduleHookStarted, .moduleHookFinished, .messagesStored, .storageCleared,
                 .unknown:
                return Subject()
            }
        }

        private static func purpose(_ wait: DurabilityWait) -> Subject {
            var call: CallID?
            var switchID: SwitchID?
            if case .flush(let id) = wait { call = id }
            if case .teardownDisable(let id) = wait { switchID = id }
            return Subject(call: call, switchID: switchID, durabilityPurpose: string(FactJSON.durabilityWait(wait), "purpose"))
        }

        private static func member(_ value: JSONValue, _ key: String) -> JSONValue? {
            guard case .object(let members) = value else { return nil }
            return members.first { $0.0 == key }?.1
        }

        private static func string(_ value: JSONValue, _ key: String) -> String? {
            if case .string(let text)? = member(value, key) { text } else { nil }
        }
    }
}
