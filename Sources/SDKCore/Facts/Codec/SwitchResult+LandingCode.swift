extension SwitchResult {
    /// How `switchLanded` records the result: 1 clean, 2 with warnings (a landed switch is
    /// never one of the stopped cases).
    var landingCode: UInt64 { self == .switchedCleanly ? 1 : 2 }
}
