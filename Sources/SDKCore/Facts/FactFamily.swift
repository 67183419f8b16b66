/// The families facts are grouped in, declared with each kind (``FactDeclaration``). A fact's
/// family names the group of ``SDKState/evolve(_:at:)``'s cases that folds it, and the file
/// holding its longer folds (`SDKState+Evolve<Family>.swift`).
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
