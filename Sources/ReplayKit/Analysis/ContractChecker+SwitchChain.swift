import SDK

/// `chain-settles`: each switch lands where it was headed, and once none is pending the SDK is
/// on the last requested project.
extension ContractChecker {
    /// A switch is routed: one that starts or waits in the queue is pending, headed for `project`.
    func switchRouted(_ id: SwitchID, to project: ProjectFingerprint, _ routing: SwitchRouting, at sequence: UInt64) {
        lastRouted = (id, project, sequence)
        switch routing {
        case .started, .enqueued, .initialization:
            pendingSwitches.insert(id)
            switchTargets[id] = project
        case .absorbed, .noop, .moved:
            break
        }
    }

    /// A queued switch is cancelled (the SDK shut down).
    func switchCancelled(_ id: SwitchID, at sequence: UInt64) {
        pendingSwitches.remove(id)
        switchTargets[id] = nil
        // A shutdown cancels every queued switch: the chain now ends where the switch still
        // pending (the one in flight, finished at the next launch) goes, or nowhere.
        if let routed = lastRouted, !switchTargets.values.contains(routed.project) {
            lastRouted = pendingSwitches.sorted(by: { "\($0)" < "\($1)" }).last.flatMap { pending in
                switchTargets[pending].map { (pending, $0, sequence) }
            }
        }
    }

    /// A switch starts: towards the project it was requested for.
    func switchStarted(_ id: SwitchID, to: ProjectFingerprint, at sequence: UInt64) {
        if let headed = switchTargets[id], headed != to {
            report(.chainSettles, "\(id) was requested for \(labels.name(headed)) but started towards \(labels.name(to))", [sequence])
        }
        switchTargets[id] = to
    }

    /// A switch lands: where it was headed; calls waiting for the next landing belong there.
    func switchLanded(_ id: SwitchID, on project: ProjectFingerprint, at sequence: UInt64) {
        if let headed = switchTargets[id], headed != project {
            report(.chainSettles, "\(id) was headed for \(labels.name(headed)) but landed on \(labels.name(project))", [sequence])
        }
        pendingSwitches.remove(id)
        switchTargets[id] = nil
        for (call, entry) in targets {
            if case .nextLanding = entry.target { targets[call] = (.project(project, because: sequence), entry.received) }
        }
    }

    /// At the end: with no switch pending, the SDK is where the last request asked.
    func finishSwitchChain(state: SDKState) {
        if pendingSwitches.isEmpty, let routed = lastRouted, let live = state.live?.fingerprint, live != routed.project {
            report(.chainSettles, "no switch is pending, yet the SDK is on \(labels.name(live)) while the last switch request (\(routed.id)) asked for \(labels.name(routed.project))",
                   [routed.sequence] + (lastLive.map { [$0.sequence] } ?? []))
        }
    }
}
