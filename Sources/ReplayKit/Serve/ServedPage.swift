/// What makes a report page the one `replay serve` serves: which of the served journals it
/// shows, and their names for the picker.
package struct ServedPage: Sendable {
    /// The journal's position among the served ones (its pages are under `/j/INDEX/`).
    package var journal: Int
    /// Every served journal's name, in order.
    package var journals: [String]

    package init(journal: Int, journals: [String]) {
        self.journal = journal
        self.journals = journals
    }

    /// The bar above the report's own toolbar: the journal picker (several journals), the
    /// stepping buttons around the scrubber, and the search over every fact.
    var toolbar: String {
        let options = journals.enumerated().map { index, name in
            "<option value=\"\(index)\"\(index == journal ? " selected" : "")>\(ReportPage.escape(name))</option>"
        }.joined()
        let picker = journals.count > 1 ? "<label>journal <select id=\"journal-picker\">\(options)</select></label>" : ""
        return """
            <div class="servebar">\(picker)\
            <button id="prev-switch" type="button" title="[">&laquo; switch</button><button id="prev-call" type="button" title="Shift+Left">&lsaquo; call</button><button id="prev-fact" type="button" title="Left">&larr; fact</button>\
            <input id="scrubber" type="range" min="0" max="0" value="0"><span id="scrub-seq">seq -</span>\
            <button id="next-fact" type="button" title="Right">fact &rarr;</button><button id="next-call" type="button" title="Shift+Right">call &rsaquo;</button><button id="next-switch" type="button" title="]">switch &raquo;</button>\
            <input id="fact-search" type="search" placeholder="search every fact (Enter)">\
            <span class="hint">keys: &larr; &rarr; fact, Shift+&larr; &rarr; call, [ ] switch</span>\
            <span class="hint" id="share-hint">this page shows personal data as recorded; to share it, serve a redacted copy: <code>replay export --redact --format journal -o COPY JOURNAL</code>, then <code>replay serve COPY</code></span></div>
            <div id="fact-results"></div>
            """
    }
}
