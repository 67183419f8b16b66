import Locking

/// The ``EngineStore``s made while a scope is current (a test's run): a test harness makes one
/// current around a test, then asks each store what it left unasserted
/// (``EngineStore/takeUnasserted(showing:)``) and fails the test on it. A store made with no
/// scope current joins none and is checked by nobody (a store that only builds a journal).
///
/// Thread-safe: a store may be made on any task under the scope.
package final class EngineStoreScope: Sendable {
    /// The scope a store made now joins; nil outside any.
    @TaskLocal package static var current: EngineStoreScope?

    private let stores = Locked<[EngineStore]>([])

    package init() {}

    /// Keeps `store` for ``takeStores()``.
    func adopt(_ store: EngineStore) {
        stores.withLock { $0.append(store) }
    }

    /// The stores made under this scope, in the order they were made; the scope lets go of them.
    package func takeStores() -> [EngineStore] {
        stores.withLock { stores in
            defer { stores = [] }
            return stores
        }
    }
}
