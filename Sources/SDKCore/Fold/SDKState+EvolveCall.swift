import Journal

extension SDKState {
    /// Applies a call fact (``FactFamily/call``; part of ``evolve(_:at:)``): the instance calls
    /// run on, identity, attribution, unknown-user events, tracked links, resolutions.
    mutating func evolveCall(_ fact: Fact, at time: JournalTime) {
        switch fact {
        case .initialized(let project, let generation):
            live = project
            instanceRunning = true
            projects[project.fingerprint] = project
            self.generation = generation
            // A fresh refresh budget per instance, but a refresh already asked for stays
            // awaited: its task (another project's, made during a switch) waits on its answer.
            auth = auth.compactMapValues { $0.refreshing.map { AuthState(refreshesUsed: 0, refreshing: $0) } }
            clearedProjects.remove(project.fingerprint)
        case .callRejected:
            break
        case .identityChanged(let email, let userID):
            self.email = email
            self.userID = userID
        case .pushTokenChanged(let token):
            pushToken = token
        case .attributionChanged(_, let info):
            attribution = info
        case .attributionRefused:
            break
        case .unknownUserEventHeld(_, let call, let event):
            heldEvents.append(HeldEvent(call: call, event: event))
        case .unknownUserSessionCounted:
            unknownUserSessions &+= 1
        case .unknownUserEventsReleased:
            heldEvents = []
            unknownUserSessions = 0
        case .callResolved, .callsResolved:
            fact.forEachResolution { call, _ in
                if let index = pendingCalls.index(forKey: call) { removePendingCall(at: index) }
            }
        case .linkResolutionStarted(let job, let call, let url, let project, let generation):
            linkJobs[job] = LinkJob(call: call, url: url, project: project, generation: generation)
            nextRequestNumber = max(nextRequestNumber, job &+ 1)
        case .staleResultRefused:
            break
        default:
            // A default is right: evolve(_:at:) sends only this family's facts here, and
            // Each kind's declaration gives it its family (and so this function).
            break
        }
    }

    /// What folding `callResolved` changes, for the pending call at `index` (looked up once by
    /// ``resolve(_:_:_:)``, which decides the fact, and by ``evolveCall(_:at:)``, which folds it).
    mutating func removePendingCall(at index: CallTable<PendingCall>.Index) {
        pendingCalls.remove(at: index)
    }
}
