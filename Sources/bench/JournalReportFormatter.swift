/// Renders a journal benchmark report as a table for people or one JSON object for machines.
enum JournalReportFormatter {
    static func table(_ report: JournalBenchmark.Report) -> String {
        var lines = ["peer                 records/s   bytes/record   vs sqlite"]
        let sqlite = report.rows.first { $0.name == "sqlite-wal-txn64" }
        for row in report.rows {
            let ratio = sqlite.map { Format.fixed(row.recordsPerSecond / $0.recordsPerSecond, digits: 1) + "x" } ?? "-"
            lines.append(pad(row.name, 18) + padLeft(Format.fixed(row.recordsPerSecond, digits: 0), 12)
                         + padLeft(Format.fixed(row.bytesPerRecord, digits: 1), 15) + padLeft(ratio, 12))
        }
        lines.append("")
        lines.append("compression: journal \(Format.fixed(report.journalRatio, digits: 2))x, whole-buffer LZ4 ceiling "
                     + "\(Format.fixed(report.ceilingRatio, digits: 2))x "
                     + "(\(Format.fixed(100 * report.journalRatio / report.ceilingRatio, digits: 1))% of the ceiling)")
        guard report.seekJournalRecords > 0 else { return lines.joined(separator: "\n") }
        lines.append("verified scan: \(Format.fixed(report.scanRecordsPerSecond, digits: 0)) records/s over \(report.seekJournalRecords) records")
        lines.append("seek to a random sequence: median \(Format.fixed(report.seekMilliseconds, digits: 3)) ms, "
                     + "max \(Format.fixed(report.seekMaxMilliseconds, digits: 3)) ms")
        lines.append("full scan peak RSS: \(Format.fixed(report.scanPeakRSSMiB, digits: 1)) MiB")
        return lines.joined(separator: "\n")
    }

    static func json(_ report: JournalBenchmark.Report) -> String {
        let rows = report.rows.map { row in
            "{\"name\":\"\(row.name)\",\"records_per_s\":\(Format.fixed(row.recordsPerSecond, digits: 0)),"
                + "\"bytes_per_record\":\(Format.fixed(row.bytesPerRecord, digits: 2))}"
        }
        return "{\"rows\":[\(rows.joined(separator: ","))],"
            + "\"ceiling_ratio\":\(Format.fixed(report.ceilingRatio, digits: 3)),"
            + "\"journal_ratio\":\(Format.fixed(report.journalRatio, digits: 3)),"
            + "\"scan_records_per_s\":\(Format.fixed(report.scanRecordsPerSecond, digits: 0)),"
            + "\"seek_ms\":\(Format.fixed(report.seekMilliseconds, digits: 3)),"
            + "\"seek_max_ms\":\(Format.fixed(report.seekMaxMilliseconds, digits: 3)),"
            + "\"scan_peak_rss_mib\":\(Format.fixed(report.scanPeakRSSMiB, digits: 1)),"
            + "\"records\":\(report.rows.first?.records ?? 0),\"seek_journal_records\":\(report.seekJournalRecords)}"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }

    private static func padLeft(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(1, width - text.count)) + text
    }
}

/// Number formatting without Foundation's locale.
enum Format {
    static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "null" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value * scale).rounded()
        let whole = Int64(scaled / scale)
        guard digits > 0 else { return String(whole) }
        let fraction = String(Int64(abs(scaled - Double(whole) * scale)))
        return "\(whole)." + String(repeating: "0", count: max(0, digits - fraction.count)) + fraction
    }
}
