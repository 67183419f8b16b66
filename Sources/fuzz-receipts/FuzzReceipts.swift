import FuzzHarness

/// libFuzzer calls this with each input: the bytes of a receipt log (see `ReceiptLogFuzzer`).
/// A broken invariant stops the fuzzer like a crash, so libFuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReceiptLog(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let violations = ReceiptLogFuzzer.run(input)
    if !violations.isEmpty {
        // Trapping here is the point: the fuzzer reports it and saves the input.
        fatalError("broken invariants:\n" + violations.joined(separator: "\n"))
    }
    return 0
}
