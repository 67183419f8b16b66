/// The script `replay serve` adds to the report page (before the report's own): every moment's
/// fact, state (the bytes `replay state --at` prints), diff from the moment before and audit
/// row, fetched from the server; the scrubber over the whole journal; keyboard stepping (Left
/// and Right: fact; with Shift: call; `[` and `]`: switch); search over every fact, page by
/// page; the journal picker. It moves between moments through `#seq=N`, so the report's deep
/// links, marks and findings all lead to the same place. Once a moment is shown it sets
/// `data-moment` on `<body>` (for the headless check, `make serve-check`); with `--received`, a
/// call's moment names its verdict and receipts (`#moment-received`).
enum ServeScript {
    static let style = """
        .servebar { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 6px 0; }
        .servebar button { padding: 2px 8px; border: 1px solid #c9ced8; background: #fff; border-radius: 4px; cursor: pointer; }
        .servebar select, .servebar input[type=search] { padding: 3px 6px; border: 1px solid #c9ced8; border-radius: 4px; }
        #scrubber { width: 360px; }
        #scrub-seq { font-family: ui-monospace, monospace; min-width: 90px; }
        #fact-results ul { margin: 4px 0; padding-left: 18px; max-height: 160px; overflow: auto; font-family: ui-monospace, monospace; font-size: 11.5px; }
        #moment pre { max-height: 420px; }
        #state-diff { background: #fffbe8 !important; }
        """

    static func source(_ page: ServedPage) -> String {
        "const REPLAY_SERVE = {journal: \(page.journal)};\n" + body
    }

    private static let body = #"""
"use strict";
(function () {
  const $ = id => document.getElementById(id);
  const esc = s => String(s).replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
  const D = JSON.parse($("report-data").textContent);
  const first = D.journal.first_seq, last = D.journal.last_seq;
  const hashSeq = () => { const m = /seq=(\d+)/.exec(location.hash); return m ? Number(m[1]) : null; };
  // The moment the address names wins over the one a switch's details ask for first.
  let fromHash = hashSeq(), asked = null, wanted = null, shown = null;
  window.addEventListener("hashchange", () => { fromHash = hashSeq(); });

  function load(seq) {
    wanted = seq;
    fetch("moment?at=" + seq).then(r => r.ok ? r.json() : r.text().then(t => { throw new Error(t); })).then(m => {
      if (wanted !== seq) return;
      shown = m;
      fill(seq, m);
    }).catch(e => { if (wanted === seq) fillError(seq, e); });
  }
  function panel(seq) {
    let el = $("moment");
    if (!el) { el = document.createElement("section"); el.id = "moment"; $("details").appendChild(el); }
    el.dataset.seq = seq;
    return el;
  }
  function fill(seq, m) {
    const audit = m.audit ? `<h3>Audit row${m.audit_complete ? "" : " (pending so far)"}</h3><pre id="moment-audit">${esc(JSON.stringify(m.audit, null, 2))}</pre>` : "";
    const fact = m.fact ? `<pre id="moment-fact">${esc(JSON.stringify(m.fact, null, 2))}</pre>` : "";
    // `replay serve --received`: what the receipt logs say of the call (the report's renderer).
    const received = m.received !== undefined && window.replayReceivedBlock
      ? `<div id="moment-received">${m.received === null ? `<h3>Received</h3><p class="hint">the journal sent no request for this call</p>` : window.replayReceivedBlock(m.received)}</div>` : "";
    panel(seq).innerHTML = `<h3>seq ${m.seq === null ? seq : m.seq} <span class="hint">${esc(m.time || "")}</span></h3>` +
      `<p><b>${esc(m.kind || "")}</b> ${esc(m.summary || "")}</p>${received}${fact}` +
      `<h3>Changed since the moment before</h3><pre id="state-diff"></pre>${audit}` +
      `<h3>State after seq ${seq}</h3><pre class="state" id="state-text"></pre>`;
    $("state-diff").textContent = m.diff.length ? m.diff.join("\n") : "no change";
    $("state-text").textContent = m.state_text;
    $("scrubber").value = seq;
    $("scrub-seq").textContent = "seq " + seq;
    document.body.dataset.moment = seq;
  }
  function fillError(seq, e) {
    panel(seq).innerHTML = `<h3>seq ${seq}</h3><p class="hint">${esc(String(e.message || e))}</p>`;
    document.body.dataset.moment = "error " + seq;
  }
  window.replayServe = {
    // Called by the report while it builds a details panel: a placeholder, filled once the
    // server answers. A panel asks for one moment (a switch asks for its start and its landing).
    stateBlock(seq) {
      if (asked === null) {
        asked = seq;
        queueMicrotask(() => { const target = fromHash !== null ? fromHash : asked; fromHash = null; asked = null; load(target); });
        return `<section id="moment" data-seq="${seq}"><p class="hint">loading seq ${seq}…</p></section>`;
      }
      return "";
    },
  };

  function go(seq) {
    if (seq === null || seq === undefined) return;
    seq = Math.max(first, Math.min(last, seq));
    if (hashSeq() === seq) { fromHash = seq; load(seq); } else location.hash = "#seq=" + seq;
  }
  function step(name) {
    const at = shown && shown.seq !== null ? shown.seq : null;
    if (at === null) return go(first);
    const target = shown.steps[name];
    if (target !== null && target !== undefined) go(target);
  }
  const scrubber = $("scrubber");
  scrubber.min = first; scrubber.max = last; scrubber.value = first;
  let scrubTimer = null;
  scrubber.addEventListener("input", () => {
    $("scrub-seq").textContent = "seq " + scrubber.value;
    clearTimeout(scrubTimer);
    scrubTimer = setTimeout(() => go(Number(scrubber.value)), 80);
  });
  ["fact", "call", "switch"].forEach(kind => {
    $("prev-" + kind).addEventListener("click", () => step("prev_" + kind));
    $("next-" + kind).addEventListener("click", () => step("next_" + kind));
  });
  document.addEventListener("keydown", e => {
    const t = e.target;
    if (t && t !== scrubber && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    let name = null;
    if (e.key === "ArrowLeft") name = e.shiftKey ? "prev_call" : "prev_fact";
    else if (e.key === "ArrowRight") name = e.shiftKey ? "next_call" : "next_fact";
    else if (e.key === "[") name = "prev_switch";
    else if (e.key === "]") name = "next_switch";
    if (!name) return;
    e.preventDefault();
    step(name);
  });
  const picker = $("journal-picker");
  if (picker) picker.addEventListener("change", () => { location.href = "/j/" + picker.value + "/"; });

  let searchFrom = null;
  function searchFacts(more) {
    const q = $("fact-search").value.trim();
    if (!q) { $("fact-results").innerHTML = ""; return; }
    const url = "search?q=" + encodeURIComponent(q) + (more && searchFrom !== null ? "&from=" + searchFrom : "");
    fetch(url).then(r => r.json()).then(res => {
      const items = res.hits.map(h => `<li><a href="#seq=${h.seq}">seq ${h.seq}</a> ${esc(h.kind)} ${esc(h.summary)}</li>`).join("");
      searchFrom = res.next_from;
      const tail = res.next_from !== null ? `<p class="hint">searched to seq ${res.scanned_to}; <button id="fact-more" type="button">search on</button></p>` : `<p class="hint">searched to the end (seq ${res.scanned_to === null ? "-" : res.scanned_to})</p>`;
      const list = $("fact-results").querySelector("ul");
      if (more && list) list.insertAdjacentHTML("beforeend", items);
      else $("fact-results").innerHTML = `<ul>${items}</ul>`;
      const old = $("fact-results").querySelector("p"); if (old) old.remove();
      $("fact-results").insertAdjacentHTML("beforeend", (res.hits.length || more ? "" : `<p class="hint">no fact matches so far</p>`) + tail);
      const button = $("fact-more"); if (button) button.addEventListener("click", () => searchFacts(true));
      document.body.dataset.factHits = $("fact-results").querySelectorAll("li").length;
    });
  }
  $("fact-search").addEventListener("keydown", e => { if (e.key === "Enter") searchFacts(false); });
})();
"""#
}
