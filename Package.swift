// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "EngagementSDK",
    // The floor the APIs used set (docs/PLATFORMS.md, "The floor"): `Duration`, `Clock` and
    // `Task.sleep(for:)` (iOS 16, macOS 13, tvOS 16, watchOS 9; visionOS from its first release).
    // Nothing newer: the package's own lock stands in for `Atomic`, its UTF-8 validator for
    // `String(validating:as:)`, and `make portability-check` refuses any API above this line.
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "SDK", targets: ["SDK"]),
        .library(name: "SDKTesting", targets: ["SDKTesting"]),
        .library(name: "Journal", targets: ["Journal"]),
        .library(name: "Sandbox", targets: ["Sandbox"]),
        .executable(name: "replay", targets: ["replay-main"]),
        .executable(name: "bench", targets: ["bench"]),
    ],
    targets: [
        // liblz4 from Debian's liblz4-dev (on a Mac, Homebrew's lz4): its block API writes and
        // reads the journal's LZ4 frames.
        .systemLibrary(
            name: "CLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"]), .brew(["lz4"])]
        ),
        // C11 atomics for Locking's AtomicWord (Swift's `Atomic` is above the package's floor).
        .target(name: "CAtomics"),
        // One lock type for the whole package, visible to ThreadSanitizer, and an atomic word.
        .target(name: "Locking", dependencies: ["CAtomics"]),
        // A generic, crash-safe, compressed append-only log. Knows nothing of the SDK. iOS has no
        // liblz4: there the journal writes and reads the same frames with its own LZ4 in Swift
        // (docs/FORMAT.md, "Linked blocks on every platform").
        .target(name: "Journal", dependencies: [.target(name: "CLZ4", condition: .when(platforms: [.linux, .macOS])), "Locking"]),
        // OpenSSL's libcrypto from Debian's libssl-dev: SHA-256 fingerprints, HMAC redaction, random
        // keys, on Linux only. Apple platforms have no OpenSSL: they hash with CommonCrypto
        // (SDKCore's Security/, docs/PLATFORMS.md), so nothing an Apple build needs links it.
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // The pure core: facts and their codec, `evolve`, `decide`, redaction of facts. No thread,
        // no clock, no I/O.
        .target(name: "SDKCore", dependencies: ["Journal", .target(name: "CCrypto", condition: .when(platforms: [.linux]))]),
        // What apps link: the public API, the engine, delivery, modules, keyring, diagnostics export.
        // Its privacy manifest (docs/PLATFORMS.md, "The privacy manifest") is copied into the
        // target's resource bundle as is, where App Store tooling reads it.
        .target(name: "SDK", dependencies: ["SDKCore", "Journal", "Locking"],
                resources: [.copy("Resources/PrivacyInfo.xcprivacy")]),
        // What tests need to drive the SDK exactly (a manual clock, sequential ids, storage that
        // holds or fails a sync, a lockstep transport, a module that pauses): apps' tests too.
        .target(name: "SDKTesting", dependencies: ["SDK", "SDKCore", "Journal", "Locking"]),
        // The loopback HTTP/1.1 server under the Sandbox and `replay serve`: IPv4 and IPv6
        // loopback, one poller thread for idle and slow connections, a bounded pool of workers and
        // backlog (503 beyond), deadlines for a whole request and for writing its answer, limits
        // on head and body, clean shutdown. What a request means is its handler's business.
        .target(name: "LoopbackHTTP", dependencies: ["Locking"]),
        // A loopback HTTP backend that checks keys per project and region, records what each
        // project received and injects faults. Tests, the demo and the benchmarks use it.
        // Its receipt log names projects by key fingerprint: SHA-256 from the system's library
        // (CommonCrypto on Apple platforms, OpenSSL's libcrypto on Linux), as SDKCore's.
        .target(name: "Sandbox", dependencies: ["LoopbackHTTP", "Locking", .target(name: "CCrypto", condition: .when(platforms: [.linux]))]),
        // Reading journals taken off a device, the fold, rendering, the analyses (check, recheck,
        // audit, diagnose), export, the HTML report and the step session: what `replay` runs.
        .target(name: "ReplayKit", dependencies: ["Journal", "SDK", "LoopbackHTTP", "Locking"],
                // A release build does not check exclusive access at run time, as the standard
                // library is built: the checks on the passes' class properties and captured
                // variables were 6% of a report's pass (docs/BENCHMARKS.md). Debug builds, and so
                // the tests, keep them. (Not in a product an app links: `replay` alone uses it.)
                swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(platforms: [.linux, .macOS], configuration: .release))]),
        // Seeded random stories over the real EngineShell, with a simulated environment, backend
        // and disk (`replay simulate`). Test doubles: not part of ReplayKit.
        .target(name: "Simulation", dependencies: ["Journal", "SDK", "SDKTesting", "ReplayKit", "Sandbox", "Locking"]),
        // The scripted two-region story against the Sandbox (`replay demo`), with its test doubles.
        .target(name: "Demo", dependencies: ["Journal", "SDK", "SDKTesting", "Sandbox", "Locking"]),
        // The command-line tool support engineers run on journals taken off a device: one small
        // file per command over ReplayKit, as a library, so the tests and the fuzzer run them
        // in-process...
        .target(name: "replay", dependencies: ["ReplayKit", "Simulation", "Demo", "Journal", "SDK", "Locking"]),
        // ...and the `replay` executable, which only hands its arguments to it. On Linux the Swift
        // runtime and Foundation are linked in statically: a support engineer runs it many times on
        // one journal (`state --at` at one moment after another), and loading them dynamically was
        // a fifth of such a run (docs/BENCHMARKS.md, "replay at fleet scale"). On a Mac they are
        // the system's, loaded from the shared cache, and none of these flags applies.
        .executableTarget(name: "replay-main", dependencies: ["replay", "ReplayKit"],
                          linkerSettings: [.unsafeFlags([
                              // lld, which finds symbols in archives whatever their order (GNU ld
                              // needs the Foundation archives' own dependencies after them)...
                              "-static-stdlib", "-use-ld=lld",
                              // ...and what the static Foundation archives need that the modules'
                              // link entries do not name: CoreFoundation, ICU, FoundationNetworking's
                              // curl glue and the system's libcurl (there is no libcurl.so link to
                              // name it by -lcurl; the dynamic build loads the same library), and
                              // Synchronization, whose Mutex FoundationNetworking uses (no module
                              // of ours imports it, to name it).
                              "-lCoreFoundation", "-l_FoundationICU", "-l_FoundationCShims", "-l_FoundationCollections",
                              "-l_CFURLSessionInterface", "-lswiftSynchronization", "-Xlinker", "-l:libcurl.so.4",
                              // jemalloc (Debian's libjemalloc2) in place of glibc's malloc, for
                              // every library of the process (loaded before libc, it is the one
                              // malloc and free they all bind to): a pass over a long journal
                              // allocates each record on the reading thread and frees it on
                              // another, which glibc's arenas serialize on a lock and jemalloc's
                              // do not (docs/BENCHMARKS.md, "The HTML report").
                              "-Xlinker", "-l:libjemalloc.so.2",
                          ], .when(platforms: [.linux]))]),
        // SQLite from Debian's libsqlite3-dev: only the benchmark's SQLite peer uses it.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Side-by-side benchmarks against the peers the issues name.
        .executableTarget(name: "bench", dependencies: ["Journal", "SDK", "SDKTesting", "Locking", "CLZ4", "CSQLite"]),
        // The story the SDK crash tests script, shared by the child and the checking parent.
        .target(name: "CrashStory"),
        // A child process the crash tests run and kill with SIGKILL (not shipped).
        .executableTarget(name: "crash-child", dependencies: ["Journal", "SDK", "CrashStory"]),
        // What the fuzz targets do with an input, as a library the regression tests call too
        // (docs/FUZZING.md).
        .target(name: "FuzzHarness", dependencies: ["Journal", "SDK", "replay", "ReplayKit", "CLZ4"]),
        // libFuzzer entry points, one file each: built with `--sanitize fuzzer` (make fuzz) they
        // are fuzzers; in a plain build they compile and link but do nothing.
        .executableTarget(name: "fuzz-journal", dependencies: ["FuzzHarness"]),
        .executableTarget(name: "fuzz-facts", dependencies: ["FuzzHarness"]),
        .executableTarget(name: "fuzz-replay", dependencies: ["FuzzHarness"]),
        .executableTarget(name: "fuzz-receipts", dependencies: ["FuzzHarness"]),
        // Writes the seed corpora under Fuzz/Corpus (not a fuzzer: build it without sanitizers).
        .executableTarget(name: "fuzz-corpus", dependencies: ["FuzzHarness", "Journal", "SDK", "replay", "ReplayKit"]),
        // What the test targets share: a seeded generator, temporary directories, waiting for a
        // completion, running blocking work off the shared pool. Not a test target, so each test
        // target can depend on it; it needs no more than the lock.
        .target(name: "TestSupport", dependencies: ["Locking"], path: "Tests/TestSupport"),
        .testTarget(name: "JournalTests", dependencies: ["Journal", "CLZ4", "Locking", "FuzzHarness", "SDKTesting", "TestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "SandboxTests", dependencies: ["Sandbox", "Locking", "SDKTesting", "TestSupport"]),
        .testTarget(name: "SDKTests", dependencies: ["SDK", "SDKCore", "SDKTesting", "Journal", "Sandbox", "Locking", "FuzzHarness", "Simulation", "ReplayKit", "TestSupport"]),
        .testTarget(name: "ReplayTests", dependencies: ["replay", "ReplayKit", "Simulation", "Demo", "Journal", "SDK", "SDKCore", "SDKTesting", "Sandbox", "FuzzHarness", "Locking", "LoopbackHTTP", "TestSupport"]),
        .testTarget(name: "ReliabilityTests", dependencies: ["SDK", "SDKTesting", "Journal", "Sandbox", "Locking", "CrashStory", "crash-child", "replay", "ReplayKit", "Demo", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
