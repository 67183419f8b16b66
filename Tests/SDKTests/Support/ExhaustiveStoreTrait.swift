import Simulation
import Testing

/// Makes every ``EngineStore`` a test makes exhaustive: when the test (each case of a
/// parameterized one) ends, each store it made fails it on any fact, effect, request or
/// simulation failure the test neither asserted nor skipped by name
/// (``EngineStore/finish(sourceLocation:)``, at the test's declaration). On a suite, it applies
/// to each of its tests and to the suites nested in it.
struct ExhaustiveStoreTrait: TestTrait, SuiteTrait, TestScoping {
    var isRecursive: Bool { true }

    /// Each test case, not the suite as a whole: stores belong to the test that made them.
    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let scope = EngineStoreScope()
        try await EngineStoreScope.$current.withValue(scope) {
            try await function()
        }
        for store in scope.takeStores() { store.finish(sourceLocation: test.sourceLocation) }
    }
}

extension Trait where Self == ExhaustiveStoreTrait {
    /// Every ``EngineStore`` the test makes must see each of its facts, effects, requests and
    /// simulation failures asserted or skipped by name, or the test fails when it ends.
    static var exhaustiveStore: Self { Self() }
}
