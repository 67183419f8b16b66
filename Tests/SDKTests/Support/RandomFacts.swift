import Foundation
import Journal
import SDKTesting
import Testing
@testable import SDK
@testable import SDKCore

/// Random facts of every declared kind, and random values of the types their fields hold, from
/// a seed, for codec round-trip tests.
///
/// A fact is drawn from its kind's declaration: ``Fact/init(_:reading:)``, the decoder's own
/// reading of a fact from its fields, reads each field from a ``RandomFieldSource`` that draws
/// a value of the type the kind holds there (``RandomlyDrawn``). A new kind is drawn without an
/// edit here; a field of a type nothing draws yet fails the test that asked, naming the type.
struct RandomFacts {
    private var generator: SplitMix64

    init(seed: UInt64) {
        generator = SplitMix64(seed: seed &+ 0x9E37_79B9_7F4A_7C15)
    }

    mutating func next() -> UInt64 {
        generator.next()
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    mutating func bool() -> Bool { next() & 1 == 1 }
    mutating func string() -> String {
        ["", "a", "ada@example.com", "événement", "line\nbreak", "🚀", String(repeating: "x", count: int(0...40)),
         "\"quoted\" \\ back/slash\ttab\u{01}\u{1F}\u{7F}", "\u{2028}\u{FEFF}\u{10FFFF}"][int(0...8)]
    }
    mutating func optionalString() -> String? { bool() ? string() : nil }
    mutating func fingerprint() -> ProjectFingerprint { ProjectFingerprint(apiKey: "key-\(int(0...5))") }
    mutating func callID() -> CallID { CallID(UUID(uuid: (UInt8(int(0...255)), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, UInt8(int(0...255))))) }
    mutating func time() -> JournalTime { JournalTime(microsecondsSince1970: Int64(int(-1_000...1_000_000)) * 1_000) }
    mutating func taskID() -> TaskID { TaskID(UInt64(int(0...1_000_000))) }
    mutating func switchID() -> SwitchID { SwitchID(UInt64(int(0...100))) }

    mutating func project() -> ProjectRef {
        ProjectRef(fingerprint: fingerprint(), region: ["us", "eu", "custom"][int(0...2)], endpoint: "https://e\(int(0...9)).test/api/",
                   usesJWT: bool(), retry: RetryRules(maxAttempts: int(1...9), baseDelayMilliseconds: Int64(int(0...5_000)),
                                                      maxDelayMilliseconds: Int64(int(0...90_000)), jwtRefreshBudget: int(0...5)),
                   label: optionalString())
    }

    mutating func data(depth: Int = 0) -> DataValue {
        switch int(0...(depth > 2 ? 4 : 6)) {
        case 0: return .string(string())
        case 1: return .integer(bool() ? Int64(int(-1_000_000...1_000_000)) : [Int64.max, Int64.min, 0, -1][int(0...3)])
        case 2:
            // Whole and fractional doubles, and the ends of the range: the data fields' JSON
            // (format 1.3) must read every one back as it was, or not be used.
            return .number(bool() ? Double(int(-1000...1000)) / 8
                           : [-0.0, 1e15, -1e15 + 1, 1e300, .leastNonzeroMagnitude, -.greatestFiniteMagnitude, 0.1, 1.0 / 3][int(0...7)])
        case 3: return .bool(bool())
        case 4: return .null
        case 5: return .array((0..<int(0...3)).map { _ in data(depth: depth + 1) })
        default: return .object(object(depth: depth + 1))
        }
    }

    mutating func object(depth: Int = 0) -> [String: DataValue] {
        Dictionary((0..<int(0...3)).map { _ in (string(), data(depth: depth + 1)) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func items() -> [CommerceItem] {
        (0..<int(0...2)).map { _ in
            CommerceItem(id: string(), name: string(), price: Double(int(0...999)) / 4, quantity: int(0...5), sku: optionalString(),
                         dataFields: bool() ? object() : nil)
        }
    }

    mutating func call() -> PublicCall {
        switch int(0...28) {
        case 0: return .initialize(project())
        case 1: return .switchProject(project())
        case 2: return .setEmail(optionalString())
        case 3: return .setUserId(optionalString())
        case 4: return .updateEmail(string())
        case 5: return .updateUser(dataFields: object(), mergeNestedObjects: bool())
        case 6: return .updateCart(items: items())
        case 7: return .trackPurchase(total: Double(int(0...10_000)) / 100, items: items(), dataFields: bool() ? object() : nil)
        case 8: return .track(event: string(), dataFields: bool() ? object() : nil)
        case 9: return .registerToken(string())
        case 10: return .disableDevice
        case 11: return .logoutUser
        case 12: return .trackPushOpen(PushOpen(campaignID: bool() ? Int64(int(0...99)) : nil, templateID: bool() ? 7 : nil,
                                                messageID: string(), appAlreadyRunning: bool(), dataFields: bool() ? object() : nil))
        case 13: return .handlePush(payload: object())
        case 14: return .inAppFetch(count: int(0...100))
        case 15: return .inAppOpen(messageID: string())
        case 16: return .inAppClick(messageID: string(), url: string())
        case 17: return .inAppClose(messageID: string(), url: optionalString())
        case 18: return .inAppDelivery(messageID: string())
        case 19: return .inAppConsume(messageID: string())
        case 20: return .embeddedFetch
        case 21: return .embeddedReceived(messageID: string())
        case 22: return .embeddedClick(messageID: string(), buttonID: optionalString(), url: optionalString())
        case 23: return .setAttribution(bool() ? AttributionInfo(campaignID: 1, templateID: 2, messageID: string()) : nil)
        case 24: return .handleUniversalLink(url: "https://links.test/a/" + string())
        case 25: return .oversized(PublicCall.Name.allCases[int(0...(PublicCall.Name.allCases.count - 1))], reason: string())
        case 26: return .setConsent(granted: bool())
        case 27: return .eraseLocalData
        default: return .flush
        }
    }

    mutating func failure() -> CallFailure {
        switch int(0...6) {
        case 0: .rejected(string())
        case 1: .notInitialized
        case 2: .httpStatus(int(400...499), code: optionalString(), message: optionalString())
        case 3: .retriesExhausted(string())
        case 4: .authentication(string())
        case 5: .linkNotResolved(string())
        default: .notDurable(string())
        }
    }

    mutating func discard() -> DiscardReason {
        [.purgedByLogout, .purgedBySwitch(switchID()), .undeliveredAtSwitch(switchID()), .gateFull(capacity: int(0...9)),
         .queueFull(capacity: int(0...9)), .shutdown, .expired(ageLimit: .milliseconds(int(0...999_999))), .consentDeclined,
         .erased][int(0...8)]
    }

    mutating func event() -> ModuleSignal {
        [.initialize, .start, .notification(string()), .reset, .deinitialize, .willLogout, .willSwitchProject(to: fingerprint())][int(0...6)]
    }

    mutating func timer() -> TimerPurpose {
        [.retry(taskID(), attempt: int(1...5)), .teardownBound(switchID(), TeardownStepKind.allCases[int(0...8)]),
         .moduleHookBound(hook: UInt64(int(0...99)))][int(0...2)]
    }

    mutating func task() -> DeliveryTask {
        var task = DeliveryTask(id: taskID(), call: bool() ? callID() : nil, project: fingerprint(), region: "us", endpoint: "https://x/api/",
                                path: ["events/track", "users/disableDevice"][int(0...1)], method: bool() ? .get : .post, query: optionalString(),
                                body: Array(string().utf8), createdAt: time(), generation: bool() ? next() % 9 : nil,
                                user: [nil, .email(string()), .userID(string())][int(0...2)])
        if int(0...3) == 0 {
            let events = (0..<int(1...3)).map { _ in batchedEvent() }
            task.replaceBatch(events, queuedAt: events.map { _ in time() })
            if bool() { task.removeExpiredEvents([task.call].compactMap { $0 }) }
        }
        return task
    }

    mutating func batchedEvent() -> BatchedEvent {
        BatchedEvent(call: callID(), body: Array(string().utf8))
    }

    // MARK: Field values by their declared kind

    /// A number field's value: mostly small (a job, a request, a count), sometimes of any width
    /// up to 63 bits (every length of varint).
    mutating func number() -> UInt64 {
        int(0...3) == 0 ? next() >> UInt64(int(1...63)) : UInt64(int(0...999))
    }

    /// A duration in microseconds, forward or (a clock jump) backward.
    mutating func microseconds() -> Int64 {
        Int64(int(0...60_000_000)) * [1, 1, 1, -1_000][int(0...3)]
    }

    /// A text field's value, as `kind` says what it holds: the texts of ``string()``, and URLs
    /// and emails where the field holds them.
    mutating func text(_ kind: FactField.Text?) -> String {
        switch kind {
        case .url?: bool() ? "https://links.test/a/" + string() : string()
        case .personal(token: .email)?: bool() ? "user\(int(0...9))@example.com" : string()
        case .name?, .identifier?, .freeText?, .personal?, nil: string()
        }
    }

    /// A fact of any declared kind, drawn from its declaration.
    mutating func fact() -> Fact {
        fact(of: FactKind.allCases[int(0...(FactKind.allCases.count - 1))])
    }

    /// A fact of `kind`, each field drawn by its declared kind and the type the kind holds there,
    /// then read as the decoder reads a record (``Fact/init(_:reading:)``).
    mutating func fact(of kind: FactKind) -> Fact {
        var source = RandomFieldSource(self)
        defer { self = source.random }
        do {
            return try Fact(kind, reading: &source)
        } catch {
            Issue.record("no random \(kind) fact: \(error)")
            return .unknown(kind: kind.rawValue, payload: [])
        }
    }
}
