#!/usr/bin/env bash
# Builds the README's "Using the SDK" snippet as an app's own package would, and fails on any
# error or warning: the first ```swift block under "## Using the SDK", verbatim, as the top-level
# code of an executable's main.swift (after the few declarations it assumes: keys, directories, a
# URL), with a second file whose async and synchronous functions make the fire-and-forget calls
# without `await` and await an outcome with `sdk.outcome`. Swift 6 mode, -warnings-as-errors.
#
# Two ways to depend on this package:
# - by path (the default, `make readme-check`): the working tree as it is, nothing is run. Its
#   package and build directory stay in .build/readme-check, so a rerun builds only what changed.
# - `--by-version` (`make dependency-check`, what `make test` runs): as an app adds a package, by
#   URL and version. A bare git repository made from this working tree's HEAD commit (uncommitted
#   changes are not in it) carries the tag of `EngagementSDK.version`; the app depends on it with
#   `exact:`, resolves, builds, then RUNS the snippet against a loopback Sandbox backend that knows
#   its two projects and serves its tracked link: the snippet's `SDKConfiguration(storageDirectory:)`
#   is the app's own function (declared before it, shadowing the SDK's initializer) that points
#   both regions at the Sandbox, so the snippet itself stays verbatim. The run must reach the
#   snippet's end with the awaited track delivered, the switch landed and the link resolved.
#   Then every target the resolved `SDK` product links is read from the resolved checkout's
#   manifest (`swift package dump-package`): any `unsafeFlags` fails the check (SwiftPM would also
#   refuse to build such a product from a versioned dependency; this names the target). In
#   .build/dependency-check; a rerun rebuilds what HEAD changed.
#
# Usage: scripts/readme-snippet-check.sh [--by-version] [README]   (README.md by default)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
by_version=false
if [ "${1:-}" = "--by-version" ]; then by_version=true; shift; fi
readme=$(realpath "${1:-README.md}")
if $by_version; then name=dependency-check; else name=readme-check; fi
out="$root/.build/$name"
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

if $by_version; then
    # The dependency as a remote one: a bare repository of HEAD, tagged with the SDK's version.
    version=$(sed -n 's/.*public static let version = "\([^"]*\)".*/\1/p' Sources/SDK/API/EngagementSDK.swift)
    [ -n "$version" ] || { echo "$name: no EngagementSDK.version in Sources/SDK/API/EngagementSDK.swift" >&2; exit 1; }
    head=$(git rev-parse HEAD)
    remote="$out/remote/EngagementSDK.git"
    rm -rf "$out/remote"
    git init --quiet --bare "$remote"
    git push --quiet "$remote" "$head:refs/heads/main"
    git --git-dir "$remote" tag "$version" "$head"
    # A tag that moved since the last run (a new HEAD) is resolved again, not taken from the pins,
    # the workspace's state, its build plan or a cached clone (SwiftPM does not fetch a moved
    # tag): the build directory starts afresh. A fresh checkout rebuilds the dependency anyway.
    if [ "$(cat "$out/head" 2>/dev/null)" != "$head" ]; then
        rm -rf "$package/Package.resolved" "$out/build"
    fi
    dependency=".package(url: \"file://$remote\", exact: \"$version\")"
    products='.product(name: "SDK", package: "EngagementSDK"), .product(name: "Sandbox", package: "EngagementSDK")'
    echo "$name: $remote at $version (HEAD $head)"
else
    dependency=".package(name: \"EngagementSDK\", path: \"$root\")"
    products='.product(name: "SDK", package: "EngagementSDK")'
fi

write "$package/Package.swift" <<SWIFT
// swift-tools-version:6.0
// Written by scripts/readme-snippet-check.sh: an app's own package, as the README's reader has.
import PackageDescription

let package = Package(
    name: "ReadmeApp",
    dependencies: [$dependency],
    targets: [
        .executableTarget(name: "ReadmeApp", dependencies: [$products]),
    ],
    swiftLanguageModes: [.v6]
)
SWIFT

if $by_version; then
write "$package/Sources/ReadmeApp/main.swift" <<SWIFT
// Written by scripts/readme-snippet-check.sh --by-version: what the README's snippet assumes
// (keys, directories, a tracked link), served by a loopback Sandbox backend, then the snippet,
// verbatim, then what its run must have come to.
import Foundation
import SDK
import Sandbox

let usKey = "us-key-0001"
let euKey = "eu-key-0002"
let backend = try SandboxBackend(projects: [SandboxProject(name: "US", apiKey: usKey, region: "us"),
                                            SandboxProject(name: "EU", apiKey: euKey, region: "eu")])
let supportDirectory = NSTemporaryDirectory() + "readme-app-" + UUID().uuidString
let cachesDirectory = supportDirectory
let url = backend.setTrackedLink(TrackedLink(code: "spring-sale", project: "US", destination: "https://example.com/sale",
                                             campaignID: 1, templateID: 2, messageID: "m-1"))

/// The snippet's \`SDKConfiguration(storageDirectory:)\`: the app's own function (a declaration of
/// this module shadows the SDK's initializer), the SDK's configuration with both regions on the
/// loopback backend.
@MainActor
func SDKConfiguration(storageDirectory: String) -> SDK.SDKConfiguration {
    var configuration = SDK.SDKConfiguration(storageDirectory: storageDirectory)
    configuration.regionEndpoints = RegionEndpoints(us: backend.baseURL(region: "us"), eu: backend.baseURL(region: "eu"))
    return configuration
}

// README.md, "Using the SDK":
$snippet

// What the run must have come to.
guard case .delivered = outcome else { fatalError("the awaited track was not delivered: \(outcome)") }
guard result == .switchedCleanly || result == .switchedWithWarnings else { fatalError("the switch did not land: \(result)") }
guard link.destination == "https://example.com/sale" else { fatalError("the tracked link did not resolve: \(link)") }
sdk.shutdown()
backend.shutdown()
try? FileManager.default.removeItem(atPath: supportDirectory)
print("ReadmeApp: the snippet ran to its end: track \(outcome), switch \(result), link to \(link.destination ?? "-"), \(backend.requests().count) request(s) served")
SWIFT
else
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
fi

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

echo "$name: building the snippet of $readme as an app's package ($package)"
log="$out/build.log"
start=$(date +%s)
cache=""
if $by_version; then cache=--disable-dependency-cache; fi
if swift build --package-path "$package" --scratch-path "$out/build" $cache -Xswiftc -warnings-as-errors > "$log" 2>&1; then
    echo "$name: the README's snippet compiles without a warning as an app's own package ($(( $(date +%s) - start )) s)"
else
    echo "$name: the README's snippet does not compile without a warning as an app's own package:" >&2
    grep -vE '^\[[0-9]+/[0-9]+\] |^(Building for|Planning build|Fetching|Computing|Creating working copy)' "$log" >&2 || true
    echo "$name: the compiler's full output is in $log; the generated package in $package" >&2
    exit 1
fi
$by_version || exit 0

# The app's build carries the SDK's privacy manifest in the SDK target's resource bundle.
bundled="$out/build/debug/EngagementSDK_SDK.resources/PrivacyInfo.xcprivacy"
if ! cmp -s "$bundled" Sources/SDK/Resources/PrivacyInfo.xcprivacy; then
    echo "$name: the app's build has no copy of the SDK's privacy manifest at $bundled" >&2
    exit 1
fi

# The run: the snippet, start to end, against the loopback backend (bounded: a hang fails).
if ! timeout 120 "$out/build/debug/ReadmeApp"; then
    echo "$name: the README's snippet did not run to its end (its package: $package)" >&2
    exit 1
fi

# Nothing an app links uses unsafeFlags: the SDK product's targets, read from the checkout
# SwiftPM resolved.
checkout=$(find "$out/build/checkouts" -mindepth 1 -maxdepth 1 -type d | head -n 1)
# What was built is HEAD, not a clone SwiftPM cached from an earlier run whose tag pointed elsewhere.
built=$(git -C "$checkout" rev-parse HEAD)
if [ "$built" != "$head" ]; then
    echo "$name: SwiftPM resolved $version to $built, not HEAD ($head)" >&2
    exit 1
fi
echo "$head" > "$out/head"
swift package --package-path "$checkout" dump-package > "$out/manifest.json"
python3 scripts/unsafe-flags-check.py "$out/manifest.json" SDK
python3 scripts/unsafe-flags-check.py --self-test "$out/manifest.json"
