import Foundation
import Journal
import SDKTesting
import Testing
@testable import SDK
@testable import SDKCore

/// The state's redaction, derived from its declaration (``SDKState/mapFields(_:)``), holds for
/// any state: random states whose every string carries a marker (one that must go where the
/// value may name someone, one that must stay where it names a thing), redacted, hold none of
/// the first, as states, as snapshots and in `exportDiagnostics`' copy. A marker that must go
/// is put in a shape redaction does not keep where shape decides (a data-field key with a
/// space, a path segment with an `@`): an identifier-shaped key or a structural segment stays.
@Suite("state redaction", .timeLimit(.minutes(2)))
struct StateRedactionTests {
    static let secret = "zqxsecret"
    static let kept = "keepname"

    /// Random states, every string a marker, built field by field with the memberwise
    /// initializer named in full: a field added to the state does not compile here either until
    /// the test gives it a value.
    struct RandomStates {
        var generator: SplitMix64
        var next = 0

        mutating func secret() -> String { next += 1; return "\(StateRedactionTests.secret)\(next)" }
        mutating func kept() -> String { next += 1; return "\(StateRedactionTests.kept)\(next)" }
        mutating func count(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
        mutating func maybe<T>(_ make: (inout Self) -> T) -> T? { Bool.random(using: &generator) ? make(&self) : nil }

        mutating func project() -> ProjectRef {
            ProjectRef(fingerprint: ProjectFingerprint(apiKey: kept()), region: "us", endpoint: "https://api.example.com/", usesJWT: false,
                       retry: RetryRules(), label: kept())
        }

        mutating func call() -> PublicCall {
            switch count(0...5) {
            case 0: .setEmail("\(secret())@example.org")
            case 1: .track(event: kept(), dataFields: ["\(secret()) key": .string(secret()), "plan": .object(["+1\(secret())": .integer(1)])])
            case 2: .handleUniversalLink(url: "https://links.example.com/\(secret())%40example.org?u=\(secret())#\(secret())")
            case 3: .registerToken(secret())
            case 4: .updateUser(dataFields: ["name": .string(secret())], mergeNestedObjects: true)
            default: .inAppClick(messageID: kept(), url: "https://shop.example.com/p?email=\(secret())")
            }
        }

        mutating func callID() -> CallID { CallID(UUID()) }

        mutating func task(_ number: UInt64) -> DeliveryTask {
            DeliveryTask(id: TaskID(number), call: callID(), project: ProjectFingerprint(apiKey: "key"), region: "us",
                         endpoint: "https://api.example.com/", path: "events/track", method: .post,
                         query: maybe { "email=\($0.secret())&\($0.secret())" },
                         body: Array("{\"email\":\"\(secret())\",\"dataFields\":{\"\(secret())@x.org\":\"\(secret())\"}}".utf8),
                         createdAt: JournalTime(microsecondsSince1970: 0), user: .email(secret()))
        }

        mutating func state() -> SDKState {
            let time = JournalTime(microsecondsSince1970: Int64(count(0...1_000_000)))
            let tasks = Dictionary(uniqueKeysWithValues: (1...UInt64(count(1...4))).map { number in
                (TaskID(number), QueuedTask(task: task(number), status: .retrying(nextAttempt: 2), serverFailures: 1, waitsForNetwork: true,
                                            aside: number == 1 ? AsideWait(since: time, reason: .noToken("no token for \(secret())")) : nil,
                                            tokenRefreshes: 1))
            })
            var pending = CallTable<PendingCall>()
            pending.insert(PendingCall(name: .track, madeAt: time, caller: 1, projectAtCall: nil), for: callID())
            var gate = FIFO<GatedCall>()
            for _ in 0..<count(0...3) { gate.append(GatedCall(call: ReceivedCall(id: callID(), caller: 1, call: call()), madeAt: time, bytes: 0)) }
            let run = maybe { random in
                SwitchRun(id: SwitchID(1), from: random.project(), to: random.project(), calls: [random.callID()], startedAt: time,
                          step: .releaseInstance, stepStartedAt: time, warnings: ["could not flush the outbox of \(random.secret())"],
                          stepProblems: ["module failed: \(random.secret()) 4111 1111 1111 1111"], firstTaskOfWindow: 3)
            }
            let switching = SwitchState.init(gate:gateBytes:inFlight:queue:awaitingCallbacks:nextSwitchNumber:releasingHeldCalls:)(
                gate, 0, run, [SwitchRequest(id: SwitchID(2), project: project(), calls: [callID()])], SwitchID(1), 3, nil)
            let fields = SDKState.init(live:generation:rules:sdkVersion:moduleDescriptors:projects:email:userID:pushToken:attribution:
                                       heldEvents:unknownUserSessions:inAppMessageIDs:embeddedMessageIDs:clearedProjects:
                                       instanceRunning:consentDeclined:tasks:taskOrder:queueFootprint:queuedEvents:nextTaskNumber:
                                       pendingCalls:input:timers:auth:durabilityWaits:nextRequestNumber:modules:hooks:linkJobs:
                                       switching:time:clockOffsetMicroseconds:clockAnchor:)
            let live = project()
            var input = InputCarryOver()
            input.track = (call: callID(), event: secret(), dataFields: ["k": .string(secret())])
            return fields(
                live, 3, EngineRules(), kept(), [ModuleDescriptor(name: kept(), notifications: [kept()])], [live.fingerprint: live],
                maybe { "\($0.secret())@example.org" }, maybe { $0.secret() }, maybe { $0.secret() },
                maybe { AttributionInfo(campaignID: 1, templateID: 2, messageID: $0.kept()) },
                (0..<count(0...3)).map { _ in HeldEvent(call: callID(), event: call()) }, 2, [kept()], [kept()], [],
                true, Bool.random(using: &generator), tasks, [ProjectFingerprint(apiKey: "key"): Array(tasks.keys)], 0, 0, 9,
                pending, input, [.moduleHookBound(hook: 1): time], [ProjectFingerprint(apiKey: "key"): AuthState(refreshesUsed: 1, refreshing: 2)],
                [4: .teardownDisable(SwitchID(1))], 10, [kept(): ModuleLifecycle(initialized: true, started: true, deinitialized: false, generation: 3)],
                [5: PendingHook(module: kept(), signal: .notification(kept()), startedAt: time)],
                [6: LinkJob(call: callID(), url: "https://links.example.com/unsub/\(secret())%40example.org?t=\(secret())", project: live.fingerprint,
                            generation: 3)],
                switching, time, -3_600_000_000, ClockAnchor(monotonic: MonotonicReading(microseconds: 5, boot: 7), time: time))
        }
    }

    /// Takes every field as it is: the declaration put back together gives the state it took apart.
    struct Unchanged: StateFieldMapper {
        func structural<Value>(_ value: Value) -> Value { value }
        func identifier<Value>(_ value: Value) -> Value { value }
        func text(_ value: String, _ kind: FactField.Text) -> String { value }
        func personal(_ call: PublicCall) -> PublicCall { call }
        func personal(_ call: ReceivedCall) -> ReceivedCall { call }
        func personal(_ task: DeliveryTask) -> DeliveryTask { task }
        func transient<Value>(_ value: Value, empty: Value) -> Value { value }
    }

    @Test("the declaration takes every field apart and puts it back where it was")
    func declarationRoundTrips() {
        var random = RandomStates(generator: SplitMix64(seed: 4))
        for _ in 0..<50 {
            var state = random.state()
            // The counts that follow other fields, as the fold keeps them.
            state.queueFootprint = state.tasks.values.reduce(0) { $0 + $1.task.footprint }
            state.queuedEvents = state.tasks.values.reduce(0) { $0 + $1.task.eventCount }
            for index in state.switching.gate.indices { state.switching.gate[index].bytes = FactCodec.gateBytes(of: state.switching.gate[index].call) }
            state.switching.gateBytes = state.switching.gate.reduce(0) { $0 + $1.bytes }
            var unchanged = Unchanged()
            let mapped = state.mapFields(&unchanged)
            #expect(mapped == state)
            #expect(mapped.input.track?.event == state.input.track?.event)
        }
    }

    @Test("random states with a marker in every string: redacted, as states and as snapshots, they hold none that may name someone")
    func markers() throws {
        var random = RandomStates(generator: SplitMix64(seed: 43))
        let redactor = Redactor(hash: KeyedHash(key: Array("state".utf8)))
        for _ in 0..<200 {
            let state = random.state()
            #expect(String(decoding: StateCodec.encode(state), as: UTF8.self).contains(Self.secret))
            let redacted = redactor.redact(state)
            let snapshot = String(decoding: StateCodec.encode(redacted), as: UTF8.self)
            let described = String(describing: redacted)
            for (name, text) in [("snapshot", snapshot), ("state", described)] {
                #expect(!text.contains(Self.secret), "\(name): …\(Self.context(of: Self.secret, in: text))…")
                #expect(!text.contains("4111 1111"), "\(name) keeps a card number")
            }
            #expect(snapshot.contains(Self.kept) && described.contains(Self.kept), "the redaction dropped what names things")
            #expect(try StateCodec.decode(StateCodec.encode(redacted)) == redacted)
        }
    }

    @Test("exportDiagnostics of a journal whose snapshots hold such states holds no marker that may name someone")
    func diagnostics() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        var random = RandomStates(generator: SplitMix64(seed: 7))
        var options = JournalOptions()
        options.rotation = .onRequest
        options.segmentBytes = 1024
        options.retainedBytes = nil
        let writer = try JournalWriter(directory: root + "/journal", options: options, snapshot: { _ in StateCodec.encode(SDKState()) })
        var time = JournalTime(microsecondsSince1970: 1_764_000_000_000_000)
        for _ in 0..<20 {
            var bundle = RecordBundle()
            FactCodec.append(.networkReachable, to: &bundle)
            for _ in 0..<400 { _ = try writer.appendBundle(bundle, timestamp: time) }
            // Written and synced, so the segment's size is known and its rotation due, however
            // far behind the group-commit thread runs.
            _ = try writer.sync()
            let snapshot = StateCodec.encode(random.state())
            _ = try writer.rotateIfNeeded(time: time, snapshot: { _ in snapshot })
            time = time.advanced(byMilliseconds: 1)
        }
        try writer.close()
        let copier = DiagnosticsCopier(journalDirectory: root + "/journal", storage: PosixStorage(), destination: root + "/copy",
                                       byteBudget: 64 << 20, note: nil)
        let export = try copier.run()
        #expect(export.segmentsCopied >= 5)
        var text = ""
        let cursor = try JournalReader(directory: root + "/copy").records()
        while let record = try cursor.next() { text += String(decoding: record.payload, as: UTF8.self) }
        #expect(!text.contains(Self.secret), "…\(Self.context(of: Self.secret, in: text))…")
        #expect(text.contains(Self.kept))
    }

    static func context(of needle: String, in text: String) -> String {
        guard let range = text.range(of: needle) else { return "" }
        let start = text.index(range.lowerBound, offsetBy: -120, limitedBy: text.startIndex) ?? text.startIndex
        let end = text.index(range.upperBound, offsetBy: 40, limitedBy: text.endIndex) ?? text.endIndex
        return String(text[start..<end])
    }
}
