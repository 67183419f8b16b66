/// The families facts are grouped in. A fact's family names the files that handle it: its
/// codec (`<Family>FactCodec`) and how it changes the state (`SDKState.evolve<Family>`), so a
/// new fact touches its family's files and the table in ``FactKind/family``, nothing else.
enum FactFamily: Sendable, CaseIterable {
    /// What the world told the SDK (kinds 16–31): public calls arriving, answers, timers,
    /// durability, lifecycle notices.
    case input
    /// What became of a call: the instance it runs on, identity, attribution, unknown-user
    /// events, tracked links, its resolution.
    case call
    /// The delivery queue and what it waits on: tasks, their timers, auth refreshes, the
    /// journal's durability and its gaps.
    case delivery
    /// Modules: their lifecycle events and hooks, the messages they store, storage clears.
    case module
    /// Switching (kinds 64–79, and the gate's decisions): routing, teardown, landing.
    case `switch`
}

extension FactKind {
    /// The family of facts of this kind (the table every family dispatch reads).
    var family: FactFamily {
        switch self {
        case .engineStarted, .callReceived, .transportCompleted, .timerFired, .durabilityConfirmed, .moduleHookCompleted,
             .authTokenReceived, .callbacksDelivered, .notificationReceived, .engineStopping, .linkResolved, .networkReachable, .localDataErased:
            .input
        case .initialized, .callRejected, .callResolved, .callsResolved, .identityChanged, .pushTokenChanged, .attributionChanged,
             .attributionRefused, .unknownUserEventHeld, .unknownUserSessionCounted, .unknownUserEventsReleased,
             .linkResolutionStarted, .staleResultRefused:
            .call
        case .taskQueued, .eventBatched, .taskDispatched, .retryScheduled, .taskCompleted, .timerSet, .authRefreshRequested,
             .authRefreshFinished, .durabilityRequested, .journalGap:
            .delivery
        case .moduleEventDelivered, .moduleHookStarted, .moduleHookFinished, .messagesStored, .storageCleared:
            .module
        case .gateDecided, .switchRouted, .switchStarted, .teardownStepBegan, .teardownStepFinished, .switchLanded,
             .switchCancelled:
            .switch
        }
    }
}

extension Fact {
    /// The fact's family; nil for a kind this build does not know.
    var family: FactFamily? { FactKind(rawValue: FactCodec.kind(of: self))?.family }
}
