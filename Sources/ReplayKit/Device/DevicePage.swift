import Journal
import SDK

/// The page of a ``DeviceFolder``: one self-contained HTML page (inline style, no script, it
/// loads nothing). On top, a picture of the device's time with a lane per process
/// (``DeviceOverview``); below, a table with a column per process and a row per fact, in the
/// merged order (``DeviceMerge``). Each bar and each fact links to its moment in its process's
/// own page: the report written beside it (`replay report`), or the journal's page that
/// `replay serve` serves.
package enum DevicePage {
    /// At most this many rows; the processes' own reports hold everything.
    package static let rowLimit = 20_000

    /// The page for `merge` read to its end; `pages` holds each lane's page address (a report's
    /// file name, or a served journal's `/j/N/`). Returns the page and how many facts its table
    /// shows of how many.
    package static func html(_ merge: DeviceMerge, title: String, pages: [String]) throws -> (page: String, shown: Int, facts: Int) {
        let lanes = merge.folder.lanes
        var labels = lanes.map { _ in ProjectLabels() }
        var overview = DeviceOverview(roles: lanes.map(\.role))
        var rows: [String] = []
        var facts = 0
        var counts = lanes.map { _ in 0 }
        while let (lane, record) = try merge.next() {
            labels[lane].learn(from: record)
            merge.walk(lane).fold(record)
            guard !record.isSnapshot else { continue }
            overview.add(lane: lane, record: record)
            facts += 1
            counts[lane] += 1
            guard rows.count < rowLimit else { continue }
            var cells = lanes.indices.map { _ in "<td></td>" }
            let link = ReportPage.escape(pages[lane]) + "#seq=\(record.sequence)"
            cells[lane] = "<td><a href=\"\(link)\">\(record.sequence)</a> "
                + ReportPage.escape(FactSummary.text(record, labels: labels[lane])) + "</td>"
            rows.append("<tr><td class=\"t\">\(record.time)</td>" + cells.joined() + "</tr>")
        }
        let heads = lanes.enumerated().map { lane, process in
            "<th><a href=\"\(ReportPage.escape(pages[lane]))\">\(ReportPage.escape(process.role))</a> (\(counts[lane]) facts)</th>"
        }.joined()
        let note = rows.count < facts ? "<p>The first \(rows.count) of \(facts) facts; each process's report holds them all.</p>" : ""
        let page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>replay report: \(ReportPage.escape(title))</title>
            <style>
            body{font:13px/1.4 -apple-system,system-ui,sans-serif;margin:16px}
            table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}
            th{position:sticky;top:0;background:#f4f4f4}td.t{white-space:nowrap;font-family:ui-monospace,monospace;color:#555}
            svg.device-overview{display:block;margin:8px 0;max-width:100%;height:auto}svg .role{font-weight:600;font-size:12px}svg .axis{fill:#6b7385;font-size:10.5px;font-family:ui-monospace,monospace}
            .legend span{margin-right:12px;color:#4a5263}.legend i{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:-1px}
            </style>
            </head>
            <body>
            <h1>replay report: \(ReportPage.escape(title))</h1>
            <p>The journals of \(lanes.count) process(es) of one device as one timeline: a lane per process, facts in time order, each process's own order kept. A bar or a fact links to its moment in its process's page.</p>
            \(overview.svg { pages[$0] })
            <p class="legend">\(DeviceOverview.legend)</p>
            \(note)<table><thead><tr><th>time (UTC)</th>\(heads)</tr></thead><tbody>
            \(rows.joined(separator: "\n"))
            </tbody></table>
            </body>
            </html>
            """
        return (page, rows.count, facts)
    }
}
