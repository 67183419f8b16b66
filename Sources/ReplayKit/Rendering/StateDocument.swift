import Journal
import SDK

/// The projected state as a document: sections in a fixed order, collections keyed by id, so
/// `replay state` can print it, `--json` can serialize it and `replay diff` can compare two
/// documents field by field.
///
/// Calls are keyed by their short id (the last eight hex digits), tasks as `t<n>`, switches as
/// `s<n>`, projects by fingerprint.
package enum StateDocument {
    package static func make(_ state: SDKState) -> JSONValue {
        .object([
            // A state no fact has advanced yet (the journal's first snapshot) has no time: null,
            // not 1970.
            ("time", state.time.microsecondsSince1970 == 0 ? .null : .string(state.time.description)),
            ("live", live(state)),
            ("identity", .object([("email", .optional(state.email, JSONValue.string)),
                                  ("user_id", .optional(state.userID, JSONValue.string)),
                                  ("push_token", .optional(state.pushToken, JSONValue.string))])),
            ("attribution", .optional(state.attribution, FactJSON.attribution)),
            ("gate", gate(state)),
            ("switch_chain", switchChain(state)),
            ("teardown", teardown(state)),
            ("offline_queue", offlineQueue(state)),
            ("pending_calls", pendingCalls(state)),
            ("modules", modules(state)),
            ("timers", timers(state)),
            ("storage", storage(state)),
            ("auth", .object(state.auth.sorted { $0.key < $1.key }.map { project, auth in
                (project.hex, .object([("refreshes_used", .integer(Int64(auth.refreshesUsed))),
                                       ("refreshing", .optional(auth.refreshing) { .string("#\($0)") })]))
            })),
            ("durability_waits", .object(state.durabilityWaits.keys.sorted().map { request in
                ("#\(request)", .string(state.durabilityWaits[request].map(Describe.durabilityWait) ?? "-"))
            })),
            ("engine", .object([("sdk_version", .string(state.sdkVersion)),
                                ("modules_plugged", .array(state.moduleDescriptors.map { .string($0.name) })),
                                ("rules", FactJSON.rules(state.rules))])),
        ])
    }

    /// A lower bound of the bytes of `make(state).serialized()`, counted from the calls and tasks
    /// the state holds without making the document: each pending call's member takes at least
    /// 140 bytes (a 36-character id, a 27-character time and five keys), each held call's 100
    /// and each queued task's 95.
    package static func leastSerializedCount(_ state: borrowing SDKState) -> Int {
        140 * state.pendingCalls.count + 100 * state.switching.gate.count + 95 * state.tasks.count
    }

    private static func live(_ state: SDKState) -> JSONValue {
        guard let live = state.live else { return .null }
        return .object([("project", .string(live.fingerprint.hex)), ("label", .optional(live.label, JSONValue.string)),
                        ("region", .string(live.region)),
                        ("endpoint", .string(live.endpoint)), ("generation", .unsigned(state.generation)),
                        ("instance_running", .bool(state.instanceRunning))])
    }

    private static func gate(_ state: SDKState) -> JSONValue {
        let gate = state.switching.gate
        return .object([
            ("held", .integer(Int64(gate.count))),
            ("bytes", .integer(Int64(state.switching.gateBytes))),
            ("calls", .object(gate.enumerated().map { position, held in
                (held.call.id.fullDescription, .object([("position", .integer(Int64(position))),
                                                    ("call", .string(Describe.call(held.call.call))),
                                                    ("made_at", .string(held.madeAt.description))]))
            })),
        ])
    }

    private static func switchChain(_ state: SDKState) -> JSONValue {
        let switching = state.switching
        let inFlight: JSONValue = switching.inFlight.map { run in
            .object([("switch", .string(run.id.description)), ("from", .string(run.from.map(Describe.project) ?? "-")),
                     ("to", .string(Describe.project(run.to))), ("started_at", .string(run.startedAt.description)),
                     ("calls", .array(run.calls.map { .string($0.description) }))])
        } ?? .null
        return .object([
            ("in_flight", inFlight),
            ("queued", .object(switching.queue.map { request in
                (request.id.description, .object([("to", .string(Describe.project(request.project))),
                                                  ("calls", .array(request.calls.map { .string($0.description) }))]))
            })),
            ("awaiting_callbacks", .optional(switching.awaitingCallbacks) { .string($0.description) }),
            ("requested", .optional(switching.requestedProject ?? state.live) { .string(Describe.project($0)) }),
            ("next_switch", .string("s\(switching.nextSwitchNumber)")),
        ])
    }

    private static func teardown(_ state: SDKState) -> JSONValue {
        guard let run = state.switching.inFlight else { return .null }
        return .object([
            ("switch", .string(run.id.description)),
            ("step", .optional(run.step) { .string($0.rawValue) }),
            ("step_since", .string(run.stepStartedAt.description)),
            ("warnings", .array(run.warnings.map(JSONValue.string))),
            ("step_problems", .array(run.stepProblems.map(JSONValue.string))),
        ])
    }

    private static func offlineQueue(_ state: SDKState) -> JSONValue {
        var projects: [(String, JSONValue)] = []
        var listed = Set<TaskID>()
        for project in state.taskOrder.keys.sorted() {
            let tasks: [(String, JSONValue)] = (state.taskOrder[project] ?? []).compactMap { id in
                guard let queued = state.tasks[id] else { return nil }
                listed.insert(id)
                return (id.description, task(queued))
            }
            projects.append((project.hex, .object(tasks)))
        }
        // Tasks the order does not list (a damaged snapshot) still show.
        let strays = state.tasks.keys.filter { !listed.contains($0) }.sorted()
        if !strays.isEmpty {
            projects.append(("unordered", .object(strays.compactMap { id in state.tasks[id].map { (id.description, task($0)) } })))
        }
        return .object([("tasks", .integer(Int64(state.tasks.count))), ("bytes", .integer(Int64(state.queueFootprint))),
                        ("by_project", .object(projects))])
    }

    private static func task(_ queued: QueuedTask) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("request", .string(Describe.request(queued.task))), ("region", .string(queued.task.region)),
            ("status", .string(Describe.taskStatus(queued.status))),
            ("call", .optional(queued.task.call) { .string($0.description) }),
            ("created_at", .string(queued.task.createdAt.description)),
        ]
        if queued.task.hasBatch {
            // The events that joined it, sent with it as one events/trackBulk request.
            members.append(("batch", .array(queued.task.batchCalls.map { .string($0.description) })))
        }
        return .object(members)
    }

    private static func pendingCalls(_ state: SDKState) -> JSONValue {
        let calls = state.pendingCalls.sorted { ($0.value.madeAt, $0.key) < ($1.value.madeAt, $1.key) }
        return .object([
            ("count", .integer(Int64(calls.count))),
            ("calls", .object(calls.map { id, call in
                (id.fullDescription, .object([("name", .string(call.name.rawValue)), ("made_at", .string(call.madeAt.description)),
                                          ("project_at_call", .optional(call.projectAtCall) { .string($0.hex) }),
                                          ("project_at_call_label", .optional(call.projectAtCall.flatMap { state.projects[$0]?.label }, JSONValue.string))]))
            })),
        ])
    }

    private static func modules(_ state: SDKState) -> JSONValue {
        .object(state.modules.sorted { $0.key < $1.key }.map { name, lifecycle in
            (name, .object([("generation", .unsigned(lifecycle.generation)), ("initialized", .bool(lifecycle.initialized)),
                                   ("started", .bool(lifecycle.started)), ("deinitialized", .bool(lifecycle.deinitialized))]))
        } + state.hooks.keys.sorted().map { hook in
            let pending = state.hooks[hook]
            return ("hook #\(hook)", .string("\(pending?.module ?? "?") \(pending.map { $0.signal.label } ?? "?") since \(pending?.startedAt.description ?? "?")"))
        })
    }

    private static func timers(_ state: SDKState) -> JSONValue {
        let timers = state.timers.map { (Describe.timer($0.key), $0.value) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        return .object(timers.map { ($0.0, .string($0.1.description)) })
    }

    private static func storage(_ state: SDKState) -> JSONValue {
        .object([
            ("held_events", .array(state.heldEvents.map { .string("\($0.call.description) \(Describe.call($0.event))") })),
            ("unknown_user_sessions", .integer(Int64(state.unknownUserSessions))),
            ("in_app_messages", .array(state.inAppMessageIDs.map(JSONValue.string))),
            ("embedded_messages", .array(state.embeddedMessageIDs.map(JSONValue.string))),
            ("cleared_projects", .array(state.clearedProjects.sorted().map { .string($0.hex) })),
        ])
    }
}

extension CallID {
    /// The whole id: the keys of a state document must stay unique across the SDK instances of
    /// one journal (each restart numbers its calls from 1 again, so the short form repeats).
    var fullDescription: String { uuid.lowercasedText }
}
