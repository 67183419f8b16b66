/// The report as one self-contained HTML page: the style sheet, the data and the script are
/// all inline; the page loads nothing (no network, no CDN).
package enum ReportPage {
    /// The page for `data` (``ReportData/make(_:)``); `title` names the journal. With `served`,
    /// the page `replay serve` serves: a scrubber, stepping keys, fact search, a journal picker,
    /// and every moment's state from the server.
    package static func html(data: JSONValue, title: String, served: ServedPage? = nil) -> String {
        let kind = served == nil ? "report" : "serve"
        return """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>replay \(kind): \(escape(title))</title>
        <style>
        \(ReportStyle.source)\(served == nil ? "" : "\n" + ServeScript.style)
        </style>
        </head>
        <body>
        <header>
        <h1>replay \(kind): \(escape(title))</h1>\(served.map { "\n" + $0.toolbar } ?? "")
        <div id="summary"></div>
        <div id="findings"></div>
        <div class="toolbar">
        <input id="search" type="search" placeholder="search calls, ids, events, reasons">
        <button id="zoom-in" type="button">+</button><button id="zoom-out" type="button">&minus;</button><button id="fit" type="button">fit</button>
        <span class="legend"><span><i class="dot" style="background:#2e9d5b"></i>delivered</span><span><i class="dot" style="background:#3b76d4"></i>applied</span><span><i class="dot" style="background:#d63c3c"></i>failed</span><span><i class="dot" style="background:#e08a1e"></i>discarded</span><span><i class="dot" style="background:#8a8a8a"></i>pending</span><span><i class="dot" style="background:#3fae6a;border-radius:0"></i>clean step</span><span><i class="dot" style="background:#e5902a;border-radius:0"></i>noisy step</span></span>
        </div>
        <div id="results"></div>
        </header>
        <main>
        <div id="timeline"></div>
        <aside id="details"><p class="hint">Click a mark, a switch window or a step. Scroll over the timeline to zoom, drag to pan; <code>#seq=N</code> in the address opens a moment.</p></aside>
        </main>
        <script id="report-data" type="application/json">\(embedded(data))</script>\(served.map { "\n<script>\n" + ServeScript.source($0) + "\n</script>" } ?? "")
        <script>
        \(ReportScript.source)
        </script>
        </body>
        </html>

        """
    }

    /// The data as JSON safe inside a `<script>` element: `</` never appears (it is `<\/`, the
    /// same string to a JSON parser), nor `<!--` (`<\u0021--`). One pass over the JSON's bytes:
    /// the page's data runs to megabytes.
    static func embedded(_ data: JSONValue) -> String {
        var json: [UInt8] = []
        data.write(to: &json)
        var safe: [UInt8] = []
        safe.reserveCapacity(json.count + json.count / 32)
        var index = json.startIndex
        while index < json.endIndex {
            let byte = json[index]
            index += 1
            guard byte == UInt8(ascii: "<"), index < json.endIndex else {
                safe.append(byte)
                continue
            }
            if json[index] == UInt8(ascii: "/") {
                safe.append(contentsOf: #"<\/"#.utf8)
                index += 1
            } else if json[index...].starts(with: "!--".utf8) {
                safe.append(contentsOf: #"<\u0021--"#.utf8)
                index += 3
            } else {
                safe.append(byte)
            }
        }
        return String(decoding: safe, as: UTF8.self)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
