import Journal

extension SDKState {
    /// Runs an event or commerce call (``CallFamily/event``: `track`, `trackPurchase`,
    /// `updateCart`; part of ``execute(_:on:_:)``): held for an unknown user until they are
    /// identified.
    mutating func executeEventCall(_ received: ReceivedCall, on project: ProjectRef, _ decisions: inout InputDecisions) {
        let identity = requestIdentity
        guard identity.isKnown else {
            holdForUnknownUser(received, on: project, &decisions)
            return
        }
        enqueue(received.call, call: received.id, on: project, identity: identity, &decisions)
    }

    /// Builds the body of `received` now, before the call is recorded, when it is a `track`
    /// call that will run at once against the live project (no switch holds the gate, the user
    /// is known): what ``enqueue(_:call:on:identity:roomReserved:_:)`` would build for it, the same bytes,
    /// written into ``InputCarryOver/preparedBody``; its data fields' JSON serves the call's
    /// record and validation too (``InputDecisions``). Nil, and nothing written, for any other call.
    mutating func prepareTrackBody(for received: ReceivedCall, at time: JournalTime) -> TrackBody? {
        // `live` by its case: `live != nil` compares two optionals with ProjectRef's `==`,
        // copying the project.
        guard case .track(let event, let dataFields) = received.call, case .some = live, instanceRunning || switching.isSwitching,
              switching.gateOwner == nil, email != nil || userID != nil else { return nil }
        return RequestBody.writeTrackBody(event, dataFields: dataFields, identity: requestIdentity,
                                          createdAt: RequestBody.createdAt(time), into: &input.preparedBody)
    }

    /// The `events/track` body of call `call`, the input's `track` call (``input``),
    /// made at `time` for the user the state names: what the gate's decision built when it ran
    /// the call, and what an `eventBatched` that carries that decision stands for. Empty when
    /// the input's call is another (a damaged journal).
    func receivedTrackBody(of call: CallID, at time: JournalTime) -> [UInt8] {
        guard let track = input.track, track.call == call else { return [] }
        return RequestBody.trackBody(track.event, dataFields: track.dataFields, identity: requestIdentity,
                                     createdAt: RequestBody.createdAt(time))
    }

    /// The most events held for an unknown user.
    package static let heldEventCapacity = 100

    /// The room in the queue holding `event` for an unknown user takes: its share of
    /// ``heldEventsReservation``.
    func heldEventsReservation(adding event: PublicCall) -> Int {
        DeliveryTask.footprint(bodyBytes: RequestBody.reservedBytes(forHeld: event), path: Self.longestEventPath, endpoint: live?.endpoint ?? "",
                               region: live?.region ?? "", query: nil, user: nil)
    }

    /// An event made with no identity: held in the project's storage until the user is known,
    /// holding its room in the delivery queue meanwhile (``HeldEvent/reservedBytes``), so that
    /// identifying the user always has room to release it. Discarded at once when the held
    /// events or the queue are full.
    private mutating func holdForUnknownUser(_ received: ReceivedCall, on project: ProjectRef, _ decisions: inout InputDecisions) {
        if heldEvents.count >= Self.heldEventCapacity {
            resolve(received.id, .discarded(.queueFull(capacity: Self.heldEventCapacity)), &decisions)
            return
        }
        if !queueHasRoom(forEvents: 1, bytes: heldEventsReservation(adding: received.call)) {
            resolve(received.id, .discarded(.queueFull(capacity: rules.queueCapacity)), &decisions)
            return
        }
        emit(.unknownUserEventHeld(project: project.fingerprint, call: received.id, event: received.call), &decisions)
        resolve(received.id, .applied(project: project.fingerprint), &decisions)
    }
}
