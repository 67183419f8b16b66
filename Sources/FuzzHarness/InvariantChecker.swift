/// The invariants one fuzz input found broken.
///
/// A harness never traps on its own account: it returns what it found, so the libFuzzer entry
/// points can stop on it (libFuzzer then keeps the input) and the regression tests can expect
/// nothing. Crashes of the code under test stay crashes.
package struct InvariantChecker: Sendable {
    /// One line per broken invariant, in the order they were checked.
    package private(set) var violations: [String] = []

    package init() {}

    /// Records `message` when `condition` does not hold.
    package mutating func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { violations.append(message()) }
    }
}
