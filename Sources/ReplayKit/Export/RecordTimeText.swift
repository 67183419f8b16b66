import Journal

/// The text of a record's time (`JournalTime.description`), made once for a run of records of
/// the same time: the facts of one input share their time, and an export writes it on each row.
struct RecordTimeText {
    private var time: JournalTime?
    private var text = ""

    /// The text of `time`, made anew only when it differs from the last one asked for.
    mutating func text(of time: JournalTime) -> String {
        if time != self.time {
            self.time = time
            text = time.description
        }
        return text
    }
}
