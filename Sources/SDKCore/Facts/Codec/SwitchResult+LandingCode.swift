extension SwitchResult {
    /// How `switchLanded` records the result: 1 clean, 2 with warnings (a landed switch is
    /// never one of the stopped cases).
    var landingCode: UInt64 { self == .switchedCleanly ? 1 : 2 }

    /// The result a `switchLanded` records as `code` (absent or unknown: with warnings).
    init(landingCode code: UInt64) {
        self = code == 1 ? .switchedCleanly : .switchedWithWarnings
    }
}
