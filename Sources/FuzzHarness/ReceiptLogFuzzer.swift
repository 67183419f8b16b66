import ReplayKit
import SDK

/// What the receipt-log fuzz target checks of an input: the bytes as a receipt log
/// (docs/RECONCILE.md), read by the reader `replay reconcile` streams files with.
///
/// Invariants: reading never traps, whatever the bytes; it hands out at most one line per
/// newline (plus one), numbered in order; a line it refuses says why; a line it reads writes
/// back (``ReceiptLine/json``) to a line that reads as the same receipt, and its ids and
/// fingerprint spell themselves back; and each line reads as the general JSON path reads it
/// (``ReceiptLine/init(parsingJSON:)``): the same receipt, or refused for the same reason, so
/// the reader's in-place scanner accepts nothing the general path reads otherwise.
package enum ReceiptLogFuzzer {
    /// The broken invariants for `input` (empty when all hold).
    package static func run(_ input: [UInt8]) -> [String] {
        var violations: [String] = []
        let reader = ReceiptLogReader(bytes: input)
        let newlines = input.lazy.filter { $0 == 0x0A }.count
        var lastNumber = 0
        var lines = 0
        let raw = input.split(separator: 0x0A, omittingEmptySubsequences: false)
        while true {
            let next: ReceiptLogReader.Line?
            do throws(ReceiptLogError) {
                next = try reader.next()
            } catch {
                violations.append("reading bytes in memory failed: \(error)")
                break
            }
            guard let line = next else { break }
            lines += 1
            if line.number <= lastNumber { violations.append("line \(line.number) came after line \(lastNumber)") }
            lastNumber = line.number
            if line.number <= raw.count, raw[line.number - 1].count <= ReceiptLine.maxLineBytes {
                var bytes = Array(raw[line.number - 1])
                if bytes.last == 0x0D { bytes.removeLast() }
                let general: Result<ReceiptLine, ReceiptLineError>
                do throws(ReceiptLineError) {
                    general = .success(try ReceiptLine(parsingJSON: bytes))
                } catch {
                    general = .failure(error)
                }
                switch (line.result, general) {
                case (.success(let read), .success(let expected)) where read == expected: break
                case (.failure(let read), .failure(let expected)) where read == expected: break
                default: violations.append("line \(line.number) reads as \(line.result), but the general JSON path reads \(general)")
                }
            }
            switch line.result {
            case .failure(let error):
                if error.message.isEmpty { violations.append("line \(line.number) was refused without a reason") }
            case .success(let receipt):
                let written = receipt.json
                do throws(ReceiptLineError) {
                    let again = try ReceiptLine(parsing: Array(written.utf8))
                    if again != receipt { violations.append("line \(line.number) reads back otherwise: \(written)") }
                } catch {
                    violations.append("line \(line.number) written as \(written) does not read back: \(error)")
                }
                if WireCallID(hex: receipt.callID.hex) != receipt.callID { violations.append("line \(line.number): the call id does not spell itself back") }
                if ProjectFingerprint(hex: receipt.project.hex) != receipt.project { violations.append("line \(line.number): the fingerprint does not spell itself back") }
            }
        }
        if lines > newlines + 1 { violations.append("\(lines) lines from \(newlines) newline(s)") }
        if lastNumber > newlines + 1 { violations.append("line number \(lastNumber) past \(newlines + 1) lines") }
        return violations
    }
}
