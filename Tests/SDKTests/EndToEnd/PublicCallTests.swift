import Foundation
import Journal
import Sandbox
import Testing
@testable import SDK

/// Each public call, end to end: the right endpoint, headers and JSON body reach the right project.
@Suite("Public calls end to end", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct PublicCallTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let endpoint: String
        let method: String
        let make: @Sendable (EngagementSDK) async -> CallOutcome
        let check: @Sendable ([String: Any]?, String?) -> Bool

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "updateEmail", endpoint: "users/updateEmail", method: "POST", make: { await $0.outcome.updateEmail("new@example.com") },
             check: { body, _ in body?["currentEmail"] as? String == "ada@example.com" && body?["newEmail"] as? String == "new@example.com" }),
        Case(name: "updateUser", endpoint: "users/update", method: "POST",
             make: { await $0.outcome.updateUser(dataFields: ["plan": "pro", "nested": ["a": 1]], mergeNestedObjects: false) },
             check: { body, _ in (body?["dataFields"] as? [String: Any])?["plan"] as? String == "pro" && body?["mergeNestedObjects"] as? Bool == false }),
        Case(name: "updateCart", endpoint: "commerce/updateCart", method: "POST",
             make: { await $0.outcome.updateCart(items: [CommerceItem(id: "sku1", name: "Shoe", price: 42.5, quantity: 2)]) },
             check: { body, _ in ((body?["items"] as? [[String: Any]])?.first?["price"] as? Double) == 42.5
                 && (body?["user"] as? [String: Any])?["email"] as? String == "ada@example.com" }),
        Case(name: "trackPurchase", endpoint: "commerce/trackPurchase", method: "POST",
             make: { await $0.outcome.trackPurchase(total: 85, items: [CommerceItem(id: "sku1", name: "Shoe", price: 42.5, quantity: 2)], dataFields: ["coupon": "X"]) },
             check: { body, _ in body?["total"] as? Double == 85 && (body?["dataFields"] as? [String: Any])?["coupon"] as? String == "X" }),
        Case(name: "track", endpoint: "events/track", method: "POST", make: { await $0.outcome.track("viewed", dataFields: ["n": 3]) },
             check: { body, _ in body?["eventName"] as? String == "viewed" && body?["createdAt"] is Int }),
        Case(name: "registerToken", endpoint: "users/registerDeviceToken", method: "POST", make: { await $0.outcome.registerToken("tok-9") },
             check: { body, _ in (body?["device"] as? [String: Any])?["token"] as? String == "tok-9" }),
        Case(name: "trackPushOpen", endpoint: "events/trackPushOpen", method: "POST",
             make: { await $0.outcome.trackPushOpen(PushOpen(campaignID: 7, templateID: 8, messageID: "m1", appAlreadyRunning: true)) },
             check: { body, _ in body?["campaignId"] as? Int == 7 && body?["messageId"] as? String == "m1" && body?["appAlreadyRunning"] as? Bool == true }),
        Case(name: "handlePush", endpoint: "events/trackPushOpen", method: "POST",
             make: { await $0.outcome.handlePush(payload: ["itbl": ["campaignId": 70, "templateId": 80, "messageId": "p9"]]) },
             check: { body, _ in body?["campaignId"] as? Int == 70 && body?["messageId"] as? String == "p9" }),
        Case(name: "fetchInAppMessages", endpoint: "inApp/getMessages", method: "GET", make: { await $0.outcome.fetchInAppMessages(count: 5) },
             check: { _, query in query?.contains("count=5") == true && query?.contains("email=ada%40example.com") == true }),
        Case(name: "trackInAppOpen", endpoint: "events/trackInAppOpen", method: "POST", make: { await $0.outcome.trackInAppOpen(messageID: "ia1") },
             check: { body, _ in body?["messageId"] as? String == "ia1" }),
        Case(name: "trackInAppClick", endpoint: "events/trackInAppClick", method: "POST",
             make: { await $0.outcome.trackInAppClick(messageID: "ia1", url: "app://x") },
             check: { body, _ in body?["clickedUrl"] as? String == "app://x" }),
        Case(name: "trackInAppClose", endpoint: "events/trackInAppClose", method: "POST", make: { await $0.outcome.trackInAppClose(messageID: "ia1") },
             check: { body, _ in body?["messageId"] as? String == "ia1" }),
        Case(name: "trackInAppDelivery", endpoint: "events/trackInAppDelivery", method: "POST",
             make: { await $0.outcome.trackInAppDelivery(messageID: "ia1") }, check: { body, _ in body?["messageId"] as? String == "ia1" }),
        Case(name: "inAppConsume", endpoint: "events/inAppConsume", method: "POST", make: { await $0.outcome.inAppConsume(messageID: "ia1") },
             check: { body, _ in body?["messageId"] as? String == "ia1" }),
        Case(name: "fetchEmbeddedMessages", endpoint: "embedded-messaging/messages", method: "GET", make: { await $0.outcome.fetchEmbeddedMessages() },
             check: { _, query in query?.contains("email=ada%40example.com") == true }),
        Case(name: "trackEmbeddedReceived", endpoint: "embedded-messaging/events/received", method: "POST",
             make: { await $0.outcome.trackEmbeddedReceived(messageID: "em1") }, check: { body, _ in body?["messageId"] as? String == "em1" }),
        Case(name: "trackEmbeddedClick", endpoint: "embedded-messaging/events/click", method: "POST",
             make: { await $0.outcome.trackEmbeddedClick(messageID: "em1", buttonID: "b", url: "https://x") },
             check: { body, _ in body?["buttonIdentifier"] as? String == "b" && body?["targetUrl"] as? String == "https://x" }),
    ]

    @Test("the request reaches the right project with the key, headers and body the API expects", arguments: cases)
    func call(_ testCase: Case) async throws {
        let harness = try SDKHarness()
        await harness.sdk.outcome.initialize(harness.eu)
        await harness.sdk.outcome.setEmail("ada@example.com")
        let outcome = await testCase.make(harness.sdk)
        #expect(outcome == .delivered(project: harness.eu.fingerprint, status: 200))
        let request = try #require(harness.received(by: "eu").last { $0.endpoint == testCase.endpoint })
        #expect(request.method == testCase.method)
        #expect(request.region == "eu")
        #expect(request.headers["api-key"] == SDKHarness.euKey)
        #expect(request.headers["sdk-platform"] != nil && request.headers["sdk-version"] == EngagementSDK.version)
        if testCase.method == "POST" {
            #expect(request.headers["content-type"] == "application/json")
            #expect(request.jsonObject?["email"] as? String == "ada@example.com" || request.jsonObject?["user"] != nil
                    || ["events/trackPushOpen", "users/updateEmail"].contains(testCase.endpoint))
        }
        #expect(testCase.check(request.jsonObject, request.query), "\(String(decoding: request.body, as: UTF8.self)) \(request.query ?? "")")
        #expect(harness.received(by: "us").isEmpty)
    }

    @Test("local calls resolve as applied; reads see every earlier call on the same thread")
    func localCalls() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        sdk.setUserId("user-1", completion: nil)
        #expect(sdk.userId == "user-1")
        #expect(sdk.email == nil)
        sdk.setEmail("ada@example.com", completion: nil)
        #expect(sdk.email == "ada@example.com" && sdk.userId == nil)
        sdk.setAttributionInfo(AttributionInfo(campaignID: 1, templateID: 2, messageID: "m"), completion: nil)
        #expect(sdk.attributionInfo?.campaignID == 1)
        #expect(await sdk.outcome.setEmail("ada@example.com") == .applied(project: harness.us.fingerprint))
        #expect(await sdk.outcome.flush() == .applied(project: harness.us.fingerprint))
        try harness.sandbox.setInAppMessages(Data(#"[{"messageId":"a"},{"messageId":"b"}]"#.utf8), project: "us")
        await sdk.outcome.fetchInAppMessages()
        #expect(sdk.inAppMessageIDs == ["a", "b"])
    }

    @Test("calls before initialization fail as not initialized")
    func beforeInitialization() async throws {
        let harness = try SDKHarness()
        #expect(await harness.sdk.outcome.track("early") == .failed(.notInitialized))
        #expect(await harness.sdk.outcome.trackPushOpen(PushOpen(campaignID: 1, templateID: 1, messageID: "m", appAlreadyRunning: false))
                == .failed(.notInitialized))
    }

    @Test("events made before the user is known are held, then sent for them once identified")
    func unknownUserEvents() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        #expect(await sdk.outcome.track("anonymous-1") == .applied(project: harness.us.fingerprint))
        await sdk.outcome.trackPurchase(total: 3, items: [])
        sdk.notify("foreground")
        #expect(harness.received(by: "us").isEmpty)
        await sdk.outcome.setEmail("ada@example.com")
        await sdk.settle()
        let sent = harness.received(by: "us")
        #expect(sent.map(\.endpoint) == ["events/track", "commerce/trackPurchase"])
        #expect(sent.first?.jsonObject?["email"] as? String == "ada@example.com")
    }
}
