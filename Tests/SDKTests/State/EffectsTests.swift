import Foundation
import Journal
import Testing
@testable import SDKCore

/// The effects a batch of facts asks for are derived purely (``SDKState/effects(of:)``): these
/// pin what each fact asks, in order, and what travels from one fact of a batch to the next.
@Suite("Effects derived from facts", .timeLimit(.minutes(1)))
struct EffectsTests {
    private let call = CallID(UUID(uuidString: "00000000-0000-4000-8000-000000000001")!)
    private let project = ProjectFingerprint(apiKey: "effects-test-key")

    @Test("a dispatch sends, a timer arms, a durability request flushes, in the facts' order")
    func oneEffectPerFact() {
        let due = JournalTime(microsecondsSince1970: 1_000)
        let effects = SDKState().effects(of: [
            .taskDispatched(task: TaskID(7), attempt: 2),
            .timerSet(.retry(TaskID(7), attempt: 3), due: due),
            .durabilityRequested(request: 4, purpose: .flush(call)),
        ])
        #expect(effects == [.send(TaskID(7), attempt: 2), .armTimer(.retry(TaskID(7), attempt: 3), due: due), .requestDurability(4)])
    }

    @Test("a landing's completions carry its result, and the landing is armed after the last of them")
    func landingCompletions() {
        let landed = SwitchID(3)
        let effects = SDKState().effects(of: [
            .callResolved(call: call, outcome: .discarded(.queueFull(capacity: 1_000))),
            .switchLanded(switch: landed, project: project, result: .switchedWithWarnings, reasons: ["slow"]),
            .callResolved(call: call, outcome: .applied(project: project)),
        ])
        let landing = Effect.Landing(id: landed, result: .switchedWithWarnings)
        let expected: [Effect] = [
            .complete(call, .discarded(.queueFull(capacity: 1_000)), landing: nil, linkDestination: nil),
            .beginLanding(landed),
            .complete(call, .applied(project: project), landing: landing, linkDestination: nil),
            .armLanding(landed),
        ]
        #expect(effects == expected)
    }

    @Test("a link's destination reaches the completion resolved in its batch")
    func linkDestination() {
        let resolution = LinkResolution(job: 1, destination: "https://shop.example/a", attribution: nil, failure: nil)
        let effects = SDKState().effects(of: [.linkResolved(resolution), .callResolved(call: call, outcome: .applied(project: project))])
        #expect(effects == [.complete(call, .applied(project: project), landing: nil, linkDestination: "https://shop.example/a")])
    }

    @Test("a hook with no instance to run for completes at once; identity and instance changes forget tokens")
    func hooksAndTokens() {
        let effects = SDKState().effects(of: [
            .moduleHookStarted(hook: 9, module: "in-app", event: .willLogout),
            .identityChanged(email: "ada@example.com", userID: nil),
            .storageCleared(project: project, scope: .identity),
        ])
        #expect(effects == [.completeHookAtOnce(9), .identityChanged(user: .email("ada@example.com")), .identityChanged(user: nil)])
    }
}

@Suite("Idempotency keys", .timeLimit(.minutes(1)))
struct IdempotencyKeyTextTests {
    @Test("a UUID's lowercase text is Foundation's, digit for digit")
    func lowercaseText() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000 {
            let uuid = UUID(uuid: (UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator), 0x4a, 0xff,
                                   0, 1, UInt8.random(in: 0...255, using: &generator), 0x0f, 0x80, 0x90, 0xa0, 0xb0,
                                   UInt8.random(in: 0...255, using: &generator), 0xd0, 0xe0, 0xf0))
            #expect(uuid.lowercasedText == uuid.uuidString.lowercased())
        }
        for _ in 0..<1_000 {
            let uuid = UUID()
            let written = ScratchBytes.withScratch { output -> String in
                uuid.writeLowercasedText(to: &output)
                return String(decoding: output.written, as: UTF8.self)
            }
            #expect(written == uuid.uuidString.lowercased())
        }
        let fixed = UUID(uuidString: "00000000-0000-4000-8000-00000000000A")!
        #expect(fixed.lowercasedText == "00000000-0000-4000-8000-00000000000a")
        let every = UUID(uuidString: "01234567-89AB-CDEF-FEDC-BA9876543210")!
        #expect(every.lowercasedText == "01234567-89ab-cdef-fedc-ba9876543210")
    }
}
