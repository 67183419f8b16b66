/// The journal record kind of each fact. These numbers are part of the journal format: never
/// reuse or renumber one. Kinds 16–31 and 80–95 are inputs, 32–63 decisions, 64–79 switch
/// decisions.
package enum FactKind: UInt32, Sendable, CaseIterable {
    case engineStarted = 16
    case callReceived = 17
    case transportCompleted = 18
    case timerFired = 19
    case durabilityConfirmed = 20
    case moduleHookCompleted = 21
    case authTokenReceived = 22
    case callbacksDelivered = 23
    case notificationReceived = 24
    case engineStopping = 25
    case linkResolved = 26
    case networkReachable = 27
    case localDataErased = 28
    case clockJumped = 29
    case backgroundTaskBegan = 30
    case backgroundTaskExpired = 31

    case initialized = 32
    case gateDecided = 33
    case callRejected = 34
    case identityChanged = 35
    case pushTokenChanged = 36
    case attributionChanged = 37
    case attributionRefused = 38
    case unknownUserEventHeld = 39
    case unknownUserSessionCounted = 40
    case taskQueued = 41
    case taskDispatched = 42
    case taskCompleted = 43
    case timerSet = 44
    case callResolved = 45
    case authRefreshRequested = 46
    case authRefreshFinished = 47
    case moduleEventDelivered = 48
    case moduleHookStarted = 49
    case moduleHookFinished = 50
    case messagesStored = 51
    case storageCleared = 52
    case durabilityRequested = 53
    case unknownUserEventsReleased = 54
    case journalGap = 55
    case linkResolutionStarted = 56
    case staleResultRefused = 57
    case eventBatched = 58
    case callsResolved = 59
    case retryScheduled = 60
    case eventsExpired = 61
    case disableCoalesced = 62

    case switchRouted = 64
    case switchStarted = 65
    case teardownStepBegan = 66
    case teardownStepFinished = 67
    case switchLanded = 68
    case switchCancelled = 69

    // Inputs again: 16–31 ran out.
    case backgroundFlushFinished = 80
    case backgroundTaskEnded = 81
    case storageWasUnavailable = 82
    case keyringWriteFailed = 83

    /// Whether facts of this kind are inputs (what the world told the SDK) rather than decisions.
    public var isInput: Bool { Self.isInput(rawValue) }

    /// Whether a record kind is an input's, known to this build or not (16–31, 80–95).
    public static func isInput(_ kind: UInt32) -> Bool { kind < 32 || (80..<96).contains(kind) }

    /// The kind's name as `replay` prints it.
    public var name: String { Self.names[Int(rawValue)] }

    /// Every kind's name by its number, made once: describing an enum case goes through
    /// reflection, and an array is read without hashing.
    private static let names: [String] = allCases.reduce(into: Array(repeating: "", count: Int(allCases.map(\.rawValue).max()!) + 1)) { names, kind in
        names[Int(kind.rawValue)] = "\(kind)"
    }

    /// The kind with this name, for `replay timeline --kind`.
    public init?(name: String) {
        guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = found
    }
}
