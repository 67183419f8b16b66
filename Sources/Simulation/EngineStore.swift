import Foundation
import Journal
import ReplayKit
import SDK

/// A store-style harness over the SDK's real `EngineShell` (the model is TCA's `TestStore`; the
/// world is the simulator's, as TigerBeetle's cluster tests run the real replica over simulated
/// I/O): a test makes calls, moves the virtual clock, scripts the backend's answers, and asserts
/// exactly which facts were journaled and which effects they asked for.
///
/// The contract:
/// - It runs on the test's own thread, with no thread, no sleep and no real clock: the SDK's
///   `EngineShell` over the ``SimulationWorld`` of the simulator (its virtual clock, simulated
///   network, backend, disk, auth provider, modules and callback queue), with no faults and fixed
///   delays (``Timing``). The same calls give the same facts, byte for byte, on every run.
/// - ``call(_:)`` (and its forms ``initialize(_:)``, ``switchProject(to:then:)``) hands a call to
///   the engine and runs the engine until its mailbox is empty: its decisions are journaled, its
///   effects started. Nothing the world answers (a response, a hook's return, a flush, a timer, a
///   completion on the callback queue) happens until the clock moves: ``runDue()``,
///   ``advance(byMilliseconds:)`` or ``settle()``. So a switch stays in flight, with its teardown
///   waiting on a hook or a durability request, exactly as long as the test wants.
/// - It is exhaustive: every fact journaled, effect asked for, request that reached the backend
///   and failure the simulator's own checks found (the live state against the fold of the
///   journal after every input, the switch queue, …) waits, unasserted, until a test takes it
///   (``takeFacts(where:)``, ``takeEffects(where:)``, ``takeRequests(where:)``,
///   ``takeSimulationFailures()``) or skips it by name (``skipReceivedFacts()``,
///   ``skipEffects()``, ``skipRequests()``). ``takeUnasserted()`` says, per kind, what is left:
///   a test harness fails the test on it when the test ends (SDKTests' `.exhaustiveStore`).
///   ``mismatch(expected:actual:)`` compares a list exactly and names what is unexpected and
///   what is missing.
/// - A store made while an ``EngineStoreScope`` is current joins it, for its harness to check
///   when the scope ends.
///
/// Not for concurrent use: unchecked Sendable because the completions it hands the engine capture
/// it, and they run only inside the world's loop, on the thread that drives the store.
package final class EngineStore: @unchecked Sendable { // single-threaded: completions run inside the world's loop, on the test's thread
    /// The projects a store's app can be on (the simulator's catalog): `A` in the US, `B` in the
    /// EU, `C` in the US with JWTs, `D` behind a custom base URL with JWTs.
    package enum ProjectName: String, CaseIterable, Sendable {
        case A, B, C, D

        var index: Int { Self.allCases.firstIndex(of: self)! }
    }

    /// The world's fixed delays, in virtual milliseconds.
    package struct Timing: Sendable {
        /// One way on the network: a request's answer comes back after twice this.
        package var networkMilliseconds: Int64 = 10
        /// How long a module's awaited hook (`willSwitchProject`, `willLogout`) runs.
        package var hookMilliseconds: Int64 = 5
        /// How long the disk takes to make a flush durable.
        package var syncMilliseconds: Int64 = 1
        /// How long the auth provider takes to issue a JWT.
        package var authMilliseconds: Int64 = 1
        /// How long a tracked link's host takes to answer.
        package var linkMilliseconds: Int64 = 10
        /// How long a request waits for an answer that never comes.
        package var timeoutMilliseconds: Int64 = 30_000

        package init() {}
    }

    /// A request that reached the backend: the project whose key it carried (its name, or `?`),
    /// its path and body, and when it arrived.
    package struct Request: Sendable, CustomStringConvertible {
        package var project: String
        package var path: String
        /// The body as the journal's task holds it: the `callId` each JSON object carried on the
        /// wire is in ``callIDs`` (a fetch's, from its query, too).
        package var body: String
        package var time: JournalTime
        /// The `Authorization: Bearer` token, if any.
        package var token: String?
        /// The calls' ids on the wire, in the order of the body's objects.
        package var callIDs: [WireCallID] = []

        /// `B events/track {"email":…}`.
        package var description: String { "\(project) \(path) \(body)" }
    }

    let world: SimulationWorld
    private var nextCall: UInt64 = 1
    /// The facts journaled (and gaps), effects asked for and requests arrived that no test took
    /// or skipped yet, in order; how many simulation failures were taken.
    private var facts: [Fact] = []
    private var effects: [Effect] = []
    private var unassertedRequests: [Request] = []
    /// The budgets of the settles that ran out (``settle(maximumOccurrences:)``), until taken.
    private var unsettled: [Int] = []
    private var failuresTaken = 0
    /// Every request that reached the backend, taken or not.
    private var arrived: [Request] = []
    private var scripted: [(path: String, project: ProjectName?, result: TransportResult, remaining: Int)] = []

    /// The instances (by generation: 1 for the first one started) whose modules fail whatever
    /// they handle, from now on.
    package var failingModuleGenerations: Set<UInt64> = []

    /// Each call's outcome, once its completion ran on the callback queue.
    package private(set) var outcomes: [CallID: CallOutcome] = [:]
    /// Each universal link call's result (its outcome and destination), once its completion ran.
    package private(set) var linkResults: [CallID: UniversalLinkResult] = [:]
    /// Each switch call's result, once its completion ran.
    package private(set) var switchResults: [CallID: SwitchResult] = [:]
    /// The calls whose completion ran, in the order they ran (one entry per run: a completion
    /// that ran twice is listed twice).
    package private(set) var completionOrder: [CallID] = []

    /// A fresh device: the app launches (the engine starts over an empty journal) with
    /// `rules`, and with the built-in modules unless `modules` is false. The launch's facts are
    /// the first ``takeFacts()`` returns.
    ///
    /// With `failingModules`, every module fails whatever it handles (each failure names the
    /// instance, by generation, it failed for). `checksEveryInput` compares the live state with
    /// the fold of the journal after every input; a story of thousands of inputs (days offline)
    /// checks at relaunches and at ``simulationFailures`` instead.
    ///
    /// With `plantedDefect`, the world's environment carries that defect (a test shows the
    /// simulator's checks find it).
    package init(rules: EngineRules = EngineRules(), modules: Bool = true, failingModules: Bool = false, timing: Timing = Timing(),
                 seed: UInt64 = 1, checksEveryInput: Bool = true, plantedDefect: PlantedDefect? = nil) {
        var profile = FaultProfile.calm
        profile.rules = rules
        profile.withModules = modules
        profile.moduleFailure = failingModules ? 1 : 0
        profile.latencyMilliseconds = timing.networkMilliseconds...timing.networkMilliseconds
        profile.hookMilliseconds = timing.hookMilliseconds...timing.hookMilliseconds
        profile.syncDelayMilliseconds = timing.syncMilliseconds...timing.syncMilliseconds
        profile.authLatencyMilliseconds = timing.authMilliseconds...timing.authMilliseconds
        profile.linkLatencyMilliseconds = timing.linkMilliseconds...timing.linkMilliseconds
        profile.timeoutMilliseconds = timing.timeoutMilliseconds
        profile.callbackDelayMilliseconds = 0...0
        world = SimulationWorld(seed: seed, profile: profile, checksEveryInput: checksEveryInput, plantedDefect: plantedDefect)
        world.inputObserver = { [unowned self] facts, state in
            self.facts.append(contentsOf: facts)
            effects.append(contentsOf: state.effects(of: facts))
        }
        world.requestInterceptor = { [unowned self] request, time in intercept(request, at: time) }
        if !failingModules {
            world.moduleFailureOverride = { [unowned self] generation in failingModuleGenerations.contains(generation) }
        }
        world.startProcess()
        drain()
        EngineStoreScope.current?.adopt(self)
    }

    // MARK: - Calls

    /// The app makes `call`: the engine decides it and starts its effects. Returns the call's id
    /// (`00000001`, `00000002`, … in call order).
    @discardableResult
    package func call(_ call: PublicCall) -> CallID {
        post(call, .completion(outcomeCompletion(for: nextID())))
    }

    /// The app initializes the SDK on `project`.
    @discardableResult
    package func initialize(_ project: ProjectName) -> CallID {
        let id = nextID()
        let simulated = world.projects[project.index]
        return post(.initialize(simulated.reference), .project(simulated.project, outcomeCompletion(for: id)))
    }

    /// The app asks for a switch to `project`; when the switch's completion runs on the callback
    /// queue, the app makes `then`'s calls from it, in order (as an app re-identifies its user).
    @discardableResult
    package func switchProject(to project: ProjectName, then reactions: [PublicCall] = []) -> CallID {
        let id = nextID()
        let simulated = world.projects[project.index]
        let completion = CallCompletion.switchResult { [self] result in
            switchResults[id] = result
            completionOrder.append(id)
            // Posted from the callback queue; the world's loop hands them to the engine next.
            for reaction in reactions { post(reaction, .completion(outcomeCompletion(for: nextID())), drains: false) }
        }
        return post(.switchProject(simulated.reference), .project(simulated.project, completion))
    }

    /// The app was opened with `url` (`handleUniversalLink`): a tracked link
    /// (`https://links.sim.test/a/<code>`) is resolved by the world's link host into the
    /// destination `https://shop.sim.test/<code>` and its attribution (campaign 41, template 42,
    /// message `<code>`).
    @discardableResult
    package func handleUniversalLink(_ url: String) -> CallID {
        let id = nextID()
        let completion = CallCompletion.link { [self] result in
            linkResults[id] = result
            outcomes[id] = result.outcome
            completionOrder.append(id)
        }
        return post(.handleUniversalLink(url: url), .completion(completion))
    }

    /// The system sends the app the notification `name` (`EngagementSDK.mailboxPost`).
    package func notify(_ name: String) {
        world.notify(name)
        drain()
    }

    /// The app says the network is back (`EngagementSDK.networkBecameReachable()`).
    package func networkBecameReachable() {
        world.networkBecameReachable()
        drain()
    }

    /// The device loses its network (every request fails at once, with no response) or gets it back.
    package func setOffline(_ offline: Bool) {
        world.setOffline(offline)
    }

    /// The app shuts the SDK down (every pending completion hears it) and launches it again
    /// `afterMilliseconds` later over the same journal; the relaunch's facts follow the stop's.
    package func restart(afterMilliseconds: Int64 = 0) {
        world.shutdown(relaunchMilliseconds: afterMilliseconds)
        drain()
    }

    /// The app shuts the SDK down and launches it again over the same journal on a device whose
    /// files could not be opened at first (the SDK's "storage unavailable" mode, run by the live
    /// engine's `StorageWait`): once they open, the relaunch's `engineStarted` is followed by
    /// `storageWasUnavailable` and the calls held in the order they were made, as the SDK hands
    /// them to the engine: the app's `initialize` on `project`, then `held`. Returns their ids.
    @discardableResult
    package func relaunchAfterLockedStorage(reason: String, waitedMilliseconds: Int64, attempts: UInt64, initializing project: ProjectName,
                                            held: [PublicCall], refused: UInt64 = 0) -> [CallID] {
        world.shutdown(relaunchMilliseconds: waitedMilliseconds)
        world.process?.post(.input(.storageWasUnavailable(reason: reason, waitedMicroseconds: waitedMilliseconds * 1_000, attempts: attempts,
                                                          held: UInt64(held.count + 1), refused: refused), .none))
        let initialize = nextID()
        let simulated = world.projects[project.index]
        var ids = [post(.initialize(simulated.reference), .project(simulated.project, outcomeCompletion(for: initialize)), drains: false)]
        ids += held.map { call in post(call, .completion(outcomeCompletion(for: nextID())), drains: false) }
        drain()
        return ids
    }

    /// Every keyring write fails with `reason` from now on (nil: they succeed again), as on a
    /// full disk or a keychain that refuses.
    package func refuseKeyringWrites(_ reason: String?) {
        world.keyringWriteRefusal = reason
    }

    /// The device loses power (what the journal had not made durable is lost) and the app
    /// launches again `afterMilliseconds` later.
    package func crash(afterMilliseconds: Int64 = 0) {
        world.crash(tail: .clean, relaunchMilliseconds: afterMilliseconds)
        drain()
    }

    /// The device's disk fails every sync from now on (the journal stops recording; the SDK
    /// goes on in memory and tries again later), until ``repairDisk()``.
    package func breakDisk() {
        world.storage.breakDisk()
    }

    /// The device's disk is full from now on: every write fails after writing half its bytes
    /// (ENOSPC), until ``repairDisk()``.
    package func fillDisk() {
        world.storage.fillDisk()
    }

    /// The disk works again: the journal's next attempt records, after a journaled gap.
    package func repairDisk() {
        world.storage.repair()
    }

    // MARK: - The clock

    /// The device's wall clock jumps by `milliseconds`, forward or back (the user set the date):
    /// the virtual clock, on which the journal's time and every timer run, does not move. The
    /// engine notices at its next input.
    package func jumpWallClock(byMilliseconds milliseconds: Int64) {
        world.jumpWallClock(byMilliseconds: milliseconds)
    }

    /// Now, on the virtual clock.
    package var now: JournalTime { world.now }

    /// Milliseconds since the store began.
    package var elapsedMilliseconds: Int64 {
        (world.now.microsecondsSince1970 - SimulationWorld.epoch.microsecondsSince1970) / 1_000
    }

    /// Runs everything due now (answers, hook returns, completions scheduled for this instant),
    /// and what those post, without moving the clock.
    package func runDue() {
        world.advance(to: world.now)
    }

    /// Moves the clock `milliseconds` on, running everything that falls due on the way, in order.
    package func advance(byMilliseconds milliseconds: Int64) {
        world.advance(to: world.now.advancedSaturating(milliseconds: milliseconds))
    }

    /// Runs the world until nothing is pending (every answer, timer, flush and completion),
    /// at most `maximumOccurrences` occurrences; false when it was still busy after them.
    /// A story that never settles (offline, its retries go on) is reported when the test ends,
    /// like anything else left unasserted, unless the test takes the answer: such a test should
    /// advance the clock by a bounded time instead.
    @discardableResult
    package func settle(maximumOccurrences: Int = 100_000) -> Bool {
        let budget = world.occurrencesRun + maximumOccurrences
        while let due = world.nextOccurrenceDue {
            world.advance(to: due)
            if world.occurrencesRun > budget {
                unsettled.append(maximumOccurrences)
                return false
            }
        }
        drain()
        return true
    }

    /// Whether the last ``settle(maximumOccurrences:)`` settled, taking back its report: for a
    /// test whose story is meant not to settle.
    package func takeUnsettled() -> Bool {
        defer { unsettled = [] }
        return !unsettled.isEmpty
    }

    // MARK: - The backend

    /// The app's auth server mints JWTs only for `users` from now on (nil: for anyone); for any
    /// other user its provider fails, as signed out (`AuthProviderError.userSignedOut`) when
    /// `refusesAsSignedOut`, else with an error that may pass.
    package func authServerSignsIn(_ users: Set<String>?, refusesAsSignedOut: Bool = true) {
        world.authSignedIn = users
        world.authRefusesSignedOut = refusesAsSignedOut
    }

    /// The next `times` requests to `path` (on `project`, or any) are answered `status` with
    /// `body`, instead of by the backend (which then never sees them).
    package func answer(_ path: String, on project: ProjectName? = nil, status: Int, body: String = "", times: Int = 1) {
        let result = TransportResult.response(status: status, headers: ["content-type": "application/json"], body: Data(body.utf8))
        scripted.append((path, project, result, times))
    }

    /// The next `times` requests to `path` (on `project`, or any) get no response (the
    /// connection is refused).
    package func refuse(_ path: String, on project: ProjectName? = nil, times: Int = 1) {
        scripted.append((path, project, .networkError("connection refused"), times))
    }

    /// The simulated backend's receipt log (docs/RECONCILE.md): a line per call it processed
    /// (scripted answers never reach it).
    package var receiptLog: [ReceiptLine] { world.backend.receiptLog() }

    /// Every request that reached the backend, in arrival order (answered by it or by a script).
    package var requests: [Request] { arrived }

    /// The requests not yet taken or skipped that `include` keeps, in arrival order; they are
    /// taken, the others stay.
    package func takeRequests(where include: (Request) -> Bool = { _ in true }) -> [Request] {
        Self.take(from: &unassertedRequests, where: include)
    }

    /// Takes the requests not yet taken, unchecked: the test's explicit choice that they are not
    /// its story. Returns how many it skipped.
    @discardableResult
    package func skipRequests() -> Int {
        takeRequests().count
    }

    private func intercept(_ request: SimulatedRequest, at time: JournalTime) -> TransportResult? {
        let project = world.projects.first { $0.apiKey == request.apiKey }
        // Described as journaled: the wire's call ids (derived, never journaled) apart.
        let (body, ids) = BackendReceipt.splitCallIDs(request.body)
        var query = request.query
        var queryIDs: [WireCallID] = []
        if let parts = query?.split(separator: "&") {
            queryIDs = parts.compactMap { $0.hasPrefix(DeliveryTask.callIDKey + "=") ? WireCallID(hex: $0.dropFirst(DeliveryTask.callIDKey.count + 1)) : nil }
            let kept = parts.filter { !$0.hasPrefix(DeliveryTask.callIDKey + "=") }
            query = kept.isEmpty ? nil : kept.joined(separator: "&")
        }
        let arrival = Request(project: project?.name ?? "?", path: request.path + (query.map { "?" + $0 } ?? ""),
                              body: String(decoding: body, as: UTF8.self), time: time, token: request.token, callIDs: ids + queryIDs)
        arrived.append(arrival)
        unassertedRequests.append(arrival)
        guard let index = scripted.firstIndex(where: { script in
            script.path == request.path && (script.project == nil || world.projects[script.project!.index].apiKey == request.apiKey)
        }) else { return nil }
        let result = scripted[index].result
        scripted[index].remaining -= 1
        if scripted[index].remaining == 0 { scripted.remove(at: index) }
        return result
    }

    // MARK: - What was journaled

    /// The state now (the fold of every fact journaled).
    package var state: SDKState { world.process!.state }

    /// The fingerprint of a catalog project.
    package func fingerprint(_ project: ProjectName) -> ProjectFingerprint {
        world.projects[project.index].fingerprint
    }

    /// Every record the device's journal holds now, in order: a snapshot as `snapshot` and the
    /// state's email and user id (`snapshot email=… userId=…`), a fact as ``describe(_:)``
    /// renders it; what does not read, as `unreadable: …`.
    package func journaledRecords() -> [String] {
        do {
            let cursor = try JournalReader(directory: SimulationWorld.journalDirectory, storage: world.storage.memory).records()
            var lines: [String] = []
            while let record = try cursor.next() {
                if record.isSnapshot {
                    let state = try StateCodec.decode(record.payload)
                    lines.append("snapshot email=\(state.email ?? "nil") userId=\(state.userID ?? "nil")")
                } else {
                    lines.append(describe(try FactCodec.decode(kind: record.kind, payload: record.payload)))
                }
            }
            return lines
        } catch {
            return ["unreadable: \(error)"]
        }
    }

    /// Writes the device's journal files into `directory` (created; must hold no segment), for
    /// `replay` to read.
    package func writeJournal(to directory: String) throws {
        try StoryRunner.write(world.storage.memory, to: directory)
    }

    /// The facts journaled and not yet taken or skipped that `include` keeps (the raw values), in
    /// order; they are taken, the others stay.
    package func takeFactValues(where include: (Fact) -> Bool = { _ in true }) -> [Fact] {
        Self.take(from: &facts, where: include)
    }

    /// ``takeFactValues(where:)``, each fact as ``describe(_:)`` renders it.
    package func takeFacts(where include: (Fact) -> Bool = { _ in true }) -> [String] {
        takeFactValues(where: include).map(describe)
    }

    /// Takes the facts not yet taken, unchecked: the test's explicit choice that they are not its
    /// story. Returns how many it skipped.
    @discardableResult
    package func skipReceivedFacts() -> Int {
        takeFactValues().count
    }

    /// The effects asked for and not yet taken or skipped that `include` keeps, each as
    /// ``describe(_:)`` renders it; they are taken, the others stay.
    package func takeEffects(where include: (Effect) -> Bool = { _ in true }) -> [String] {
        Self.take(from: &effects, where: include).map(describe)
    }

    /// Takes the effects not yet taken that `include` keeps (all by default), unchecked: the
    /// test's explicit choice that they are not its story. Returns how many it skipped.
    @discardableResult
    package func skipEffects(where include: (Effect) -> Bool = { _ in true }) -> Int {
        takeEffects(where: include).count
    }

    /// What the simulator's own checks found so far (projection equality after every input, the
    /// switch queue, modules given work while busy, requests the backend took for misrouted: a
    /// key sent to another region, a JWT issued for another user or instance): empty when all
    /// is well.
    package var simulationFailures: [String] {
        world.failures.map { "\($0.check): \($0.message)" } + world.backend.misroutes.map { "misroute: \($0)" }
    }

    /// The simulation failures not yet taken. A failure cannot be skipped: a test that expects
    /// one takes it and says which.
    package func takeSimulationFailures() -> [String] {
        let all = simulationFailures
        defer { failuresTaken = all.count }
        return Array(all[min(failuresTaken, all.count)...])
    }

    /// What no test took or skipped, one message per kind (facts, effects, requests, simulation
    /// failures) that has any: how many, how to take or skip them, and the first few as
    /// ``describe(_:)`` renders them. Everything it reports is taken, so a second call returns
    /// nothing new.
    package func takeUnasserted(showing shown: Int = 5) -> [String] {
        func message<Element>(_ what: String, _ left: [Element], _ remedy: String, _ line: (Element) -> String) -> String? {
            guard !left.isEmpty else { return nil }
            let first = left.prefix(shown).map { "  \(line($0))" }.joined(separator: "\n")
            let more = left.count > shown ? "\n  … and \(left.count - shown) more" : ""
            return "\(left.count) \(what) not asserted (\(remedy)):\n\(first)\(more)"
        }
        let ranOut = unsettled
        unsettled = []
        return [
            message("fact(s) journaled", takeFactValues(), "expectFacts them, or skipReceivedFacts()", describe(_:)),
            message("effect(s) asked for", Self.take(from: &effects, where: { _ in true }), "expectEffects them, or skipEffects()", describe(_:)),
            message("request(s) that reached the backend", takeRequests(), "expectRequests them, or skipRequests()", \.description),
            message("simulation failure(s)", takeSimulationFailures(), "a failure is never skipped: expectSimulationFailures it, or fix the cause", { $0 }),
            message("settle(s) that ran out of occurrences", ranOut, "advance the clock by a bounded time, or takeUnsettled()", { "still busy after \($0) occurrences" }),
        ].compactMap { $0 }
    }

    /// A fact as one line (`replay cat`'s words), with the catalog's project names (`A` …) for
    /// their fingerprints and times as offsets from the store's start (`t+20ms`).
    package func describe(_ fact: Fact) -> String {
        describe(FactSummary.text(fact))
    }

    func describe(_ text: String) -> String {
        var line = text
        for project in world.projects { line = line.replacingOccurrences(of: project.fingerprint.hex, with: project.name) }
        return Self.relativeTimes(line)
    }

    /// Times of the store's day (`2025-11-24T16:00:01.020000Z`) as offsets (`t+1020ms`).
    static func relativeTimes(_ text: String) -> String {
        let marker = "2025-11-24T"
        guard text.contains(marker) else { return text }
        var output = ""
        var rest = Substring(text)
        while let range = rest.range(of: marker) {
            output += rest[..<range.lowerBound]
            let clock = rest[range.upperBound...].prefix(16)   // HH:MM:SS.ffffffZ
            let parts = clock.dropLast().split(whereSeparator: { $0 == ":" || $0 == "." }).compactMap { Int64($0) }
            guard clock.count == 16, parts.count == 4 else {
                output += marker
                rest = rest[range.upperBound...]
                continue
            }
            let micros = (((parts[0] - 16) * 60 + parts[1]) * 60 + parts[2]) * 1_000_000 + parts[3]
            output += micros % 1_000 == 0 ? "t+\(micros / 1_000)ms" : "t+\(micros)us"
            rest = rest[range.upperBound...].dropFirst(16)
        }
        return output + rest
    }

    /// Compares `actual` with `expected` exactly: nil when they are equal, else what differs
    /// (each unexpected line and each missing one, with its position, then both lists).
    package static func mismatch(expected: [String], actual: [String]) -> String? {
        guard expected != actual else { return nil }
        let difference = actual.difference(from: expected)
        var lines: [String] = []
        for change in difference {
            switch change {
            case .insert(let offset, let element, _): lines.append("  unexpected #\(offset): \(element)")
            case .remove(let offset, let element, _): lines.append("  missing    #\(offset): \(element)")
            }
        }
        return "\(lines.count) difference(s):\n" + lines.joined(separator: "\n")
            + "\nactual (\(actual.count)):\n" + actual.map { "  \($0.debugDescription)," }.joined(separator: "\n")
    }

    // MARK: - Helpers

    /// Removes from `pending` and returns, in order, the elements `include` keeps.
    private static func take<Element>(from pending: inout [Element], where include: (Element) -> Bool) -> [Element] {
        var taken: [Element] = []
        var kept: [Element] = []
        for element in pending {
            if include(element) { taken.append(element) } else { kept.append(element) }
        }
        pending = kept
        return taken
    }

    private func nextID() -> CallID {
        defer { nextCall += 1 }
        return CallID(CallIDGenerator.sequentialUUID(nextCall))
    }

    private func outcomeCompletion(for id: CallID) -> CallCompletion {
        .outcome { [self] outcome in
            outcomes[id] = outcome
            completionOrder.append(id)
        }
    }

    @discardableResult
    private func post(_ call: PublicCall, _ attachment: EngineAttachment, drains: Bool = true) -> CallID {
        let id = CallID(CallIDGenerator.sequentialUUID(nextCall - 1))
        world.process?.post(.input(.callReceived(ReceivedCall(id: id, caller: drains ? 1 : SimulationWorld.callbackCaller, call: call)), attachment))
        if drains { drain() }
        return id
    }

    /// Runs the engine until its mailbox is empty (the engine thread's loop, to idle).
    private func drain() {
        world.process?.drainMailbox()
    }
}
