import Foundation
import SDK

/// A long journal written by the real SDK: track, setEmail and purchase calls on a US project,
/// with a switch to EU and back every `switchEvery` calls (calls keep coming during each
/// switch, so the gate holds and replays some), against an in-process transport that answers
/// every request at once. For the report's scale checks and measurements.
enum LongSDKJournal {
    /// Writes the journal under `directory/journal` (the SDK's storage is `directory`).
    /// Each segment holds about `segmentRecords` records (the SDK's default: 20,000).
    static func make(directory: String, calls: Int, switchEvery: Int, segmentRecords: Int = 20_000) async throws {
        let transport = InProcessTransport { _ in .response(status: 200, headers: [:], body: Data(#"{"code":"Success"}"#.utf8)) }
        let configuration = SDKConfiguration(storageDirectory: directory, transport: transport, modules: [],
                                             journalSegmentRecords: segmentRecords, journalRetainedBytes: nil)
        let sdk = try EngagementSDK(configuration: configuration)
        guard let us = Project(apiKey: "scale-us-key", label: "US", config: ProjectConfig(region: .us)),
              let eu = Project(apiKey: "scale-eu-key", label: "EU", config: ProjectConfig(region: .eu)) else { return }
        await sdk.outcome.initialize(us)
        sdk.setEmail("scale@example.com", completion: nil)
        // A push token, so each switch's disable waits to be durable and the gate holds calls.
        sdk.registerToken("scale-token", completion: nil)
        var onUS = true
        for index in 0..<calls {
            if index > 0, index % switchEvery == 0 {
                await sdk.settle()
                sdk.switchProject(to: onUS ? eu : us) { _ in }
                onUS.toggle()
                sdk.setEmail("scale-\(index)@example.com", completion: nil)
                sdk.registerToken("scale-token-\(index)", completion: nil)
            }
            switch index % 10 {
            case 9: sdk.trackPurchase(total: 9.5, items: [CommerceItem(id: "sku-\(index % 7)", name: "coffee", price: 9.5, quantity: 1)], completion: nil)
            default: sdk.track("screen_view", dataFields: ["index": .integer(Int64(index))], completion: nil)
            }
            if index % 250 == 249 { await sdk.settle() }
        }
        await sdk.settle()
        _ = await sdk.outcome.flush()
        sdk.shutdown()
    }
}
