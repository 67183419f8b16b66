#!/usr/bin/env python3
"""Fails on Linux-only code an Apple build would meet (docs/PLATFORMS.md, "The portability check").

No Xcode runs here, so this reads instead of compiling. In every target an app or a Mac build of
`replay` uses (TARGETS below) it names, with file and line:

- a Linux-only module, symbol or call outside a Linux branch of `#if` (`import Glibc`, `Glibc.`,
  `fdatasync`, `SOCK_CLOEXEC`, `MSG_NOSIGNAL`, `ENONET`, `UInt64(pthread_self())`, `epoll`, ...);
- a sync call that means something else on each platform (`fsync`: on Apple platforms it does
  not reach the disk) outside a branch of `#if` that chose for its platform;
- an API introduced above the package's `platforms:` floor on any of the five Apple platforms
  (`Atomic`, `Mutex`, `String(validating:as:)`, `Int128`, `Duration`, ...), read from
  Package.swift against the table in FLOOR_APIS;
- in Package.swift: no `platforms:`, or one without a floor for each of iOS, macOS, tvOS, watchOS
  and visionOS (undeclared, SwiftPM's oldest would apply), an `unsafeFlags` without a `.when(platforms:)`, an
  unconditional dependency on a Linux-only system library (CCrypto), a system library without a
  Homebrew provider.

A Linux branch is one whose condition names only Linux (`canImport(Glibc)`, `os(Linux)`,
`canImport(CCrypto)`, `canImport(FoundationNetworking)`), or the `#else` of one that names only
Apple platforms (`canImport(Darwin)`, `os(iOS)`, `canImport(CommonCrypto)`, ...).

`--self-test` copies the package's sources to a temporary directory, plants Linux-only code, uses
of APIs above the floor and a lowered or partial floor in it, and checks that this script fails
there naming each planted line, and passes on the same code once guarded.

Usage: portability-check.py [--root DIR] [--self-test]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The targets an app (SDK, SDKTesting, Sandbox, Journal) or a Mac build of `replay` needs, and the
# C shims they use.
TARGETS = ["SDK", "SDKCore", "Journal", "Locking", "LoopbackHTTP", "Sandbox", "SDKTesting", "ReplayKit", "replay",
           "replay-main", "Simulation", "Demo"]
SHIMS = ["CLZ4", "CCrypto"]
# System libraries only Linux builds use: a dependency on one must be conditional.
LINUX_ONLY_LIBRARIES = {"CCrypto"}

LINUX_ATOMS = {"canImport(Glibc)", "os(Linux)", "canImport(CCrypto)", "canImport(FoundationNetworking)", "os(Android)",
               "canImport(Musl)"}
APPLE_ATOMS = {"canImport(Darwin)", "os(macOS)", "os(iOS)", "os(tvOS)", "os(watchOS)", "os(visionOS)",
               "canImport(CommonCrypto)", "canImport(Security)", "canImport(CryptoKit)", "canImport(ObjectiveC)",
               "canImport(UIKit)", "canImport(AppKit)", "targetEnvironment(macCatalyst)", "canImport(Compression)"}

# Linux-only code: (pattern, what to say).
LINUX_ONLY = [
    (r"^\s*import\s+Glibc\b", "imports Glibc, which Apple platforms lack: `#if canImport(Darwin) import Darwin #elseif canImport(Glibc) import Glibc #endif`"),
    (r"^\s*import\s+FoundationNetworking\b", "imports FoundationNetworking (Linux only): guard it with `#if canImport(FoundationNetworking)`"),
    (r"^\s*import\s+CCrypto\b", "imports CCrypto (OpenSSL, Linux only): use the SHA256State/HMACContext/SystemRandom seam, or guard it"),
    (r"\bGlibc\.", "calls through the Glibc module by name: no such module on Apple platforms"),
    (r"\bfdatasync\s*\(", "calls fdatasync, which Darwin does not declare: sync through FileSync (F_FULLFSYNC on Apple)"),
    (r"\bSOCK_CLOEXEC\b", "uses SOCK_CLOEXEC (Linux only): set FD_CLOEXEC with fcntl on Apple (SystemSocket.makeTCP)"),
    (r"\bSOCK_NONBLOCK\b", "uses SOCK_NONBLOCK (Linux only): set O_NONBLOCK with fcntl"),
    (r"\bMSG_NOSIGNAL\b", "uses MSG_NOSIGNAL (Linux only): SO_NOSIGPIPE on the socket on Apple (SystemSocket.send)"),
    (r"\bENONET\b", "uses ENONET (Linux only)"),
    (r"\bSOCK_(?:STREAM|DGRAM|RAW)\.rawValue\b", "reads .rawValue of a socket type: an enum in Glibc, a plain Int32 on Darwin"),
    (r"\b(?:U?Int(?:64|32)?)\s*\(\s*pthread_self\s*\(\s*\)\s*\)", "converts pthread_self() to an integer: pthread_t is a pointer on Apple platforms (CurrentThread.id)"),
    (r"\b(?:var|let)\s+\w+\s*:\s*pthread_t\b", "stores a pthread_t: a pointer on Apple platforms, so not Sendable there (CurrentThread.id)"),
    (r"\btv_usec\s*:\s*Int\s*\(", "builds tv_usec as an Int: it is an Int32 on Apple platforms (`.init(...)`)"),
    (r"\baccept4\s*\(|\bpipe2\s*\(|\bdup3\s*\(|\bepoll_\w+|\beventfd\s*\(|\binotify_\w+|\btimerfd_\w+|\bsignalfd\s*\(",
     "calls a Linux-only system call"),
    (r"\bgettid\s*\(|\bsyscall\s*\(|\bprctl\s*\(|\bsched_getaffinity\s*\(|\bmremap\s*\(|\bposix_fadvise\s*\(|\bfallocate\s*\(|\bstatx\s*\(|\bgetrandom\s*\(",
     "calls a Linux-only function"),
    (r"\bMAP_POPULATE\b|\bMADV_HUGEPAGE\b|\bMADV_DONTDUMP\b|\bO_DIRECT\b|\bO_TMPFILE\b|\bO_PATH\b", "uses a Linux-only flag"),
    (r"\"/proc/", "reads /proc, which Apple platforms do not have"),
    (r"\bEVP_\w+|\bSHA256_(?:Init|Update|Final)\b|\bRAND_bytes\b|\bOSSL_\w+", "calls OpenSSL, which Apple platforms do not have: the crypto seam chooses CommonCrypto there"),
]

# Calls whose meaning differs per platform: they must sit in a branch that chose.
PLATFORM_DECIDED = [
    (r"(?<![\w.])fsync\s*\(", "calls fsync outside a platform branch: on Apple platforms it does not reach the disk (FileSync: F_FULLFSYNC there)"),
]

# The Apple platforms the package declares, in Package.swift's spelling.
PLATFORMS = ["iOS", "macOS", "tvOS", "watchOS", "visionOS"]
# The versions that introduced what Swift 5.9 to 6.1 added to the standard library and its
# companions (Synchronization, Observation), for each of PLATFORMS.
SWIFT_6_0 = (18, 15, 18, 11, 2)
SWIFT_5_9 = (17, 14, 17, 10, 1)
SWIFT_5_7 = (16, 13, 16, 9, 1)
SWIFT_6_2 = (26, 26, 26, 26, 26)

# APIs and the (iOS, macOS, tvOS, watchOS, visionOS) versions that introduced them: used above
# the floor, they need `@available` or a lower-floor replacement (docs/PLATFORMS.md, "The floor").
FLOOR_APIS = [
    (r"\bAtomic\s*<|\bimport\s+Synchronization\b", "Atomic (Synchronization)", SWIFT_6_0),
    (r"\bMutex\s*<", "Mutex (Synchronization)", SWIFT_6_0),
    (r"\bString\s*\(\s*validating\s*:", "String(validating:as:)", SWIFT_6_0),
    (r"\bU?Int128\b|\.attoseconds\b", "Int128/UInt128 (Duration.attoseconds among them)", SWIFT_6_0),
    (r"\bRangeSet\b|\.indices\s*\(\s*where\s*:|\bremoveSubranges\s*\(|\bmoveSubranges\s*\(", "RangeSet", SWIFT_6_0),
    (r"\bTaskExecutor\b|\bexecutorPreference\s*:|\bwithTaskExecutorPreference\b", "task executors", SWIFT_6_0),
    (r"\.next\s*\(\s*isolation\s*:", "AsyncIteratorProtocol.next(isolation:)", SWIFT_6_0),
    (r"\bwithDiscardingTaskGroup\b|\bwithThrowingDiscardingTaskGroup\b|\bDiscardingTaskGroup\b", "discarding task groups", SWIFT_5_9),
    (r"@Observable\b|\bimport\s+Observation\b", "Observation", SWIFT_5_9),
    (r"\bExecutorJob\b", "custom executors (ExecutorJob)", SWIFT_5_9),
    (r"\bInlineArray\b", "InlineArray", SWIFT_6_2),
    (r"\bTask\.immediate\b|\bTask\s*\(\s*name\s*:", "Task.immediate, Task(name:)", SWIFT_6_2),
    (r"\bDuration\b", "Duration", SWIFT_5_7),
    (r"\bTask\.sleep\s*\(\s*for\s*:|\bTask\.sleep\s*\(\s*until\s*:", "Task.sleep(for:)", SWIFT_5_7),
    (r"\bContinuousClock\b|\bSuspendingClock\b", "Clock", SWIFT_5_7),
    (r"\bRegex\b|\bwholeMatch\s*\(|\bfirstMatch\s*\(", "Regex", SWIFT_5_7),
]


def versions(numbers):
    """`iOS 18, macOS 15, ...` for a tuple in PLATFORMS' order."""
    return ", ".join(f"{name} {number}" for name, number in zip(PLATFORMS, numbers))


def blank_literals(source):
    """The source with string literals' contents and comments replaced by spaces, line for line."""
    source = re.sub(r'"""(.*?)"""', lambda m: '"""' + re.sub(r"[^\n]", " ", m.group(1)) + '"""', source, flags=re.S)
    source = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), source, flags=re.S)
    lines = []
    for line in source.split("\n"):
        line = re.sub(r'"(?:\\.|[^"\\])*"', lambda m: '"' + " " * (len(m.group(0)) - 2) + '"', line)
        lines.append(line.split("//", 1)[0])
    return lines


def classify(condition):
    """'linux', 'apple' or None for a `#if`/`#elseif` condition."""
    condition = condition.strip()
    negated = False
    if condition.startswith("!") and not re.search(r"&&|\|\|", condition):
        negated = True
        condition = condition[1:].strip()
    atoms = re.findall(r"\w+\([^()]*\)", condition.replace(" ", ""))
    if not atoms or re.sub(r"\w+\([^()]*\)|&&|\|\||[()\s]", "", condition.replace(" ", "")):
        return None
    if all(atom in LINUX_ATOMS for atom in atoms):
        kind = "linux"
    elif all(atom in APPLE_ATOMS for atom in atoms):
        kind = "apple"
    else:
        return None
    if negated:
        kind = "apple" if kind == "linux" else "linux"
    return kind


def regions(lines):
    """For each line, the set of platforms ('linux', 'apple') the enclosing `#if` branches chose."""
    stack = []  # each frame: [kinds of the branches so far, kind of the current branch]
    result = []
    for line in lines:
        stripped = line.strip()
        directive = re.match(r"#(if|elseif|else|endif)\b(.*)", stripped)
        if directive:
            keyword, condition = directive.group(1), directive.group(2)
            if keyword == "if":
                kind = classify(condition)
                stack.append([[kind], kind])
            elif keyword == "elseif" and stack:
                kind = classify(condition)
                stack[-1][0].append(kind)
                stack[-1][1] = kind
            elif keyword == "else" and stack:
                previous = set(stack[-1][0])
                if "apple" in previous and "linux" not in previous:
                    kind = "linux"
                elif "linux" in previous and "apple" not in previous:
                    kind = "apple"
                else:
                    kind = None
                stack[-1][0].append(kind)
                stack[-1][1] = kind
            elif keyword == "endif" and stack:
                stack.pop()
            result.append(None)  # directives themselves are never checked
            continue
        result.append({frame[1] for frame in stack if frame[1]})
    return result


def floor_of(package):
    """The major versions of Package.swift's `platforms:`, in PLATFORMS' order (None where a
    platform is not declared), or None when there is no `platforms:`."""
    match = re.search(r"platforms\s*:\s*\[(.*?)\]", package, re.S)
    if not match:
        return None
    found = [re.search(r"\." + name + r"\(\s*\.v(\d+)", match.group(1)) for name in PLATFORMS]
    return tuple(int(version.group(1)) if version else None for version in found)


def above(introduced, floor):
    """Whether an API introduced at `introduced` is missing somewhere the floor allows (an
    undeclared platform's floor is SwiftPM's oldest, below everything here)."""
    return any(floor_version is None or version > floor_version for version, floor_version in zip(introduced, floor))


def check_swift(root, relative, floor, problems):
    with open(os.path.join(root, relative), encoding="utf-8") as handle:
        lines = blank_literals(handle.read())
    chosen = regions(lines)
    for number, (code, platforms) in enumerate(zip(lines, chosen), 1):
        if platforms is None:
            continue
        if "linux" not in platforms:
            for pattern, message in LINUX_ONLY:
                if re.search(pattern, code):
                    problems.append(f"{relative}:{number}: {message}")
        if not platforms:
            for pattern, message in PLATFORM_DECIDED:
                if re.search(pattern, code):
                    problems.append(f"{relative}:{number}: {message}")
        if floor and "linux" not in platforms:
            for pattern, name, introduced in FLOOR_APIS:
                if above(introduced, floor) and re.search(pattern, code):
                    problems.append(f"{relative}:{number}: uses {name}, introduced in {versions(introduced)}, "
                                    f"above the package's floor ({declared(floor)})")


def declared(floor):
    """The floor as Package.swift declares it, e.g. `iOS 16, macOS 13, tvOS none, ...`."""
    return ", ".join(f"{name} {number if number is not None else 'undeclared'}" for name, number in zip(PLATFORMS, floor))


def check_shim(root, relative, problems):
    with open(os.path.join(root, relative), encoding="utf-8") as handle:
        text = handle.read()
    for number, line in enumerate(text.split("\n"), 1):
        if re.search(r"#\s*include\s*<(?:linux/|sys/epoll\.h|sys/eventfd\.h|features\.h|sys/inotify\.h)", line):
            problems.append(f"{relative}:{number}: includes a Linux-only header")


def target_blocks(package):
    """(name, start offset, text) of each target declaration in Package.swift."""
    starts = [m for m in re.finditer(r"\.(?:target|executableTarget|testTarget|systemLibrary)\s*\(\s*name\s*:\s*\"([^\"]+)\"", package)]
    # Dependencies written `.target(name: "X", condition: ...)` are not declarations: a declaration
    # is a line's first call.
    declarations = [m for m in starts if package[package.rfind("\n", 0, m.start()) + 1:m.start()].strip() == ""]
    blocks = []
    for index, match in enumerate(declarations):
        end = declarations[index + 1].start() if index + 1 < len(declarations) else len(package)
        blocks.append((match.group(1), match.start(), package[match.start():end]))
    return blocks


def check_package(root, problems):
    path = os.path.join(root, "Package.swift")
    with open(path, encoding="utf-8") as handle:
        package = handle.read()
    code = "\n".join(blank_literals_keep_strings(package))

    def line_of(offset):
        return package.count("\n", 0, offset) + 1

    floor = floor_of(code)
    if not floor:
        problems.append("Package.swift:1: no `platforms:` floor (the APIs used set one: docs/PLATFORMS.md)")
    else:
        line = line_of(re.search(r"platforms\s*:", code).start())
        for name, version in zip(PLATFORMS, floor):
            if version is None:
                problems.append(f"Package.swift:{line}: `platforms:` declares no floor for {name}: SwiftPM's oldest "
                                f"would apply, below the APIs used (docs/PLATFORMS.md, \"The floor\")")
    for name, start, block in target_blocks(code):
        if block.lstrip().startswith(".systemLibrary"):
            if name in SHIMS and name not in LINUX_ONLY_LIBRARIES and ".brew(" not in block:
                problems.append(f"Package.swift:{line_of(start)}: system library {name} has no Homebrew provider (`.brew([...])`)")
            continue
        if name not in TARGETS:
            continue
        for flags in re.finditer(r"\.unsafeFlags\s*\(", block):
            depth, index = 0, flags.end() - 1
            while index < len(block):
                depth += {"(": 1, ")": -1}.get(block[index], 0)
                if depth == 0:
                    break
                index += 1
            if ".when(platforms:" not in block[flags.start():index]:
                problems.append(f"Package.swift:{line_of(start + flags.start())}: {name} has unsafeFlags without "
                                f"`.when(platforms: [.linux])`: an Apple build would get them")
        dependencies = re.search(r"dependencies\s*:\s*\[(.*?)\]\s*(?:,|\))", block, re.S)
        if dependencies:
            for library in LINUX_ONLY_LIBRARIES:
                for use in re.finditer(r'(?<![\w(:] )"' + library + r'"', dependencies.group(1)):
                    before = dependencies.group(1)[:use.start()]
                    if re.search(r"\.(?:target|product)\s*\(\s*name\s*:\s*$", before):
                        after = dependencies.group(1)[use.end():]
                        if re.match(r"\s*,\s*condition\s*:\s*\.when\(\s*platforms\s*:\s*\[\s*\.linux\s*\]", after):
                            continue
                    offset = start + dependencies.start(1) + use.start()
                    problems.append(f"Package.swift:{line_of(offset)}: {name} depends on {library} (Linux only) "
                                    f"without `condition: .when(platforms: [.linux])`")


def blank_literals_keep_strings(source):
    """Package.swift's lines without comments (its strings are target names and are kept)."""
    source = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), source, flags=re.S)
    return [re.sub(r"//.*", "", line) for line in source.split("\n")]


def run(root):
    problems = []
    package_path = os.path.join(root, "Package.swift")
    with open(package_path, encoding="utf-8") as handle:
        floor = floor_of("\n".join(blank_literals_keep_strings(handle.read())))
    check_package(root, problems)
    files = 0
    for target in TARGETS + SHIMS:
        directory = os.path.join(root, "Sources", target)
        for base, _, names in os.walk(directory):
            for name in sorted(names):
                relative = os.path.relpath(os.path.join(base, name), root)
                if name.endswith(".swift"):
                    check_swift(root, relative, floor, problems)
                    files += 1
                elif name.endswith(".h"):
                    check_shim(root, relative, problems)
                    files += 1
    if problems:
        print("portability-check: %d problem(s)" % len(problems))
        for problem in problems:
            print("  " + problem)
        return 1
    print("portability-check: %d files in %d targets guard every Linux-only call and use nothing above the floor "
          "(%s); Package.swift keeps Apple builds free of Linux-only flags and libraries"
          % (files, len(TARGETS + SHIMS), declared(floor)))
    return 0


PLANTED = '''import Glibc
import Foundation

/// Planted by the self-test: each line below is one Apple build would fail on.
final class PlantedSocket {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)

    func send(_ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        Glibc.send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
    }

    func sync() -> Int32 {
        fdatasync(descriptor)
    }

    func syncDirectory() -> Int32 {
        fsync(descriptor)
    }

    static var thread: UInt64 { UInt64(pthread_self()) }

    // Comments and strings are not code: fdatasync( "MSG_NOSIGNAL" import Glibc
    let text = "Glibc.write and fdatasync(fd) in a string"
}
'''
# The lines of PLANTED the check must name, and a word of what it must say.
PLANTED_EXPECTED = {1: "Glibc", 6: "SOCK_CLOEXEC", 9: "MSG_NOSIGNAL", 13: "fdatasync", 17: "fsync", 20: "pthread_self"}

GUARDED = '''#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Planted by the self-test: the same calls, each in the branch of its platform.
enum GuardedCalls {
    static func sync(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        fcntl(descriptor, F_FULLFSYNC)
        #else
        fdatasync(descriptor)
        #endif
    }

    static func directory(_ descriptor: Int32) -> Int32 {
        #if !canImport(Glibc)
        return fcntl(descriptor, F_FULLFSYNC)
        #else
        return fsync(descriptor)
        #endif
    }

    #if os(Linux)
    static let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(MSG_NOSIGNAL)
    static var thread: UInt64 { UInt64(pthread_self()) }
    #endif
}
'''


ABOVE_FLOOR = '''import Synchronization

/// Planted by the self-test: each use below is of an API above the package's floor.
final class PlantedAboveFloor: Sendable {
    let count = Atomic<Int>(0)
    let names = Mutex<[String]>([])

    func text(_ bytes: [UInt8]) -> String? {
        String(validating: bytes, as: UTF8.self)
    }

    func wide(_ value: Int64) -> Int128 { Int128(value) }

    func run() async {
        await withDiscardingTaskGroup { group in group.addTask {} }
    }

    // Comments and strings are not code: Atomic<Int>, String(validating: bytes, as: UTF8.self)
    let note = "Mutex<Int> and Int128 in a string"
}
'''
# The lines of ABOVE_FLOOR the check must name, and a word of what it must say.
ABOVE_FLOOR_EXPECTED = {1: "Atomic", 5: "Atomic", 6: "Mutex", 9: "String(validating:as:)", 12: "Int128", 15: "discarding"}

# The same uses where only Linux builds see them: not above any Apple floor.
ABOVE_FLOOR_GUARDED = '''#if os(Linux)
import Synchronization

enum GuardedAboveFloor {
    static let count = Atomic<Int>(0)
    static func text(_ bytes: [UInt8]) -> String? { String(validating: bytes, as: UTF8.self) }
}
#endif
'''


def named_exactly(output, planted, expected):
    """What is wrong with the check's `output` about the `planted` file: a line of `expected` not
    named (or named without its word), or a line named that is no problem."""
    failures = []
    named = {}
    for match in re.finditer(re.escape(planted) + r":(\d+):[^\n]*", output):
        named[int(match.group(1))] = named.get(int(match.group(1)), "") + match.group(0)
    for line, word in expected.items():
        if line not in named or word.lower() not in named[line].lower():
            failures.append(f"{planted}:{line} ({word}) is not named:\n{output}")
    for line in set(named) - set(expected):
        failures.append(f"{planted}:{line} is named but is no problem (a comment, a string):\n{output}")
    return failures


def self_test():
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        copy = os.path.join(scratch, "package")
        os.makedirs(os.path.join(copy, "Sources"))
        shutil.copy(os.path.join(ROOT, "Package.swift"), copy)
        for target in TARGETS + SHIMS:
            source = os.path.join(ROOT, "Sources", target)
            if os.path.isdir(source):
                shutil.copytree(source, os.path.join(copy, "Sources", target))

        def check():
            process = subprocess.run([sys.executable, os.path.abspath(__file__), "--root", copy],
                                     capture_output=True, text=True)
            return process.returncode, process.stdout + process.stderr

        status, output = check()
        if status != 0:
            failures.append("the unchanged copy fails:\n" + output)

        planted = os.path.join("Sources", "Sandbox", "PlantedSocket.swift")
        with open(os.path.join(copy, planted), "w", encoding="utf-8") as handle:
            handle.write(PLANTED)
        with open(os.path.join(copy, "Sources", "Journal", "GuardedCalls.swift"), "w", encoding="utf-8") as handle:
            handle.write(GUARDED)
        status, output = check()
        if status == 0:
            failures.append("the planted file passes:\n" + output)
        failures += named_exactly(output, planted, PLANTED_EXPECTED)
        if "GuardedCalls.swift" in output:
            failures.append("guarded calls are reported:\n" + output)
        os.remove(os.path.join(copy, planted))

        # APIs above the floor: named where Apple builds see them, not where only Linux does.
        above_floor = os.path.join("Sources", "SDK", "PlantedAboveFloor.swift")
        with open(os.path.join(copy, above_floor), "w", encoding="utf-8") as handle:
            handle.write(ABOVE_FLOOR)
        with open(os.path.join(copy, "Sources", "Journal", "GuardedAboveFloor.swift"), "w", encoding="utf-8") as handle:
            handle.write(ABOVE_FLOOR_GUARDED)
        status, output = check()
        if status == 0:
            failures.append("the planted uses of APIs above the floor pass:\n" + output)
        failures += named_exactly(output, above_floor, ABOVE_FLOOR_EXPECTED)
        if not re.search(re.escape(above_floor) + r":5: uses Atomic \(Synchronization\), introduced in iOS 18, macOS 15, "
                         r"tvOS 18, watchOS 11, visionOS 2, above the package's floor \(iOS 16, macOS 13", output):
            failures.append("Atomic is not named with the versions that introduced it and the floor:\n" + output)
        if "GuardedAboveFloor.swift" in output:
            failures.append("uses of APIs above the floor in a Linux branch are reported:\n" + output)
        if re.search(r"uses Duration", output):
            failures.append("Duration is named at a floor of iOS 16 that has it:\n" + output)
        os.remove(os.path.join(copy, above_floor))

        package_path = os.path.join(copy, "Package.swift")
        with open(package_path, encoding="utf-8") as handle:
            package = handle.read()

        def with_package(text):
            with open(package_path, "w", encoding="utf-8") as handle:
                handle.write(text)
            return check()

        # A floor below Duration's (which the sources use), with Linux-only flags and libraries
        # made unconditional.
        lowered = re.sub(r"platforms\s*:\s*\[[^\]]*\]",
                         "platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)]", package, count=1)
        lowered = lowered.replace(', .when(platforms: [.linux]))]),', ')]),', 1)
        lowered = re.sub(r'\.target\(name: "CCrypto", condition: \.when\(platforms: \[\.linux\]\)\)', '"CCrypto"', lowered)
        lowered = lowered.replace('.brew(["lz4"])', '.yum(["lz4-devel"])')
        status, output = with_package(lowered)
        expectations = {
            "Duration": r"Sources/\w+/.*:\d+: uses Duration, introduced in iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, "
                        r"above the package's floor \(iOS 15, macOS 12, tvOS 15, watchOS 8, visionOS 1\)",
            "unsafeFlags": r"Package\.swift:\d+: replay-main has unsafeFlags without",
            "CCrypto": r"Package\.swift:\d+: SDKCore depends on CCrypto",
            "brew": r"Package\.swift:\d+: system library CLZ4 has no Homebrew provider",
        }
        if status == 0:
            failures.append("the lowered floor and the unconditional flags and library pass:\n" + output)
        for name, pattern in expectations.items():
            if not re.search(pattern, output):
                failures.append(f"{name} is not named after lowering the floor:\n{output}")

        # A floor that leaves platforms undeclared.
        status, output = with_package(re.sub(r"platforms\s*:\s*\[[^\]]*\]", "platforms: [.iOS(.v16), .macOS(.v13)]",
                                             package, count=1))
        for name in ["tvOS", "watchOS", "visionOS"]:
            if not re.search(r"Package\.swift:\d+: `platforms:` declares no floor for " + name, output):
                failures.append(f"an undeclared {name} floor is not named:\n{output}")
        if "no floor for iOS" in output or "no floor for macOS" in output:
            failures.append("a declared floor is reported missing:\n" + output)
    if failures:
        print("portability-check --self-test: FAILED")
        for failure in failures:
            print("  " + failure.replace("\n", "\n    "))
        return 1
    print("portability-check --self-test: the check fails on planted Linux-only code (naming each of its %d lines), "
          "on planted uses of APIs above the floor (each of its %d), on a floor below Duration or missing a platform, "
          "and on unconditional Linux flags and libraries, and passes on the same code guarded"
          % (len(PLANTED_EXPECTED), len(ABOVE_FLOOR_EXPECTED)))
    return 0


def main(arguments):
    if "--self-test" in arguments:
        return self_test()
    root = ROOT
    if "--root" in arguments:
        root = arguments[arguments.index("--root") + 1]
    return run(root)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
