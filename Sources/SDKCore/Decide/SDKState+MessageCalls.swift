import Journal

extension SDKState {
    /// Runs an in-app or embedded message call (``CallFamily/message``; part of
    /// ``execute(_:on:_:)``): each is the request its declaration states, made for the current
    /// user (the answers of fetches are stored when they come back: `SDKState+EvolveDelivery`).
    mutating func executeMessageCall(_ received: ReceivedCall, on project: ProjectRef, _ decisions: inout InputDecisions) {
        enqueue(received.call, call: received.id, on: project, identity: requestIdentity, &decisions)
    }
}
