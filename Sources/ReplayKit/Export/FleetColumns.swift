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
struct FleetColumns {
    /// The column names, in the order rows carry them (after `seq`, `time`, `kind`).
    static let names = ["journal_id", "sdk_version", "platform", "day", "live_project", "live_project_label", "row_project",
                        "row_project_label", "call_id", "call_name", "switch_id", "task_id", "gate_decision", "outcome_status",
                        "outcome_reason", "durability_purpose"]
    /// ``names`` by their UTF-8 length, so that telling whether a key is one takes a few
    /// comparisons of short strings rather than a hash.
    private static let namesByLength: [[String]] = names.reduce(into: []) { table, name in
        let length = name.utf8.count
        if table.count <= length { table += Array(repeating: [], count: length + 1 - table.count) }
        table[length].append(name)
    }

    /// The key a row writes for a fact's top-level member `key`: `fact_` and the key when a
    /// column has its name (engineStarted's `sdk_version`), nil when the key stays as it is.
    static func rowKey(forFactMember key: String) -> String? {
        let length = key.utf8.count
        guard length < namesByLength.count, namesByLength[length].contains(key) else { return nil }
        return "fact_" + key
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
    private var labels: [ProjectFingerprint: String] = [:]
    /// The project and label learned last (``labels`` holds them).
    private var lastLearned: (project: ProjectFingerprint, label: String)?
    /// The JSON of each project's fingerprint and label as the columns write them, made once per
    /// project (and again when its label is learned).
    private var projectJSON: [ProjectFingerprint: ProjectJSON] = [:]
    private typealias ProjectJSON = (fingerprint: [UInt8], label: [UInt8])
    /// The last two projects ``json(of:)`` gave, with their JSON (emptied when a label is learned).
    private var recentJSON: [(project: ProjectFingerprint, json: ProjectJSON)] = []

    init(reader: JournalReader) {
        let producer = reader.segments.lazy.compactMap(\.header).first?.producer
        let (sdkVersion, platform) = Self.parse(producer: producer ?? "")
        let journalID = reader.journalID?.uuidString
        var journalColumns: [UInt8] = []
        for (index, value) in [journalID, sdkVersion, platform].enumerated() {
            journalColumns += Self.keyBytes[(index == 0 ? 0 : Self.keyEnds[index - 1])..<Self.keyEnds[index]]
            JSONValue.optional(value, JSONValue.string).write(to: &journalColumns)
        }
        self.journalColumns = journalColumns
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
        let subject: Subject
        let rowProject: ProjectFingerprint?
        switch record.content {
        case .fact(let fact):
            subject = Subject(of: fact, before: state)
            rowProject = FactProjects.mentions(by: fact, in: state).first
        default:
            subject = Subject()
            rowProject = nil
        }
        var callName = subject.callName?.rawValue
        if let call = subject.call, let pending = state.pendingCalls[call] { callName = pending.name.rawValue }
        let liveJSON = state.live.map { json(of: $0.fingerprint) }
        let rowJSON = rowProject.map { json(of: $0) }
        func stringRoom(_ text: String?) -> Int { text.map { JSONValue.escapedRoom(forUTF8Count: $0.utf8.count) } ?? 0 }
        var room = journalColumns.count + Self.nullBytes.count + Self.dayLength + Self.callIDLength + 2 * Self.decimalLength
        room += (liveJSON?.fingerprint.count ?? 0) + (liveJSON?.label.count ?? 0)
        room += (rowJSON?.fingerprint.count ?? 0) + (rowJSON?.label.count ?? 0)
        room += stringRoom(callName) + stringRoom(subject.gateDecision) + stringRoom(subject.outcomeStatus)
        room += stringRoom(subject.outcomeReason) + stringRoom(subject.durabilityPurpose)
        // One reservation for the whole run of columns, written through a pointer: a row has
        // sixteen columns, and an append per key and value cost more than the bytes they copy.
        let journalColumns = journalColumns
        output.appendWriting(atMost: room) { start in
            Self.keyBytes.withUnsafeBytes { keys in Self.keyEnds.withUnsafeBufferPointer { keyEnds in
            Self.nullBytes.withUnsafeBytes { nulls in Self.nullEnds.withUnsafeBufferPointer { nullEnds in
                var row = ColumnWriter(at: start, keys: keys, keyEnds: keyEnds, nulls: nulls, nullEnds: nullEnds)
                row.copy(journalColumns)
                row.day(of: time)
                row.bytes(liveJSON?.fingerprint)
                row.bytes(liveJSON?.label)
                row.bytes(rowJSON?.fingerprint)
                row.bytes(rowJSON?.label)
                row.call(subject.call)
                row.string(callName)
                row.number(subject.switchID?.number)
                row.number(subject.task?.number)
                row.string(subject.gateDecision)
                row.string(subject.outcomeStatus)
                row.string(subject.outcomeReason)
                row.string(subject.durabilityPurpose)
                assert(row.column == Self.names.count, "a column written for each name")
                return row.end - start
            } } } }
        }
    }

    /// The most the `day` column's value takes (`"YYYY-MM-DD"`).
    private static let dayLength = 12
    /// The most a call id's value takes (36 characters and the quotes).
    private static let callIDLength = UUID.lowercasedTextLength + 2
    /// The most a number's value takes (`UInt64.max` has 20 digits).
    private static let decimalLength = 20

    /// The JSON of `project`'s fingerprint (``FactJSON/project(_:)``) and of its label (null
    /// while none is known).
    private mutating func json(of project: ProjectFingerprint) -> ProjectJSON {
        // Rows name the same one or two projects for long stretches: those are compared before
        // any is hashed.
        if let recent = recentJSON.first(where: { $0.project == project }) { return recent.json }
        let json = projectJSON[project] ?? {
            var made: ProjectJSON = ([], [])
            FactJSON.project(project).write(to: &made.fingerprint)
            JSONValue.optional(labels[project], JSONValue.string).write(to: &made.label)
            projectJSON[project] = made
            return made
        }()
        if recentJSON.count == 2 { recentJSON.removeFirst() }
        recentJSON.append((project, json))
        return json
    }

    private mutating func learnLabels(_ record: DecodedRecord, _ state: SDKState) {
        func learn(_ project: ProjectRef?) {
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
        learn(state.live)
        switch record.content {
        case .snapshot(let snapshot): learn(snapshot.live)
        case .fact(.callReceived(let received)):
            if case .initialize(let project) = received.call { learn(project) }
            if case .switchProject(let project) = received.call { learn(project) }
        case .fact(.initialized(let project, _)), .fact(.switchRouted(_, _, let project, _)), .fact(.switchStarted(_, _, let project)):
            learn(project)
        default: break
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
            var time = time
            time.withUTF8 { copy(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer($0).prefix(10))) }
            byte(UInt8(ascii: "\""))
        }

        mutating func bytes(_ json: [UInt8]?) {
            guard let json else { return null() }
            key()
            json.withUnsafeBytes { copy($0) }
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
        var call: CallID?
        var callName: CallName?
        var switchID: SwitchID?
        var task: TaskID?
        var gateDecision: String?
        var outcomeStatus: String?
        var outcomeReason: String?
        var durabilityPurpose: String?

        init() {}

        init(of fact: borrowing Fact, before state: borrowing SDKState) {
            switch fact {
            case .callReceived(let received):
                call = received.id
                callName = received.call.name
            case .gateDecided(let id, let decision):
                call = id
                gateDecision = Describe.decisionName(decision)
                if case .queued(let into, _, _) = decision { switchID = into }
                if case .replayed(let by, _) = decision { switchID = by }
            case .callRejected(let id, _), .unknownUserEventHeld(_, let id, _):
                call = id
            case .callResolved(let id, let outcome):
                call = id
                describe(OutcomeWords(outcome))
            case .switchRouted(let id, let by, _, _):
                switchID = id
                call = by
            case .switchStarted(let id, _, _), .teardownStepBegan(let id, _), .switchLanded(let id, _, _, _), .callbacksDelivered(let id):
                switchID = id
            case .teardownStepFinished(let id, _, let outcome, _):
                switchID = id
                let described = FactJSON.stepOutcome(outcome)
                outcomeStatus = Self.string(described, "outcome")
                outcomeReason = Self.string(described, "reason")
            case .taskQueued(let queued):
                task = queued.id
                call = queued.call
            case .eventBatched(let id, let event):
                task = id
                call = event.call
            case .taskDispatched(let id, _):
                task = id
                call = state.tasks[id]?.task.call
            case .taskCompleted(let id, let outcome):
                task = id
                call = state.tasks[id]?.task.call
                describe(OutcomeWords(outcome))
            case .transportCompleted(let completion):
                task = completion.task
                call = state.tasks[completion.task]?.task.call
            case .timerSet(let timer, _), .timerFired(let timer):
                if case .retry(let id, _) = timer { task = id }
                if case .teardownBound(let id, _) = timer { switchID = id }
            case .durabilityRequested(_, let wait):
                purpose(wait)
            case .durabilityConfirmed(let confirmation):
                if let wait = state.durabilityWaits[confirmation.request] { purpose(wait) }
            default:
                break
            }
        }

        private mutating func purpose(_ wait: DurabilityWait) {
            durabilityPurpose = Self.string(FactJSON.durabilityWait(wait), "purpose")
            if case .flush(let id) = wait { call = id }
            if case .teardownDisable(let id) = wait { switchID = id }
        }

        /// `status`, and the discard's or failure's kind, of an outcome as FactJSON writes it.
        private mutating func describe(_ outcome: OutcomeWords) {
            outcomeStatus = outcome.status
            outcomeReason = outcome.reason
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
