import SDK

/// `module-order`: per module and generation, initialize before start, start once,
/// deinitialize at most once, nothing after it.
extension ContractChecker {
    /// A hook of `module` starts: never after the module's deinitialize.
    func hookStarted(_ module: String, _ signal: ModuleSignal, at sequence: UInt64) {
        if let lifecycle = modules[module], lifecycle.deinitialized {
            report(.moduleOrder, "module \(module) heard \(signal.label) after its deinitialize (generation \(lifecycle.generation))", [sequence])
        }
    }

    /// Checks one delivered signal against the module's lifecycle so far.
    func checkModule(_ module: String, _ signal: ModuleSignal, generation: UInt64, at sequence: UInt64) {
        var lifecycle = modules[module] ?? (generation, false, false, false)
        if generation < lifecycle.generation {
            report(.moduleOrder, "module \(module) heard \(signal.label) for generation \(generation) after generation \(lifecycle.generation) began", [sequence])
            return
        }
        if generation > lifecycle.generation { lifecycle = (generation, false, false, false) }
        let name = signal.label
        if lifecycle.deinitialized {
            report(.moduleOrder, "module \(module) heard \(name) after its deinitialize (generation \(generation))", [sequence])
        }
        switch signal {
        case .initialize:
            if lifecycle.initialized { report(.moduleOrder, "module \(module) initialized twice in generation \(generation)", [sequence]) }
            lifecycle.initialized = true
        case .start:
            if !lifecycle.initialized { report(.moduleOrder, "module \(module) started before it was initialized (generation \(generation))", [sequence]) }
            if lifecycle.started { report(.moduleOrder, "module \(module) started twice in generation \(generation)", [sequence]) }
            lifecycle.started = true
        case .deinitialize:
            lifecycle.deinitialized = true
        // Every other signal must come after initialize.
        case .notification, .reset, .willLogout, .willSwitchProject:
            if !lifecycle.initialized { report(.moduleOrder, "module \(module) heard \(name) before it was initialized (generation \(generation))", [sequence]) }
        }
        modules[module] = lifecycle
    }
}
