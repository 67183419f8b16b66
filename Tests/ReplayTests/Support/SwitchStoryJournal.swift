import Foundation
import Simulation

/// A journal a support engineer would read for something that happened during a switch: ada,
/// with a push token on project A, switches to B; `during` acts while the switch runs; the
/// store settles and its journal is written to a temporary directory, removed by `remove()`.
struct SwitchStoryJournal {
    let directory: String
    var journal: String { directory + "/journal" }

    init(during: (EngineStore) -> Void) throws {
        let store = EngineStore()
        store.initialize(.A)
        store.call(.setEmail("ada@example.com"))
        store.call(.registerToken("token-1"))
        store.settle()
        store.switchProject(to: .B)
        during(store)
        store.settle()
        directory = ReplayHarness.temporaryDirectory()
        try store.writeJournal(to: journal)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
