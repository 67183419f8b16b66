import Journal

extension SDKState {
    /// What folding `moduleEventDelivered` changes (part of ``evolve(_:at:)``): the module's
    /// lifecycle flags in instance `generation`.
    mutating func foldModuleSignal(_ signal: ModuleSignal, module: String, generation: UInt64) {
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
    }

    /// What folding `storageCleared(project, scope)` changes (part of ``evolve(_:at:)``): what
    /// the scope names is gone.
    mutating func foldStorageCleared(_ project: ProjectFingerprint, scope: StorageScope) {
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
    }
}
