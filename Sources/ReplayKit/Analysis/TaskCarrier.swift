import SDK

/// The calls a task carries and the project it goes to, as ``CallAudit`` follows them.
struct TaskCarrier: Sendable, Equatable {
    var calls: [CallID]
    var project: ProjectFingerprint
}
