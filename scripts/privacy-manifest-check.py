#!/usr/bin/env python3
"""Fails unless the SDK's privacy manifest is shipped and declares what the SDK calls
(docs/PLATFORMS.md, "The privacy manifest").

- Sources/SDK/Resources/PrivacyInfo.xcprivacy is a valid property list (plistlib) with the keys
  App Store tooling reads, each accessed-API category known and each reason one Apple lists for it;
- Package.swift's SDK target ships it (`resources: [.copy(...)]` or `.process(...)` naming it);
- every required-reason API the sources an app links call (TARGETS: the SDK product's own
  targets) is declared, with a reason, in the manifest: a call outside a comment, named with its
  file and line and the category it needs.

`--self-test` copies those sources and the manifest to a temporary directory, plants an
undeclared API call (UserDefaults, statfs), drops the resource from Package.swift and breaks the
property list, one at a time, and checks that this script fails each time naming what was
planted, and passes on the untouched copy and on a call only mentioned in a comment.

Usage: privacy-manifest-check.py [--root DIR] [--self-test]
"""
import os
import plistlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join("Sources", "SDK", "Resources", "PrivacyInfo.xcprivacy")
# What an app links through the `SDK` product (Package.swift): its own targets.
TARGETS = ["SDK", "SDKCore", "Journal", "Locking", "CAtomics"]

# Apple's required-reason API categories: the calls that need one (a pattern over source with
# comments removed) and the reasons Apple lists for each.
CATEGORIES = {
    "NSPrivacyAccessedAPICategoryFileTimestamp": {
        "patterns": [r"\b(?:stat|fstat|lstat|fstatat|getattrlist|getattrlistbulk|fgetattrlist|getattrlistat)\s*\(",
                     r"\b(?:creationDate|modificationDate|fileModificationDate|contentModificationDate(?:Key)?|creationDateKey)\b",
                     r"\battributesOfItem\b"],
        "reasons": {"DDA9.1", "C617.1", "3B52.1", "0A2A.1"},
    },
    "NSPrivacyAccessedAPICategorySystemBootTime": {
        "patterns": [r"\bsystemUptime\b", r"\bmach_absolute_time\b", r"\bclock_gettime\b", r"\buptimeNanoseconds\b",
                     r'"kern\.boottime"', r'"kern\.bootsessionuuid"'],
        "reasons": {"35F9.1", "8FFB.1", "3D61.1"},
    },
    "NSPrivacyAccessedAPICategoryDiskSpace": {
        "patterns": [r"\bvolume(?:Available|Total)Capacity\w*", r"\bsystem(?:Free)?Size\b",
                     r"\b(?:statfs|statvfs|fstatfs|fstatvfs)\s*\("],
        "reasons": {"85F4.1", "E174.1", "7D9E.1", "B728.1"},
    },
    "NSPrivacyAccessedAPICategoryActiveKeyboards": {
        "patterns": [r"\bactiveInputModes\b"],
        "reasons": {"3EC4.1", "54BD.1"},
    },
    "NSPrivacyAccessedAPICategoryUserDefaults": {
        "patterns": [r"\b(?:NS)?UserDefaults\b", r"@AppStorage\b"],
        "reasons": {"CA92.1", "1C8F.1", "C56D.1", "AC6B.1"},
    },
}

REQUIRED_KEYS = {"NSPrivacyTracking": bool, "NSPrivacyTrackingDomains": list,
                 "NSPrivacyAccessedAPITypes": list, "NSPrivacyCollectedDataTypes": list}


def without_comments(source):
    """The source's lines with comments removed and string literals' contents blanked, except a
    literal that is a whole sysctl name (`"kern.boottime"`): those are the call's argument."""
    source = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), source, flags=re.S)
    lines = []
    for line in source.split("\n"):
        # A `//` inside a string literal (a URL) is not a comment.
        blanked = re.sub(r'"(?:\\.|[^"\\])*"',
                         lambda m: m.group(0) if re.fullmatch(r'"kern\.\w+"', m.group(0)) else '"' + " " * (len(m.group(0)) - 2) + '"',
                         line)
        cut = blanked.find("//")
        lines.append(blanked if cut < 0 else blanked[:cut])
    return lines


def read_manifest(root, problems):
    """The declared categories (category -> reasons), or None when the manifest cannot be read."""
    path = os.path.join(root, MANIFEST)
    try:
        with open(path, "rb") as handle:
            manifest = plistlib.load(handle)
    except FileNotFoundError:
        problems.append(f"{MANIFEST}: missing")
        return None
    except Exception as error:  # plistlib raises several types for a malformed list
        problems.append(f"{MANIFEST}: not a valid property list ({type(error).__name__}: {error})")
        return None
    if not isinstance(manifest, dict):
        problems.append(f"{MANIFEST}: the top level is a {type(manifest).__name__}, not a dictionary")
        return None
    for key, kind in REQUIRED_KEYS.items():
        if not isinstance(manifest.get(key), kind):
            problems.append(f"{MANIFEST}: {key} is missing or not a {kind.__name__}")
    declared = {}
    for index, entry in enumerate(manifest.get("NSPrivacyAccessedAPITypes") or []):
        where = f"{MANIFEST}: NSPrivacyAccessedAPITypes[{index}]"
        category = entry.get("NSPrivacyAccessedAPIType") if isinstance(entry, dict) else None
        reasons = entry.get("NSPrivacyAccessedAPITypeReasons") if isinstance(entry, dict) else None
        if category not in CATEGORIES:
            problems.append(f"{where}: unknown NSPrivacyAccessedAPIType {category!r}")
            continue
        if not isinstance(reasons, list) or not reasons:
            problems.append(f"{where}: {category} has no NSPrivacyAccessedAPITypeReasons")
            continue
        unknown = [reason for reason in reasons if reason not in CATEGORIES[category]["reasons"]]
        if unknown:
            problems.append(f"{where}: {category} gives reason(s) {', '.join(map(str, unknown))}, not among "
                            f"{', '.join(sorted(CATEGORIES[category]['reasons']))}")
        declared[category] = reasons
    for index, entry in enumerate(manifest.get("NSPrivacyCollectedDataTypes") or []):
        where = f"{MANIFEST}: NSPrivacyCollectedDataTypes[{index}]"
        if not isinstance(entry, dict) or not str(entry.get("NSPrivacyCollectedDataType", "")).startswith("NSPrivacyCollectedDataType"):
            problems.append(f"{where}: no NSPrivacyCollectedDataType")
            continue
        for key, kind in (("NSPrivacyCollectedDataTypeLinked", bool), ("NSPrivacyCollectedDataTypeTracking", bool),
                          ("NSPrivacyCollectedDataTypePurposes", list)):
            if not isinstance(entry.get(key), kind):
                problems.append(f"{where}: {key} is missing or not a {kind.__name__}")
    return declared


def check_package(root, problems):
    """Package.swift's SDK target names the manifest among its resources, and the file exists."""
    with open(os.path.join(root, "Package.swift"), encoding="utf-8") as handle:
        package = "\n".join(re.sub(r"//.*", "", line) for line in handle.read().split("\n"))
    start = re.search(r'\.target\(\s*name:\s*"SDK"\s*,', package)
    if not start:
        problems.append("Package.swift: no target named SDK")
        return
    # The target's arguments: up to the parenthesis that closes `.target(`.
    depth, end = 0, start.end()
    for end in range(start.start() + len(".target"), len(package)):
        depth += {"(": 1, ")": -1}.get(package[end], 0)
        if depth == 0:
            break
    block = package[start.start():end]
    shipped = re.search(r'resources:\s*\[[^\]]*\.(?:copy|process)\(\s*"([^"]*PrivacyInfo\.xcprivacy)"', block)
    line = package[:start.start()].count("\n") + 1
    if not shipped:
        problems.append(f"Package.swift:{line}: the SDK target does not ship PrivacyInfo.xcprivacy "
                        f"(no `resources: [.copy(\"{os.path.relpath(MANIFEST, 'Sources/SDK')}\")]`)")
    elif os.path.normpath(os.path.join("Sources", "SDK", shipped.group(1))) != os.path.normpath(MANIFEST):
        problems.append(f"Package.swift:{line}: the SDK target ships {shipped.group(1)}, not {os.path.relpath(MANIFEST, 'Sources/SDK')}")


def calls(root):
    """(file, line, category, text) for every required-reason API call in TARGETS."""
    found = []
    for target in TARGETS:
        for base, _, names in os.walk(os.path.join(root, "Sources", target)):
            for name in sorted(names):
                if not name.endswith((".swift", ".c", ".h")):
                    continue
                relative = os.path.relpath(os.path.join(base, name), root)
                with open(os.path.join(root, relative), encoding="utf-8") as handle:
                    lines = without_comments(handle.read())
                for number, line in enumerate(lines, 1):
                    for category, spec in CATEGORIES.items():
                        for pattern in spec["patterns"]:
                            match = re.search(pattern, line)
                            if match:
                                found.append((relative, number, category, match.group(0).strip()))
                                break
    return found


def run(root):
    problems = []
    declared = read_manifest(root, problems)
    check_package(root, problems)
    found = calls(root)
    if declared is not None:
        for relative, number, category, text in found:
            if category not in declared:
                problems.append(f"{relative}:{number}: calls {text} ({category.replace('NSPrivacyAccessedAPICategory', '')}), "
                                f"which {MANIFEST} does not declare")
    if problems:
        print("privacy-manifest-check: %d problem(s)" % len(problems))
        for problem in problems:
            print("  " + problem)
        return 1
    used = sorted({category for _, _, category, _ in found})
    print("privacy-manifest-check: %s is a valid property list, shipped by the SDK target, and declares the %d "
          "required-reason categories %d call(s) in %s need (%s)"
          % (MANIFEST, len(used), len(found), ", ".join(TARGETS),
             ", ".join(category.replace("NSPrivacyAccessedAPICategory", "") for category in used)))
    return 0


def self_test():
    failures = []
    with tempfile.TemporaryDirectory(prefix="privacy-manifest-check-") as temporary:
        shutil.copy(os.path.join(ROOT, "Package.swift"), temporary)
        for target in TARGETS:
            shutil.copytree(os.path.join(ROOT, "Sources", target), os.path.join(temporary, "Sources", target))

        def check(expect_pass, what, *expected):
            result = subprocess.run([sys.executable, os.path.abspath(__file__), "--root", temporary],
                                    capture_output=True, text=True)
            if expect_pass and result.returncode != 0:
                failures.append(f"{what}: the check failed:\n{result.stdout}")
            elif not expect_pass:
                if result.returncode == 0:
                    failures.append(f"{what}: the check passed")
                for text in expected:
                    if text not in result.stdout:
                        failures.append(f"{what}: the output does not name {text!r}:\n{result.stdout}")

        check(True, "the untouched copy")
        planted = os.path.join(temporary, "Sources", "SDK", "PlantedBySelfTest.swift")
        with open(planted, "w", encoding="utf-8") as handle:
            handle.write("import Foundation\n\n// UserDefaults.standard, statfs(path, &s): only mentioned, never called.\n"
                         "/* NSUserDefaults */\nlet plantedURL = \"https://example.com//UserDefaults\"\n")
        check(True, "APIs only mentioned in comments")
        with open(planted, "a", encoding="utf-8") as handle:
            handle.write("func plantedDefaults() -> Bool { UserDefaults.standard.bool(forKey: \"k\") }\n")
        check(False, "a planted UserDefaults call", "PlantedBySelfTest.swift:6: calls UserDefaults (UserDefaults)")
        with open(planted, "a", encoding="utf-8") as handle:
            handle.write("func plantedSpace(_ s: inout statfs) -> Int32 { statfs(\"/\", &s) }\n")
        check(False, "a planted statfs call", "PlantedBySelfTest.swift:7: calls statfs(", "(DiskSpace)")
        os.remove(planted)
        check(True, "the copy with the planted file removed")

        package = os.path.join(temporary, "Package.swift")
        with open(package, encoding="utf-8") as handle:
            original = handle.read()
        with open(package, "w", encoding="utf-8") as handle:
            handle.write(re.sub(r',\s*resources:\s*\[[^\]]*\]', "", original))
        check(False, "the resource dropped from Package.swift", "the SDK target does not ship PrivacyInfo.xcprivacy")
        with open(package, "w", encoding="utf-8") as handle:
            handle.write(original)

        manifest = os.path.join(temporary, MANIFEST)
        with open(manifest, "rb") as handle:
            text = handle.read()
        with open(manifest, "wb") as handle:
            handle.write(text.replace(b"</dict>\n</plist>", b"</plist>"))
        check(False, "a malformed property list", "not a valid property list")
        with open(manifest, "wb") as handle:
            handle.write(text.replace(b"<string>35F9.1</string>", b"<string>XXXX.1</string>"))
        check(False, "an unknown reason", "gives reason(s) XXXX.1")
        with open(manifest, "wb") as handle:
            handle.write(text.replace(b"NSPrivacyAccessedAPICategorySystemBootTime", b"NSPrivacyAccessedAPICategoryActiveKeyboards")
                         .replace(b"<string>35F9.1</string>", b"<string>3EC4.1</string>"))
        check(False, "the boot-time category left out", "SDKClock.swift", "(SystemBootTime)")
    if failures:
        for failure in failures:
            print("  " + failure)
        print("privacy-manifest-check --self-test: FAILED")
        return 1
    print("privacy-manifest-check --self-test: the check fails on a planted UserDefaults and statfs call, a "
          "manifest Package.swift does not ship, a malformed list, an unknown reason and an undeclared category "
          "the sources need; it passes on mentions in comments")
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
