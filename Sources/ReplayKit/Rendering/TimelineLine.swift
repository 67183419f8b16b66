import SDK

/// A fact as `replay timeline` (and `replay step`) prints it: sequence number, time and what
/// happened, indented by how deeply it nests in a switch window and its steps.
package enum TimelineLine {
    /// How deeply facts nest now: 1 inside a switch window, 2 inside one of its steps.
    package static func depth(_ state: SDKState) -> Int {
        guard let run = state.switching.inFlight else { return 0 }
        return run.step == nil ? 1 : 2
    }

    package static func line(_ record: DecodedRecord, depth: Int, labels: ProjectLabels = ProjectLabels()) -> String {
        let sequence = String(record.sequence)
        let padded = String(repeating: " ", count: max(0, 6 - sequence.count)) + sequence
        return "\(padded)  \(record.time)  " + String(repeating: "| ", count: depth) + FactSummary.text(record, labels: labels)
    }
}
