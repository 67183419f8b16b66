#!/usr/bin/env bash
# Builds the README's "Using the SDK" snippet as an app's own package would, and fails on any
# error or warning: the first ```swift block under "## Using the SDK", verbatim, as the top-level
# code of an executable's main.swift (after the few declarations it assumes: keys, directories, a
# URL), with a second file whose async and synchronous functions make the fire-and-forget calls
# without `await` and await an outcome with `sdk.outcome`. The package depends on this one by
# path (product "SDK"), in Swift 6 mode, and is built with -warnings-as-errors; nothing is run.
# Its package and build directory stay in .build/readme-check, so a rerun builds only what changed.
#
# Usage: scripts/readme-snippet-check.sh [README]   (README.md by default)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
readme=$(realpath "${1:-README.md}")
out="$root/.build/readme-check"
package="$out/package"

# The snippet: the first ```swift fence after the heading, up to its closing fence, before the
# next section.
snippet=$(awk '
    /^## / { inside = ($0 == "## Using the SDK"); if (!inside && found) exit; next }
    inside && !found && /^```swift[[:space:]]*$/ { found = 1; code = 1; next }
    code && /^```[[:space:]]*$/ { exit }
    code { print }
' "$readme")
if [ -z "$snippet" ]; then
    echo "readme-check: no \`\`\`swift block under \"## Using the SDK\" in $readme" >&2
    exit 1
fi

mkdir -p "$package/Sources/ReadmeApp"
# Written only when the content changes, so that an unchanged rerun compiles nothing.
write() {
    local file=$1 content
    content=$(cat)
    if [ ! -f "$file" ] || [ "$(cat "$file")" != "$content" ]; then printf '%s\n' "$content" > "$file"; fi
}

write "$package/Package.swift" <<SWIFT
// swift-tools-version:6.0
// Written by scripts/readme-snippet-check.sh: an app's own package, as the README's reader has.
import PackageDescription

let package = Package(
    name: "ReadmeApp",
    dependencies: [.package(name: "EngagementSDK", path: "$root")],
    targets: [
        .executableTarget(name: "ReadmeApp", dependencies: [.product(name: "SDK", package: "EngagementSDK")]),
    ],
    swiftLanguageModes: [.v6]
)
SWIFT

write "$package/Sources/ReadmeApp/main.swift" <<SWIFT
// Written by scripts/readme-snippet-check.sh: what the README's snippet assumes, then the
// snippet, verbatim.
import Foundation

let supportDirectory = NSTemporaryDirectory()
let cachesDirectory = NSTemporaryDirectory()
let usKey = "us-key-0001"
let euKey = "eu-key-0002"
let url = URL(string: "https://links.example.com/a/spring-sale")!

// README.md, "Using the SDK":
$snippet
SWIFT

write "$package/Sources/ReadmeApp/CallForms.swift" <<'SWIFT'
// Written by scripts/readme-snippet-check.sh: the plain calls are synchronous, so in async code
// too they are made without `await` and return at once; `sdk.outcome` awaits an outcome.
import SDK

func plainCallsInAsyncCode(_ sdk: EngagementSDK, _ project: Project) async {
    sdk.initialize(project)
    sdk.setEmail("ada@example.com")
    sdk.track("x")
    sdk.track("x", dataFields: ["items": 3]) { outcome in print(outcome) }
    sdk.switchProject(to: project) { result in print(result) }
    sdk.flush()
    let outcome: CallOutcome = await sdk.outcome.track("x")
    let result: SwitchResult = await sdk.outcome.switchProject(to: project)
    await sdk.outcome.initialize(project)
    await sdk.outcome.flush()
    print(outcome, result)
}

@MainActor
func plainCallsOnTheMainActor(_ sdk: EngagementSDK) async {
    sdk.track("x")
    await sdk.outcome.track("x")
}

func plainCallsInSynchronousCode(_ sdk: EngagementSDK, _ project: Project) {
    sdk.initialize(project)
    sdk.track("x")
    sdk.flush()
}
SWIFT

echo "readme-check: building the snippet of $readme as an app's package ($package)"
log="$out/build.log"
if swift build --package-path "$package" --scratch-path "$out/build" -Xswiftc -warnings-as-errors > "$log" 2>&1; then
    echo "readme-check: the README's snippet compiles without a warning as an app's own package"
else
    echo "readme-check: the README's snippet does not compile without a warning as an app's own package:" >&2
    grep -vE '^\[[0-9]+/[0-9]+\] |^(Building for|Planning build|Fetching|Computing|Creating working copy)' "$log" >&2 || true
    echo "readme-check: the compiler's full output is in $log; the generated package in $package" >&2
    exit 1
fi
