import SDK

/// Where the gate held each call of a page's pass (the switches' ``SwitchReport/held``, taken
/// out of each switch as it comes), in a temporary file, read back only for the calls drawn:
/// a long journal's held calls would not fit in the memory a page is allowed.
///
/// One owner at a time, on one thread (the `Sendable` conformance below says how).
final class SpilledHeldCalls {
    /// A held call without its name (the call's own).
    private struct Held {
        var call: CallID
        var queued: SwitchReport.Mark
        var position: Int
        var replayed: SwitchReport.Mark?
        var replayedOn: ProjectFingerprint?
        var dropped: SwitchReport.Mark?
    }

    private let values = SpilledValues<Held>(name: "report-held")

    /// How many held calls were kept.
    var count: Int { values.count }

    /// Keeps a call a switch held, in the switches' order.
    func keep(_ held: SwitchReport.HeldCall) throws {
        try values.append(Held(call: held.call, queued: held.queued, position: held.position, replayed: held.replayed,
                               replayedOn: held.replayedOn, dropped: held.dropped))
    }

    /// Hands out each held call kept, in order: its index and the call.
    func forEach(_ body: (Int, CallID) throws -> Void) throws {
        var index = 0
        try values.forEach { held in
            try body(index, held.call)
            index += 1
        }
    }

    /// The `index`-th held call kept; `name` is the call's.
    func held(_ index: Int, name: String) throws -> SwitchReport.HeldCall {
        let held = try values.value(at: index)
        return SwitchReport.HeldCall(call: held.call, name: name, queued: held.queued, position: held.position, replayed: held.replayed,
                                     replayedOn: held.replayedOn, dropped: held.dropped)
    }
}

extension SpilledHeldCalls: @unchecked Sendable {} // one thread at a time: kept by the side thread (SideFold), read by the pass's only after that thread ended and handed them over through finish(endingWith:)'s lock
