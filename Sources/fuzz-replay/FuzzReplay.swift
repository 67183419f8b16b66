import FuzzHarness

/// libFuzzer calls this with each input: a `replay` command line and its standard input (see
/// `ReplayFuzzInput`), confined to fixture journals and a scratch directory. A broken invariant
/// stops the fuzzer like a crash, so libFuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReplayCommandLine(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let violations = ReplayCommandLineFuzzer.run(input)
    if !violations.isEmpty {
        // Trapping here is the point: the fuzzer reports it and saves the input.
        fatalError("broken invariants:\n" + violations.joined(separator: "\n"))
    }
    return 0
}
