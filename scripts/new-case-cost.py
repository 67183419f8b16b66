#!/usr/bin/env python3
"""What a new public call and a new fact cost, measured (issue 45, "Measured, not claimed").

For each of the two, in a scratch copy of Sources (never the working tree):

1. writes what a newcomer writes first, as docs/ARCHITECTURE.md's recipe says (the enum case,
   its declaration, the public method...), plus the places no compiler names but the change
   needs, which a failing test names instead (KNOWN: none today);
2. compiles the copy and reads the compiler's errors: each file it names is a decision it asks
   for (an exhaustive switch without the new case). The template answers each with a plausible
   real choice (ANSWERS below); a file the compiler names that the template does not answer
   fails the run, naming the file and the compiler's note;
3. compiles again until the copy builds clean (no error, no warning), so the
   count is of a change that compiles; then prints the files touched, with the count, the goal
   and today's figure.

Exit 1 when the count is over today's figure (the ratchet, the default: `make test`), or with
--goal over the issue's goal (a call in at most 4 files; a fact in at most 3 plus the
decisions the compiler asks for), or when the template no longer applies or the copy does not
build clean.

How it compiles, cheaply: each module that depends on an edited one is compiled on its own with
`swiftc -wmo -emit-module` and the exact flags SwiftPM used for the working tree's debug build
(read from .build/debug.yaml, so `swift build --build-tests` must have run: `make test` runs it
first). That type-checks every function body and runs SIL's diagnostics (exhaustive switches,
missing returns, initialization) but generates no code; the modules nothing edited touches are
the working tree's own. Test targets and executables are not compiled (--executables compiles
the latter): none switches over calls or facts without a `default:`, so none asks a decision.
The call and the fact are measured side by side, one job each. The figures are cached in
.build/new-case-cost under a key of this script, the compiler, the build's flags and every file
of Sources: a rerun over the same tree prints them at once (--fresh measures again).
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Today's figures (files touched, all kinds): the run fails when a change makes either grow.
# Lower them when a change makes a case cheaper (docs/ARCHITECTURE.md quotes this script).
RATCHET = {"call": 4, "fact": 15}


class Edit:
    """Replaces `old` by `new` in `path` (relative to the repository), `count` times exactly."""

    def __init__(self, path, old, new, count=1, kind="decision", why=""):
        self.path, self.old, self.new, self.count, self.kind, self.why = path, old, new, count, kind, why


def joins(path, old, new, why, count=1):
    """An answer that only adds the new case to a list of cases treated alike."""
    return Edit(path, old, new, count, kind="list", why=why)


class Case:
    def __init__(self, name, title, goal, goal_text, first, known, answers):
        self.name, self.title, self.goal, self.goal_text = name, title, goal, goal_text
        self.first, self.known = first, known
        self.answers = {}
        for edit in answers:
            self.answers.setdefault(edit.path, []).append(edit)


# ---------------------------------------------------------------------------------------------
# The call: `inAppDismiss(messageID:)`, a POST of `messageId` to `events/inAppDismiss`, inline
# during a switch, in the message family: the shape of `inAppConsume`, answered as it is.

PC = "Sources/SDKCore/Facts/PublicCall.swift"
# The message family's public calls, both forms (the completion form, then `AwaitedCalls`).
MC = "Sources/SDK/API/EngagementSDK+MessageCalls.swift"
CALL = Case(
    "call", "a public call inAppDismiss(messageID:)", 4, "at most 4 files",
    first=[
        Edit(PC, "    case inAppConsume(messageID: String)\n",
             "    case inAppConsume(messageID: String)\n    case inAppDismiss(messageID: String)\n",
             kind="first", why="the case"),
        Edit(PC, "inAppDelivery, inAppConsume\n", "inAppDelivery, inAppConsume, inAppDismiss\n",
             kind="first", why="its name"),
        Edit(PC, '    static let embeddedFetch = CallDeclaration(',
             '    static let inAppDismiss = CallDeclaration(.inAppDismiss, tag: 30, arguments: [messageID], '
             'request: .post(path: "events/inAppDismiss"))\n    static let embeddedFetch = CallDeclaration(',
             kind="first", why="its declaration (tag 30, a POST of its message id)"),
        Edit(MC, "    /// Fetches embedded messages (`embedded-messaging/messages`)",
             "    /// Dismisses an in-app message on the platform (`events/inAppDismiss`).\n"
             "    ///\n"
             "    /// Inline, as ``inAppConsume(messageID:completion:)``; `completion`, if given, runs once on\n"
             "    /// ``SDKConfiguration/callbackQueue``.\n"
             "    public func inAppDismiss(messageID: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {\n"
             "        submit(.inAppDismiss(messageID: messageID), completion)\n"
             "    }\n\n"
             "    /// Fetches embedded messages (`embedded-messaging/messages`)",
             kind="first", why="the public method"),
        Edit(MC, "    /// Fetches embedded messages, as ``EngagementSDK/fetchEmbeddedMessages(completion:)`` does,\n",
             "    /// Dismisses an in-app message, as ``EngagementSDK/inAppDismiss(messageID:completion:)``\n"
             "    /// does, and returns its outcome.\n"
             "    @discardableResult\n"
             "    public func inAppDismiss(messageID: String) async -> CallOutcome {\n"
             "        await sdk.submit(.inAppDismiss(messageID: messageID))\n"
             "    }\n\n"
             "    /// Fetches embedded messages, as ``EngagementSDK/fetchEmbeddedMessages(completion:)`` does,\n",
             kind="first", why="its async form"),
        Edit("Sources/Sandbox/APIEndpoint.swift",
             '    case consumeInApp = "events/inAppConsume"\n',
             '    case consumeInApp = "events/inAppConsume"\n    case dismissInApp = "events/inAppDismiss"\n',
             kind="first", why="the Sandbox's endpoint"),
    ],
    # None: the simulator's stories make every declared call (Simulation/DeclaredCallSampler.swift),
    # so SimulationTests "the generator makes every public call" holds a new one without an edit.
    known=[],
    answers=[
        Edit(PC, "        case .inAppConsume: .inAppConsume\n",
             "        case .inAppConsume: .inAppConsume\n        case .inAppDismiss: .inAppDismiss\n", count=2,
             why="name and declaration mappings"),
        Edit(PC, ".inAppDelivery, .inAppConsume,\n                 .embeddedReceived",
             ".inAppDelivery, .inAppConsume, .inAppDismiss,\n                 .embeddedReceived", why="inline during a switch"),
        Edit(PC, "case .inAppFetch, .inAppOpen, .inAppClick, .inAppClose, .inAppDelivery, .inAppConsume,\n                 .embeddedFetch",
             "case .inAppFetch, .inAppOpen, .inAppClick, .inAppClose, .inAppDelivery, .inAppConsume, .inAppDismiss,\n                 .embeddedFetch",
             why="the message family"),
        Edit(PC, ".inAppConsume(let id), .embeddedReceived(let id): [.text(id)]",
             ".inAppConsume(let id), .inAppDismiss(let id), .embeddedReceived(let id): [.text(id)]", why="its arguments"),
        Edit(PC, "        case .embeddedFetch: self = .embeddedFetch\n",
             "        case .inAppDismiss: guard let id = text(0) ?? nil else { return nil }; self = .inAppDismiss(messageID: id)\n"
             "        case .embeddedFetch: self = .embeddedFetch\n", why="built from its arguments"),
        joins("Sources/SDKCore/Decide/SDKState+Calls.swift", ".inAppDelivery, .inAppConsume,\n             .embeddedFetch",
              ".inAppDelivery, .inAppConsume, .inAppDismiss,\n             .embeddedFetch", "runs as a message call"),
        joins("Sources/Sandbox/APIEndpoint.swift", ".trackInAppDelivery, .consumeInApp,",
              ".trackInAppDelivery, .consumeInApp, .dismissInApp,", "both backends store it (a POST)"),
    ],
)

# ---------------------------------------------------------------------------------------------
# The fact: a switch decision `callbacksStalled(switch:waitedMicroseconds:)`, kind 70 (the
# switch decisions' range): the app's callbacks of a landed switch have not returned after so
# long. It changes nothing in the state; the tools show it like its family's other facts.

FD = "Sources/SDKCore/Facts/Fact+Declarations.swift"
FACT = Case(
    "fact", "a fact callbacksStalled(switch:waitedMicroseconds:)", 3,
    "at most 3 files plus the decisions the compiler asks for",
    first=[
        Edit("Sources/SDKCore/Facts/Fact.swift",
             "    case switchCancelled(switch: SwitchID, reason: String)\n",
             "    case switchCancelled(switch: SwitchID, reason: String)\n"
             "    /// The app's callbacks of a landed switch had not returned after `waitedMicroseconds`.\n"
             "    case callbacksStalled(switch: SwitchID, waitedMicroseconds: Int64)\n",
             kind="first", why="the case"),
        Edit("Sources/SDKCore/Facts/FactKind.swift", "    case switchCancelled = 69\n",
             "    case switchCancelled = 69\n    case callbacksStalled = 70\n", kind="first", why="its number"),
        Edit(FD, "    package static let switchCancelled = FactDeclaration(.switchCancelled, .switch, [switchID, freeReason])\n",
             "    package static let switchCancelled = FactDeclaration(.switchCancelled, .switch, [switchID, freeReason])\n"
             "    package static let callbacksStalled = FactDeclaration(.callbacksStalled, .switch, [\n"
             "        switchID, Field(\"waited_us\", 2, .defaulted, .structural),\n    ])\n",
             kind="first", why="its declaration"),
    ],
    # None: the tests' random facts are drawn from the declarations (Tests/SDKTests/Support/
    # RandomFacts.swift reads each kind as the decoder does, from random field values), so
    # FactCodecTests round-trips a new kind without an edit.
    known=[],
    answers=[
        Edit(FD, "        case .switchCancelled: .switchCancelled\n",
             "        case .switchCancelled: .switchCancelled\n        case .callbacksStalled: .callbacksStalled\n",
             why="kind to declaration"),
        Edit(FD, "        case .switchCancelled: FactKind.switchCancelled.rawValue\n",
             "        case .switchCancelled: FactKind.switchCancelled.rawValue\n"
             "        case .callbacksStalled: FactKind.callbacksStalled.rawValue\n", why="kind number"),
        Edit(FD, "        case .switchCancelled(let id, let reason): two(.switchCancelled, .switchID(id), .text(reason))\n",
             "        case .switchCancelled(let id, let reason): two(.switchCancelled, .switchID(id), .text(reason))\n"
             "        case .callbacksStalled(let id, let waited): two(.callbacksStalled, .switchID(id), .microseconds(waited))\n",
             why="its field values"),
        Edit(FD, '        case .switchCancelled: self = .switchCancelled(switch: try source.value(f[0]), reason: try source.text(f[1]) ?? "")\n',
             '        case .switchCancelled: self = .switchCancelled(switch: try source.value(f[0]), reason: try source.text(f[1]) ?? "")\n'
             "        case .callbacksStalled: self = .callbacksStalled(switch: try source.value(f[0]), waitedMicroseconds: try source.signed(f[1]))\n",
             why="read back from its fields"),
        Edit("Sources/SDKCore/Fold/SDKState+Evolve.swift",
             "        case .switchCancelled(let id, _):\n            switching.queue.removeAll { $0.id == id }\n",
             "        case .switchCancelled(let id, _):\n            switching.queue.removeAll { $0.id == id }\n"
             "        case .callbacksStalled:\n            // A report for support: the switch waits on as before.\n            break\n",
             why="the fold: changes nothing"),
        joins("Sources/SDKCore/Effects/SDKState+Effects.swift", ".teardownStepFinished, .switchCancelled,",
              ".teardownStepFinished, .switchCancelled, .callbacksStalled,", "asks nothing of the world"),
        joins("Sources/SDKCore/Decide/InputDecisions.swift", ".switchLanded,\n                 .switchCancelled,",
              ".switchLanded,\n                 .switchCancelled, .callbacksStalled,", "not an input"),
        Edit("Sources/ReplayKit/Rendering/FactSummary.swift",
             "        case .switchCancelled(let id, let reason):\n            return \"\\(id): \\(reason)\"\n",
             "        case .switchCancelled(let id, let reason):\n            return \"\\(id): \\(reason)\"\n"
             "        case .callbacksStalled(let id, let waited):\n"
             "            return \"\\(id): callbacks still running after \\(waited / 1_000) ms\"\n",
             why="its one-line text"),
        Edit("Sources/ReplayKit/Rendering/FactProjects.swift",
             "        case .switchCancelled(let id, _): return switchProjects(id, state)\n",
             "        case .switchCancelled(let id, _), .callbacksStalled(let id, _): return switchProjects(id, state)\n",
             why="names its switch's projects"),
        Edit("Sources/ReplayKit/Reading/OverflowGuard.swift",
             "            case .switchLanded(let id, _, _, _), .switchCancelled(let id, _): identifier(id.number, \"switch id\")\n",
             "            case .switchLanded(let id, _, _, _), .switchCancelled(let id, _): identifier(id.number, \"switch id\")\n"
             "            case .callbacksStalled(let id, let waited):\n"
             "                identifier(id.number, \"switch id\")\n"
             "                require((0...OverflowGuard.timeLimit).contains(waited), \"wait\")\n",
             why="bounds its id and its wait"),
        joins("Sources/ReplayKit/Analysis/CallAudit.swift", ".switchLanded, .switchCancelled,",
              ".switchLanded, .switchCancelled, .callbacksStalled,", "no call's audit"),
        joins("Sources/ReplayKit/Analysis/ContractChecker+Look.swift", ".fact(.teardownStepFinished), .fact(.unknown):",
              ".fact(.teardownStepFinished), .fact(.callbacksStalled), .fact(.unknown):",
              "no rule reads it (what the rules take in from a record is its look)"),
        joins("Sources/ReplayKit/Analysis/SwitchDiagnosis+Look.swift", ".fact(.storageCleared), .fact(.unknown):",
              ".fact(.storageCleared), .fact(.callbacksStalled), .fact(.unknown):",
              "the diagnosis reads the callbacks' own facts (what it takes in from a record is its look)"),
        joins("Sources/ReplayKit/Export/FleetColumns.swift", ", .callbacksDelivered(let id):\n",
              ", .callbacksDelivered(let id),\n                 .callbacksStalled(let id, _):\n",
              "its row names its switch (FleetExportTests holds every row to the ids its fact declares)"),
        joins("Sources/ReplayKit/Reconcile/JournalReconciler.swift", ".switchLanded, .switchCancelled, .unknown:",
              ".switchLanded, .switchCancelled, .callbacksStalled, .unknown:", "nothing to reconcile"),
        joins("Sources/Simulation/StoryAudit.swift", ".switchLanded, .switchCancelled,",
              ".switchLanded, .switchCancelled, .callbacksStalled,", "the simulator's audit ignores it"),
    ],
)

CASES = {"call": CALL, "fact": FACT}

# ---------------------------------------------------------------------------------------------

DIAGNOSTIC = re.compile(r"^(/[^:\n]+):(\d+):(\d+): (error|warning|note): (.*)$", re.M)
DROP_ONE = {"-emit-dependencies", "-incremental", "-c", "-enable-batch-mode", "-serialize-diagnostics",
            "-parseable-output", "-emit-objc-header", "-emit-module", "-g"}
DROP_TWO = {"-output-file-map", "-index-store-path", "-emit-objc-header-path", "-emit-module-path"}


class Module:
    def __init__(self, name, args, deps):
        self.name, self.args, self.deps = name, args, deps
        self.sources = []
        for arg in args:
            if arg.startswith("@"):
                with open(arg[1:]) as listing:
                    self.sources += listing.read().split()
            elif arg.endswith(".swift"):
                self.sources.append(arg)


def read_manifest(build):
    """The Swift modules of the debug build and the commands SwiftPM compiled them with."""
    path = os.path.join(build, "debug.yaml")
    if not os.path.exists(path):
        sys.exit(f"new-case-cost: {path} is missing: run `swift build --build-tests` first")
    text = open(path).read()
    modules = {}
    for match in re.finditer(r'^  "C\.[\w.-]+-debug\.module":\n((?:    .*\n)+)', text, re.M):
        body = match.group(1)
        args = re.search(r"^    args: (\[.*\])$", body, re.M)
        inputs = re.search(r"^    inputs: (\[.*\])$", body, re.M)
        if not args or not inputs:
            continue
        args = json.loads(args.group(1))
        if "-module-name" not in args:
            continue
        name = args[args.index("-module-name") + 1]
        deps = set(re.findall(r"Modules/(\w+)\.swiftmodule", inputs.group(1)))
        modules[name] = Module(name, args, deps - {name})
    if "SDKCore" not in modules:
        sys.exit(f"new-case-cost: {path} names no SDKCore module: not a debug build of this package")
    sources = os.path.join(ROOT, "Sources")
    for module in modules.values():
        if is_test(module):
            continue
        listed = {s for s in module.sources if s.startswith(sources + os.sep)}
        if not listed:
            continue
        directory = os.path.join(sources, os.path.relpath(next(iter(listed)), sources).split(os.sep)[0])
        on_disk = {os.path.join(base, name) for base, _, files in os.walk(directory) for name in files if name.endswith(".swift")}
        if listed != on_disk:
            sys.exit(f"new-case-cost: the debug build's list of {module.name}'s files is not the working tree's "
                     f"({len(on_disk - listed)} new, {len(listed - on_disk)} gone): run `swift build --build-tests` first")
    return modules


def is_test(module):
    return module.name.endswith("Tests") or module.name.startswith("EngagementSDKPackage") or module.name == "TestSupport"


def is_executable(module):
    return "-parse-as-library" not in module.args




class Scratch:
    """One case's copy of Sources and the modules compiled from it."""

    def __init__(self, case, root, modules, executables=False):
        self.case, self.root, self.modules = case, root, modules
        # Executables (bench, replay's main, the fuzzers' and the crash tests' children) switch
        # over no call or fact, so they ask no decision: compiled only when asked.
        self.executables = executables
        self.dir = os.path.join(root, case.name)
        self.out = os.path.join(self.dir, "Modules")
        self.log = []
        self.touched = {}  # path -> kind (first, known, decision, list)
        self.named = {}  # path -> first diagnostic the compiler gave there
        self.answered = set()
        self.compiled = {}
        self.seconds = 0.0
        self.passes = 0
        self.warnings = {}  # module -> its last successful compile's warnings
        shutil.rmtree(self.dir, ignore_errors=True)
        shutil.copytree(os.path.join(ROOT, "Sources"), os.path.join(self.dir, "Sources"))
        os.makedirs(self.out)

    def scratch_path(self, path):
        return os.path.join(self.dir, path)

    def repo_path(self, path):
        prefix = self.dir + os.sep
        return path[len(prefix):] if path.startswith(prefix) else path

    def apply(self, edit):
        if edit.path.startswith("Tests/"):
            # Counted, not compiled (test targets are not): check the anchor in the working tree.
            text = open(os.path.join(ROOT, edit.path)).read()
            if text.count(edit.old) != edit.count:
                raise TemplateError(f"{edit.path}: the template's anchor is there {text.count(edit.old)} times, "
                                    f"not {edit.count}: {edit.old.strip()[:100]!r}")
            self.touched.setdefault(edit.path, edit.kind)
            return
        path = self.scratch_path(edit.path)
        text = open(path).read()
        found = text.count(edit.old)
        if found != edit.count:
            raise TemplateError(f"{edit.path}: the template's anchor is there {found} times, not {edit.count}: "
                                f"{edit.old.strip()[:100]!r} (update {os.path.relpath(__file__, ROOT)})")
        with open(path, "w") as file:
            file.write(text.replace(edit.old, edit.new))
        self.touched.setdefault(edit.path, edit.kind)
        self.dirty_files.add(path)

    def skipped(self, module):
        return is_test(module) or (is_executable(module) and not self.executables)

    def affected(self):
        """The non-test modules that hold an edited file or depend on one that does."""
        edited = {self.scratch_path(path) for path in self.touched if path.startswith("Sources/")}
        names = {m.name for m in self.modules.values() if not self.skipped(m)
                 and any(self.map_source(s) in edited for s in m.sources)}
        changed = True
        while changed:
            changed = False
            for module in self.modules.values():
                if module.name not in names and not self.skipped(module) and module.deps & names:
                    names.add(module.name)
                    changed = True
        return names

    def map_source(self, path):
        src = os.path.join(ROOT, "Sources") + os.sep
        return os.path.join(self.dir, "Sources", path[len(src):]) if path.startswith(src) else path

    def command(self, module):
        args, result, index = module.args, [], 0
        while index < len(args):
            arg = args[index]
            if arg == "-Xcc":
                result += args[index:index + 2]
                index += 2
                continue
            if arg in DROP_TWO:
                index += 2
                continue
            if arg in DROP_ONE or arg.startswith("-j"):
                index += 1
                continue
            if arg.startswith("@"):
                result += [self.map_source(s) for s in module.sources if not s.startswith("-")]
                index += 1
                continue
            if arg.endswith(".swift"):
                index += 1
                continue
            if arg == "-I":
                result += ["-I", self.out]
            result.append(arg)
            index += 1
        return result + ["-wmo", "-emit-module", "-emit-module-path", os.path.join(self.out, module.name + ".swiftmodule"),
                         "-diagnostic-style", "llvm"]

    def compile_pass(self):
        """Compiles each affected module whose sources or dependencies changed since it last built,
        in dependency order. Returns the diagnostics, by module."""
        self.passes += 1
        affected = self.affected()
        failed, results = set(), {}
        order = topological([self.modules[name] for name in affected])
        for module in order:
            if (module.deps & failed) or any(dep in affected and dep not in self.compiled for dep in module.deps):
                failed.add(module.name)
                continue
            stamp = (tuple(sorted(self.file_stamps(module))), tuple(sorted(self.compiled.get(dep, 0) for dep in module.deps)))
            if module.name in self.compiled and self.stamps.get(module.name) == stamp:
                continue
            started = time.monotonic()
            process = subprocess.run(self.command(module), capture_output=True, text=True)
            elapsed = time.monotonic() - started
            self.seconds += elapsed
            self.log.append(f"pass {self.passes}: {module.name} {'ok' if process.returncode == 0 else 'failed'} in {elapsed:.1f} s")
            diagnostics = [(self.repo_path(m.group(1)), int(m.group(2)), m.group(4), m.group(5))
                           for m in DIAGNOSTIC.finditer(process.stdout + process.stderr)]
            results[module.name] = diagnostics
            if process.returncode != 0:
                failed.add(module.name)
                self.compiled.pop(module.name, None)
                if not any(kind == "error" for _, _, kind, _ in diagnostics):
                    raise TemplateError(f"{module.name} failed without a diagnostic:\n{(process.stdout + process.stderr)[-3000:]}")
            else:
                self.compiled[module.name] = time.monotonic()
                self.stamps[module.name] = stamp
                self.warnings[module.name] = [(path, line, text) for path, line, kind, text in diagnostics if kind == "warning"]
        return results, failed

    def file_stamps(self, module):
        return [(s, self.versions.get(self.map_source(s), 0)) for s in module.sources]

    def run(self, max_passes=8):
        self.stamps, self.versions, self.dirty_files = {}, {}, set()
        for edit in self.case.first + self.case.known:
            self.apply(edit)
        self.bump()
        while True:
            if self.passes >= max_passes:
                raise TemplateError(f"no clean build after {max_passes} passes")
            results, failed = self.compile_pass()
            errors = [(path, line, text) for diags in results.values() for path, line, kind, text in diags if kind == "error"]
            notes = {}
            for diags in results.values():
                for path, line, kind, text in diags:
                    if kind == "note" and "missing case" in text:
                        notes.setdefault(path, []).append(f"{line}: {text}")
            if not errors:
                warnings = [warning for name in sorted(self.warnings) for warning in self.warnings[name]]
                if warnings:
                    raise TemplateError("warnings (the package has none):\n" + "\n".join(f"  {p}:{l}: {t}" for p, l, t in warnings))
                if failed:
                    raise TemplateError(f"modules not compiled: {sorted(failed)}")
                return
            for path, line, text in errors:
                self.named.setdefault(path, f"{line}: {text}")
            unanswered = []
            for path in sorted({path for path, _, _ in errors}):
                if path in self.answered or path not in self.case.answers:
                    unanswered.append(path)
                    continue
                self.answered.add(path)
                for edit in self.case.answers[path]:
                    self.apply(edit)
                    self.touched[path] = edit.kind if self.touched.get(path) not in ("first", "known", "decision") else self.touched[path]
            if unanswered:
                lines = []
                for path in unanswered:
                    again = " (answered already: the answer is incomplete)" if path in self.answered else ""
                    lines.append(f"  {path}{again}")
                    lines += [f"    {line}: {text}" for p, line, text in errors if p == path][:5]
                    lines += [f"    note {n}" for n in notes.get(path, [])[:5]]
                raise TemplateError("the compiler asks for decisions the template does not answer; add them to ANSWERS in "
                                    f"scripts/new-case-cost.py (a new decision raises the count: say so in "
                                    f"docs/ARCHITECTURE.md and RATCHET):\n" + "\n".join(lines))
            self.bump()

    def bump(self):
        for path in self.dirty_files:
            self.versions[path] = self.versions.get(path, 0) + 1
        self.dirty_files = set()


class TemplateError(Exception):
    pass


def topological(modules):
    names = {m.name: m for m in modules}
    done, order = set(), []

    def visit(module):
        if module.name in done:
            return
        done.add(module.name)
        for dep in sorted(module.deps):
            if dep in names:
                visit(names[dep])
        order.append(module)
    for module in sorted(modules, key=lambda m: m.name):
        visit(module)
    return order


KIND_TITLES = [
    ("first", "written first, as the recipe says"),
    ("known", "needed, named by a failing test, not by the compiler"),
    ("decision", "asked by the compiler: a decision"),
    ("list", "asked by the compiler: joins a list of cases treated alike"),
]


def report(scratch):
    case = scratch.case
    total = len(scratch.touched)
    by_kind = {kind: sorted(p for p, k in scratch.touched.items() if k == kind) for kind, _ in KIND_TITLES}
    asked = len(by_kind["decision"]) + len(by_kind["list"])
    lines = [f"{case.title}: {total} files "
             f"({len(by_kind['first'])} written first, {len(by_kind['known'])} known, {asked} asked by the compiler: "
             f"{len(by_kind['decision'])} decisions, {len(by_kind['list'])} list entries); "
             f"goal {case.goal_text}; today's figure {RATCHET[case.name]}"]
    whys = {}
    for edit in case.first + case.known + [e for edits in case.answers.values() for e in edits]:
        whys.setdefault(edit.path, [])
        if edit.why and edit.why not in whys[edit.path]:
            whys[edit.path].append(edit.why)
    for kind, title in KIND_TITLES:
        if not by_kind[kind]:
            continue
        lines.append(f"  {title} ({len(by_kind[kind])}):")
        for path in by_kind[kind]:
            named = f" [compiler: line {scratch.named[path]}]" if path in scratch.named and kind in ("decision", "list") else ""
            lines.append(f"    {path}: {', '.join(whys.get(path, []))}{named}")
    unasked = sorted(set(case.answers) - scratch.answered)
    if unasked:
        lines.append(f"  answers in the template the compiler did not ask for (remove them): {', '.join(unasked)}")
    compiled = sorted(scratch.compiled)
    lines.append(f"  then builds clean: {len(compiled)} modules ({', '.join(compiled)}) compiled in "
                 f"{scratch.passes} passes, {scratch.seconds:.0f} s of compiler time")
    return "\n".join(lines), total, len(by_kind["first"]) + len(by_kind["known"]) + len(by_kind["list"])


def tree_key(modules, executables):
    """What a measurement depends on: this script, the compiler, the flags of the debug build and
    every file of Sources and of the test files the template reads. Same key, same figures."""
    digest = hashlib.sha256()
    digest.update(open(__file__, "rb").read())
    swiftc = modules["SDKCore"].args[0]
    digest.update(subprocess.run([swiftc, "--version"], capture_output=True).stdout)
    for name in sorted(modules):
        digest.update(json.dumps(modules[name].args).encode())
    tests = {edit.path for case in CASES.values() for edit in case.known if edit.path.startswith("Tests/")}
    files = sorted(os.path.relpath(os.path.join(base, name), ROOT)
                   for base, _, names in os.walk(os.path.join(ROOT, "Sources")) for name in names) + sorted(tests)
    for path in files:
        digest.update(path.encode() + b"\0")
        with open(os.path.join(ROOT, path), "rb") as file:
            digest.update(hashlib.sha256(file.read()).digest())
    digest.update(b"executables" if executables else b"libraries")
    return digest.hexdigest()[:16]


def self_test(root, modules):
    """The two ways the template can fall behind the code must fail the run, naming the file."""
    failures = []
    # A decision the compiler asks that the template does not answer: how the new call runs,
    # left out (the first pass names it: a few seconds).
    dropped = "Sources/SDKCore/Decide/SDKState+Calls.swift"
    case = Case("call", CALL.title, CALL.goal, CALL.goal_text, CALL.first, CALL.known,
                [e for edits in CALL.answers.values() for e in edits if e.path != dropped])
    try:
        Scratch(case, root, modules).run()
        failures.append(f"an unanswered decision in {dropped} passed")
    except TemplateError as error:
        if dropped not in str(error) or "does not answer" not in str(error):
            failures.append(f"an unanswered decision in {dropped} failed, but not naming it: {error}")
    # A warning (the package has none): planted in a module nothing else compiled here imports.
    warned = Edit("Sources/FuzzHarness/SampleCalls.swift", "import ", "func plantedWarning() { let unused = 1 }\nimport ",
                  kind="first")
    case = Case("call", CALL.title, CALL.goal, CALL.goal_text, [warned], [], [])
    try:
        Scratch(case, root, modules).run()
        failures.append("a warning passed")
    except TemplateError as error:
        if "SampleCalls.swift" not in str(error) or "warning" not in str(error):
            failures.append(f"a warning failed, but not naming it: {error}")
    # An anchor the code no longer has.
    stale = Edit("Sources/SDKCore/Facts/PublicCall.swift", "case noSuchCall", "case noSuchCall, x", kind="first")
    case = Case("call", CALL.title, CALL.goal, CALL.goal_text, [stale], [], [])
    try:
        Scratch(case, root, modules).run()
        failures.append("a stale anchor passed")
    except TemplateError as error:
        if "PublicCall.swift" not in str(error) or "anchor" not in str(error):
            failures.append(f"a stale anchor failed, but not naming it: {error}")
    for failure in failures:
        print(f"new-case-cost --self-test: {failure}", file=sys.stderr)
    print(f"new-case-cost --self-test: {'failed' if failures else 'ok'} (an unanswered decision, a warning and a stale anchor each fail the run)")
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, ".build"), help="the working tree's build directory (debug)")
    parser.add_argument("--scratch", default=None, help="where the copies go (default: a temporary directory, removed)")
    parser.add_argument("--case", choices=["call", "fact", "both"], default="both")
    parser.add_argument("--goal", action="store_true", help="fail when over the issue's goal, not only over today's figure")
    parser.add_argument("--jobs", type=int, default=2, help="cases measured at once")
    parser.add_argument("--verbose", action="store_true", help="print each module compiled and its time")
    parser.add_argument("--executables", action="store_true",
                        help="compile the executables that depend on an edited module too (they switch over no call or fact)")
    parser.add_argument("--fresh", action="store_true", help="measure even when the cache holds this tree's figures")
    parser.add_argument("--self-test", action="store_true",
                        help="check that the script fails on an unanswered decision and on a stale anchor")
    options = parser.parse_args()

    modules = read_manifest(options.build)
    root = options.scratch or tempfile.mkdtemp(prefix="new-case-cost.")
    os.makedirs(root, exist_ok=True)
    if options.self_test:
        status = self_test(root, modules)
        if not options.scratch:
            shutil.rmtree(root, ignore_errors=True)
        return status
    names = ["call", "fact"] if options.case == "both" else [options.case]
    started = time.monotonic()
    scratches = {name: Scratch(CASES[name], root, modules, options.executables) for name in names}
    errors, results = {}, {}
    cache = os.path.join(options.build, "new-case-cost")
    key = tree_key(modules, options.executables)

    def measure(name):
        path = os.path.join(cache, f"{name}-{key}.json")
        if not options.fresh and os.path.exists(path):
            with open(path) as file:
                results[name] = json.load(file)
            return
        try:
            scratches[name].run()
            text, total, beyond = report(scratches[name])
            results[name] = {"text": text, "total": total, "beyond": beyond}
            os.makedirs(cache, exist_ok=True)
            for stale in os.listdir(cache):
                if stale.startswith(name + "-"):
                    os.remove(os.path.join(cache, stale))
            with open(path, "w") as file:
                json.dump(results[name], file)
        except TemplateError as error:
            errors[name] = str(error)

    pending = list(names)
    while pending:
        batch, pending = pending[:max(1, options.jobs)], pending[max(1, options.jobs):]
        threads = [threading.Thread(target=measure, args=(name,)) for name in batch]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    status = 0
    for name in names:
        scratch = scratches[name]
        if options.verbose:
            print("\n".join(f"  {line}" for line in scratch.log))
        if name in errors:
            print(f"new-case-cost: {scratch.case.title}: {errors[name]}", file=sys.stderr)
            status = 1
            continue
        text, total, beyond_decisions = results[name]["text"], results[name]["total"], results[name]["beyond"]
        print(text)
        if not scratch.passes:
            print(f"  (the same sources, template and compiler as a run that measured this: its figures, from {cache})")
        if total > RATCHET[name]:
            print(f"new-case-cost: {name}: {total} files, more than today's {RATCHET[name]}", file=sys.stderr)
            status = 1
        elif total < RATCHET[name]:
            print(f"  fewer than today's figure: lower RATCHET[\"{name}\"] to {total} in {os.path.relpath(__file__, ROOT)}")
        measured = total if name == "call" else beyond_decisions
        if measured > scratch.case.goal:
            gap = f"{name}: {measured} files{' beside the decisions' if name == 'fact' else ''}, goal {scratch.case.goal_text}"
            if options.goal:
                print(f"new-case-cost: over the goal: {gap}", file=sys.stderr)
                status = 1
            else:
                print(f"  over the goal: {gap}")
    print(f"new-case-cost: {time.monotonic() - started:.0f} s")
    if not options.scratch:
        shutil.rmtree(root, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
