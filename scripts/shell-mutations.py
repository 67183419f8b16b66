#!/usr/bin/env python3
"""The engine-shell mechanisms scripts/shell-mutations.sh reverts, one at a time.

Usage: shell-mutations.py list | files | check | NAME
  list   the mutations' names
  files  the files they change
  check  exit 1, naming it, when a mutation no longer applies (its text is not in the file once)
  NAME   apply that mutation to the working tree (run from the package's root)
"""
import sys

E = "Sources/SDK/Engine/EngineShell.swift"
FX = "Sources/SDK/Engine/EngineShell+Effects.swift"
MR = "Sources/SDK/Engine/ModuleRunner.swift"
JC = "Sources/SDK/Engine/JournalClock.swift"
D = "Sources/SDKCore/Decide/SDKState+Delivery.swift"
PC = "Sources/SDKCore/Decide/SDKState+PrivacyCalls.swift"
# name | file | old (must occur exactly once) | new
M = [
 ("tokens-kept-across-instances", FX,
  "            owner.instance = generation\n            forgetTokens()\n", "            owner.instance = generation\n"),
 ("late-token-cached", E,
  "            if epoch == tokenEpoch { tokens[key] = token }\n            // While the JWT", "            tokens[key] = token\n            // While the JWT"),
 ("provider-unbounded", FX,
  "        schedule(at: due) {\n            once.deliver(", "        if false { schedule(at: due) {}}\n        _ = {\n            once.deliver("),
 ("landing-callbacks-not-awaited", FX,
  "if landings[id]?.arm() == true { landingCallbacksDone(id) }", "if landings[id]?.arm() != nil { landingCallbacksDone(id) }"),
 ("module-overrun-not-waited", MR,
  "            running[name] = hook\n            let inbox = core.inbox", "            let inbox = core.inbox"),
 ("module-failure-any-instance", MR,
  "                failure = failures[name]?[context.generation]\n", "                failure = failures[name]?.values.first\n"),
 ("interrupted-switch-forgotten", E,
  "        interruptedSwitchCalls = Set(projected.switching.inFlight?.calls ?? [])\n", ""),
 ("gap-not-folded", E,
  "            projected.evolve(.journalGap(gap), at: time)\n            journalOutage = nil\n", "            journalOutage = nil\n"),
 ("timers-not-rearmed", E,
  "        for (purpose, due) in timers { schedule(purpose, at: due) }\n", ""),
 ("ages-on-the-wall-clock", JC,
  "        anchorTime.advanced(byMicroseconds: max(0, reading.monotonicMicroseconds &- anchorMonotonic))", "        reading.wall"),
 ("aside-blocks-its-project", D,
  "                guard queued.aside != nil else { return }\n                waitingAside.append(queued.task.user)", "                return"),
 ("refusal-retried", D,
  "        case .tokenRefused:\n            return fail(task, .authentication(Self.describe(reason, of: task)), &decisions)", "        case .tokenRefused:\n            break"),
 ("refresh-budget-per-instance", D,
  "            if queued.tokenRefreshes < retry.jwtRefreshBudget {", "            if (auth[task.project]?.refreshesUsed ?? 0) < retry.jwtRefreshBudget {"),
 ("refresh-failure-fails-the-head", D,
  "        if let failure = receipt.failure, let waiting = tokenWaiter(of: receipt.project), let queued = tasks[waiting],\n           case .awaitingToken(let next) = queued.status {\n            let reason: NotSentReason = receipt.refused ? .tokenRefused(failure) : .noToken(failure)\n            notSent(queued, after: next &- 1, reason, retry: projects[receipt.project]?.retry ?? RetryRules(), &decisions)\n        }",
  "        if let failure = receipt.failure, let head = taskOrder[receipt.project]?.first, let queued = tasks[head] {\n            fail(queued.task, .authentication(\"the auth provider failed: \\(failure)\"), &decisions)\n        }"),
 ("bulk-expires-whole", D,
  "        return count == times.count ? .overdue : .someEvents(count)", "        return .overdue"),
 ("background-time-held-after-its-flush", E,
  "        if background != nil { endBackgroundTaskIfFlushed() }\n", ""),
 ("keyring-failure-dropped", E,
  "        case .keyringWriteFailed(let project, let reason):\n            handle(.keyringWriteFailed(project: project, reason: reason), .none)\n",
  "        case .keyringWriteFailed:\n            break\n"),
 ("disables-not-coalesced", D,
  "            if let queued = pendingDisable(request, for: user, on: project.fingerprint) {", "            if false, let queued = pendingDisable(request, for: user, on: project.fingerprint) {"),
 ("erasure-spares-the-wire", PC,
  "        purgeQueue(keepingDisables: false, reason: .erased, projects: nil, onTheWire: true, &decisions)", "        purgeQueue(keepingDisables: false, reason: .erased, projects: nil, onTheWire: false, &decisions)"),
 ("durability-waits-not-answered", E,
  "            inbox.post(.input(.durabilityConfirmed(DurabilityConfirmation(request: request, failure: journalOutage?.description)), .none))\n", ""),
]


def main():
    command = sys.argv[1] if len(sys.argv) > 1 else "list"
    if command == "list":
        for m in M:
            print(m[0])
    elif command == "files":
        for name in sorted({m[1] for m in M}):
            print(name)
    elif command == "check":
        stale = [m[0] for m in M if open(m[1]).read().count(m[2]) != 1]
        for name in stale:
            print(f"{name}: does not apply (its text is not in the file exactly once): update scripts/shell-mutations.py")
        sys.exit(1 if stale else 0)
    else:
        found = [m for m in M if m[0] == command]
        if not found:
            sys.exit(f"no mutation named {command}")
        _, path, old, new = found[0]
        text = open(path).read()
        if text.count(old) != 1:
            sys.exit(f"{command}: does not apply")
        open(path, "w").write(text.replace(old, new, 1))


main()
