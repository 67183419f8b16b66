import Foundation
import Journal
import SDKCore

/// Writes a redacted copy of the newest journal segments that fit a byte budget, plus a manifest
/// (`diagnostics.json`) saying what was copied and what was left out.
///
/// Contract: runs wholly on the calling thread (the SDK calls it on its diagnostics queue, never
/// on the engine thread) and shares no state with the engine. It reads the journal's files with
/// the salvage reader, so the open tail the engine is still appending to is read up to its last
/// whole record; it never writes to, locks or truncates the journal it reads, and never reads the
/// keyring. Every record goes through `Redactor` (the same redaction as `replay export
/// --redact`) under a random key made for this copy and then forgotten.
///
/// The copy is a journal directory every `replay` command reads; its records are numbered from 1
/// and it keeps the original's journal id. Its files (manifest included) never take more than
/// the budget: the newest segment is copied first, then older ones while they fit; a segment
/// too big to fit is left out whole, never cut.
struct DiagnosticsCopier {
    /// The manifest's file name inside the copy.
    static let manifestName = "diagnostics.json"
    /// The smallest budget accepted: room for the manifest and a small segment.
    static let minimumByteBudget = 16 << 10
    /// What the manifest may take, kept aside from the budget when choosing segments.
    static let manifestReserve = 4 << 10

    let journalDirectory: String
    let storage: any JournalStorage
    let destination: String
    let byteBudget: Int
    /// Said in the manifest (e.g. that the flush asked for first failed).
    let note: String?

    /// What one attempt at copying the chosen segments wrote.
    private struct Written {
        var records = 0
        var emptied = 0
        /// Records over the copy's record limit once redacted (``RedactedCopyRecords``).
        var summarized = 0
        var leftOut = 0
        var firstOriginalSequence: UInt64?
        var stoppedEarly: String?
    }

    func run() throws(DiagnosticsExportError) -> DiagnosticsExport {
        guard byteBudget >= Self.minimumByteBudget else { throw .budgetTooSmall(byteBudget) }
        try prepareDestination()
        let reader: JournalReader
        do { reader = try JournalReader(directory: journalDirectory, storage: storage) }
        catch { throw .journalUnreadable("\(journalDirectory): \(error)") }
        let segments = reader.segments.sorted { $0.baseSequence < $1.baseSequence }
        let redactor: Redactor
        do { redactor = Redactor(hash: try KeyedHash.random()) }
        catch { throw .cannotWrite("no random key for the redaction: \(error)") }

        var count = 0
        var chosenBytes = 0
        for segment in segments.reversed() {
            guard chosenBytes + segment.bytes <= byteBudget - Self.manifestReserve else { break }
            chosenBytes += segment.bytes
            count += 1
        }
        // Redaction changes sizes a little: when the copy comes out over budget, drop its oldest
        // segment and write it again.
        while true {
            try clearDestination()
            let chosen = Array(segments.suffix(count))
            let written = count == 0 ? Written() : try copy(chosen, from: reader, with: redactor)
            let manifest = self.manifest(reader: reader, copied: chosen, leftOut: Array(segments.dropLast(count)), written: written)
            let journalBytes = try bytesInDestination()
            if journalBytes + manifest.count <= byteBudget || count == 0 {
                try writeManifest(manifest)
                return DiagnosticsExport(directory: destination, byteBudget: byteBudget, bytes: journalBytes + manifest.count,
                                         records: written.records, emptiedRecords: written.emptied, segmentsCopied: count,
                                         segmentsLeftOut: segments.count - count, firstOriginalSequence: written.firstOriginalSequence)
            }
            count -= 1
        }
    }

    // MARK: - Copying

    private func copy(_ chosen: [JournalReader.Segment], from reader: JournalReader,
                      with redactor: Redactor) throws(DiagnosticsExportError) -> Written {
        let options = RedactedCopyOptions.make(madeBy: RedactedCopyOptions.diagnosticsMaker, of: chosen.lazy.compactMap(\.header).first?.producer,
                                               journalID: reader.journalID)
        let writer: JournalWriter
        do { writer = try JournalWriter(directory: destination, options: options, snapshot: nil) }
        catch { throw .cannotWrite("\(destination): \(error)") }

        var written = Written()
        var state: SDKState?
        var records = RedactedCopyRecords(redactor: redactor, recordLimit: options.maxRecordBytes)
        /// Writes the redacted snapshot of `snapshot` when it opens a segment of the copy, and
        /// the gap after it when it is in summary.
        func writeSnapshot(of snapshot: SDKState, at time: JournalTime) throws {
            let (bytes, gap) = records.snapshot(of: snapshot, at: time)
            guard try writer.rotateIfNeeded(time: time, snapshot: { _ in bytes }) else { return }
            written.records += 1
            if let gap {
                try writer.append(kind: gap.kind, timestamp: time, payload: gap.payload)
                written.records += 1
            }
        }
        do {
            let cursor = try reader.records(from: chosen[0].baseSequence, mode: .salvage)
            while let record = try nextRecord(cursor, &written) {
                if written.firstOriginalSequence == nil { written.firstOriginalSequence = record.sequence }
                if record.isSnapshot {
                    // A segment's snapshot opens a segment of the copy; one that cannot be read is
                    // replaced by the state folded so far.
                    let snapshot = (try? StateCodec.decode(record.payload)) ?? state ?? SDKState()
                    state = snapshot
                    try writeSnapshot(of: snapshot, at: record.timestamp)
                    continue
                }
                if writer.lastSequence == 0 { try writeSnapshot(of: state ?? SDKState(), at: record.timestamp) }
                if let fact = try? FactCodec.decode(kind: record.kind, payload: record.payload) {
                    let (redacted, gap) = records.records(for: fact, at: record.timestamp, before: state)
                    state?.evolve(fact, at: record.timestamp)
                    try writer.append(kind: redacted.kind, timestamp: record.timestamp, payload: redacted.payload)
                    written.records += 1
                    if let gap {
                        try writer.append(kind: gap.kind, timestamp: record.timestamp, payload: gap.payload)
                        written.records += 1
                    }
                } else {
                    try writer.append(kind: record.kind, timestamp: record.timestamp, payload: [UInt8]())
                    written.emptied += 1
                    written.records += 1
                }
            }
            written.summarized = records.summarized
            written.leftOut = records.leftOut
            try writer.close()
        } catch {
            try? writer.close()
            throw .cannotWrite("\(destination): \(error)")
        }
        return written
    }

    /// The next record, or nil at the end or where the journal stops being readable (a segment
    /// removed by retention meanwhile, say): what came before is kept and the manifest says why.
    private func nextRecord(_ cursor: RecordCursor, _ written: inout Written) throws -> JournalRecord? {
        do { return try cursor.next() } catch {
            written.stoppedEarly = "reading stopped after \(written.records) record(s): \(error)"
            return nil
        }
    }

    // MARK: - The manifest

    private func manifest(reader: JournalReader, copied: [JournalReader.Segment], leftOut: [JournalReader.Segment],
                          written: Written) -> [UInt8] {
        func segment(_ segment: JournalReader.Segment) -> JSONValue {
            .object([("name", .string(segment.name)), ("base_sequence", .unsigned(segment.baseSequence)),
                     ("bytes", .integer(Int64(segment.bytes)))])
        }
        var notes: [String] = []
        if !leftOut.isEmpty {
            notes.append("\(leftOut.count) older segment(s) (\(leftOut.reduce(0) { $0 + $1.bytes }) bytes) did not fit the budget of \(byteBudget) bytes and were left out")
        }
        if written.emptied > 0 { notes.append("\(written.emptied) record(s) could not be decoded and were kept with an empty payload") }
        if written.summarized + written.leftOut > 0 {
            notes.append("\(written.summarized) record(s) were over the copy's record limit once redacted and were written in summary, \(written.leftOut) left out; a journalGap after each says so")
        }
        if let stopped = written.stoppedEarly { notes.append(stopped) }
        if let note { notes.append(note) }
        let value = JSONValue.object([
            ("kind", .string("engagement-sdk diagnostics")),
            ("redacted", .bool(true)),
            ("journal_id", .optional(reader.journalID) { .string($0.uuidString) }),
            ("producer", .optional(reader.producer, JSONValue.string)),
            ("byte_budget", .integer(Int64(byteBudget))),
            ("records", .integer(Int64(written.records))),
            ("emptied_records", .integer(Int64(written.emptied))),
            ("first_original_sequence", .optional(written.firstOriginalSequence) { .unsigned($0) }),
            ("segments_copied", .array(copied.map(segment))),
            ("segments_left_out", .object([
                ("count", .integer(Int64(leftOut.count))), ("bytes", .integer(Int64(leftOut.reduce(0) { $0 + $1.bytes }))),
                ("first_sequence", .optional(leftOut.first?.baseSequence) { .unsigned($0) }),
                ("last_sequence", .optional(leftOut.isEmpty ? nil : copied.first.map { $0.baseSequence - 1 }) { .unsigned($0) }),
            ])),
            ("notes", .array(notes.map(JSONValue.string))),
        ])
        return Array((value.serialized() + "\n").utf8)
    }

    private func writeManifest(_ bytes: [UInt8]) throws(DiagnosticsExportError) {
        let path = destination + "/" + Self.manifestName
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
            throw .cannotWrite("\(path): cannot create the file")
        }
    }

    // MARK: - The destination

    private func prepareDestination() throws(DiagnosticsExportError) {
        let manager = FileManager.default
        if manager.fileExists(atPath: destination) {
            guard (try? manager.contentsOfDirectory(atPath: destination))?.isEmpty == true else { throw .destinationExists(destination) }
            return
        }
        do { try manager.createDirectory(atPath: destination, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]) }
        catch { throw .cannotWrite("\(destination): \(error)") }
    }

    /// Empties the destination (which this copier created or found empty) before an attempt.
    private func clearDestination() throws(DiagnosticsExportError) {
        do {
            for name in try FileManager.default.contentsOfDirectory(atPath: destination) {
                try FileManager.default.removeItem(atPath: destination + "/" + name)
            }
        } catch { throw .cannotWrite("\(destination): \(error)") }
    }

    private func bytesInDestination() throws(DiagnosticsExportError) -> Int {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: destination).reduce(0) { total, name in
                let attributes = try FileManager.default.attributesOfItem(atPath: destination + "/" + name)
                return total + ((attributes[.size] as? NSNumber)?.intValue ?? 0)
            }
        } catch { throw .cannotWrite("\(destination): \(error)") }
    }
}
