import Journal

/// What `replay serve` shows of a journal while its page is still being built: the journal's
/// shape read from its segments' index files alone (records over time, segment by segment,
/// without decoding a record), and how far the build has read. Its script asks the server for
/// the build's progress (`progress`, beside the page) every half second and reloads the page
/// once it is ready; it says so when the build failed.
///
/// Reading sync points costs one small file per segment (``JournalReader/syncPoints(ofSegment:)``;
/// a segment without its index file is walked instead), so this page comes within a second for
/// a journal of any length.
package enum FirstPaintPage {
    /// The bars across the picture.
    static let bucketCount = 440

    /// The page for the journal `reader` reads, served at `/j/N/` (`served`) under `title`.
    package static func html(reader: JournalReader, title: String, served: ServedPage) throws -> String {
        var points: [IndexEntry] = []
        var boundaries: [IndexEntry] = []
        for segment in reader.segments.indices {
            let entries = try reader.syncPoints(ofSegment: segment)
            if let first = entries.first { boundaries.append(first) }
            points += entries
        }
        let options = served.journals.enumerated().map { index, name in
            "<option value=\"\(index)\"\(index == served.journal ? " selected" : "")>\(ReportPage.escape(name))</option>"
        }.joined()
        let picker = served.journals.count > 1 ? "<label>journal <select id=\"journal-picker\">\(options)</select></label> " : ""
        let lastKnown = points.last?.sequence ?? 0
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>replay serve: \(ReportPage.escape(title)) (reading)</title>
            <style>
            body{font:13px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:16px;color:#1d2330}
            svg text{font-size:10.5px;fill:#6b7385;font-family:ui-monospace,monospace}
            progress{width:360px;vertical-align:middle}#failure{color:#c22f2f}
            </style>
            </head>
            <body data-first-paint="\(points.count)">
            <h1>replay serve: \(ReportPage.escape(title))</h1>
            <p>\(picker)<progress id="progress" max="\(max(1, lastKnown))" value="0"></progress> <span id="progress-text">reading the journal for its page…</span> <span id="failure"></span></p>
            <p>\(reader.segments.count) segment(s), \(lastKnown > 0 ? "about \(lastKnown) records" : "no sync point yet")\(points.first.map { " from \($0.time)" } ?? "")\(points.last.map { " to \($0.time) and on" } ?? ""). The page with every call, switch and moment replaces this one as soon as it is built.</p>
            \(svg(points, boundaries: boundaries))
            <script>
            \(script)
            </script>
            </body>
            </html>

            """
    }

    /// Records over time: the records between two sync points counted at the first one's time,
    /// in ``bucketCount`` bars; a tick where each segment starts.
    static func svg(_ points: [IndexEntry], boundaries: [IndexEntry]) -> String {
        let width = bucketCount * 2 + 20, height = 110, base = 80
        guard let first = points.first, let last = points.last, points.count > 1 else {
            return "<svg width=\"\(width)\" height=\"20\"><text x=\"0\" y=\"14\">nothing indexed yet</text></svg>"
        }
        let start = first.time.microsecondsSince1970
        let (spanValue, overflow) = last.time.microsecondsSince1970.subtractingReportingOverflow(start)
        let span = overflow ? Int64.max : max(1, spanValue)
        func slot(_ time: JournalTime) -> Int {
            let (offset, over) = time.microsecondsSince1970.subtractingReportingOverflow(start)
            guard !over, offset > 0 else { return over && time.microsecondsSince1970 > start ? bucketCount - 1 : 0 }
            return Int(min(Double(bucketCount - 1), Double(offset) / Double(span) * Double(bucketCount)))
        }
        var counts = [UInt64](repeating: 0, count: bucketCount)
        for (point, next) in zip(points, points.dropFirst()) where next.sequence > point.sequence {
            counts[slot(point.time)] += next.sequence - point.sequence
        }
        let busiest = Double(max(1, counts.max() ?? 1))
        var svg = "<svg id=\"first-paint\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-label=\"records over time\">"
        for (index, count) in counts.enumerated() where count > 0 {
            let bar = max(1, Double(base - 10) * (Double(count) / busiest).squareRoot())
            svg += "<rect x=\"\(index * 2)\" y=\"\(Double(base) - bar)\" width=\"2\" height=\"\(bar)\" fill=\"#4e79a7\"><title>\(count) records</title></rect>"
        }
        for boundary in boundaries {
            svg += "<rect x=\"\(slot(boundary.time) * 2)\" y=\"\(base + 2)\" width=\"1\" height=\"6\" fill=\"#8a90a0\"/>"
        }
        svg += "<text x=\"0\" y=\"\(base + 22)\">\(first.time)</text>"
        svg += "<text x=\"\(bucketCount * 2)\" y=\"\(base + 22)\" text-anchor=\"end\">\(last.time)</text>"
        return svg + "</svg>"
    }

    static let script = """
        (function () {
          const bar = document.getElementById("progress"), text = document.getElementById("progress-text");
          const failure = document.getElementById("failure"), picker = document.getElementById("journal-picker");
          if (picker) picker.addEventListener("change", () => { location.href = "/j/" + picker.value + "/"; });
          function poll() {
            // The server answers once the page is made, or after a second with how far it read
            // (at once when other requests already wait: then this one asks again in a while).
            const asked = Date.now();
            fetch("progress?wait=1000").then((answer) => answer.json()).then((state) => {
              if (state.ready) { location.reload(); return; }
              bar.value = state.read;
              text.textContent = "reading the journal for its page: seq " + state.read + " of about " + bar.max;
              if (state.failed) { failure.textContent = "the page could not be built: " + state.failed + " (reload to try again)"; return; }
              if (Date.now() - asked < 500) setTimeout(poll, 500); else poll();
            }).catch(() => setTimeout(poll, 1000));
          }
          poll();
        })();
        """
}
