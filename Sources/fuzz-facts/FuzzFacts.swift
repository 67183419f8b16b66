import FuzzHarness

/// libFuzzer calls this with each input: records to decode as facts and snapshots and fold
/// into the SDK's state (see `FactDecoderFuzzer`). A broken invariant stops the fuzzer like a
/// crash, so libFuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFactDecoder(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let violations = FactDecoderFuzzer.run(input)
    if !violations.isEmpty {
        // Trapping here is the point: the fuzzer reports it and saves the input.
        fatalError("broken invariants:\n" + violations.joined(separator: "\n"))
    }
    return 0
}
