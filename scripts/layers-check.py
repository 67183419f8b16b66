#!/usr/bin/env python3
"""Fails when a target imports a module above it (docs/ARCHITECTURE.md, "Targets").

Reads every `import` (plain, @testable, @_exported) of each target's Swift files and checks it
against the modules the target may use: the ones below it in the layer table. Also checks that
the pure core (SDKCore) does no I/O, starts no thread and reads no clock, by the names of the
APIs that would.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The toolchain's own modules, allowed everywhere except where PURE says otherwise.
SYSTEM = {"Foundation", "FoundationNetworking", "Dispatch", "Glibc", "Darwin", "Synchronization",
          "Testing", "XCTest", "CommonCrypto", "Security", "UIKit"}

# What each target may import from this package (the layers below it).
ALLOWED = {
    "CLZ4": set(), "CCrypto": set(), "CSQLite": set(), "CAtomics": set(), "Locking": {"CAtomics"}, "CrashStory": set(),
    "Journal": {"CLZ4", "Locking"},
    "SDKCore": {"Journal", "CCrypto"},
    "SDK": {"SDKCore", "Journal", "Locking"},
    "LoopbackHTTP": {"Locking"},
    "Sandbox": {"LoopbackHTTP", "Locking", "CCrypto"},
    "SDKTesting": {"SDK", "SDKCore", "Journal", "Locking"},
    "ReplayKit": {"SDK", "SDKCore", "Journal", "Locking", "LoopbackHTTP"},
    "Simulation": {"SDK", "SDKCore", "SDKTesting", "ReplayKit", "Sandbox", "Journal", "Locking", "LoopbackHTTP"},
    "Demo": {"SDK", "SDKCore", "SDKTesting", "Sandbox", "Journal", "Locking", "LoopbackHTTP"},
    "replay": {"ReplayKit", "Simulation", "Demo", "SDK", "SDKCore", "Journal", "Locking", "LoopbackHTTP"},
    "replay-main": {"replay", "ReplayKit"},
    "bench": {"Journal", "SDK", "SDKCore", "SDKTesting", "Locking", "CLZ4", "CSQLite", "Sandbox", "LoopbackHTTP"},
    "crash-child": {"Journal", "SDK", "SDKCore", "CrashStory"},
    "FuzzHarness": {"Journal", "SDKCore", "SDK", "ReplayKit", "replay", "CLZ4"},
    "fuzz-journal": {"FuzzHarness"}, "fuzz-facts": {"FuzzHarness"}, "fuzz-replay": {"FuzzHarness"}, "fuzz-receipts": {"FuzzHarness"},
    "fuzz-corpus": {"FuzzHarness", "Journal", "SDK", "SDKCore", "ReplayKit", "replay"},
    "TestSupport": {"Locking"},
}
# Test targets may import anything below them; they are never imported.
TESTS_MAY_IMPORT = set(ALLOWED) - {"replay-main", "fuzz-journal", "fuzz-facts", "fuzz-replay", "fuzz-receipts", "fuzz-corpus", "bench"}

# The pure core: no thread, no clock, no I/O.
PURE = "SDKCore"
PURE_FORBIDDEN_MODULES = {"Dispatch", "FoundationNetworking", "Glibc", "Darwin", "Synchronization", "Locking", "UIKit"}
PURE_FORBIDDEN_NAMES = re.compile(r"\b(Date\(\)|Date\.now|DispatchQueue|DispatchTime|Thread\b|Task\s*\{|Task\.detached|"
                                  r"FileManager|FileHandle|URLSession|ProcessInfo|clock_gettime|gettimeofday|"
                                  r"fopen|open\(|ContinuousClock|SuspendingClock)")

IMPORT = re.compile(r"^\s*(?:@testable\s+|@_exported\s+)?import\s+(?:struct\s+|enum\s+|class\s+|func\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)


def swift_files(directory):
    for base, _, names in os.walk(directory):
        for name in names:
            if name.endswith(".swift"):
                yield os.path.join(base, name)


def main():
    problems = []
    targets = []
    for top in ("Sources", "Tests"):
        path = os.path.join(ROOT, top)
        for name in sorted(os.listdir(path)):
            if os.path.isdir(os.path.join(path, name)) and any(swift_files(os.path.join(path, name))):
                targets.append((top, name))
    for top, target in targets:
        if top == "Tests" and target != "TestSupport":
            allowed = TESTS_MAY_IMPORT
        elif target in ALLOWED:
            allowed = ALLOWED[target]
        else:
            problems.append(f"{top}/{target}: a target the layer table does not know (add it to scripts/layers-check.py and docs/ARCHITECTURE.md)")
            continue
        for file in swift_files(os.path.join(ROOT, top, target)):
            source = open(file, encoding="utf-8").read()
            # Multi-line string literals (an embedded script, a usage text) are not imports;
            # blanked line for line so that line numbers stay right.
            text = re.sub(r'"""(.*?)"""', lambda m: '"""' + re.sub(r"[^\n]", " ", m.group(1)) + '"""', source, flags=re.S)
            relative = os.path.relpath(file, ROOT)
            for match in IMPORT.finditer(text):
                module = match.group(1)
                line = text.count("\n", 0, match.start()) + 1
                if target == PURE and module in PURE_FORBIDDEN_MODULES:
                    problems.append(f"{relative}:{line}: the pure core imports {module}")
                elif module not in SYSTEM and module not in allowed:
                    problems.append(f"{relative}:{line}: {target} imports {module}, which is not below it")
            if target == PURE:
                for number, content in enumerate(text.splitlines(), 1):
                    code = content.split("//", 1)[0]
                    found = PURE_FORBIDDEN_NAMES.search(code)
                    if found:
                        problems.append(f"{relative}:{number}: the pure core uses {found.group(0).strip()} (no thread, clock or I/O in SDKCore)")
    if problems:
        print("layers-check: %d problem(s)" % len(problems))
        for problem in problems:
            print("  " + problem)
        return 1
    print("layers-check: %d targets import only the layers below them; SDKCore does no I/O, starts no thread, reads no clock" % len(targets))
    return 0


if __name__ == "__main__":
    sys.exit(main())
