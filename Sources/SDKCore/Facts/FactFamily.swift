/// The families facts are grouped in, declared with each kind (``FactDeclaration``). A fact's
/// family names the file that folds it into the state (`SDKState+Evolve<Family>.swift`).
package enum FactFamily: Sendable, CaseIterable {
    /// What the world told the SDK (kinds 16–31): public calls arriving, answers, timers,
    /// durability, lifecycle notices.
    case input
    /// What became of a call: the instance it runs on, identity, attribution, unknown-user
    /// events, tracked links, its resolution.
    case call
    /// The delivery queue and what it waits on: tasks, their timers, auth refreshes, the
    /// journal's durability and its gaps.
    case delivery
    /// Modules: their lifecycle signals and hooks, the messages they store, storage clears.
    case module
    /// Switching (kinds 64–79, and the gate's decisions): routing, teardown, landing.
    case `switch`
}

extension FactKind {
    /// The family of facts of this kind, as its declaration says.
    var family: FactFamily { declaration.family }
}

extension Fact {
    /// The fact's family; nil for a kind this build does not know.
    var family: FactFamily? { FactKind(rawValue: FactCodec.kind(of: self))?.family }
}
