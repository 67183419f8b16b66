import Journal

/// The journal fuzz target: hostile bytes as the files of a journal directory (see
/// ``JournalFuzzInput``), in an ``InMemoryStorage``, read every way a reader can.
///
/// It verifies the journal, reads it with a strict and a salvage cursor, lists each segment's
/// sync points, seeks by sequence and by time, then opens a ``JournalWriter`` on it (recovery),
/// appends a record and reads the result back. None of it may trap, hang or allocate by what
/// the bytes claim; beyond that it checks what must hold whatever the bytes:
///
/// - a strict cursor's sequence numbers run without a gap;
/// - a strict cursor returns a prefix of what a salvage cursor returns (they differ only at
///   corruption, where strict stops and salvage skips), and `verify` counts what salvage reads;
/// - when the strict cursor reads to the end, salvage and `verify` find no corruption and the
///   same records, and seeking to any of those records returns exactly the records from there;
/// - after a writer opened a readable journal and appended a record, reading finds that record
///   last;
/// - the journal reads the same through liblz4 and through the Swift block decoder, strictly
///   and salvaging: the same records and the same damage; and the input as one LZ4 block
///   decodes alike through both, or is refused alike (``LZ4BlockCrossCheck``);
/// - the input as text is UTF-8 to the package's validator exactly when it is to the standard
///   library's (``UTF8CrossCheck``).
package enum JournalReaderFuzzer {
    static let directory = "/journal"
    /// Seeks read at most this many records: enough to compare, bounded in time.
    static let seekReadLimit = 256

    /// Runs one input; returns the invariants it broke. The input's bytes are also one LZ4
    /// block for ``LZ4BlockCrossCheck`` and text for ``UTF8CrossCheck``, whether or not they
    /// parse as a journal.
    package static func run(_ input: [UInt8]) -> [String] {
        guard let parsed = JournalFuzzInput(input) else { return LZ4BlockCrossCheck.run(input) + UTF8CrossCheck.run(input) }
        let storage = InMemoryStorage()
        try? storage.createDirectory(at: directory)
        for file in parsed.files() { storage.setBytes(file.bytes, of: directory + "/" + file.name) }
        var checker = InvariantChecker()
        let readable = read(storage, seekSelector: parsed.seekSelector, &checker)
        recoverAndAppend(storage, checkingReadBack: readable, &checker)
        readAsOneStream(parsed.files(), &checker)
        return checker.violations + LZ4BlockCrossCheck.run(input) + UTF8CrossCheck.run(input)
    }

    /// The journal's segment files concatenated, as `replay` reads them from standard input:
    /// split back at the headers, and read like a directory.
    private static func readAsOneStream(_ files: [JournalFuzzInput.File], _ checker: inout InvariantChecker) {
        let stream = files.filter { $0.name.hasSuffix(".lz4") }.sorted { $0.name < $1.name }.flatMap(\.bytes)
        let storage = InMemoryStorage()
        guard let count = try? SegmentStream.unpack(stream, source: "fuzz input", into: storage, directory: "/stream") else { return }
        let unpacked = storage.fileNames(in: "/stream")
        checker.expect(unpacked.count == count && unpacked.allSatisfy { $0.hasPrefix("segment-") && $0.hasSuffix(".lz4") },
                       "a stream split into \(count) segments, stored as \(unpacked)")
        checker.expect(unpacked.reduce(0) { $0 + (storage.bytes(of: "/stream/" + $1)?.count ?? 0) } <= stream.count,
                       "the segments split from a stream hold more bytes than it")
        guard let reader = try? JournalReader(directory: "/stream", storage: storage) else { return }
        _ = reader.verify()
        _ = trail { try reader.records(mode: .salvage) }
    }

    // MARK: - Reading

    /// Reads the journal every way; returns false when it cannot be opened at all.
    private static func read(_ storage: InMemoryStorage, seekSelector: UInt8, _ checker: inout InvariantChecker) -> Bool {
        // Throws for a newer format or mixed journals: nothing more to read then.
        guard let reader = try? JournalReader(directory: directory, storage: storage) else { return false }
        let report = reader.verify()
        for index in reader.segments.indices { _ = try? reader.syncPoints(ofSegment: index) }
        let strict = trail { try reader.records(mode: .strict) }
        let salvage = trail { try reader.records(mode: .salvage) }

        checker.expect(strict.isConsecutive, "strict cursor skipped or repeated a sequence number")
        checker.expect(report.records == salvage.count,
                       "verify counted \(report.records) records, a salvage cursor read \(salvage.count)")
        let shared = min(strict.digests.count, salvage.digests.count)
        checker.expect(strict.count <= salvage.count && strict.digests[..<shared] == salvage.digests[..<shared],
                       "the strict cursor's records are not a prefix of the salvage cursor's")
        let strictReadAll = strict.failure == nil
        if strictReadAll {
            checker.expect(salvage.failure == nil && salvage.count == strict.count && salvage.combined == strict.combined,
                           "strict read \(strict.count) records cleanly, salvage read \(salvage.count) (\(salvage.failure ?? "no error"))")
            checker.expect(report.corruption.isEmpty && report.unreadable == nil,
                           "strict read everything but verify found corruption: \(report.corruption)")
        }
        // Skipping whole segments at damage reads what the strict cursor reads, then goes on; it
        // never reads more than salvage (which resumes inside a segment too), nor fails where
        // salvage does not.
        let bySegment = trail { try reader.records(mode: .skipToNextSegment) }
        let sharedBySegment = min(strict.digests.count, bySegment.digests.count)
        checker.expect(strict.count <= bySegment.count && strict.digests[..<sharedBySegment] == bySegment.digests[..<sharedBySegment],
                       "the strict cursor's records are not a prefix of the one skipping to the next segment")
        checker.expect(bySegment.count <= salvage.count && (salvage.failure != nil || bySegment.failure == nil),
                       "skipping to the next segment read \(bySegment.count) records (\(bySegment.failure ?? "no error")), "
                       + "salvage \(salvage.count) (\(salvage.failure ?? "no error"))")
        if strictReadAll {
            checker.expect(bySegment.failure == nil && bySegment.count == strict.count && bySegment.combined == strict.combined,
                           "strict read \(strict.count) records cleanly, skipping to the next segment read \(bySegment.count)")
        }
        seek(reader, in: strict, selector: seekSelector, compare: strictReadAll, &checker)
        // The Swift block decoder (Apple platforms' reader) reads the journal exactly as liblz4
        // does: the same records, and the same damage where either stops or skips.
        var swiftReader = reader
        swiftReader.lz4Implementation = .swift
        for (mode, viaLiblz4) in [(JournalReader.ReadMode.strict, strict), (.salvage, salvage)] {
            let viaSwift = trail { try swiftReader.records(mode: mode) }
            checker.expect(viaSwift.count == viaLiblz4.count && viaSwift.combined == viaLiblz4.combined
                           && viaSwift.failure == viaLiblz4.failure && viaSwift.damage == viaLiblz4.damage,
                           "\(mode): liblz4 read \(viaLiblz4.count) records (\(viaLiblz4.failure ?? "no error"); damage "
                           + "\(viaLiblz4.damage)), the Swift decoder \(viaSwift.count) (\(viaSwift.failure ?? "no error"); "
                           + "damage \(viaSwift.damage))")
        }
        return true
    }

    /// Seeks to the sequence and time of one record the strict cursor returned (or, when it
    /// returned none, to a sequence chosen by `selector`) and, when the strict cursor read the
    /// whole journal, checks the seek against it.
    private static func seek(_ reader: JournalReader, in strict: RecordTrail, selector: UInt8, compare: Bool,
                             _ checker: inout InvariantChecker) {
        guard !strict.digests.isEmpty else {
            for sequence in [0, UInt64(selector), UInt64.max] {
                _ = trail(limit: seekReadLimit) { try reader.records(from: sequence, mode: .salvage) }
            }
            return
        }
        let index = Int(selector) * strict.digests.count / 256
        let target = strict.digests[index]
        let bySequence = trail(limit: seekReadLimit) { try reader.records(from: target.sequence, mode: .strict) }
        _ = trail(limit: seekReadLimit) { try reader.records(fromTime: JournalTime(microsecondsSince1970: target.time), mode: .strict) }
        _ = trail(limit: seekReadLimit) { try reader.records(from: target.sequence, mode: .salvage) }
        guard compare else { return }
        let expected = strict.digests[index...].prefix(seekReadLimit)
        checker.expect(bySequence.failure == nil && bySequence.digests.elementsEqual(expected),
                       "seeking to sequence \(target.sequence) returned \(bySequence.count) records "
                       + "(\(bySequence.failure ?? "no error")), not the \(expected.count) a full read has from there")
    }

    private static func trail(limit: Int = .max, _ makeCursor: () throws -> RecordCursor) -> RecordTrail {
        do {
            return RecordTrail(try makeCursor(), limit: limit)
        } catch {
            return RecordTrail(failure: "\(error)")
        }
    }

    // MARK: - Recovery

    /// The fixed record the writer appends after recovery.
    private static let appendedPayload: [UInt8] = Array("appended after recovery".utf8)
    private static let appendedKind: UInt32 = 16

    /// Opens a writer on the journal (recovering it), appends one record, closes, and checks the
    /// record reads back as the journal's last, when the journal could be read before. (Recovery
    /// looks at the last segment only; a directory a reader refuses, for a newer format or mixed
    /// journals in an older segment, stays refused.)
    private static func recoverAndAppend(_ storage: InMemoryStorage, checkingReadBack: Bool, _ checker: inout InvariantChecker) {
        var options = JournalOptions()
        options.storage = storage
        options.groupCommit = GroupCommit(maxRecords: 4, maxDelay: nil, synchronizesEachGroup: false)
        options.retainedBytes = nil
        options.monotonicNanoseconds = { 0 }
        let time = JournalTime(microsecondsSince1970: 1_764_000_000_000_000)
        // Opening refuses newer formats and may fail on what it cannot repair: that is an answer.
        guard let writer = try? JournalWriter(directory: directory, options: options, snapshot: { _ in [0x08, 0x01] }) else { return }
        guard let sequence = try? writer.append(kind: appendedKind, timestamp: time, payload: appendedPayload),
              (try? writer.close()) != nil, checkingReadBack
        else { return }
        guard let reader = try? JournalReader(directory: directory, storage: storage) else {
            checker.expect(false, "the journal a writer recovered and appended to cannot be opened")
            return
        }
        var last: JournalRecord?
        let cursor = try? reader.records(mode: .salvage)
        while let record = try? cursor?.next() { last = record }
        checker.expect(last?.sequence == sequence && last?.kind == appendedKind && last?.payload == appendedPayload,
                       "appended record \(sequence) after recovery, but the last record read is \(last.map { "\($0.sequence)" } ?? "none")")
    }
}
