import FuzzHarness
import Journal
import SDK

/// Seeds of the facts target: one encoded fact of every kind, every declared call's samples
/// (``SampleCalls``), the fixture story in stretches
/// (each after a snapshot of the state the story had reached), and snapshots of the empty and
/// the final state; and every input that once broke an invariant (``FactRegressions``).
enum FactSeeds {
    typealias Seed = (name: String, bytes: [UInt8])
    typealias Record = FactDecoderFuzzer.Record
    static let stretch = 24

    static func make() -> [Seed] {
        var seeds: [Seed] = SampleFacts.all.map { fact in
            let kind = FactCodec.kind(of: fact)
            return ("sample-" + (FactKind(rawValue: kind)?.name ?? "kind-\(kind)"), FactDecoderFuzzer.input([Record(fact)]))
        }
        for (index, call) in SampleCalls.all.enumerated() {
            let received = ReceivedCall(id: FixtureStory.callID(UInt64(index) + 1), caller: 1, call: call)
            seeds.append(("call-\(index)-\(call.name.rawValue)", FactDecoderFuzzer.input([Record(.callReceived(received))])))
        }
        let entries = FixtureStory.entries()
        var state = SDKState()
        var previous = FixtureStory.startTime
        for (number, start) in stride(from: 0, to: entries.count, by: stretch).enumerated() {
            var records: [Record] = []
            if start > 0 { records.append(Record(snapshot: state, timeDelta: previous.microsecondsSince1970 - FixtureStory.startTime.microsecondsSince1970)) }
            for entry in entries[start..<min(start + stretch, entries.count)] {
                records.append(Record(entry.fact, timeDelta: entry.time.microsecondsSince1970 - previous.microsecondsSince1970))
                state.evolve(entry.fact, at: entry.time)
                previous = entry.time
            }
            seeds.append(("story-stretch-\(number)", FactDecoderFuzzer.input(records)))
        }
        seeds.append(("snapshot-empty", FactDecoderFuzzer.input([Record(snapshot: SDKState())])))
        seeds.append(("snapshot-story-end", FactDecoderFuzzer.input([Record(snapshot: state)])))
        seeds += FactRegressions.all
        return seeds
    }
}
