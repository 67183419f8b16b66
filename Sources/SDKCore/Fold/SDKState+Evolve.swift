import Journal

extension SDKState {
    /// The state after `fact`, journaled at `time`. Total, pure and deterministic: no clock, no
    /// I/O, no randomness. Facts of unknown kinds change nothing.
    public func evolved(by fact: Fact, at time: JournalTime) -> SDKState {
        var next = self
        next.evolve(fact, at: time)
        return next
    }

    /// Applies `fact`, journaled at `time` (see ``evolved(by:at:)``): hands it to its family's
    /// `evolve<Family>` (``FactFamily``); a fact of an unknown kind only moves the time.
    public mutating func evolve(_ fact: Fact, at time: JournalTime) {
        self.time = time
        switch fact.family {
        case .input: evolveInput(fact, at: time)
        case .call: evolveCall(fact, at: time)
        case .delivery: evolveDelivery(fact, at: time)
        case .module: evolveModule(fact, at: time)
        case .switch: evolveSwitch(fact, at: time)
        case nil: break
        }
    }
}
