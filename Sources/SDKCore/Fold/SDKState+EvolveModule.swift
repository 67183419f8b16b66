import Journal

extension SDKState {
    /// Applies a module fact (``FactFamily/module``; part of ``evolve(_:at:)``): lifecycle
    /// signals, hooks, the messages modules store, storage clears.
    mutating func evolveModule(_ fact: Fact, at time: JournalTime) {
        switch fact {
        case .moduleEventDelivered(let module, let signal, _, let generation):
            var lifecycle = modules[module] ?? ModuleLifecycle()
            if lifecycle.generation != generation { lifecycle = ModuleLifecycle(generation: generation) }
            switch signal {
            case .initialize: lifecycle.initialized = true
            case .start: lifecycle.started = true
            case .deinitialize: lifecycle.deinitialized = true
            // Signals that do not change the lifecycle flags.
            case .notification, .reset, .willLogout, .willSwitchProject: break
            }
            modules[module] = lifecycle
        case .moduleHookStarted(let hook, let module, let signal):
            hooks[hook] = PendingHook(module: module, signal: signal, startedAt: time)
            nextRequestNumber = max(nextRequestNumber, hook &+ 1)
        case .moduleHookFinished(let hook, let problem):
            if let problem, switching.inFlight?.step != nil { switching.inFlight?.stepProblems.append(problem) }
            hooks[hook] = nil
            timers[.moduleHookBound(hook: hook)] = nil
        case .messagesStored(let kind, _, let ids):
            switch kind {
            case .inApp: inAppMessageIDs = ids
            case .embedded: embeddedMessageIDs = ids
            }
        case .storageCleared(let project, let scope):
            switch scope {
            case .identity:
                email = nil
                userID = nil
                pushToken = nil
            case .projectScoped:
                attribution = nil
                heldEvents = []
                unknownUserSessions = 0
                clearedProjects.insert(project)
            case .inAppMessages:
                inAppMessageIDs = []
            case .embeddedMessages:
                embeddedMessageIDs = []
            case .personalData:
                email = nil
                userID = nil
                pushToken = nil
                attribution = nil
                heldEvents = []
                unknownUserSessions = 0
                inAppMessageIDs = []
                embeddedMessageIDs = []
            }
        default:
            // A default is right: evolve(_:at:) sends only this family's facts here, and
            // Each kind's declaration gives it its family (and so this function).
            break
        }
    }
}
