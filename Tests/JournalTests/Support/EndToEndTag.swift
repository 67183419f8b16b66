import Testing

extension Tag {
    /// The end-to-end layer: a test or suite that goes over URLSession and a loopback server (the
    /// Sandbox, `replay serve`), runs the real SDK with its engine thread, starts a child process
    /// of this package, races threads that block, or is CPU-heavy and timing-sensitive.
    /// `make unit-tests` runs everything without this tag in parallel, then these one at a time
    /// (`scripts/unit-tests.py`; docs/RELIABILITY.md, "Two layers").
    @Tag static var endToEnd: Self
}
