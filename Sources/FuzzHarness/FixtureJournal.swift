import Foundation
import Journal
import SDK

/// Writes small journals, byte for byte the same on every run: the ``FixtureStory`` as an SDK
/// journal, or records with arbitrary payloads as a raw one.
package enum FixtureJournal {
    package static let journalID = UUID(uuidString: "F0220000-0000-4000-8000-00000000F022") ?? UUID()

    /// Writer options that make the bytes a function of the appends alone, with small segments
    /// and frames so that even a short journal has several of each.
    package static func options(storage: any JournalStorage, segmentBytes: Int = 2048) -> JournalOptions {
        var options = JournalOptions()
        options.storage = storage
        options.rotation = .onRequest
        options.segmentBytes = segmentBytes
        options.frameBytes = 1024
        options.maxGroupBytes = 512
        options.retainedBytes = nil
        options.groupCommit = GroupCommit(maxRecords: 8, maxDelay: nil, synchronizesEachGroup: false)
        options.journalID = journalID
        options.producer = "fuzz-fixture"
        options.monotonicNanoseconds = { 0 }
        return options
    }

    /// Writes the story's facts to `directory`, starting a segment (with a snapshot of the state
    /// folded so far) whenever the current one passed `segmentBytes`.
    package static func writeStory(to directory: String, storage: any JournalStorage = PosixStorage(), segmentBytes: Int = 2048) throws {
        let writer = try JournalWriter(directory: directory, options: options(storage: storage, segmentBytes: segmentBytes), snapshot: nil)
        var state = SDKState()
        let empty = StateCodec.encode(state)
        try writer.rotateIfNeeded(time: FixtureStory.startTime) { _ in empty }
        for entry in FixtureStory.entries() {
            let snapshot = StateCodec.encode(state)
            try writer.rotateIfNeeded(time: entry.time) { _ in snapshot }
            try writer.append(kind: FactCodec.kind(of: entry.fact), timestamp: entry.time, payload: FactCodec.payload(of: entry.fact))
            state.evolve(entry.fact, at: entry.time)
        }
        try writer.close()
    }

    /// Writes `payloads` as records of kinds 16, 17, 18 ... (cycling through `kinds` of them),
    /// a quarter of a second apart, with `snapshot` opening each segment.
    package static func writeRaw(to directory: String, storage: any JournalStorage = PosixStorage(), payloads: [[UInt8]],
                                kinds: UInt32 = 3, segmentBytes: Int = 2048, snapshot: [UInt8] = Array("raw snapshot".utf8),
                                blockMode: LZ4BlockMode = .linked) throws {
        var options = options(storage: storage, segmentBytes: segmentBytes)
        options.blockMode = blockMode
        let writer = try JournalWriter(directory: directory, options: options, snapshot: nil)
        for (index, payload) in payloads.enumerated() {
            let time = JournalTime(microsecondsSince1970: FixtureStory.startTime.microsecondsSince1970 + Int64(index) * 250_000)
            try writer.rotateIfNeeded(time: time) { _ in snapshot }
            try writer.append(kind: SegmentFormat.firstApplicationKind + UInt32(index) % max(kinds, 1), timestamp: time, payload: payload)
        }
        try writer.close()
    }
}
