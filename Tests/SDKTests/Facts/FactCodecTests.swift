import Foundation
import Journal
import Testing
@testable import SDK
@testable import SDKCore

@Suite("Fact codec", .timeLimit(.minutes(3)))
struct FactCodecTests {
    @Test("every fact survives encoding and decoding", arguments: 0..<20)
    func roundTrip(seed: Int) throws {
        var random = RandomFacts(seed: UInt64(seed))
        for _ in 0..<500 {
            let fact = random.fact()
            let decoded = try FactCodec.decode(kind: FactCodec.kind(of: fact), payload: FactCodec.payload(of: fact))
            #expect(decoded == fact)
        }
    }

    @Test("read without data values: every call's data values read empty, everything else as read whole", arguments: 0..<5)
    func withoutDataValues(seed: Int) throws {
        var random = RandomFacts(seed: UInt64(1_000 + seed))
        var emptied = 0
        for _ in 0..<2_000 {
            let fact = random.fact()
            let payload = FactCodec.payload(of: fact)
            let light = try FactCodec.decode(kind: FactCodec.kind(of: fact), payload: payload, readsDataValues: false)
            #expect(light == Self.withDataValuesEmptied(fact), "\(fact)")
            if light != fact { emptied += 1 }
        }
        #expect(emptied > 0, "some facts carry data values")
    }

    @Test("read without data values: a data value's bytes are not looked at (a malformed one reads as empty)")
    func dataValuesNotLookedAt() throws {
        let received = ReceivedCall(id: CallID(UUID()), caller: 1, call: .track(event: "purchase", dataFields: ["sku": .string("A-1")]))
        var payload = FactCodec.payload(of: .callReceived(received))
        // The data fields' JSON ends the payload: its last byte (the object's closing brace) broken.
        #expect(payload.last == UInt8(ascii: "}"))
        payload[payload.count - 1] = UInt8(ascii: "!")
        #expect(throws: CodecError.self) { try FactCodec.decode(kind: FactCodec.kind(of: .callReceived(received)), payload: payload) }
        let light = try FactCodec.decode(kind: FactCodec.kind(of: .callReceived(received)), payload: payload, readsDataValues: false)
        #expect(light == .callReceived(ReceivedCall(id: received.id, caller: 1, call: .track(event: "purchase", dataFields: [:]))))
    }

    /// `fact` with each call's data values (its own and its items') present but empty: what a
    /// decoding that does not read them gives.
    static func withDataValuesEmptied(_ fact: Fact) -> Fact {
        func emptied(_ call: PublicCall) -> PublicCall {
            if case .oversized = call { return call }
            let arguments = call.arguments.map { argument -> ArgumentValue in
                switch argument {
                case .dataFields(let fields): return .dataFields(fields.map { _ in [:] })
                case .items(let items):
                    return .items(items.map { item in
                        var item = item
                        item.dataFields = item.dataFields.map { _ in [:] }
                        return item
                    })
                case .pushOpen(var open):
                    open.dataFields = open.dataFields.map { _ in [:] }
                    return .pushOpen(open)
                case .text, .count, .amount, .flag, .project, .attribution, .callName: return argument
                }
            }
            return PublicCall(call.declaration, arguments: arguments) ?? call
        }
        func emptied(_ received: ReceivedCall) -> ReceivedCall {
            ReceivedCall(id: received.id, caller: received.caller, call: emptied(received.call))
        }
        switch fact {
        case .callReceived(let received): return .callReceived(emptied(received))
        case .gateDecided(let call, .queued(let id, let position, let received)):
            return .gateDecided(call: call, decision: .queued(switch: id, position: position, call: emptied(received)))
        case .unknownUserEventHeld(let project, let call, let event): return .unknownUserEventHeld(project: project, call: call, event: emptied(event))
        default: return fact
        }
    }

    @Test("a received call encoded from its call is the record of its fact (decide records it so)")
    func receivedCallRecord() {
        var random = RandomFacts(seed: 77)
        for _ in 0..<5_000 {
            guard case .callReceived(let received) = random.fact() else { continue }
            var fromFact = RecordBundle()
            FactCodec.append(.callReceived(received), to: &fromFact)
            var fromCall = RecordBundle()
            FactCodec.append(callReceived: received, dataFieldsJSON: nil, to: &fromCall)
            #expect(fromCall.kinds == fromFact.kinds && fromCall.payloads == fromFact.payloads && fromCall.ends == fromFact.ends)
        }
    }

    @Test("call ids, fingerprints, task ids and bodiless batched events are written as one block: the bytes of their general encoding")
    func identifierBlocks() {
        var random = RandomFacts(seed: 80)
        func written(_ body: (inout FieldWriter) -> Void) -> [UInt8] {
            FieldWriter.withScratch { writer in
                body(&writer)
                return writer.bytes
            }
        }
        for field in [1, 2, 3, 15, 16, 200] {
            for _ in 0..<50 {
                let call = random.callID(), project = random.fingerprint(), task = TaskID(random.next() >> UInt64(random.int(0...63)))
                #expect(written { $0.message(field, call) } == written { writer in writer.message(field) { call.encode(to: &$0) } })
                #expect(written { $0.message(field, project) } == written { writer in writer.message(field) { project.encode(to: &$0) } })
                #expect(written { $0.message(field, task) } == written { writer in writer.message(field) { task.encode(to: &$0) } })
                #expect(written { $0.messages(field, [call, call]) } == written { writer in
                    for _ in 0..<2 { writer.message(field) { call.encode(to: &$0) } }
                })
                let bodiless = BatchedEvent(call: call, body: [])
                #expect(written { $0.bodilessEvent(field, call: call) } == written { writer in writer.message(field) { bodiless.encode(to: &$0) } })
            }
        }
    }

    @Test("an eventBatched encoded from its parts is the record of its fact (decide records it so)")
    func batchedEventRecord() {
        var random = RandomFacts(seed: 79)
        var seen = 0
        for _ in 0..<20_000 {
            guard case .eventBatched(let task, let event, let executedOn) = random.fact() else { continue }
            seen += 1
            var fromFact = RecordBundle()
            FactCodec.append(.eventBatched(task: task, event: event, executedOn: executedOn), to: &fromFact)
            var fromParts = RecordBundle()
            FactCodec.append(eventBatched: task, event: event, executedOn: executedOn, to: &fromParts)
            #expect(fromParts.kinds == fromFact.kinds && fromParts.payloads == fromFact.payloads)
        }
        #expect(seen > 100)
    }

    @Test("a track's record with the data fields' JSON of its body is the record of its fact, whenever that JSON is exact")
    func trackRecordFromItsBody() throws {
        var random = RandomFacts(seed: 78)
        var shared = 0
        for _ in 0..<2_000 {
            let event = random.string(), fields = random.bool() ? random.object() : nil
            let received = ReceivedCall(id: random.callID(), caller: UInt64(random.int(0...9)), call: .track(event: event, dataFields: fields))
            var bytes: [UInt8] = []
            let body = RequestBody.writeTrackBody(event, dataFields: fields, identity: .init(email: "a@b.c", userID: nil),
                                                  createdAt: .integer(1), into: &bytes)
            #expect(bytes == RequestBody.trackBody(event, dataFields: fields, identity: .init(email: "a@b.c", userID: nil), createdAt: .integer(1)))
            var fromFact = RecordBundle()
            FactCodec.append(.callReceived(received), to: &fromFact)
            var fromBody = RecordBundle()
            if let range = body.dataFields, body.fidelity == .exact {
                shared += 1
                bytes.withUnsafeBufferPointer { bytes in
                    FactCodec.append(callReceived: received, dataFieldsJSON: UnsafeBufferPointer(rebasing: bytes[range]), to: &fromBody)
                }
                #expect(fromBody.payloads == fromFact.payloads)
            }
            #expect(try FactCodec.decode(kind: fromFact.kinds[0], payload: fromFact.payloads) == .callReceived(received))
        }
        #expect(shared > 300)
    }

    @Test("every fact kind is produced by the generator and has a distinct number")
    func kinds() {
        var random = RandomFacts(seed: 99)
        var seen = Set<UInt32>()
        for _ in 0..<5_000 { seen.insert(FactCodec.kind(of: random.fact())) }
        #expect(seen == Set(FactKind.allCases.map(\.rawValue)))
        #expect(Set(FactKind.allCases.map(\.rawValue)).count == FactKind.allCases.count)
        #expect(FactKind.allCases.allSatisfy { $0.rawValue >= SegmentFormat.firstApplicationKind })
    }

    @Test("unknown kinds pass through; unknown fields are skipped; unknown variants become unknown facts")
    func forwardCompatibility() throws {
        #expect(try FactCodec.decode(kind: 999, payload: [1, 2, 3]) == .unknown(kind: 999, payload: [1, 2, 3]))
        // A newer writer added field 15 to a pushTokenChanged fact: an older reader skips it.
        var payload = FactCodec.payload(of: .pushTokenChanged("t"))
        payload += [0x7A, 2, 0xAB, 0xCD]   // field 15, wire type 2, two bytes
        payload += [0x78, 0x05]             // field 15, varint 5
        #expect(try FactCodec.decode(kind: FactKind.pushTokenChanged.rawValue, payload: payload) == .pushTokenChanged("t"))
        // A call variant from the future: the whole fact is kept as unknown, not an error.
        let future: [UInt8] = [0x0A, 18, 0x0A, 16] + [UInt8](repeating: 7, count: 16) + [0x1A, 2, 0x08, 99]
        let decoded = try FactCodec.decode(kind: FactKind.callReceived.rawValue, payload: future)
        #expect(decoded == .unknown(kind: FactKind.callReceived.rawValue, payload: future))
    }

    @Test("a journal gap's first lost sequence is field 5: written when known, absent (nil) in gaps written before it")
    func journalGapFirstLostSequence() throws {
        let time = JournalTime(microsecondsSince1970: 1_764_000_000_000_000)
        let old = JournalGap(lostFacts: 3, from: time, to: time, reason: "disk full")
        let new = JournalGap(lostFacts: 3, from: time, to: time, reason: "disk full", firstLostSequence: 42)
        let oldPayload = FactCodec.payload(of: .journalGap(old))
        let newPayload = FactCodec.payload(of: .journalGap(new))
        #expect(Array(newPayload.prefix(oldPayload.count)) == oldPayload, "fields 1-4 as before")
        #expect(Array(newPayload.dropFirst(oldPayload.count)) == [0x28, 42], "field 5, varint")
        #expect(try FactCodec.decode(kind: FactKind.journalGap.rawValue, payload: oldPayload) == .journalGap(old))
        #expect(try FactCodec.decode(kind: FactKind.journalGap.rawValue, payload: newPayload) == .journalGap(new))
    }

    @Test("malformed payloads throw with an offset and never trap", arguments: 0..<10)
    func malformed(seed: Int) {
        var random = RandomFacts(seed: UInt64(1_000 + seed))
        for _ in 0..<300 {
            let fact = random.fact()
            var payload = FactCodec.payload(of: fact)
            guard !payload.isEmpty else { continue }
            switch random.int(0...2) {
            case 0: payload.removeLast(random.int(1...payload.count))
            case 1: payload[random.int(0...(payload.count - 1))] ^= UInt8(random.int(1...255))
            default: payload += [0xFF, 0xFF, 0xFF]
            }
            do {
                _ = try FactCodec.decode(kind: FactCodec.kind(of: fact), payload: payload)
            } catch {
                #expect(error.offset >= 0 && error.offset <= payload.count + 16)
            }
        }
    }

    @Test("a state survives its snapshot encoding")
    func snapshotRoundTrip() throws {
        var random = RandomFacts(seed: 7)
        var state = SDKState()
        var time = JournalTime(microsecondsSince1970: 0)
        for _ in 0..<2_000 {
            time.microsecondsSince1970 += 1_000
            state.evolve(random.fact(), at: time)
            #expect(try StateCodec.decode(StateCodec.encode(state)) == state)
        }
    }
}

@Suite("Fact codec limits", .timeLimit(.minutes(3)))
struct FactCodecLimitTests {
    @Test("the deepest data the SDK accepts survives the codec; deeper hostile nesting is refused without a crash")
    func nesting() throws {
        var value: DataValue = "leaf"
        for _ in 0..<30 { value = .object(["k": value]) }
        #expect(DataValue.object(["root": value]).problem() == nil)
        let fact = Fact.callReceived(ReceivedCall(id: CallID(UUID()), caller: 1, call: .track(event: "e", dataFields: ["root": value])))
        #expect(try FactCodec.decode(kind: FactCodec.kind(of: fact), payload: FactCodec.payload(of: fact)) == fact)

        // 5,000 nested length-delimited fields: refused with a clear error.
        var hostile: [UInt8] = []
        for _ in 0..<5_000 { hostile = [0x0A] + Self.varint(hostile.count) + hostile }
        #expect(throws: CodecError.self) { _ = try FactCodec.decode(kind: FactKind.callReceived.rawValue, payload: hostile) }
    }

    @Test("facts with extreme numbers apply without trapping")
    func extremeNumbers() {
        var state = SDKState()
        let time = JournalTime(microsecondsSince1970: .max)
        state.evolve(.taskQueued(DeliveryTask(id: TaskID(.max), call: nil, project: ProjectFingerprint(apiKey: "k"), region: "us",
                                              endpoint: "https://x/", path: "events/track", method: .post, query: nil, body: [],
                                              createdAt: time)), at: time)
        state.evolve(.switchRouted(switch: SwitchID(.max), call: CallID(UUID()), project: ProjectRef(
            fingerprint: ProjectFingerprint(apiKey: "k"), region: "us", endpoint: "https://x/", usesJWT: false,
            retry: RetryRules(maxAttempts: .max, baseDelayMilliseconds: .max, maxDelayMilliseconds: .max, jwtRefreshBudget: .max)),
            routing: .started), at: time)
        state.evolve(.durabilityRequested(request: .max, purpose: .flush(CallID(UUID()))), at: time)
        _ = state.decide(.transportCompleted(TransportCompletion(task: TaskID(.max), attempt: .max, outcome: .networkError("x"))), at: time)
        #expect(RetryRules(maxAttempts: 9, baseDelayMilliseconds: .max, maxDelayMilliseconds: .max).delay(afterAttempt: .min) == .max)
    }

    @Test("a snapshot's starting buffer stays between 4 KiB and 16 MiB whatever its counters say, and its bytes are the same")
    func snapshotCapacityHint() throws {
        for counter in [Int.min, -1, 0, 1 << 20, 1 << 40, Int.max] {
            var state = SDKState()
            state.queueFootprint = counter
            state.queuedEvents = counter
            state.switching.gateBytes = counter
            let hint = StateCodec.capacityHint(for: state)
            #expect(hint >= 4_096 && hint <= StateCodec.largestHint, "counters at \(counter): \(hint)")
            let decoded = try StateCodec.decode(StateCodec.encode(state))
            #expect(StateCodec.encode(decoded) == StateCodec.encode(state))
        }
    }

    static func varint(_ value: Int) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeVarint(UInt64(value))
        return writer.bytes
    }
}

/// What bulk delivery added to the vocabulary reads back, and journals from before it fold as
/// they were written.
@Suite("Bulk delivery facts")
struct BulkFactCodecTests {
    /// The rules of every `engineStarted` in the golden 1.0 demo journal, as today's codec reads them.
    static func goldenDemoRules() throws -> [EngineRules] {
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/journals/v1.0/demo").path
        let cursor = try JournalReader(directory: golden).records(mode: .salvage)
        var rules: [EngineRules] = []
        while let record = try cursor.next() {
            if !record.isSnapshot, case .engineStarted(let start) = try FactCodec.decode(kind: record.kind, payload: record.payload) {
                rules.append(start.options)
            }
        }
        return rules
    }

    @Test("rules without the bulk fields (every golden journal of format 1.0) never batch")
    func oldRulesSendAlone() throws {
        let starts = try Self.goldenDemoRules()
        for rules in starts { #expect(rules.bulkEventLimit == 1) }
        #expect(starts.count > 0)
        let current = try FactCodec.decode(kind: FactKind.engineStarted.rawValue, payload: FactCodec.payload(of: .engineStarted(
            EngineStart(sdkVersion: "1", restored: false, options: EngineRules(), modules: []))))
        guard case .engineStarted(let start) = current else { Issue.record("not an engine start"); return }
        #expect(start.options.bulkEventLimit == EngineRules().bulkEventLimit)
    }

    @Test("engine rules write fields 11 and 12 (the marks of 1.2 and 1.3) as every journal since 1.3 has them, and read alike with or without them")
    func formatMarks() throws {
        let rules = EngineRules(bulkEventLimit: 10)
        let written = FieldWriter.withScratch { writer in
            rules.encode(to: &writer)
            return writer.bytes
        }
        func read(_ bytes: [UInt8]) throws -> EngineRules {
            try bytes.withUnsafeBytes { buffer in
                var reader = FieldReader(buffer)
                return try EngineRules(from: &reader)
            }
        }
        // Field 11, then field 12, each true: varint key (number << 3, a varint's wire type 0), then 1.
        let marks: [UInt8] = [11 << 3, 1, 12 << 3, 1]
        let at = try #require((0...(written.count - marks.count)).first { Array(written[$0..<($0 + marks.count)]) == marks },
                              "\(written)")
        #expect(try read(written) == rules)
        // The same rules without the marks, as a journal before 1.2 wrote them: no rule is taken from them.
        var withoutMarks = written
        withoutMarks.removeSubrange(at..<(at + marks.count))
        #expect(try read(withoutMarks) == rules)
        // With them false, as no writer wrote them: read alike too.
        var marksFalse = written
        marksFalse[at + 1] = 0
        marksFalse[at + 3] = 0
        #expect(try read(marksFalse) == rules)
    }

    @Test("a delivered bulk's calls are resolved by one callsResolved, whatever journal the rules were read from")
    func bulkResolvedAtOnce() throws {
        // The golden 1.0 journal's rules lack fields 11 and 12, as every journal's before 1.2 do.
        var old = try #require(try Self.goldenDemoRules().first)
        old.bulkEventLimit = 10

        /// The decisions resolving calls when a task of three calls is delivered, under `rules`.
        func resolving(under rules: EngineRules) -> [Fact] {
            let project = ProjectRef(fingerprint: ProjectFingerprint(apiKey: "k"), region: "us", endpoint: "https://us.test/api/",
                                     usesJWT: false, retry: RetryRules())
            var state = SDKState()
            var facts: [Fact] = []
            let time = JournalTime(microsecondsSince1970: 1_000_000)
            facts += state.decide(.engineStarted(EngineStart(sdkVersion: "t", restored: false, options: rules)), at: time)
            var id: UInt8 = 0
            func call(_ publicCall: PublicCall) -> Fact {
                id += 1
                return .callReceived(ReceivedCall(id: CallID(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, id))), caller: 1, call: publicCall))
            }
            facts += state.decide(call(.initialize(project)), at: time)
            facts += state.decide(call(.setEmail("ada@example.com")), at: time)
            for name in ["a", "b", "c", "d"] { facts += state.decide(call(.track(event: name, dataFields: nil)), at: time) }
            // The first track went alone; the other three joined one task behind it.
            func dispatched(_ facts: [Fact]) -> [(TaskID, Int)] {
                facts.compactMap { if case .taskDispatched(let task, let attempt) = $0 { (task, attempt) } else { nil } }
            }
            var waiting = dispatched(facts)
            var answered: [Fact] = []
            while !waiting.isEmpty {
                let (task, attempt) = waiting.removeFirst()
                let decided = state.decide(.transportCompleted(TransportCompletion(
                    task: task, attempt: attempt, outcome: .response(status: 200, code: nil, messageIDs: [], message: nil))), at: time)
                answered += decided
                waiting += dispatched(decided)
            }
            #expect(state.pendingCalls.isEmpty, "every call resolved")
            return answered.filter { !$0.resolutions.isEmpty }
        }
        let resolved = resolving(under: EngineRules(bulkEventLimit: 10))
        #expect(resolving(under: old) == resolved)
        #expect(resolved.count == 2, "the lone track's callResolved, then the bulk's callsResolved: \(resolved)")
        guard case .callResolved(let alone, _) = resolved.first, case .callsResolved(_, let calls, _) = resolved.last else {
            Issue.record("\(resolved)")
            return
        }
        // The four tracks (calls 3 to 6), in call order.
        #expect([alone] + calls == (3...6).map { CallID(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, $0))) })
    }

    @Test("an executed track whose event joins a bulk records the gate's decision in its eventBatched; every other path a gateDecided; the records before 1.3 fold to the same queue")
    func gateDecisionTravelsWithTheBatchedEvent() throws {
        let rules = EngineRules(bulkEventLimit: 10)
        let project = ProjectRef(fingerprint: ProjectFingerprint(apiKey: "k"), region: "us", endpoint: "https://us.test/api/",
                                 usesJWT: false, retry: RetryRules())
        var state = SDKState()
        let time = JournalTime(microsecondsSince1970: 1_000_000)
        var id: UInt8 = 0
        func call(_ publicCall: PublicCall) -> Fact {
            id += 1
            return .callReceived(ReceivedCall(id: CallID(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, id))), caller: 1, call: publicCall))
        }
        var all = state.decide(.engineStarted(EngineStart(sdkVersion: "t", restored: false, options: rules)), at: time)
        all += state.decide(call(.initialize(project)), at: time)
        // For an unknown user: held, its gate decision on its own, first.
        let held = state.decide(call(.track(event: "anonymous", dataFields: nil)), at: time)
        let identified = state.decide(call(.setEmail("ada@example.com")), at: time)
        // The first track after it goes alone (the released event is on the wire); the next two join it.
        let tracks = ["a", "b", "c"].map { state.decide(call(.track(event: $0, dataFields: ["n": 1, "text": "é\n"])), at: time) }
        all += held + identified + tracks.flatMap { $0 }

        let fingerprint = project.fingerprint
        func kinds(_ facts: [Fact]) -> [FactKind?] { facts.map { FactKind(rawValue: FactCodec.kind(of: $0)) } }
        #expect(kinds(held) == [.callReceived, .gateDecided, .unknownUserEventHeld, .callResolved])
        #expect(kinds(tracks[0]) == [.callReceived, .gateDecided, .taskQueued])
        let bulk = try #require(state.tasks.values.first { $0.task.batch.count == 2 }?.task)
        #expect(bulk.batch.allSatisfy { !$0.body.isEmpty })
        // The records a journal before 1.3 held instead: the gate's decision first, then the event with its body.
        var before13 = all
        for joined in tracks[1...] {
            // Joining the bulk: one record for both.
            #expect(kinds(joined) == [.callReceived, .eventBatched])
            guard case .eventBatched(let task, let event, let executedOn) = joined[1] else {
                Issue.record("\(joined)")
                continue
            }
            #expect(task == bulk.id && executedOn == fingerprint)
            // No body in the record: the call makes it.
            #expect(event.body.isEmpty)
            #expect(joined[1].gateDecision?.call == event.call && joined[1].gateDecision?.decision == .executed(project: fingerprint))
            let record = try FactCodec.decode(kind: FactCodec.kind(of: joined[1]), payload: FactCodec.payload(of: joined[1]))
            #expect(record == joined[1])
            let body = try #require(bulk.batch.first { $0.call == event.call }?.body)
            let at = try #require(before13.firstIndex(of: joined[1]))
            before13.replaceSubrange(at...at, with: [.gateDecided(call: event.call, decision: .executed(project: fingerprint)),
                                                     .eventBatched(task: task, event: BatchedEvent(call: event.call, body: body), executedOn: nil)])
        }
        #expect(before13.count == all.count + 2)
        // The same queue, bodies included, whether decided or folded from either journal's records.
        func fold(_ facts: [Fact]) throws -> SDKState {
            var fold = SDKState()
            for fact in facts { fold.evolve(try FactCodec.decode(kind: FactCodec.kind(of: fact), payload: FactCodec.payload(of: fact)), at: time) }
            return fold
        }
        #expect(try fold(all).tasks == state.tasks)
        #expect(try fold(before13).tasks == state.tasks)
    }

    @Test("a task's batch is sent as one events/trackBulk body, in order, each event with its call's id")
    func wireBody() {
        let stream = UUID()
        let calls = [CallID(UUID()), CallID(UUID()), CallID(UUID())]
        let ids = calls.map { WireCallID(stream: stream, call: $0).hex }
        var task = DeliveryTask(id: TaskID(1), call: calls[0], project: ProjectFingerprint(apiKey: "k"), region: "us",
                                endpoint: "https://x/api/", path: "events/track", method: .post, query: nil,
                                body: Array(#"{"eventName":"a"}"#.utf8), createdAt: JournalTime(microsecondsSince1970: 0))
        var alone: [UInt8] = []
        task.appendWireBody(to: &alone, stream: stream)
        #expect(task.wirePath == "events/track")
        #expect(String(decoding: alone, as: UTF8.self) == #"{"callId":"\#(ids[0])","eventName":"a"}"#)
        task.replaceBatch([BatchedEvent(call: calls[1], body: Array(#"{"eventName":"b"}"#.utf8)),
                           BatchedEvent(call: calls[2], body: Array(#"{}"#.utf8))], queuedAt: [])
        var bulk: [UInt8] = []
        task.appendWireBody(to: &bulk, stream: stream)
        #expect(task.wirePath == "events/trackBulk")
        #expect(String(decoding: bulk, as: UTF8.self)
                == #"{"events":[{"callId":"\#(ids[0])","eventName":"a"},{"callId":"\#(ids[1])","eventName":"b"},{"callId":"\#(ids[2])"}]}"#)
        #expect(bulk.count == task.wireBodyCount)
        #expect(task.calls.count == 3 && task.eventCount == 3 && task.queuedBytes == bulk.count - 15 - 3 * 43 - 2)
        #expect(task.wireCallIDs(stream: stream).map(\.hex) == ids)
        // Another stream, other ids: the same call ids on two installs never meet at a backend.
        #expect(task.wireCallIDs(stream: UUID()).map(\.hex) != ids)
        task.removeExpiredEvents([calls[0]])
        var rest: [UInt8] = []
        task.appendWireBody(to: &rest, stream: stream)
        #expect(String(decoding: rest, as: UTF8.self) == #"{"events":[{"callId":"\#(ids[1])","eventName":"b"},{"callId":"\#(ids[2])"}]}"#)
        #expect(rest.count == task.wireBodyCount)
    }

    @Test("a fetch names its call in its query; a request of the SDK's own carries its task's id")
    func wireQueryAndOwnRequests() {
        let stream = UUID()
        let call = CallID(UUID())
        let fetch = DeliveryTask(id: TaskID(3), call: call, project: ProjectFingerprint(apiKey: "k"), region: "us", endpoint: "https://x/api/",
                                 path: "inApp/getMessages", method: .get, query: "count=5&platform=iOS", body: [],
                                 createdAt: JournalTime(microsecondsSince1970: 0))
        #expect(fetch.wireQuery(stream: stream) == "count=5&platform=iOS&callId=" + WireCallID(stream: stream, call: call).hex)
        #expect(fetch.wireBodyCount == 0)
        let created = JournalTime(microsecondsSince1970: 1_764_000_000_000_000)
        let disable = DeliveryTask(id: TaskID(9), call: nil, project: ProjectFingerprint(apiKey: "k"), region: "us", endpoint: "https://x/api/",
                                   path: DeliveryTask.disableDevicePath, method: .post, query: nil, body: Array(#"{"token":"t"}"#.utf8),
                                   createdAt: created)
        var body: [UInt8] = []
        disable.appendWireBody(to: &body, stream: stream)
        let own = WireCallID(stream: stream, task: TaskID(9), createdAt: created)
        #expect(disable.wireCallIDs(stream: stream) == [own])
        #expect(String(decoding: body, as: UTF8.self) == #"{"callId":""# + own.hex + #"","token":"t"}"#)
        #expect(disable.wireQuery(stream: stream) == nil)
    }

    @Test("a call's id on the wire is derived: the same for the same stream and call, 32 hex digits, read back")
    func wireCallID() {
        let stream = UUID(uuidString: "5EED0000-0000-4000-8000-000000000001")!
        let call = CallID(UUID(uuidString: "00000000-0000-4000-8000-000000000007")!)
        let id = WireCallID(stream: stream, call: call)
        #expect(id == WireCallID(stream: stream, call: call))
        #expect(id.hex.count == 32 && id.hex.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(WireCallID(hex: id.hex) == id)
        #expect(WireCallID(hex: id.hex.uppercased()) == nil && WireCallID(hex: "abc") == nil)
        #expect(!id.hex.contains("5eed") || !id.hex.contains("0007"), "the id does not spell the stream or the call")
        let own = WireCallID(stream: stream, task: TaskID(7), createdAt: JournalTime(microsecondsSince1970: 1))
        #expect(own != id && own == WireCallID(stream: stream, task: TaskID(7), createdAt: JournalTime(microsecondsSince1970: 1)))
    }
}
