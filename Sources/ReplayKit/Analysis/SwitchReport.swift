import Journal
import SDK

/// Everything `replay diagnose` found about one switch request, from its `switchRouted` to its
/// callbacks.
package struct SwitchReport {
    /// Where in the journal something happened.
    struct Mark {
        var sequence: UInt64
        var time: JournalTime

        var text: String { "seq \(sequence) at \(time)" }
        var json: JSONValue { .object([("seq", .unsigned(sequence)), ("time", .string(time.description))]) }
    }

    struct Step {
        var step: TeardownStepKind
        var began: Mark
        var finished: Mark?
        var outcome: StepOutcome?
        var elapsedMicroseconds: Int64?
    }

    /// The outgoing disable's durability: requested, bounded, confirmed.
    struct Durability {
        var request: UInt64
        var requested: Mark
        var boundDue: JournalTime?
        var boundPassed: Mark?
        var confirmed: Mark?
        var failure: String?
    }

    struct HeldCall {
        var call: CallID
        var name: String
        var queued: Mark
        var position: Int
        var replayed: Mark?
        var replayedOn: ProjectFingerprint?
        /// When the gate let it go unreplayed (the SDK shut down).
        var dropped: Mark?
    }

    /// The device's wall clock jumped while the switch ran (the journal's time did not).
    struct ClockJump {
        var at: Mark
        var jumpMicroseconds: Int64
        var wall: JournalTime
    }

    struct InlineCall {
        var call: CallID
        var name: String
        var at: Mark
        var project: ProjectFingerprint
    }

    let id: SwitchID
    var call: CallID
    var requested: Mark
    var project: ProjectRef
    var routing: SwitchRouting
    /// The project the SDK was on (or heading to) when the request came.
    var liveAtRequest: ProjectFingerprint?
    var absorbed: [(id: SwitchID, call: CallID, at: Mark)] = []
    var started: Mark?
    var from: ProjectFingerprint?
    var steps: [Step] = []
    var durability: Durability?
    var held: [HeldCall] = []
    var inline: [InlineCall] = []
    var clockJumps: [ClockJump] = []
    /// What the app's background tasks did while the switch ran (``Describe/background(_:)``).
    var background: [(at: Mark, text: String)] = []
    /// Storage that opened late or a key that could not be filed while the switch ran
    /// (``Describe/storage(_:)``).
    var storage: [(at: Mark, text: String)] = []
    var landed: Mark?
    var landedOn: ProjectFingerprint?
    var result: SwitchResult?
    var reasons: [String] = []
    var callbacks: Mark?
    /// When and why the switch was dropped before it began (the SDK shut down).
    var cancelled: (mark: Mark, reason: String)?
    /// For an absorbed request: when the switch that carried it landed.
    var carrierLanded: Mark?
    package var anomalies: [String] = []
    /// The projects' labels as the journal gave them, for the renderings.
    var labels = ProjectLabels()

    /// Whether the switch runs a teardown of its own (rather than riding on another or doing nothing).
    var runsItself: Bool {
        switch routing {
        case .started, .enqueued, .initialization: true
        case .absorbed, .noop, .moved: false
        }
    }

    /// Whether nothing more can be learned about it.
    var isComplete: Bool {
        switch routing {
        case _ where cancelled != nil: true
        case .absorbed, .moved: carrierLanded != nil
        case .noop: true
        case .started, .enqueued, .initialization: landed != nil && callbacks != nil && (durability == nil || durability?.confirmed != nil)
        }
    }

    /// The durability verdict in words.
    var durabilityVerdict: String? {
        guard let durability else { return nil }
        let requested = durability.requested.time
        let bound = durability.boundDue.map { Describe.elapsed(from: requested, to: $0) } ?? "?"
        if let failure = durability.failure { return "the journal failed to make it durable: \(failure)" }
        switch (durability.confirmed, durability.boundPassed) {
        case (let confirmed?, nil):
            return "durable after \(Describe.elapsed(from: requested, to: confirmed.time)), within the \(bound) bound (\(confirmed.text))"
        case (let confirmed?, let passed?) where confirmed.sequence < passed.sequence:
            return "durable after \(Describe.elapsed(from: requested, to: confirmed.time)), within the \(bound) bound (\(confirmed.text))"
        case (let confirmed?, let passed?):
            return "NOT durable within the \(bound) bound (bound passed \(passed.text)); durable \(Describe.elapsed(from: requested, to: confirmed.time)) after the request (\(confirmed.text))"
        case (nil, let passed?):
            return "NOT durable within the \(bound) bound (bound passed \(passed.text)); never confirmed in the journal"
        case (nil, nil):
            return "not confirmed yet (requested \(durability.requested.text))"
        }
    }

    /// Closes a switch that was open where the journal lost records to damage: that is said,
    /// not what the lost records would have shown.
    mutating func closeAtLoss(_ skip: SkippedRange) {
        let lost = switch (skip.damage.sequence, skip.resumedAtSequence) {
        case let (first?, resumed?) where resumed > first: "sequences \(first)...\(resumed - 1)"
        case let (first?, nil): "the sequences from \(first)"
        default: "records"
        }
        anomalies.append("the journal lost \(lost) to damage (\(skip.damage.segment)) while it was open: how it went on is not known")
    }

    /// Adds the anomalies only the end of the journal reveals.
    mutating func closeAtEnd() {
        switch routing {
        case _ where cancelled != nil:
            break
        case .absorbed(let into) where carrierLanded == nil, .moved(let into) where carrierLanded == nil:
            anomalies.append("joined \(into), which never landed in the journal")
        case .started, .enqueued, .initialization:
            if started == nil { anomalies.append("requested but never started") }
            else if landed == nil { anomalies.append("started but never landed") }
            else if callbacks == nil { anomalies.append("landed but its callbacks were never reported delivered") }
            if let durability, durability.confirmed == nil, durability.failure == nil {
                anomalies.append("the outgoing disable's durability (request #\(durability.request)) was never confirmed")
            }
        case .absorbed, .moved, .noop:
            // Joined a switch that landed, or had nothing to do: nothing left open.
            break
        }
        for step in steps where step.finished == nil {
            anomalies.append("step \(step.step.rawValue) began (\(step.began.text)) and never finished")
        }
        for held in held where held.replayed == nil && held.dropped == nil {
            anomalies.append("held call \(held.call) (\(held.name)) was never replayed")
        }
    }
}
