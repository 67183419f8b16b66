#!/usr/bin/env python3
"""Fails if a product an app links uses `unsafeFlags` (scripts/readme-snippet-check.sh --by-version).

Reads a package's manifest as `swift package dump-package` prints it, follows the named products'
targets and their dependencies on targets of the same package, and names every one whose settings
hold `unsafeFlags` (whatever the condition: SwiftPM refuses such a product from a versioned
dependency on every platform). `--self-test` plants an unsafe flag in a target deep in the SDK
product's dependencies of a copy of the manifest and checks that the check fails naming it.

Usage: unsafe-flags-check.py MANIFEST.json PRODUCT... | --self-test MANIFEST.json
"""
import copy
import json
import sys


def linked_targets(manifest, products):
    """The targets of `products` and every target of this package they depend on, in order."""
    by_name = {target["name"]: target for target in manifest["targets"]}
    wanted = []
    for product in manifest["products"]:
        if product["name"] in products:
            wanted.extend(product["targets"])
    missing = set(products) - {product["name"] for product in manifest["products"]}
    if missing:
        raise SystemExit(f"unsafe-flags-check: no product named {', '.join(sorted(missing))} in the manifest")
    seen = []
    while wanted:
        name = wanted.pop(0)
        if name in seen or name not in by_name:
            continue
        seen.append(name)
        for dependency in by_name[name].get("dependencies", []):
            for kind in ("byName", "target"):
                if kind in dependency:
                    wanted.append(dependency[kind][0])
    return [by_name[name] for name in seen]


def unsafe(target):
    """The unsafe flags of a target's settings, as text."""
    found = []
    for setting in target.get("settings", []):
        kind = setting.get("kind", {})
        if "unsafeFlags" in kind:
            found.append(f"{setting.get('tool', '?')}: {' '.join(kind['unsafeFlags'].get('_0', []))}")
    return found


def check(manifest, products):
    targets = linked_targets(manifest, products)
    problems = [f"{target['name']} ({', '.join(unsafe(target))})" for target in targets if unsafe(target)]
    return targets, problems


def self_test(path):
    with open(path, encoding="utf-8") as handle:
        manifest = json.load(handle)
    targets, problems = check(manifest, ["SDK"])
    if problems or len(targets) < 2:
        print(f"unsafe-flags-check --self-test: FAILED: the real manifest gives {problems} over {len(targets)} target(s)")
        return 1
    planted = copy.deepcopy(manifest)
    deepest = targets[-1]["name"]
    for target in planted["targets"]:
        if target["name"] == deepest:
            target.setdefault("settings", []).append({"tool": "linker", "kind": {"unsafeFlags": {"_0": ["-planted"]}}})
    _, problems = check(planted, ["SDK"])
    if not any(problem.startswith(deepest + " ") and "-planted" in problem for problem in problems):
        print(f"unsafe-flags-check --self-test: FAILED: a flag planted in {deepest} went unnamed ({problems})")
        return 1
    print(f"unsafe-flags-check --self-test: a flag planted in {deepest}, which SDK links through its dependencies, is named")
    return 0


def main(arguments):
    if arguments[:1] == ["--self-test"]:
        return self_test(arguments[1])
    path, products = arguments[0], arguments[1:]
    with open(path, encoding="utf-8") as handle:
        manifest = json.load(handle)
    targets, problems = check(manifest, products)
    if problems:
        print(f"unsafe-flags-check: what an app links through {', '.join(products)} uses unsafeFlags:")
        for problem in problems:
            print("  " + problem)
        return 1
    print(f"unsafe-flags-check: the {len(targets)} targets {', '.join(products)} links ({', '.join(t['name'] for t in targets)}) "
          "use no unsafeFlags")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
