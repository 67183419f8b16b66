#!/usr/bin/env bash
# Builds the Journal target as iOS builds it, without liblz4 (Package.swift gives it CLZ4 only on
# Linux and macOS), and checks that journals cross between the two builds both ways.
#
# A package of its own under .build/nolz4-check holds Journal's, Locking's and CAtomics' sources (linked, not
# copied) and scripts/journal-without-liblz4/main.swift, and no CLZ4: every `#if canImport(CLZ4)`
# takes its other branch, and the journal's own LZ4 in Swift writes and reads every block. It is
# built with warnings as errors. The program writes a journal and reads it back, and reads every
# golden journal; then this package's `replay` (liblz4) verifies the journal it wrote, and each
# golden journal must hold as many records, as cleanly, through both builds.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
swift=${SWIFT:-swift}
package=$root/.build/nolz4-check
work=$(mktemp -d "${TMPDIR:-/tmp}/nolz4-check.XXXXXX")
trap 'rm -rf "$work"' EXIT

mkdir -p "$package/Sources/NoLZ4Check"
ln -sfn "$root/Sources/Journal" "$package/Sources/Journal"
ln -sfn "$root/Sources/Locking" "$package/Sources/Locking"
ln -sfn "$root/Sources/CAtomics" "$package/Sources/CAtomics"
cp scripts/journal-without-liblz4/main.swift "$package/Sources/NoLZ4Check/main.swift"
cat > "$package/Package.swift" <<'MANIFEST'
// swift-tools-version:6.0
// Written by scripts/journal-without-liblz4.sh: the Journal without CLZ4, as iOS builds it.
import PackageDescription
let package = Package(
    name: "NoLZ4Check",
    targets: [
        .target(name: "CAtomics"),
        .target(name: "Locking", dependencies: ["CAtomics"]),
        .target(name: "Journal", dependencies: ["Locking"]),
        .executableTarget(name: "NoLZ4Check", dependencies: ["Journal"]),
    ],
    swiftLanguageModes: [.v6]
)
MANIFEST
(cd "$package" && $swift build -Xswiftc -warnings-as-errors --product NoLZ4Check > "$work/build.log" 2>&1) \
    || { cat "$work/build.log"; echo "nolz4-check: the Journal does not build without liblz4" >&2; exit 1; }

# The golden journals are copied: nothing may touch the committed files.
cp -R Tests/Fixtures/journals "$work/golden"
"$package/.build/debug/NoLZ4Check" "$work/golden" "$work/written" > "$work/nolz4.out"

$swift build --product replay > "$work/replay-build.log" 2>&1 || { cat "$work/replay-build.log"; exit 1; }
replay=$($swift build --show-bin-path)/replay
status=0
while read -r kind name records state; do
    case $kind in
        written) path=$name; expected=$records; expected_state=clean ;;
        golden) path=$work/golden/$name; expected=$records; expected_state=$state ;;
        *) echo "nolz4-check: unexpected line: $kind $name" >&2; exit 1 ;;
    esac
    found=$("$replay" verify --json "$path" | python3 -c 'import json, sys
report = json.load(sys.stdin)
print(report["records"], "clean" if not report["corruption"] else "damaged")') || true
    if [ "$found" != "$expected $expected_state" ]; then
        echo "nolz4-check: $kind $name: without liblz4 $expected $expected_state, replay (liblz4) $found" >&2
        status=1
    fi
done < "$work/nolz4.out"
[ $status -eq 0 ] && echo "nolz4-check: the Journal builds without liblz4; its journal and every golden journal read alike through both builds ($(wc -l < "$work/nolz4.out") journals)"
exit $status
