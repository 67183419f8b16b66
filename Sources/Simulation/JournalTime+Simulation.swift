import Journal

extension JournalTime {
    /// This time plus `milliseconds` (saturating: virtual time never traps).
    func advancedSaturating(milliseconds: Int64) -> JournalTime {
        let (micros, overflow) = milliseconds.multipliedReportingOverflow(by: 1_000)
        let (sum, overflow2) = microsecondsSince1970.addingReportingOverflow(micros)
        return JournalTime(microsecondsSince1970: overflow || overflow2 ? .max : sum)
    }
}
