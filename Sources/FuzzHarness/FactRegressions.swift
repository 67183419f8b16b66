import Foundation
import SDK

/// Inputs of the facts target that once broke one of its invariants, kept as seeds of its
/// corpus (`make fuzz-corpus`) and run by the regression tests, each with what it broke.
package enum FactRegressions {
    /// fuzz-facts, 2026-12-06, after about 1,455,000 inputs: "decide(callReceived) did not
    /// return its input first". The user declined (a `setConsent` call), then a received
    /// `updateUser` carried its data fields' values: `decide` journals such a call without
    /// them, as it must, but the invariant expected the input back as it was. (The project
    /// endpoint `https://api.us.example:com/api/` in its bytes is in records that do not decode
    /// and played no part.) The input as the fuzzer saved it.
    package static let declinedCallWithValues: [UInt8] = [UInt8](Data(base64Encoded: [
        "AdAPJQoSChAAAAAAAAAAAAAAAAAAAAAAAAAaDQgcagkIAhAEGgHQDyUKEgoQAABodHRwczovL2FwaS51cy5leGFtcGxlOmNvbS9h",
        "cGkvAAAAAAAAAAAAAAAAAAAAABoNCBxqAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAD/8K59",
        "vgQKQAoKCgjzoLpXaEByMhICdXMaH2h0dHBzOi8vYXBpLnVzLmV4YW1wbGUuY29tL2FwaS8gACoLCAoQ0A8YwM8kIAYQARovCIAg",
        "EKAfGKAfIgIIASiAgCAwgIACOICAoANAoJwBSOgHUICAQFgBYAFogJDkwAQiBTAuMS4wKhMKBWluYm94Egpmb3JlZ3JvdW5kMkAK",
        "CgoI86C6V2hAcjkSAnVzGh9odHRwczovL2FwaS51cy5lLCJ0b2tlbiI6InB1c2gtdG9rZW4tMSJ9LCJlbWFpbCI6ImFkYUBleGFt",
        "cGxlLmNvbSJ9ULDtkpaolqIGWAFqEQoPYWRhQGV4YW1wbGUuY29tFgAGCgIIAhACAtAPDQoCCAIQAhoFCAEQkAMXAAsKAggCEgUI",
        "ARCQAxkAJwoSChAAAAAAAABAAIAAAAAAAAAEEhEIARIKCgjzoLpXaEByORiQAwHQD0kKEgoQAAAAAAAAQACAAAAAAAAABRABGjEI",
        "BiIrEil7ImFkZHJlc3MiOnsiemlwIjoiNjkwMDEifSwiY2l0eSI6Ikx5b24ifSgBDQAkChIKEAAAAAAAAEAAgAAAAAAAAAUSDggB",
        "EgoKCPOguldoQHI5FQDlAQoCCAMSEgoQAAAAAAAAQACAAAAAAAAABRoKCgjzoLpXaEByOSICdXMqH2h0dHBzOi8vYXBpLnVzLmV4",
        "YW1wbGUuY29tL2FwaS8yDHVzZXJzL3VwZGF0ZTgCSmx7ImRhdGFGaWVsZHMiOnsiYWRkcmVzcyI6eyJ6aXAiOiI2OTAwMSJ9LCJj",
        "aXR5IjoiTHlvbiJ9LCJlbWFpbCI6ImFkYUBleGFtcGxlLmNvbSIsIuZlcmdlTmVzdGVkT2JqZWN0cyI6dHJ1ZX1Q0IyTlqiWogZY",
        "AWoRCg9hZGFAZXhhbXBsZS5jb20WAAYKAggDEAIC0A8NCm1wbGUuY29tL2FwaS8yFmV2ZW50cy90NQAAAEluQXBwQ2xvc2U4Akot",
        "eyJlbWFpbFJhIjoiYWRhQGV4YXdt/w==",
    ].joined()) ?? Data())

    /// The same defect, reduced: after `setConsent(granted: false)`, a received call with
    /// personal values comes back without them (its journaled form).
    package static var declinedUpdateUser: [UInt8] {
        FactDecoderFuzzer.input([
            call(1, .setConsent(granted: false)),
            call(2, .updateUser(dataFields: ["city": "Lyon", "address": ["zip": "69001"]], mergeNestedObjects: true)),
        ])
    }

    /// A call over its limits received while the user declined is journaled as `oversized`, and
    /// that form is its own journaled form: emptying its values again would have made its reason
    /// empty, so `recheck` would have reported every such record of a journal as decided
    /// otherwise. (An event name is an identifier: it stays while declined, and is over its limit.)
    package static var declinedOverLimitCall: [UInt8] {
        FactDecoderFuzzer.input([
            call(1, .setConsent(granted: false)),
            call(2, .track(event: String(repeating: "e", count: CallLimits.identifierBytes + 1), dataFields: nil)),
        ])
    }

    /// Every regression, named as its corpus seed.
    package static var all: [(name: String, bytes: [UInt8])] {
        [
            ("regression-declined-call-with-values", declinedCallWithValues),
            ("regression-declined-update-user", declinedUpdateUser),
            ("regression-declined-over-limit-call", declinedOverLimitCall),
        ]
    }

    private static func call(_ number: UInt64, _ call: PublicCall) -> FactDecoderFuzzer.Record {
        FactDecoderFuzzer.Record(.callReceived(ReceivedCall(id: FixtureStory.callID(number), caller: 1, call: call)))
    }
}
