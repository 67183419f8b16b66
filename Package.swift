// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "EngagementSDK",
    products: [
        .library(name: "Journal", targets: ["Journal"]),
        .executable(name: "replay", targets: ["replay"]),
    ],
    targets: [
        // liblz4 from Debian's liblz4-dev: the frame API writes segments, the block API reads them.
        .systemLibrary(
            name: "CLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"])]
        ),
        // A generic, crash-safe, compressed append-only log. Knows nothing of the SDK.
        .target(name: "Journal", dependencies: ["CLZ4"]),
        // The command-line tool support engineers run on journals taken off a device.
        .executableTarget(name: "replay", dependencies: ["Journal"]),
        .testTarget(name: "JournalTests", dependencies: ["Journal", "CLZ4"]),
    ],
    swiftLanguageModes: [.v6]
)
