import SDK

/// Draws a random story from a seed: interleaved calls of several callers, switch requests
/// (repeats, chains such as A→B→A and C, D, C, switches before initialization), push and
/// in-app/embedded tracking mid-switch, logouts, late attribution writes, flushes, token
/// expiries, waits, and crashes followed by a relaunch on the same or another project; and the
/// field's situations (``fieldStep()``): offline periods from seconds to days, calls just over
/// (or at) their limits, identity changes with events queued on the JWT projects, message
/// fetches answered while a switch tears their kind down.
///
/// Pure: the same seed and length always give the same story.
package struct StoryGenerator {
    private var random: SimulationRandom
    /// The field steps' own stream: whether a step is one, and everything it draws. A story
    /// that draws none is the story its seed gave before they existed, step for step; one that
    /// draws some keeps its other steps, in order, from where the field step goes in.
    private var field: SimulationRandom
    /// Whether some offline period lasts longer than ten minutes (the app's projects then use
    /// the SDK's default backoff, see ``FaultProfile/projectRetry``).
    private var longOffline = false
    private var steps: [StoryStep] = []
    private let projectCount = SimulatedProject.catalog.count
    private var messageNumber = 0

    /// The story of `seed`, about `length` steps long (a chain may add a few); `cutsGroupsInsideInputs`
    /// sets ``FaultProfile/groupsCutInsideInputs``.
    package static func story(seed: UInt64, length: Int, cutsGroupsInsideInputs: Bool = false) -> Story {
        var generator = StoryGenerator(random: SimulationRandom(seed: seed, stream: 1), field: SimulationRandom(seed: seed, stream: 4))
        var profileRandom = SimulationRandom(seed: seed, stream: 2)
        var profile = FaultProfile.draw(&profileRandom)
        profile.groupsCutInsideInputs = cutsGroupsInsideInputs
        var declared = DeclaredCallSampler(random: SimulationRandom(seed: seed, stream: 5))
        generator.opening()
        while generator.steps.count < length {
            if generator.field.chance(StoryGenerator.fieldOdds) {
                generator.fieldStep()
            } else if declared.random.chance(StoryGenerator.declaredCallOdds) {
                generator.declaredCall(&declared)
            } else {
                generator.addStep()
            }
        }
        if generator.longOffline { profile.projectRetry = RetryRules() }
        return Story(seed: seed, profile: profile, steps: generator.steps)
    }

    /// The odds that a step of the story is a field step.
    static let fieldOdds = 0.05

    /// The odds that a step is any declared call, drawn from its declaration
    /// (``DeclaredCallSampler``), rather than one of the shapes below.
    static let declaredCallOdds = 0.04

    private mutating func declaredCall(_ sampler: inout DeclaredCallSampler) {
        let name = sampler.random.pick(DeclaredCallSampler.names)
        guard let call = sampler.call(name) else { return }
        steps.append(.call(caller: sampler.random.int(1...3), .sdk(call), engineKeepsUp: sampler.random.chance(0.7)))
    }

    private init(random: SimulationRandom, field: SimulationRandom) {
        self.random = random
        self.field = field
    }

    // MARK: - Shapes

    /// Most stories initialize first; some switch, or call, before initializing.
    private mutating func opening() {
        let roll = random.int(0...9)
        if roll == 0 {
            call(.switchProject(project: anyProject(), inCallback: nil))
        } else if roll == 1 {
            call(.sdk(.setEmail("early@sim.test")))
            call(.initialize(project: anyProject()))
        } else {
            call(.initialize(project: anyProject()))
        }
    }

    private mutating func addStep() {
        switch random.int(0...99) {
        case 0..<10: identity()
        case 10..<24: tracking()
        case 24..<28: call(.sdk(.registerToken("token-\(random.int(1...3))")))
        case 28..<29: call(.sdk(.disableDevice))
        case 29..<41: switches()
        case 41..<54: inline()
        case 54..<57: call(.sdk(.setAttribution(random.chance(0.9) ? AttributionInfo(campaignID: 7, templateID: 8, messageID: message()) : nil)))
        case 57..<60: call(.sdk(.logoutUser))
        case 60..<64: call(.sdk(.flush))
        case 64..<66: steps.append(.notification("foreground"))
        case 66..<68: steps.append(.expireTokens(project: anyProject()))
        case 68..<71: crash()
        case 71..<73: jwtIdentity()
        case 73: shutdownMidSwitch()
        case 74..<76: link()
        case 76: relaunchThenSwitch()
        case 77: if random.chance(0.2) { pickerTaps() } else { wait() }
        case 78..<81: burst()
        default: if random.chance(0.05) { privacy() } else { wait() }
        }
    }

    /// The user declines (and, most often, agrees again a little later), or the app erases
    /// what the device recorded of them.
    private mutating func privacy() {
        if random.chance(0.7) {
            call(.sdk(.setConsent(granted: false)))
            if random.chance(0.5) { tracking() }
            if random.chance(0.7) {
                wait()
                call(.sdk(.setConsent(granted: true)))
            }
        } else {
            call(.sdk(.eraseLocalData))
        }
    }

    private mutating func identity() {
        switch random.int(0...4) {
        case 0, 1: call(.sdk(.setEmail(random.chance(0.9) ? "user\(random.int(1...3))@sim.test" : nil)))
        case 2: call(.sdk(.setUserId(random.chance(0.9) ? "user-\(random.int(1...3))" : nil)))
        case 3: call(.sdk(.updateEmail("new\(random.int(1...3))@sim.test")))
        default: call(.sdk(.updateUser(dataFields: ["plan": .string(random.pick(["free", "pro"])), "visits": .integer(Int64(random.int(1...9)))],
                                        mergeNestedObjects: random.chance(0.5))))
        }
    }

    private mutating func tracking() {
        let item = CommerceItem(id: "sku-\(random.int(1...4))", name: "item", price: Double(random.int(1...99)), quantity: random.int(1...3))
        switch random.int(0...3) {
        case 0, 1: call(.sdk(.track(event: random.pick(["viewed", "liked", "shared"]), dataFields: random.chance(0.5) ? ["n": .integer(Int64(random.int(1...9)))] : nil)))
        case 2: call(.sdk(.trackPurchase(total: item.price * Double(item.quantity), items: [item], dataFields: nil)))
        default: call(.sdk(.updateCart(items: [item])))
        }
    }

    /// A burst of tracks, made faster than the engine answers, so the events queue behind the
    /// request on the wire and go in bulk.
    private mutating func burst() {
        let caller = random.int(1...3)
        for index in 0..<random.int(3...12) {
            steps.append(.call(caller: caller, .sdk(.track(event: random.chance(0.9) ? "burst" : "viewed", dataFields: ["i": .integer(Int64(index))])),
                               engineKeepsUp: false))
        }
    }

    /// Push, in-app and embedded tracking: calls that run inline against the current project.
    private mutating func inline() {
        let id = message()
        switch random.int(0...9) {
        case 0: call(.sdk(.trackPushOpen(PushOpen(campaignID: random.chance(0.8) ? 11 : nil, templateID: 12, messageID: id, appAlreadyRunning: random.chance(0.5)))))
        case 1: call(.sdk(.handlePush(payload: ["itbl": .object(["messageId": .string(id), "campaignId": .integer(21), "templateId": .integer(22)])])))
        case 2: call(.sdk(.inAppFetch(count: random.int(1...5))))
        case 3: call(.sdk(.inAppOpen(messageID: id)))
        case 4: call(.sdk(.inAppClick(messageID: id, url: "https://sim.test/x")))
        case 5: call(.sdk(.inAppClose(messageID: id, url: nil)))
        case 6: call(.sdk(random.chance(0.5) ? .inAppDelivery(messageID: id) : .inAppConsume(messageID: id)))
        case 7: call(.sdk(.embeddedFetch))
        case 8: call(.sdk(.embeddedReceived(messageID: id)))
        default: call(.sdk(.embeddedClick(messageID: id, buttonID: random.chance(0.5) ? "b1" : nil, url: nil)))
        }
    }

    /// A switch request, a double tap, or a chain of them, often with calls in between.
    private mutating func switches() {
        let first = anyProject()
        switch random.int(0...4) {
        case 0, 1:
            call(.switchProject(project: first, inCallback: callbackCall()))
        case 2:
            // A double tap.
            call(.switchProject(project: first, inCallback: callbackCall()))
            call(.switchProject(project: first, inCallback: nil))
        case 3:
            // A→B→A: back to where it started before the first landed.
            let second = other(than: first)
            call(.switchProject(project: first, inCallback: random.chance(0.3) ? callbackCall() : nil))
            if random.chance(0.5) { tracking() }
            call(.switchProject(project: second, inCallback: nil))
            call(.switchProject(project: first, inCallback: callbackCall()))
        default:
            // C, D, C: three switches that end on C.
            let second = other(than: first)
            call(.switchProject(project: first, inCallback: nil))
            call(.switchProject(project: second, inCallback: random.chance(0.3) ? callbackCall() : nil))
            if random.chance(0.5) { inline() }
            call(.switchProject(project: first, inCallback: callbackCall()))
        }
    }

    /// Identity changes on the JWT projects (C, D): a JWT belongs to one user on one instance,
    /// so none may travel with a request made for another user or after a switch.
    private mutating func jwtIdentity() {
        let jwt = random.pick([2, 3])
        call(.switchProject(project: jwt, inCallback: random.chance(0.5) ? .setEmail("user\(random.int(1...3))@sim.test") : nil))
        for _ in 0..<random.int(1...3) {
            switch random.int(0...4) {
            case 0, 1: call(.sdk(.setEmail("user\(random.int(1...3))@sim.test")))
            case 2: call(.sdk(.setUserId("user-\(random.int(1...3))")))
            case 3: call(.sdk(.logoutUser))
            default: tracking()
            }
            tracking()
            if random.chance(0.4) { steps.append(.wait(milliseconds: random.int64(1...800))) }
        }
        if random.chance(0.5) { call(.switchProject(project: jwt == 2 ? 3 : 2, inCallback: .setEmail("user\(random.int(1...3))@sim.test"))) }
    }

    /// A shutdown while a switch runs (or is queued), then a relaunch: every completion hears
    /// back once, with notPerformed, interruptedByShutdown or discarded(shutdown).
    private mutating func shutdownMidSwitch() {
        call(.switchProject(project: anyProject(), inCallback: callbackCall()))
        if random.chance(0.5) { identity() }
        if random.chance(0.4) { call(.switchProject(project: anyProject(), inCallback: nil)) }
        if random.chance(0.5) { tracking() }
        if random.chance(0.7) { steps.append(.wait(milliseconds: random.int64(0...400))) }
        steps.append(.shutdown(afterMilliseconds: random.int64(100...3_000), relaunchOn: random.chance(0.8) ? anyProject() : nil))
    }

    /// `handleUniversalLink` of a tracked link whose host answers after a while, often after
    /// switches (A→B→A brings the same project back as another instance).
    private mutating func link() {
        let code = random.chance(0.1) ? "gone" : "l\(random.int(1...4))"
        call(.sdk(.handleUniversalLink(url: "https://links.sim.test/a/\(code)")))
        switch random.int(0...3) {
        case 0:
            let start = anyProject()
            call(.switchProject(project: other(than: start), inCallback: nil))
            call(.switchProject(project: start, inCallback: nil))
        case 1:
            call(.switchProject(project: anyProject(), inCallback: nil))
        default:
            break
        }
    }

    /// Power loss, a relaunch *without* initialize, then a switch (to the same or another
    /// project) before anything starts the instance.
    private mutating func relaunchThenSwitch() {
        steps.append(.crash(tail: .clean, afterMilliseconds: random.int64(300...3_000), relaunchOn: nil))
        if random.chance(0.3) { tracking() }
        call(.switchProject(project: anyProject(), inCallback: callbackCall()))
    }

    /// A picker tapped dozens to hundreds of times, alternating between two or three
    /// projects while a switch is held: the queue never holds two entries for one project and
    /// the SDK ends on the last one asked for.
    private mutating func pickerTaps() {
        let first = anyProject()
        let second = other(than: first)
        var choices = [first, second]
        if random.chance(0.5) { choices.append(other(than: second) == first ? other(than: first) : other(than: second)) }
        let taps = random.chance(0.8) ? random.int(20...60) : random.int(100...200)
        for tap in 0..<taps {
            let project = choices[tap % choices.count]
            steps.append(.call(caller: random.int(1...3), .switchProject(project: project, inCallback: random.chance(0.05) ? callbackCall() : nil),
                               engineKeepsUp: random.chance(0.3)))
            if random.chance(0.05) { steps.append(.wait(milliseconds: random.int64(1...300))) }
        }
    }

    /// What an app does from a switch's callback, sometimes: re-identify the user.
    private mutating func callbackCall() -> PublicCall? {
        switch random.int(0...3) {
        case 0: .setEmail("user\(random.int(1...3))@sim.test")
        case 1: .track(event: "switched", dataFields: nil)
        default: nil
        }
    }

    private mutating func crash() {
        let tail: CrashTail = switch random.int(0...3) {
        case 0: .clean
        case 1: .tornWrite(bytes: random.int(1...400))
        case 2: .zeros(bytes: random.int(1...64))
        default: .garbage(bytes: random.int(1...64), seed: random.next())
        }
        let relaunchOn: Int? = random.chance(0.9) ? anyProject() : nil
        steps.append(.crash(tail: tail, afterMilliseconds: random.int64(300...3_000), relaunchOn: relaunchOn))
    }

    private mutating func wait() {
        let milliseconds: Int64 = switch random.int(0...9) {
        case 0..<5: random.int64(1...50)
        case 5..<8: random.int64(50...1_500)
        case 8: random.int64(1_500...6_000)
        default: random.int64(6_000...70_000)
        }
        steps.append(.wait(milliseconds: milliseconds))
    }

    // MARK: - The field

    /// A field step, drawn from the field stream: the helpers it shares with the other steps
    /// draw from that stream too while it runs, so the story's own stream is left where it was.
    private mutating func fieldStep() {
        swap(&random, &field)
        defer { swap(&random, &field) }
        switch random.int(0...31) {
        case 0..<8: offlinePeriod()
        case 8..<13: callAtItsLimit()
        case 13..<17: jwtIdentityWithQueuedEvents()
        case 17..<20: fetchesDuringTeardown()
        case 20..<22: wallClockJump()
        case 22..<25: signedInUserOnly()
        case 25: livesForDays()
        case 26, 27: invalidAndOversized()
        case 28: disableStorm()
        case 29, 30: erasureOrDeclineOnTheWire()
        default: agingBulk()
        }
    }

    /// The device's wall clock jumps, either way, by a minute to forty days, often while events
    /// wait offline: nothing may expire early, and no timer may wait the jump out.
    private mutating func wallClockJump() {
        let minute: Int64 = 60_000
        let day: Int64 = 86_400_000
        let jump: Int64 = switch random.int(0...3) {
        case 0: random.int64(minute...(60 * minute)) * (random.chance(0.5) ? 1 : -1)
        case 1: random.int64((60 * minute)...day) * (random.chance(0.5) ? 1 : -1)
        case 2: random.int64((7 * day)...(40 * day))
        default: -random.int64(day...(30 * day))
        }
        let offline = random.chance(0.6)
        if offline { steps.append(.offline) }
        if random.chance(0.8) { tracking() }
        if random.chance(0.3) { burst() }
        if random.chance(0.5) { steps.append(.wait(milliseconds: random.int64(1...120_000))) }
        steps.append(.jumpWallClock(milliseconds: jump))
        if random.chance(0.5) { tracking() }
        if offline {
            steps.append(.wait(milliseconds: random.int64(1...600_000)))
            longOffline = true
            steps.append(.online)
            if random.chance(0.7) { steps.append(.networkReachable) }
        }
        if random.chance(0.3) { steps.append(.jumpWallClock(milliseconds: -jump)) }
    }

    /// On a JWT project the app's auth server mints only for the user signed in to it: a user
    /// who signed out (her disable, her events queued offline, a relaunch that drops the token
    /// cache) is refused, or failed in a way that may pass; the signed-in user's events must go
    /// meanwhile.
    private mutating func signedInUserOnly() {
        let jwt = random.pick([2, 3])
        let gone = random.int(1...3)
        let signedIn = gone % 3 + 1
        call(.switchProject(project: jwt, inCallback: nil))
        call(.sdk(.setEmail("user\(gone)@sim.test")))
        if random.chance(0.8) { call(.sdk(.registerToken("token-\(random.int(1...3))"))) }
        if random.chance(0.5) { tracking() }
        let offline = random.chance(0.7)
        if offline { steps.append(.offline) }
        if random.chance(0.5) { tracking() }
        call(.sdk(.logoutUser))
        if random.chance(0.4) { steps.append(.crash(tail: .clean, afterMilliseconds: random.int64(300...3_000), relaunchOn: jwt)) }
        // Refused (userSignedOut), or failed in a way that may pass: then the signed-out user's
        // tasks wait aside until the age limit, tried again at the SDK's default backoff (the
        // catalog's 8-second one would make it 75,000 attempts).
        let refuses = random.chance(0.6)
        if !refuses { longOffline = true }
        steps.append(.authServer(signedIn: ["user\(signedIn)@sim.test"], refuses: refuses))
        call(.sdk(.setEmail("user\(signedIn)@sim.test")))
        if offline {
            steps.append(.wait(milliseconds: random.int64(1...120_000)))
            steps.append(.online)
            if random.chance(0.7) { steps.append(.networkReachable) }
        }
        for _ in 0..<random.int(1...4) { queuedTracks() }
        steps.append(.wait(milliseconds: random.int64(1...600_000)))
        if random.chance(0.4) { steps.append(.authServer(signedIn: nil, refuses: true)) }
    }

    /// A process that lives for hours or days on a JWT project whose tokens expire hourly,
    /// tracking every ten minutes to an hour: it refreshes as often as it must and delivers
    /// every event.
    private mutating func livesForDays() {
        let minute: Int64 = 60_000
        let jwt = random.pick([2, 3])
        steps.append(.tokenLifetime(milliseconds: 60 * minute))
        call(.switchProject(project: jwt, inCallback: .setEmail("user\(random.int(1...3))@sim.test")))
        call(.sdk(.setEmail("user\(random.int(1...3))@sim.test")))
        let hours = random.chance(0.8) ? random.int64(4...12) : random.int64(24...72)
        let every = random.int64(10...60) * minute
        var elapsed: Int64 = 0
        while elapsed < hours * 60 * minute {
            call(.sdk(.track(event: random.pick(["viewed", "liked", "shared"]), dataFields: nil)))
            let wait = every + random.int64(0...minute)
            steps.append(.wait(milliseconds: wait))
            elapsed += wait
            if random.chance(0.02) { steps.append(.jumpWallClock(milliseconds: random.int64(-3_600_000...3_600_000))) }
        }
        if random.chance(0.5) { steps.append(.tokenLifetime(milliseconds: 0)) }
    }

    /// A call whose arguments are invalid and over their limits at once: it is refused as
    /// oversized, journaled as its name and the reason, never whole.
    private mutating func invalidAndOversized() {
        func text(_ count: Int) -> String { String(repeating: "x", count: count) }
        let call: PublicCall = switch random.int(0...4) {
        case 0: .track(event: "bad\u{1}", dataFields: ["x": .string(text(CallLimits.dataStringBytes + random.int(1...4_096)))])
        case 1: .updateCart(items: [CommerceItem(id: "sku-1", name: "item", price: .infinity, quantity: 1),
                                    CommerceItem(id: "sku-2", name: text(CallLimits.itemNameBytes + random.int(1...4_096)), price: 5, quantity: 1)])
        case 2: .trackPurchase(total: -.infinity, items: [CommerceItem(id: "", name: text(CallLimits.itemNameBytes + 1), price: 5, quantity: -1)], dataFields: nil)
        case 3: .updateUser(dataFields: ["": .string(text(CallLimits.dataStringBytes + 1)), "ok": .integer(1)], mergeNestedObjects: false)
        default: .track(event: "", dataFields: [text(CallLimits.dataKeyBytes + 1): .string(text(CallLimits.dataStringBytes + 1))])
        }
        self.call(.sdk(call))
    }

    /// Login and logout churn, often offline: a storm of disables (for one to three users, or
    /// dozens). One disable waits per project and user; the queue keeps its bounds.
    private mutating func disableStorm() {
        call(.switchProject(project: anyProject(), inCallback: nil))
        call(.sdk(.registerToken("token-\(random.int(1...3))")))
        let offline = random.chance(0.8)
        if offline { steps.append(.offline) }
        let many = random.chance(0.2)
        for round in 0..<(many ? random.int(20...90) : random.int(3...15)) {
            call(.sdk(.setEmail(many ? "storm\(round)@sim.test" : "user\(random.int(1...3))@sim.test")))
            if random.chance(0.2) { call(.sdk(.registerToken("token-\(random.int(1...3))"))) }
            call(.sdk(random.chance(0.8) ? .logoutUser : .disableDevice))
            if random.chance(0.1) { call(.sdk(.disableDevice)) }
            if random.chance(0.2) { steps.append(.wait(milliseconds: random.int64(1...5_000))) }
        }
        if offline {
            steps.append(.wait(milliseconds: random.int64(1...600_000)))
            longOffline = true
            steps.append(.online)
            if random.chance(0.7) { steps.append(.networkReachable) }
        }
    }

    /// Requests on the wire (held by a slow network, their answers often lost) when the app
    /// erases what the device recorded, or the user declines: nothing that was on the wire
    /// leaves again for the erased user, nothing leaves while declined.
    private mutating func erasureOrDeclineOnTheWire() {
        if random.chance(0.7) { call(.sdk(.setEmail("user\(random.int(1...3))@sim.test"))) }
        let lossy = random.chance(0.6)
        if lossy { steps.append(.lossyNetwork(true)) }
        steps.append(.slowNetwork(milliseconds: random.int64(1_000...8_000)))
        queuedTracks()
        if random.chance(0.3) { call(.sdk(.registerToken("token-\(random.int(1...3))"))) }
        steps.append(.wait(milliseconds: random.int64(1...800)))
        switch random.int(0...3) {
        case 0, 1:
            call(.sdk(.eraseLocalData))
        case 2:
            call(.sdk(.setConsent(granted: false)))
            if random.chance(0.5) { tracking() }
            if random.chance(0.5) { call(.sdk(.eraseLocalData)) }
        default:
            call(.sdk(.setConsent(granted: false)))
            if random.chance(0.5) { call(.sdk(.logoutUser)) }
            steps.append(.wait(milliseconds: random.int64(1...60_000)))
            call(.sdk(.setConsent(granted: true)))
        }
        steps.append(.wait(milliseconds: random.int64(1...120_000)))
        if lossy { steps.append(.lossyNetwork(false)) }
        steps.append(.slowNetwork(milliseconds: 0))
    }

    /// Events of one user queued offline days apart: the young ones join the old one's bulk,
    /// and each expires at its own age, never at the bulk's.
    private mutating func agingBulk() {
        let hour: Int64 = 3_600_000
        steps.append(.offline)
        longOffline = true
        let caller = random.int(1...3)
        let track = { (name: String) in StoryStep.call(caller: caller, .sdk(.track(event: name, dataFields: nil)), engineKeepsUp: true) }
        steps.append(track("viewed"))
        steps.append(.wait(milliseconds: random.int64(1...120_000)))
        steps.append(track("liked"))
        steps.append(.wait(milliseconds: 7 * 24 * hour - random.int64(hour...(20 * hour))))
        steps.append(track("shared"))
        steps.append(.wait(milliseconds: random.int64((21 * hour)...(30 * hour))))
        steps.append(.online)
        if random.chance(0.8) { steps.append(.networkReachable) }
    }

    /// The device goes offline: every request fails at once with no response and the queue
    /// waits, never used up, for seconds, often minutes, sometimes hours, rarely days (past the
    /// 7-day age limit too). Calls made meanwhile queue (or are held, for an unknown user); then
    /// the network comes back and, often but not always, the app says so.
    private mutating func offlinePeriod() {
        steps.append(.offline)
        var left = offlineMilliseconds()
        // Something waits through a period of days (the age limit is the point of them).
        if left >= 24 * 3_600_000 { tracking() }
        for _ in 0..<random.int(0...3) {
            switch random.int(0...11) {
            case 0..<3: tracking()
            case 3: burst()
            case 4, 5: identity()
            case 6, 7: inline()
            case 8: call(.sdk(.logoutUser))
            case 9: call(.sdk(.registerToken("token-\(random.int(1...3))")))
            case 10: if random.chance(0.5) { crash() } else { switches() }
            default: call(.sdk(.flush))
            }
            let part = random.int64(0...(left / 2))
            if part > 0 {
                steps.append(.wait(milliseconds: part))
                left -= part
            }
        }
        steps.append(.wait(milliseconds: left))
        steps.append(.online)
        if random.chance(0.7) {
            if random.chance(0.3) { steps.append(.wait(milliseconds: random.int64(1...2_000))) }
            steps.append(.networkReachable)
        }
        if random.chance(0.5) { tracking() }
    }

    /// How long an offline period lasts: mostly seconds, often minutes, sometimes hours, rarely
    /// days (half of those past the 7-day age limit).
    private mutating func offlineMilliseconds() -> Int64 {
        let hour: Int64 = 3_600_000
        let duration: Int64 = switch random.int(0...99) {
        case 0..<55: random.int64(500...90_000)
        case 55..<80: random.int64(90_000...(hour / 2))
        case 80..<92: random.int64(hour...(12 * hour))
        case 92..<96: random.int64((24 * hour)...(7 * 24 * hour))
        default: random.int64((7 * 24 * hour + 1)...(10 * 24 * hour))
        }
        if duration > 120_000 { longOffline = true }
        return duration
    }

    /// A call with an argument just over its limit (``CallLimits``: rejected at once, journaled
    /// as its name and the reason), or, a third of the time, at it (accepted). Small: the
    /// largest is a cart of about 320 KiB.
    private mutating func callAtItsLimit() {
        let over = random.chance(0.67) ? 1 : 0
        func text(_ count: Int) -> String { String(repeating: "x", count: count) }
        let item = { (name: String) in CommerceItem(id: "sku-1", name: name, price: 5, quantity: 1) }
        let call: PublicCall = switch random.int(0...14) {
        case 0: .track(event: text(CallLimits.identifierBytes + over), dataFields: nil)
        case 1: .track(event: "viewed", dataFields: ["note": .string(text(CallLimits.dataStringBytes + over))])
        case 2: .track(event: "viewed", dataFields: [text(CallLimits.dataKeyBytes + over): .integer(1)])
        case 3: .track(event: "viewed", dataFields: Dictionary(uniqueKeysWithValues: (0..<(CallLimits.dataFieldsCount + over)).map { ("f\($0)", DataValue.integer(Int64($0))) }))
        // Each string within its limit, the object past its 64 KiB of JSON (or under it).
        case 4: .updateUser(dataFields: Dictionary(uniqueKeysWithValues: (0..<(4 + over)).map { ("s\($0)", DataValue.string(text(15_000))) }), mergeNestedObjects: false)
        case 5: .trackPurchase(total: 5, items: [item(text(CallLimits.itemNameBytes + over))], dataFields: nil)
        case 6: .updateCart(items: Array(repeating: item("item"), count: CallLimits.items + over))
        // Each item within its limits, the call past its 256 KiB (or under it).
        case 7: .updateCart(items: Array(repeating: item(text(1_000)), count: over == 1 ? 300 : 200))
        case 8: .inAppClick(messageID: message(), url: "https://sim.test/" + text(CallLimits.urlBytes - 17 + over))
        case 9: .handleUniversalLink(url: "https://links.sim.test/a/" + text(CallLimits.urlBytes - 25 + over))
        case 10: .setEmail(text(CallLimits.emailBytes - 9 + over) + "@sim.test")
        case 11: .setUserId(text(CallLimits.userIDBytes + over))
        case 12: .registerToken(text(CallLimits.pushTokenBytes + over))
        case 13: .embeddedClick(messageID: message(), buttonID: text(CallLimits.identifierBytes + over), url: nil)
        default: .inAppFetch(count: CallLimits.messagesPerFetch + over)
        }
        self.call(.sdk(call))
    }

    /// Identity changes on a JWT project (C, D) while its events wait in the queue, offline or
    /// behind a request held on the wire: every request must carry the events of one user, with
    /// a JWT issued for that user. Events of an unknown user (after a logout) are held, and
    /// released when the user is known again.
    private mutating func jwtIdentityWithQueuedEvents() {
        let jwt = random.pick([2, 3])
        call(.switchProject(project: jwt, inCallback: random.chance(0.5) ? .setEmail("user\(random.int(1...3))@sim.test") : nil))
        if random.chance(0.6) { steps.append(.wait(milliseconds: random.int64(1...3_000))) }
        if random.chance(0.7) { call(.sdk(.setEmail("user\(random.int(1...3))@sim.test"))) }
        if random.chance(0.4) { call(.sdk(.registerToken("token-\(random.int(1...3))"))) }
        let offline = random.chance(0.5)
        steps.append(offline ? .offline : .slowNetwork(milliseconds: random.int64(500...3_000)))
        for round in 0..<random.int(1...3) {
            queuedTracks()
            if round > 0 && random.chance(0.3) { inline() }
            switch random.int(0...5) {
            case 0, 1: call(.sdk(.setEmail("user\(random.int(1...3))@sim.test")))
            case 2: call(.sdk(.setUserId("user-\(random.int(1...3))")))
            case 3: call(.sdk(.logoutUser))
            case 4: call(.sdk(.updateEmail("new\(random.int(1...3))@sim.test")))
            default: call(.sdk(.setEmail(nil)))
            }
        }
        queuedTracks()
        if random.chance(0.5) { steps.append(.wait(milliseconds: random.int64(1...1_500))) }
        if offline {
            steps.append(.wait(milliseconds: random.int64(1...20_000)))
            steps.append(.online)
            if random.chance(0.7) { steps.append(.networkReachable) }
        } else {
            steps.append(.slowNetwork(milliseconds: 0))
        }
    }

    /// One to four tracks of one caller, sometimes faster than the engine answers.
    private mutating func queuedTracks() {
        let caller = random.int(1...3)
        for _ in 0..<random.int(1...4) {
            steps.append(.call(caller: caller, .sdk(.track(event: random.pick(["viewed", "liked", "shared"]), dataFields: nil)),
                               engineKeepsUp: random.chance(0.5)))
        }
    }

    /// Message fetches answered late, around a switch: an answer that comes after the teardown
    /// reset that kind of messages is refused, never stored for the instance being left. Half
    /// the time the world holds the answers until a module is handed the reset, else they come
    /// over a slow network, whenever they come (while the teardown waits for the disable to be
    /// durable, for a module still busy with an awaited hook, or after it).
    private mutating func fetchesDuringTeardown() {
        let atReset = random.chance(0.5)
        // What the project has on the wire goes first, so the fetches leave before the switch.
        if random.chance(0.7) { steps.append(.wait(milliseconds: random.int64(300...2_000))) }
        if atReset {
            steps.append(.fetchAnswersAtReset(true))
        } else {
            steps.append(.slowNetwork(milliseconds: random.chance(0.5) ? random.int64(10...100) : random.int64(100...4_000)))
        }
        for _ in 0..<random.int(1...2) {
            call(.sdk(random.chance(0.5) ? .inAppFetch(count: random.int(1...5)) : .embeddedFetch))
        }
        if random.chance(0.3) { steps.append(.wait(milliseconds: random.int64(1...200))) }
        // Two switches: at least one leaves the project the fetches were made on.
        let first = anyProject()
        call(.switchProject(project: first, inCallback: callbackCall()))
        if random.chance(0.6) { call(.switchProject(project: other(than: first), inCallback: nil)) }
        steps.append(.wait(milliseconds: random.int64(100...6_000)))
        steps.append(atReset ? .fetchAnswersAtReset(false) : .slowNetwork(milliseconds: 0))
    }

    // MARK: - Pieces

    private mutating func call(_ call: StoryCall) {
        steps.append(.call(caller: random.int(1...3), call, engineKeepsUp: random.chance(0.7)))
    }

    private mutating func anyProject() -> Int {
        random.int(0...(projectCount - 1))
    }

    private mutating func other(than project: Int) -> Int {
        (project + random.int(1...(projectCount - 1))) % projectCount
    }

    private mutating func message() -> String {
        messageNumber += 1
        return "m\(random.int(1...4))"
    }
}
