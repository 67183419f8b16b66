import Foundation
import Journal
import SDK

extension JournalReconciler.Row {
    /// Appends the row as `replay reconcile --json` prints it (one NDJSON object, no newline),
    /// written straight into `output`: no JSON tree is made for a row (a fleet's rows are
    /// millions). Member order and bytes are the schema's in docs/RECONCILE.md.
    package func writeJSON(to output: inout ScratchBytes, of reconciler: JournalReconciler) {
        let labels = reconciler.labels
        output.append("{\"verdict\":")
        JSONValue.writeString(verdict.rawValue, to: &output)
        if let call {
            output.append(",\"journal\":")
            JSONValue.writeString(reconciler.journals[call.journal].path, to: &output)
            output.append(",\"call_id\":")
            Self.write(call.callID, to: &output)
            output.append(",\"call\":")
            if let id = call.call { FactJSON.writeCallID(id, to: &output) } else { output.append("null") }
            output.append(",\"task\":")
            output.appendDecimal(call.task.number)
            output.append(",\"endpoint\":")
            JSONValue.writeString(call.endpoint, to: &output)
            output.append(",\"project\":")
            Self.write(call.project, to: &output)
            output.append(",\"label\":")
            Self.write(labels.label(call.project), to: &output)
            output.append(",\"journal_outcome\":")
            JSONValue.writeString(call.outcome.map { Describe.taskOutcome($0) } ?? "pending", to: &output)
            output.append(",\"outcome_at\":")
            Self.write(call.outcomeAt, to: &output)
        } else {
            output.append(",\"journal\":")
            Self.write(journal.map { reconciler.journals[$0].path }, to: &output)
            output.append(",\"call_id\":")
            if let id = receiptCallID { Self.write(id, to: &output) } else { output.append("null") }
            output.append(",\"endpoint\":")
            Self.write(endpoint, to: &output)
        }
        output.append(",\"receipts\":[")
        for (index, receipt) in receipts.enumerated() {
            output.append(index == 0 ? "{\"project\":" : ",{\"project\":")
            Self.write(receipt.project, to: &output)
            output.append(",\"label\":")
            Self.write(labels.label(receipt.project), to: &output)
            output.append(",\"status\":")
            if let status = receipt.status { output.append(String(status)) } else { output.append("null") }
            output.append(receipt.duplicate ? ",\"duplicate\":true" : ",\"duplicate\":false")
            output.append(",\"received_at\":")
            Self.write(receipt.receivedAt, to: &output)
            output.append(",\"file\":")
            JSONValue.writeString(reconciler.receiptFiles[receipt.file].path, to: &output)
            output.append(",\"line\":")
            output.appendDecimal(UInt64(receipt.line))
            output.append(UInt8(ascii: "}"))
        }
        output.append("]}")
    }

    private static func write(_ id: WireCallID, to output: inout ScratchBytes) {
        output.append(UInt8(ascii: "\""))
        output.appendWriting(atMost: WireCallID.hexCount) { text in
            id.writeHex(into: UnsafeMutableRawBufferPointer(start: text, count: WireCallID.hexCount))
            return WireCallID.hexCount
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func write(_ project: ProjectFingerprint, to output: inout ScratchBytes) {
        output.append(UInt8(ascii: "\""))
        project.writeHex(to: &output)
        output.append(UInt8(ascii: "\""))
    }

    private static func write(_ time: JournalTime?, to output: inout ScratchBytes) {
        guard let time else { return output.append("null") }
        var fits = true
        output.appendWriting(atMost: JournalTime.textCount + 2) { text in
            guard let count = time.writeText(to: text + 1) else {
                fits = false
                return 0
            }
            text[0] = UInt8(ascii: "\"")
            text[count + 1] = UInt8(ascii: "\"")
            return count + 2
        }
        // A year outside 0…9999: its longer text, made as a string.
        if !fits { JSONValue.writeString(time.description, to: &output) }
    }

    private static func write(_ text: String?, to output: inout ScratchBytes) {
        if let text { JSONValue.writeString(text, to: &output) } else { output.append("null") }
    }
}
