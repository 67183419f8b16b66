import Journal
import SDK

/// The calls a report page's pass let go whole (``Timeline/Keeping/page(notable:)``), so that
/// its memory does not grow with the journal's calls:
///
/// - the *folded* ones, which the page only counts in buckets (``MarkBuckets``): of each, what
///   a bucket counts (when it was made, where it was received, the project it ended on, its
///   status), 24 bytes in a temporary file (``SpilledValues``);
/// - the *notable* ones, which the page may draw one by one: of each, its ``Key`` in memory
///   (what orders, picks and folds it) and its audit row in another temporary file
///   (``SpilledBytes``), read back only for the calls drawn, with the call's `callReceived`
///   record read again from the journal (a page draws a few thousand of a long journal's
///   million notable calls: their summaries and records are made for those only);
/// - where the gate held each call (``SpilledHeldCalls``), in a third temporary file, read back
///   for the calls drawn.
///
/// Not thread-safe: filled by one pass, then read by the page made from it.
final class PageCalls {
    /// A folded call as a bucket counts it; `receiver` and `status` index the tables below.
    private struct Folded {
        var madeAt: Int64
        var sequence: UInt64
        var receiver: UInt32
        var status: UInt32
    }

    /// A notable call: how the calls are ordered (received sequence, then time made, then id),
    /// its name, whether it is notable on its own, what a bucket counts of it, and where its
    /// drawing is.
    struct Key {
        /// 0 when it was received before the retained journal (``hasSequence`` false).
        var sequence: UInt64
        var hasSequence: Bool
        /// ``Timeline/Call/isNotable(_:)`` of its row.
        var rowNotable: Bool
        var madeAt: Int64
        var call: CallID
        var name: PublicCall.Name
        var receiver: UInt32
        var status: UInt32
        var offset: UInt64
        var length: UInt32
        /// Where the gate held it: 1 + the index of its ``held(_:)`` (0 when it was not held).
        var held: UInt32 = 0
    }

    /// What a notable call's mark shows beside its key.
    struct Drawing {
        var name: String
        var summary: String
        var factJSON: String?
        var statusText: String
        /// ``AuditRow/json``.
        var audit: JSONValue
    }

    private let folded = SpilledValues<Folded>(name: "report-calls")
    private let drawings = SpilledBytes(name: "report-marks")
    /// Where the notable calls' `callReceived` records are read again, and how they are redacted.
    private let journal: JournalReader
    private let redactor: Redactor?
    /// Where the gate held each call, kept beside the pass (by ``SideFold``'s thread) and
    /// handed over when the pass ends.
    var heldCalls = SpilledHeldCalls()
    /// The notable calls' keys, in the order they came, sorted by ``sort()``.
    private(set) var notable: [Key] = []
    /// How many `callReceived` records were read again from the journal (``drawing(of:)``).
    private(set) var recordsReadAgain = 0
    private var receivers = InternedValues<ProjectFingerprint?>()
    private var statuses = InternedValues<AuditRow.Status>()

    /// Calls let go by a pass over `journal`, whose records it redacted with `redactor`.
    init(rereadingFrom journal: JournalReader, redactor: Redactor?) {
        self.journal = journal
        self.redactor = redactor
    }

    /// How many calls were let go: folded and notable.
    var count: Int { folded.count + notable.count }

    /// Folds the call of `row`.
    func fold(_ row: AuditRow) throws {
        try folded.append(Folded(madeAt: row.madeAt.microsecondsSince1970, sequence: row.received?.sequence ?? 0,
                                 receiver: receivers.number(of: Timeline.receiver(of: row)), status: statuses.number(of: row.statusCase)))
    }

    /// Keeps the call of `row` as a notable one; its `callReceived` record is the journal's at
    /// the row's received sequence.
    func keep(_ row: AuditRow) throws {
        let (appended, length) = ScratchBytes.withScratch(capacity: 1024) { bytes in
            Self.appendText(row.statusText, to: &bytes)
            row.writeJSON(to: &bytes)
            return (Result { try drawings.append(bytes.written) }, bytes.written.count)
        }
        let offset = try appended.get()
        notable.append(Key(sequence: row.received?.sequence ?? 0, hasSequence: row.received != nil, rowNotable: Timeline.Call.isNotable(row),
                           madeAt: row.madeAt.microsecondsSince1970, call: row.call, name: row.name,
                           receiver: receivers.number(of: Timeline.receiver(of: row)), status: statuses.number(of: row.statusCase),
                           offset: offset, length: UInt32(length)))
    }

    /// Puts the notable calls in the calls' order (``Timeline/calls``).
    func sort() {
        notable.sort { ($0.sequence, $0.madeAt, $0.call) < ($1.sequence, $1.madeAt, $1.call) }
    }

    /// Notes that the `index`-th notable call is the held call ``heldCalls`` gives at `heldIndex`.
    func hold(_ index: Int, heldIndex: Int) {
        notable[index].held = UInt32(heldIndex + 1)
    }

    func receiver(of key: Key) -> ProjectFingerprint? { receivers[key.receiver] }

    func status(of key: Key) -> String { statuses[key.status].rawValue }

    /// The drawing of a notable call: its row read back, its summary and record (the record only
    /// for a call notable on its own, ``Key/rowNotable``) made from its `callReceived` record,
    /// read again from the journal.
    func drawing(of key: Key) throws -> Drawing {
        let bytes = try drawings.read(at: key.offset, count: Int(key.length))
        var start = 0
        guard let statusText = Self.text(in: bytes, at: &start), let audit = JSONParser.parse(Array(bytes[start...])) else {
            throw SpillError.cutShort(drawings.name)
        }
        let record = try receivedRecord(of: key)
        return Drawing(name: key.name.rawValue, summary: Timeline.Call.summary(of: record),
                       factJSON: key.rowNotable ? Timeline.Call.factJSON(of: record) : nil, statusText: statusText, audit: audit)
    }

    /// The `callReceived` record of a notable call, read again from the journal and redacted as
    /// the pass redacted it.
    private func receivedRecord(of key: Key) throws -> DecodedRecord {
        recordsReadAgain += 1
        guard key.hasSequence else { throw SpillError.recordGone(sequence: key.sequence) }
        // The drawings come in the calls' order, often a few records apart: reading on from the
        // last one's cursor is cheaper than opening one (which reads, checks and decompresses
        // the whole block it starts in) when the record lies within ``readsOnWithin`` of it.
        let cursor: RecordCursor
        if let rereading, key.sequence > rereading.sequence, key.sequence - rereading.sequence <= Self.readsOnWithin {
            cursor = rereading.cursor
        } else {
            cursor = try journal.records(from: key.sequence)
        }
        rereading = nil
        while let view = try cursor.nextView(), view.sequence <= key.sequence {
            guard view.sequence == key.sequence else { continue }
            rereading = (cursor, key.sequence)
            let record = RecordDecoder.decode(view)
            return redactor.map(record.redacted(by:)) ?? record
        }
        throw SpillError.recordGone(sequence: key.sequence)
    }

    /// The cursor the last `callReceived` record was read again with, and its sequence.
    private var rereading: (cursor: RecordCursor, sequence: UInt64)?
    /// How many records on from the last one read again a cursor is read on rather than opened.
    static let readsOnWithin: UInt64 = 256

    /// A drawing's bytes: the status text after its UTF-8 length (four bytes, little-endian),
    /// then the audit row's JSON.
    private static func appendText(_ text: String, to bytes: inout ScratchBytes) {
        withUnsafeBytes(of: UInt32(text.utf8.count).littleEndian) { bytes.append($0) }
        bytes.append(text)
    }

    /// The text at `start` of `bytes` (advancing `start` past it); nil when the bytes end short.
    private static func text(in bytes: [UInt8], at start: inout Int) -> String? {
        guard start + 4 <= bytes.count else { return nil }
        let length = bytes[start..<start + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        start += 4
        guard length <= bytes.count - start else { return nil }
        defer { start += Int(length) }
        return String(decoding: bytes[start..<start + Int(length)], as: UTF8.self)
    }

    /// Hands out every folded call, in the order they were folded: when it was made, the sequence
    /// it was received at (0 when before the retained journal), the project it ended on (nil when
    /// not delivered, ``Timeline/receiver(of:)``) and its status.
    func forEachFolded(_ body: (_ madeAt: JournalTime, _ sequence: UInt64, _ receiver: ProjectFingerprint?, _ status: String) throws -> Void) throws {
        try folded.forEach { entry in
            try body(JournalTime(microsecondsSince1970: entry.madeAt), entry.sequence, receivers[entry.receiver], statuses[entry.status].rawValue)
        }
    }
}
