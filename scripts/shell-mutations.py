#!/usr/bin/env python3
"""The engine-shell mechanisms scripts/shell-mutations.sh reverts, one at a time: (name, file, text, replacement)."""
# name | file | old | new
M = [
 ("tokens-kept-across-identity", "Sources/SDK/Engine/EngineCore+Effects.swift",
  "            owner.user = user\n            forgetTokens()", "            owner.user = user"),
 ("late-token-cached", "Sources/SDK/Engine/EngineCore.swift",
  "            if epoch == tokenEpoch { tokens[project] = token }\n            environment.send", "            tokens[project] = token\n            environment.send"),
 ("provider-unbounded", "Sources/SDK/Engine/EngineCore+Effects.swift",
  "        environment.schedule(at: due) {\n            once.deliver(", "        if false { environment.schedule(at: due) {}}\n        _ = {\n            once.deliver("),
 ("landing-callbacks-not-awaited", "Sources/SDK/Engine/EngineCore+Effects.swift",
  "if landings[id]?.arm() == true { landingCallbacksDone(id) }", "if landings[id]?.arm() != nil { landingCallbacksDone(id) }"),
 ("module-overrun-not-waited", "Sources/SDK/Engine/ModuleRunner.swift",
  "            running[name] = hook\n            let inbox = core.inbox", "            let inbox = core.inbox"),
 ("module-failure-any-instance", "Sources/SDK/Engine/ModuleRunner.swift",
  "                failure = failures[name]?[context.generation]\n", "                failure = failures[name]?.values.first\n"),
 ("interrupted-switch-forgotten", "Sources/SDK/Engine/EngineCore.swift",
  "        interruptedSwitchCalls = Set(state.switching.inFlight?.calls ?? [])\n", ""),
 ("gap-not-folded", "Sources/SDK/Engine/EngineCore.swift",
  "            state.evolve(.journalGap(gap), at: time)\n", ""),
 ("timers-not-rearmed", "Sources/SDK/Engine/EngineCore.swift",
  "        for (purpose, due) in timers { schedule(purpose, at: due) }\n", ""),
 ("durability-waits-not-answered", "Sources/SDK/Engine/EngineCore.swift",
  "            inbox.post(.input(.durabilityConfirmed(DurabilityConfirmation(request: request, failure: nil)), .none))\n", ""),
]
import sys

if sys.argv[1] == "list":
    for m in M: print(m[0])
else:
    name = sys.argv[1]
    m = [x for x in M if x[0] == name][0]
    s = open(m[1]).read()
    assert m[2] in s, ("mutation does not apply", name)
    s = s.replace(m[2], m[3], 1)
    open(m[1], 'w').write(s)
