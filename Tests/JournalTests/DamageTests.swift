import Foundation
import Testing
@testable import Journal

@Suite("Damage: truncation, bit flips, dirty tails", .timeLimit(.minutes(3)))
struct DamageTests {
    static let directory = JournalFixture.directory

    @Test("truncation at every byte offset: the reader returns exactly the complete-record prefix, and reopening truncates and continues")
    func truncationAtEveryOffset() throws {
        let fixture = try JournalFixture(count: 150, options: TestJournal.options(segmentBytes: 1024, frameBytes: 1024, groupRecords: 4))
        #expect(fixture.segments.count >= 3)
        for (segmentIndex, name) in fixture.segments.enumerated() {
            let length = fixture.bytes(of: name).count
            for cut in 0...length {
                let storage = fixture.cut(segment: segmentIndex, at: cut)
                let expected = fixture.expectedRecords(segment: segmentIndex, at: cut)
                let reader = try JournalReader(directory: Self.directory, storage: storage)
                let (records, cursor) = try reader.readAll()
                #expect(records == expected, "segment \(segmentIndex) cut at \(cut)")
                #expect(cursor.corruption.isEmpty)

                // Reopening repairs the tail; appends continue after the last complete record.
                let options = TestJournal.options(storage: storage)
                let writer = try JournalWriter(directory: Self.directory, options: options, snapshot: TestJournal.snapshot)
                #expect(writer.recovery.corruption == nil, "segment \(segmentIndex) cut at \(cut)")
                let appended = try TestJournal.appendRecords(writer, count: 3, startingAt: 1000)
                try writer.close()
                let after = try JournalReader(directory: Self.directory, storage: storage).readAll().records
                #expect(Array(after.prefix(expected.count)) == expected)
                #expect(after.map(\.sequence) == Array(1...UInt64(after.count)), "dense sequences after repair")
                #expect(Array(after.suffix(3).map(\.sequence)) == appended)
                #expect(after.suffix(3).map(\.payload) == (1000..<1003).map(TestJournal.payload))
                let report = try JournalReader(directory: Self.directory, storage: storage).verify()
                #expect(report.isClean && report.tornTail == nil, "segment \(segmentIndex) cut at \(cut): \(report)")
            }
        }
    }

    @Test("a bit flip at every byte is detected or excluded, never returned as data")
    func bitFlipAtEveryByte() throws {
        let fixture = try JournalFixture(count: 120)
        let originals = Dictionary(uniqueKeysWithValues: fixture.records.map { ($0.record.sequence, $0.record) })
        for name in fixture.segments {
            let bytes = fixture.bytes(of: name)
            for position in bytes.indices {
                let storage = fixture.storage.copy()
                var damaged = bytes
                damaged[position] ^= UInt8(1 << (position % 8))
                storage.setBytes(damaged, of: Self.directory + "/" + name)

                let reader = try JournalReader(directory: Self.directory, storage: storage)
                let (records, _) = try reader.readAll(mode: .salvage)
                for record in records {
                    #expect(originals[record.sequence] == record, "\(name) flip at \(position) returned altered data")
                }
                let report = reader.verify()
                #expect(!report.corruption.isEmpty || report.tornTail != nil, "\(name) flip at \(position) went unnoticed")
                // Strict reading either stops with a located error or ends on a torn tail.
                do {
                    let strict = try reader.readAll()
                    #expect(strict.cursor.tornTail != nil || records.count < fixture.records.count)
                } catch let JournalError.corrupted(damage) {
                    #expect(damage.segment.hasPrefix("segment-"))
                    #expect(damage.kind == .corruption)
                }
            }
        }
    }

    @Test("zero-filled, garbage and half-written tails after a power loss are torn tails; synced records survive",
          arguments: [InMemoryStorage.LossTail.zeros(4096), .zeros(7), .garbage(3000, seed: 1), .garbage(64, seed: 9),
                      .unsyncedPrefix(1), .unsyncedPrefix(13), .unsyncedPrefix(200)])
    func dirtyTails(tail: InMemoryStorage.LossTail) throws {
        let storage = InMemoryStorage()
        let options = TestJournal.options(segmentBytes: 1 << 20, frameBytes: 1024, groupRecords: 4, storage: storage)
        let writer = try JournalWriter(directory: Self.directory, options: options, snapshot: TestJournal.snapshot)
        try TestJournal.appendRecords(writer, count: 50)
        let durable = try writer.sync()
        try TestJournal.appendRecords(writer, count: 30, startingAt: 50)   // written, never synced
        let crashed = storage.simulatePowerLoss(tail)

        let reader = try JournalReader(directory: Self.directory, storage: crashed)
        let (records, cursor) = try reader.readAll()
        #expect(records.last?.sequence ?? 0 >= durable)
        #expect(TestJournal.applicationRecords(records).map(\.payload) == (0..<(records.count - 1)).map(TestJournal.payload))
        #expect(cursor.corruption.isEmpty)
        let report = reader.verify()
        #expect(report.isClean, "\(report.corruption)")

        var reopened = options
        reopened.storage = crashed
        let recovered = try JournalWriter(directory: Self.directory, options: reopened, snapshot: TestJournal.snapshot)
        #expect(recovered.recovery.corruption == nil)
        #expect(recovered.lastSequence == records.last?.sequence)
        try TestJournal.appendRecords(recovered, count: 2, startingAt: 500)
        try recovered.close()
        let final = try JournalReader(directory: Self.directory, storage: crashed)
        #expect(final.verify().isClean && final.verify().tornTail == nil)
        #expect(try final.readAll().records.count == records.count + 2)
    }

    @Test("corruption inside a sealed segment: strict reading names segment, offset and sequence; salvage skips to the next sync point")
    func corruptionInSealedSegment() throws {
        let fixture = try JournalFixture(count: 200)
        let name = fixture.segments[0]
        let located = fixture.records.filter { $0.segment == name }
        let victim = located[located.count / 2]
        var bytes = fixture.bytes(of: name)
        bytes[victim.blockEnd - 6] ^= 0xFF   // inside the block's data, before its checksum
        let storage = fixture.storage.copy()
        storage.setBytes(bytes, of: Self.directory + "/" + name)

        let reader = try JournalReader(directory: Self.directory, storage: storage)
        #expect {
            _ = try reader.readAll()
        } throws: { error in
            guard case JournalError.corrupted(let damage) = error else { return false }
            return damage.segment == name && damage.kind == .corruption && damage.offset < victim.blockEnd
                && damage.sequence != nil && damage.sequence! <= victim.record.sequence
        }
        let (salvaged, cursor) = try reader.readAll(mode: .salvage)
        #expect(cursor.corruption.count == 1)
        let skipped = try #require(cursor.skipped.first)
        #expect(skipped.resumedAtOffset != nil)
        #expect(!salvaged.contains { $0.sequence == victim.record.sequence })
        #expect(salvaged.last == fixture.records.last?.record)
        // Everything before the damaged frame and from the next sync point on is returned.
        let lost = Set(fixture.records.map(\.record.sequence)).subtracting(salvaged.map(\.sequence))
        #expect(lost.allSatisfy { $0 >= skipped.damage.sequence! && $0 < skipped.resumedAtSequence! })
        let report = reader.verify()
        #expect(report.corruption.count == 1 && !report.isClean)
    }

    @Test("skipping to the next segment: the rest of a damaged segment and a missing segment are skipped whole, reading resumes where the next segment begins")
    func skipToNextSegment() throws {
        let fixture = try JournalFixture(count: 500)
        try #require(fixture.segments.count >= 4)
        let name = fixture.segments[0]
        let located = fixture.records.filter { $0.segment == name }
        let victim = located[located.count / 2]
        var bytes = fixture.bytes(of: name)
        bytes[victim.blockEnd - 6] ^= 0xFF
        let storage = fixture.storage.copy()
        storage.setBytes(bytes, of: Self.directory + "/" + name)
        // And the third segment lost whole.
        let missing = fixture.segments[2]
        try storage.removeFile(at: Self.directory + "/" + missing)

        var reader = try JournalReader(directory: Self.directory, storage: storage)
        reader.readMode = .skipToNextSegment   // the mode every cursor it opens reads in
        let cursor = try reader.records()
        var read: [JournalRecord] = []
        while let record = try cursor.next() { read.append(record) }
        let bases = reader.segments.map(\.baseSequence)
        #expect(cursor.skipped.count == 2, "\(cursor.skipped)")
        let inSegment = try #require(cursor.skipped.first)
        #expect(inSegment.damage.segment == name && inSegment.resumedAtOffset == nil)
        #expect(inSegment.resumedAtSequence == bases[1], "resumed where the next segment begins, not at a sync point inside")
        let gap = try #require(cursor.skipped.last)
        #expect(gap.resumedAtOffset == 0 && gap.damage.offset == 0 && gap.resumedAtSequence == bases[2])
        // Every record of the damaged segment before the damage, and of every later segment but
        // the lost one, is read; none of the damaged segment's after it.
        let expected = fixture.records.filter { located in
            located.segment == missing ? false
                : located.segment == name ? located.record.sequence < inSegment.damage.sequence! : true
        }.map(\.record)
        #expect(read == expected)
        // The same journal read strictly stops at the first damage.
        #expect(throws: JournalError.self) { _ = try JournalReader(directory: Self.directory, storage: storage).readAll() }
    }

    @Test("corruption in the last segment's tail with readable data after it is not a torn tail; the writer keeps it and moves on")
    func corruptionBeforeReadableTail() throws {
        let fixture = try JournalFixture(count: 200)
        let name = fixture.segments.last!
        let located = fixture.records.filter { $0.segment == name }
        // A block of the last frame (after the last sync point, where recovery scans) that has
        // another complete block after it.
        let syncPoints = try JournalReader(directory: Self.directory, storage: fixture.storage).syncPoints(ofSegment: fixture.segments.count - 1)
        let lastFrame = located.filter { $0.blockEnd > syncPoints.last!.offset }
        let blockEnds = Array(Set(lastFrame.map(\.blockEnd))).sorted()
        #expect(blockEnds.count >= 2)
        var bytes = fixture.bytes(of: name)
        bytes[blockEnds[blockEnds.count - 2] - 6] ^= 0x10
        let storage = fixture.storage.copy()
        storage.setBytes(bytes, of: Self.directory + "/" + name)

        let reader = try JournalReader(directory: Self.directory, storage: storage)
        #expect(throws: (any Error).self) { _ = try reader.readAll() }
        #expect(reader.verify().corruption.first?.kind == .corruption)

        let options = TestJournal.options(storage: storage)
        let writer = try JournalWriter(directory: Self.directory, options: options, snapshot: TestJournal.snapshot)
        let corruption = try #require(writer.recovery.corruption)
        #expect(corruption.segment == name)
        #expect(storage.bytes(of: Self.directory + "/" + name) == bytes, "the damaged segment is left as it was")
        let next = try TestJournal.appendRecords(writer, count: 2, startingAt: 900)
        try writer.close()
        #expect(next[0] > fixture.records.last!.record.sequence + 1, "resumes past any sequence the lost frame could hold")
        let (salvaged, _) = try JournalReader(directory: Self.directory, storage: storage).readAll(mode: .salvage)
        #expect(salvaged.suffix(2).map(\.payload) == (900..<902).map(TestJournal.payload))
    }
}
