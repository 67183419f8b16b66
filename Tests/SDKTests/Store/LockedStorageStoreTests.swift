import Simulation
import Testing
@testable import SDK

/// The storage facts over the real `EngineShell` in the simulator's world: a relaunch whose
/// files opened late (the SDK's `StorageWait` hands the engine `engineStarted`,
/// `storageWasUnavailable` and the held calls in order) decides the held calls against the
/// restored state, under the identity the journal kept; a keyring write the device refuses is
/// journaled. The store is exhaustive: each test asserts the facts, effects and requests.
@Suite("Locked storage (store)", .exhaustiveStore, .timeLimit(.minutes(1)))
struct LockedStorageStoreTests {
    @Test("held calls after storageWasUnavailable are decided in order against the restored state and sent as ada")
    func heldCallsAfterTheFilesOpen() {
        let store = SwitchContractStoreTests.onA()
        store.relaunchAfterLockedStorage(reason: "open journal/00000001.lz4: EPERM", waitedMilliseconds: 42_000, attempts: 3,
                                         initializing: .A, held: [.track(event: "held-1", dataFields: nil), .track(event: "held-2", dataFields: nil)],
                                         refused: 1)
        store.expectFacts(where: { if case .storageWasUnavailable = $0 { true } else { false } }, [
            "storageWasUnavailable the SDK's files could not be opened for 42 s (3 failed attempt(s), the last: open journal/00000001.lz4: EPERM): "
                + "3 call(s) held in memory and journaled next, in order, 1 refused past the hold's bound",
        ])
        store.settle()
        store.expectEffects(where: \.isCompletion, [
            "complete 00000003 applied on A",
            "complete 00000004 delivered to A (200)",
            "complete 00000005 delivered to A (200)",
        ])
        store.expectRequests([
            #"A events/track {"createdAt":1764000044,"email":"ada@example.com","eventName":"held-1"}"#,
            #"A events/track {"createdAt":1764000044,"email":"ada@example.com","eventName":"held-2"}"#,
        ])
        SwitchContractStoreTests.skipTheRest(store)
    }

    @Test("a keyring write the device refuses is journaled with the project and the reason; the key is used in this process all the same")
    func keyringWriteRefused() {
        let store = EngineStore()
        store.refuseKeyringWrites("write keyring.tmp: ENOSPC")
        store.initialize(.A)
        store.call(.setEmail("ada@example.com"))
        store.call(.track(event: "after", dataFields: nil))
        store.settle()
        store.expectFacts(where: { if case .keyringWriteFailed = $0 { true } else { false } }, [
            "keyringWriteFailed the keyring could not file project A's key: write keyring.tmp: ENOSPC; a later launch may not find it",
        ])
        store.expectRequests([
            #"A events/track {"createdAt":1764000000,"email":"ada@example.com","eventName":"after"}"#,
        ])
        store.expectEffects(where: \.isCompletion, [
            "complete 00000001 applied on A",
            "complete 00000002 applied on A",
            "complete 00000003 delivered to A (200)",
        ])
        SwitchContractStoreTests.skipTheRest(store)
    }
}
