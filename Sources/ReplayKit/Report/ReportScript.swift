/// The report page's script: reads the embedded data (``ReportData``), draws the timeline as
/// inline SVG, and handles selection, search, zoom and `#seq=N` deep links. On a page `replay
/// serve` serves, `window.replayServe` (``ServeScript``) gives every moment's state instead of
/// the embedded ones. It sets
/// `data-lanes`, `data-switches`, `data-windows`, `data-steps`, `data-marks`, `data-errors` and
/// `data-rendered` on `<body>` once drawn (with receipts, `data-receipts` and `data-verdicts`:
/// the receipt marks drawn, and how many of each verdict), and collects script errors in
/// `window.__reportErrors`, for the headless check (`make report-check`).
enum ReportScript {
    static let source = #"""
"use strict";
window.__reportErrors = [];
window.addEventListener("error", e => window.__reportErrors.push(String(e.message || e)));
(function () {
  const D = JSON.parse(document.getElementById("report-data").textContent);
  // Switches shown without their steps come as arrays (ReportData.compactWindow).
  const at = (seq, t) => seq === null ? null : {seq: seq, t: t};
  D.switches.forEach(s => { s.folded = false; });
  D.folded_switches.forEach(a => D.switches.push({id: "s" + a[0], routing: a[1], title: "s" + a[0] + " (" + a[1] + ")", requested: at(a[2], a[3]),
    started: at(a[4], a[5]), landed: at(a[6], a[7]), result: a[8], reasons: [], steps: [], anomalies: [], folded: true}));
  D.switches.sort((a, b) => a.requested.seq - b.requested.seq);
  const $ = id => document.getElementById(id);
  const esc = s => String(s).replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
  const STATUS = {delivered: "#2e9d5b", applied: "#3b76d4", failed: "#d63c3c", discarded: "#e08a1e", pending: "#8a8a8a"};
  const STEP = {clean: "#3fae6a", noisy: "#e5902a", unfinished: "#b0b0b0"};
  // What the receipt logs say of each call (`--received`; ReportData.receivedJSON), worst first.
  const R = D.received || null;
  const VERDICTS = ["elsewhere", "lost", "duplicate", "unconfirmed", "late", "unjournaled", "agreed"];
  const VERDICT = {elsewhere: "#c2185b", lost: "#d63c3c", duplicate: "#b8560f", unconfirmed: "#c99700", late: "#1e88a8", unjournaled: "#6a3fb5", agreed: "#2e9d5b"};
  const span = Math.max(1, D.journal.span_us);
  const LEFT = 150, AXIS = 26, SWITCHES = 52, GATE = 26, LANE = 46, COUNTER = 38;
  const lanesTop = AXIS + SWITCHES + GATE;
  const countersTop = lanesTop + LANE * D.lanes.length;
  const height = countersTop + 2 * COUNTER + 8;
  let view = [0, span], width = 1200, selected = null, query = "";

  // Sequence numbers to time: the sparse index plus every moment the data names.
  const known = D.index.slice();
  D.marks.forEach(m => { if (m.seq !== null) known.push([m.seq, m.t]); });
  D.switches.forEach(s => [s.requested, s.started, s.landed].concat(s.steps.flatMap(p => [p.began, p.finished]))
    .forEach(a => { if (a) known.push([a.seq, a.t]); }));
  D.warnings.forEach(w => known.push([w.seq, w.t]));
  known.sort((a, b) => a[0] - b[0]);
  function timeOf(seq) {
    let lo = 0, hi = known.length - 1, best = known.length ? known[0][1] : 0;
    while (lo <= hi) { const mid = (lo + hi) >> 1; if (known[mid][0] <= seq) { best = known[mid][1]; lo = mid + 1; } else hi = mid - 1; }
    return best;
  }
  const x = t => LEFT + (t - view[0]) / (view[1] - view[0]) * (width - LEFT - 10);
  const visible = (t0, t1) => t1 >= view[0] && t0 <= view[1];
  function fmt(us) {
    const a = Math.abs(us);
    if (a >= 60e6) return (us / 60e6).toFixed(2) + " min";
    if (a >= 1e6) return (us / 1e6).toFixed(a >= 10e6 ? 1 : 2) + " s";
    if (a >= 1e3) return (us / 1e3).toFixed(1) + " ms";
    return us + " µs";
  }
  function matches(text) { return !query || String(text).toLowerCase().includes(query); }
  function markText(m) { return [m.name, m.call, m.summary, m.status_text, m.seq, m.received ? m.received.verdict || "not judged" : ""].join(" "); }
  function switchText(s) { return [s.id, s.title, s.result, s.routing].concat(s.reasons, s.steps.map(p => p.step + " " + (p.reason || ""))).join(" "); }

  function render() {
    width = Math.max(700, $("timeline").clientWidth || 1200);
    const out = [];
    out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" id="svg">`);
    out.push(`<rect x="0" y="0" width="${width}" height="${height}" fill="#fff"/>`);
    // Axis.
    const stepUs = niceStep((view[1] - view[0]) / 8);
    for (let t = Math.ceil(view[0] / stepUs) * stepUs; t <= view[1]; t += stepUs) {
      out.push(`<line x1="${x(t)}" x2="${x(t)}" y1="${AXIS - 6}" y2="${height}" stroke="#eee"/>`);
      out.push(`<text x="${x(t) + 2}" y="${AXIS - 10}" class="tick">+${fmt(t)}</text>`);
    }
    // Row labels and lanes.
    out.push(rowLabel("switches", AXIS, SWITCHES), rowLabel("gate (held calls)", AXIS + SWITCHES, GATE));
    D.lanes.forEach((lane, i) => {
      const y = lanesTop + i * LANE, cls = lane.fingerprint ? "lane project" : "lane undelivered";
      out.push(`<g class="${cls}" data-lane="${i}"><rect x="${LEFT}" y="${y}" width="${width - LEFT}" height="${LANE}" fill="${i % 2 ? "#fafafa" : "#f3f5f8"}"/>`);
      out.push(`<text x="8" y="${y + 18}" class="lane-label">${esc(lane.label || lane.name)}</text>`);
      if (lane.fingerprint) out.push(`<text x="8" y="${y + 34}" class="lane-fp">${esc(lane.fingerprint)}</text>`);
      out.push(`</g>`);
    });
    out.push(rowLabel("gate depth (max " + D.counters.gate.max + ")", countersTop, COUNTER));
    out.push(rowLabel("queue depth (max " + D.counters.queue.max + ")", countersTop + COUNTER, COUNTER));
    // Everything on the time axis is clipped to the plot, right of the row labels.
    out.push(`<clipPath id="plot"><rect x="${LEFT}" y="0" width="${width - LEFT}" height="${height}"/></clipPath><g clip-path="url(#plot)">`);
    // Switch windows across the lanes, their steps in the switches row.
    D.switches.forEach((s, i) => {
      const dim = matches(switchText(s)) ? "" : " dim";
      if (!s.started) {
        const t = s.requested.t; if (!visible(t, t)) return;
        out.push(`<g class="switch ${s.routing.split(" ")[0]}${dim}" data-switch="${i}"><path d="M${x(t)} ${AXIS + 6} l6 8 l-6 8 l-6 -8 z" fill="#7a5cc9"><title>${esc(s.id + ": " + s.routing)}</title></path></g>`);
        return;
      }
      const t0 = s.started.t, t1 = s.landed ? s.landed.t : span;
      if (!visible(t0, t1)) { out.push(`<g class="switch window offscreen" data-switch="${i}"></g>`); return; }
      const x0 = x(t0), w = Math.max(3, x(t1) - x0), warn = s.result === "switchedWithWarnings";
      out.push(`<g class="switch window${dim}" data-switch="${i}">`);
      out.push(`<rect class="switch-window" x="${x0}" y="${AXIS}" width="${w}" height="${countersTop - AXIS}" fill="${warn ? "#fff1df" : "#ece6fb"}" fill-opacity="0.75" stroke="${warn ? "#e5902a" : "#7a5cc9"}"/>`);
      if (w > 90) out.push(`<text x="${x0 + 3}" y="${AXIS + 13}" class="switch-title">${esc(s.id + " " + (s.result || "not landed"))}</text>`);
      s.steps.forEach((p, j) => {
        const b = p.began.t, f = p.finished ? p.finished.t : t1, sx = x(b), sw = Math.max(4, x(f) - sx);
        out.push(`<rect class="step ${p.outcome}" data-switch="${i}" data-step="${j}" x="${sx}" y="${AXIS + 20 + (j % 3) * 9}" width="${sw}" height="8" fill="${STEP[p.outcome]}" stroke="#fff" stroke-width="0.5"><title>${esc(p.step + ": " + p.outcome + (p.reason ? " (" + p.reason + ")" : "") + ", " + fmt(p.elapsed_us || 0))}</title></rect>`);
      });
      out.push(`</g>`);
    });
    // Buckets of folded calls.
    D.buckets.forEach((b, i) => {
      if (!visible(b.t0, b.t1)) return;
      const y = lanesTop + b.lane * LANE, h = Math.min(LANE - 6, 4 + 5 * Math.log10(1 + b.count));
      const worst = ["failed", "discarded", "pending", "delivered", "applied"].find(k => b.statuses[k]) || "delivered";
      out.push(`<rect class="bucket" data-bucket="${i}" x="${x(b.t0)}" y="${y + LANE - 3 - h}" width="${Math.max(2, x(b.t1) - x(b.t0) - 0.5)}" height="${h}" fill="${STATUS[worst]}" fill-opacity="0.55"><title>${b.count} calls folded (seq ${b.seq0}..${b.seq1})</title></rect>`);
    });
    // Call marks; held calls linked from the gate row (where made) to their replay.
    D.marks.forEach((m, i) => {
      const y = lanesTop + m.lane * LANE + LANE / 2, hit = matches(markText(m));
      if (m.held && m.held.queued && visible(Math.min(m.held.queued.t, m.t), Math.max(m.held.queued.t, m.t))) {
        const qx = x(m.held.queued.t), qy = AXIS + SWITCHES + GATE / 2;
        out.push(`<path class="link" d="M${qx} ${qy} C${qx} ${y} ${x(m.t)} ${qy} ${x(m.t)} ${y}" fill="none" stroke="#7a5cc9" stroke-dasharray="3 2"/>`);
        out.push(`<circle class="held" data-mark="${i}" cx="${qx}" cy="${qy}" r="4" fill="#fff" stroke="#7a5cc9" stroke-width="2"/>`);
      }
      if (!visible(m.t, m.t)) return;
      const verdict = m.received ? m.received.verdict || "not judged" : null;
      const ring = verdict && verdict !== "agreed" && VERDICT[verdict] ? ` stroke="${VERDICT[verdict]}" stroke-width="2"` : ' stroke="#fff"';
      const sel = selected && selected.mark === i ? ' stroke="#000" stroke-width="2.5"' : ring;
      out.push(`<circle class="mark ${m.status}${hit ? "" : " dim"}" data-mark="${i}" cx="${x(m.t)}" cy="${markY(m, i)}" r="5.5" fill="${STATUS[m.status] || "#555"}"${sel}><title>${esc(m.summary + " - " + m.status_text + (verdict ? " | received: " + verdict : ""))}</title></circle>`);
    });
    // Receipt marks, on the lane of the project that received each (a lost call on the lane of
    // the project that should have): agreed ones quiet, the others by verdict; elsewhere linked
    // to its call's mark.
    if (R) R.marks.forEach((r, j) => {
      if (!visible(r.t, r.t)) return;
      // Receipts along the lane's foot; a missing one (lost) along its head, apart from them.
      const cx = x(r.t), cy = lanesTop + r.lane * LANE + (r.missing ? 8 : LANE - 9), hit = !query || matches(r.text);
      if (r.verdict === "elsewhere" && r.mark !== null) {
        const m = D.marks[r.mark];
        out.push(`<path class="misroute" d="M${x(m.t)} ${markY(m, r.mark)} L${cx} ${cy}" fill="none" stroke="${VERDICT.elsewhere}" stroke-width="1.5" stroke-dasharray="4 2"/>`);
      }
      out.push(`<g class="receipt ${r.verdict || "unjudged"}${r.missing ? " missing" : ""}${hit ? "" : " dim"}" data-receipt="${j}">${receiptShape(r.verdict, cx, cy, r.missing, accepted(r))}<title>${esc(r.text)}</title></g>`);
    });
    out.push(counterPath(D.counters.gate, countersTop, "#7a5cc9"), counterPath(D.counters.queue, countersTop + COUNTER, "#3b76d4"));
    out.push(`</g></svg>`);
    $("timeline").innerHTML = out.join("");
    document.body.dataset.lanes = document.querySelectorAll(".lane.project").length;
    document.body.dataset.switches = document.querySelectorAll(".switch").length;
    document.body.dataset.windows = document.querySelectorAll(".switch.window").length;
    document.body.dataset.steps = document.querySelectorAll(".step").length;
    document.body.dataset.marks = document.querySelectorAll(".mark").length;
    if (R) {
      document.body.dataset.receipts = document.querySelectorAll(".receipt").length;
      document.body.dataset.verdicts = VERDICTS.concat(["unjudged"]).map(v => v + "=" + document.querySelectorAll(".receipt." + v).length).join(" ");
    }
  }
  function markY(m, i) { return lanesTop + m.lane * LANE + LANE / 2 + ((i % 3) - 1) * 7; }
  const accepted = r => r.missing || (r.status !== null && r.status >= 200 && r.status < 300);
  // One receipt mark's shape at (cx, cy): a quiet tick when agreed; a large outlined triangle
  // for elsewhere (the worst); a hollow ring crossed out where a lost call's receipt should be;
  // two diamonds for a duplicate; a diamond for unconfirmed and late; a square for unjournaled;
  // a dashed grey square when not judged. A receipt the project refused (not 2xx) is hollow.
  function receiptShape(verdict, cx, cy, missing, taken) {
    const c = VERDICT[verdict] || "#8a8a8a", fill = taken ? c : "#fff";
    const diamond = (dx, r) => `<path d="M${cx + dx} ${cy - r} l${r} ${r} l${-r} ${r} l${-r} ${-r} z" fill="${fill}" stroke="${c}" stroke-width="1.5"/>`;
    if (missing) return `<circle cx="${cx}" cy="${cy}" r="6" fill="#fff" stroke="${c}" stroke-width="2"/><path d="M${cx - 3.5} ${cy - 3.5} L${cx + 3.5} ${cy + 3.5} M${cx + 3.5} ${cy - 3.5} L${cx - 3.5} ${cy + 3.5}" stroke="${c}" stroke-width="2"/>`;
    switch (verdict) {
      case "agreed": return `<path d="M${cx} ${cy - 4} L${cx} ${cy + 4}" stroke="${c}" stroke-width="2" stroke-opacity="0.55"/>`;
      case "elsewhere": return `<path d="M${cx} ${cy - 9} L${cx + 8} ${cy + 5} L${cx - 8} ${cy + 5} z" fill="${fill}" stroke="#000" stroke-width="1.5"/><text x="${cx - 2}" y="${cy + 3}" style="font-size:9px;font-weight:700;fill:#fff">!</text>`;
      case "duplicate": return diamond(-3, 5) + diamond(3, 5);
      case "unconfirmed": case "late": case "lost": return diamond(0, 6);
      case "unjournaled": return `<rect x="${cx - 5}" y="${cy - 5}" width="10" height="10" fill="${fill}" stroke="${c}" stroke-width="1.5"/>`;
      case null: case undefined: return `<rect x="${cx - 4}" y="${cy - 4}" width="8" height="8" fill="#fff" stroke="${c}" stroke-dasharray="2 1.5"/>`;
    }
    return diamond(0, 6);
  }
  // What the receipt logs say of a call (a mark's `received`, a served moment's), as HTML.
  function receivedBlock(rc) {
    if (!rc) return "";
    const word = rc.verdict || "not judged";
    const rows = rc.receipts.map(r => `<tr><td>${esc(r.project_name)}</td><td>${r.status === null ? "no answer" : r.status}</td><td>${esc(r.received_at)}</td><td>${r.duplicate ? "yes (deduped)" : "no"}</td><td>${esc(r.place)}</td></tr>`).join("");
    return `<section class="received"><h3>Received <span class="pill verdict" style="background:${VERDICT[rc.verdict] || "#8a8a8a"}">${esc(word)}</span></h3>` +
      `<p>sent to <b>${esc(rc.project_name)}</b> (${esc(rc.task)} ${esc(rc.endpoint)}); the journal says ${esc(rc.journal_outcome)}${rc.outcome_at ? " at " + esc(rc.outcome_at) : ""}${rc.hole ? "; not judged: " + esc(rc.hole) : ""}</p>` +
      (rows ? `<table class="steps receipts"><tr><th>received by</th><th>status</th><th>at</th><th>duplicate</th><th>log line</th></tr>${rows}</table>` : `<p>no receipt of it in the logs</p>`) + `</section>`;
  }
  window.replayReceivedBlock = receivedBlock;
  function rowLabel(text, y, h) {
    return `<rect x="0" y="${y}" width="${LEFT - 4}" height="${h}" fill="#fff"/><text x="8" y="${y + h / 2 + 4}" class="row-label">${esc(text)}</text><line x1="0" x2="${width}" y1="${y + h}" y2="${y + h}" stroke="#e4e4e4"/>`;
  }
  function counterPath(c, top, colour) {
    if (!c.points.length) return "";
    const max = Math.max(1, c.max), y = v => top + COUNTER - 4 - v / max * (COUNTER - 10);
    let last = 0, i = 0;
    while (i < c.points.length && c.points[i][0] <= view[0]) last = c.points[i++][1];
    let d = `M${LEFT} ${y(last)}`;
    for (; i < c.points.length && c.points[i][0] <= view[1]; i++) { const px = x(c.points[i][0]); d += ` L${px} ${y(last)} L${px} ${y(c.points[i][1])}`; last = c.points[i][1]; }
    d += ` L${width} ${y(last)}`;
    return `<path class="counter" d="${d}" fill="none" stroke="${colour}" stroke-width="1.5"/>`;
  }
  function niceStep(raw) {
    const p = Math.pow(10, Math.floor(Math.log10(Math.max(1, raw)))), f = raw / p;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
  }

  // Details of a mark, a switch or a moment.
  function stateBlock(seq) {
    if (seq === null || seq === undefined) return "";
    // Served by `replay serve`: any moment's state comes from the server (ServeScript).
    if (window.replayServe) return window.replayServe.stateBlock(seq);
    const doc = D.states[String(seq)];
    if (doc) return `<h3>State after seq ${seq}</h3><pre class="state">${esc(JSON.stringify(doc, null, 2))}</pre>`;
    return `<h3>State after seq ${seq}</h3><p class="hint">Not embedded (the report keeps states for switch boundaries, warnings and a sample of calls): run <code>replay state --at ${seq} JOURNAL</code>.</p>`;
  }
  function showMark(i) {
    const m = D.marks[i]; selected = {mark: i};
    $("details").innerHTML = `<h2>${esc(m.name)} <span class="pill" style="background:${STATUS[m.status]}">${esc(m.status_text)}</span></h2>` +
      `<p>call ${esc(m.call)} in lane <b>${esc(D.lanes[m.lane].name)}</b>, received at seq ${m.seq} (+${fmt(m.t)})</p>` +
      `<h3>Fact</h3><pre>callReceived ${esc(m.summary)}\n\n${esc(JSON.stringify(m.fact, null, 2))}</pre>` +
      (m.held ? `<p>held by the gate at #${m.held.position} (seq ${m.held.queued.seq}), replayed at seq ${m.held.replayed ? m.held.replayed.seq : "never"}</p>` : "") +
      (window.replayServe ? "" : receivedBlock(m.received)) +
      `<h3>Audit row</h3><pre>${esc(JSON.stringify(m.audit, null, 2))}</pre>` + stateBlock(m.seq);
    if (m.seq !== null) history.replaceState(null, "", "#seq=" + m.seq);
    render();
  }
  function showSwitch(i, j) {
    const s = D.switches[i]; selected = {switch: i};
    const rows = s.steps.map((p, k) => `<tr class="${k === j ? "sel" : ""}"><td><span class="dot" style="background:${STEP[p.outcome]}"></span>${esc(p.step)}</td><td>${esc(p.outcome)}${p.reason ? ": " + esc(p.reason) : ""}</td><td>${fmt(p.elapsed_us || 0)}</td><td><a href="#seq=${p.began.seq}">seq ${p.began.seq}</a></td></tr>`).join("");
    $("details").innerHTML = `<h2>${esc(s.title)}</h2><p>${esc(s.routing)}; ${esc(s.result || "not landed")}${s.reasons.length ? " because " + esc(s.reasons.join("; ")) : ""}</p>` +
      (rows ? `<table class="steps"><tr><th>step</th><th>outcome</th><th>took</th><th></th></tr>${rows}</table>` : "") +
      (s.folded ? `<p class="hint">Steps not embedded (a long journal keeps them for ${D.switches.filter(w => !w.folded).length} switches, those with warnings first).</p>` : "") +
      (s.anomalies.length ? `<h3>Anomalies</h3><ul>${s.anomalies.map(a => `<li>${esc(a)}</li>`).join("")}</ul>` : "") +
      `<p class="hint">Everything about it: <code>replay diagnose --switch ${esc(s.id)} JOURNAL</code>.</p>` + stateBlock(s.started ? s.started.seq : s.requested.seq) + (s.landed ? stateBlock(s.landed.seq) : "");
    render();
  }
  function showBucket(i) {
    const b = D.buckets[i];
    $("details").innerHTML = `<h2>${b.count} calls folded</h2><p>lane <b>${esc(D.lanes[b.lane].name)}</b>, seq ${b.seq0}..${b.seq1}, +${fmt(b.t0)}..+${fmt(b.t1)}</p><pre>${esc(JSON.stringify(b.statuses, null, 2))}</pre><p class="hint">Zoom in for the notable calls; every call of the span: <code>replay audit JOURNAL</code>, <code>replay timeline --from ${b.seq0} --to ${b.seq1} JOURNAL</code>.</p>`;
  }
  function showReceipt(j) {
    const r = R.marks[j];
    if (r.mark !== null) return showMark(r.mark);
    selected = null;
    $("details").innerHTML = `<h2>Receipt <span class="pill verdict" style="background:${VERDICT[r.verdict] || "#8a8a8a"}">${esc(r.verdict || "not judged")}</span></h2>` +
      `<p>${esc(r.text)}</p>` + (r.seq !== null ? `<p><a href="#seq=${r.seq}">its call, seq ${r.seq}</a></p>` : "") +
      `<p class="hint">Every call and receipt: <code>replay reconcile JOURNAL --received ${esc(R.logs.join(" "))}</code>.</p>`;
    render();
  }
  function zoomTo(t, half) {
    half = Math.max(half, 1000);
    view = [Math.max(0, t - half), Math.min(span, t + half)];
    if (view[1] - view[0] < 2 * half) view = view[0] === 0 ? [0, Math.min(span, 2 * half)] : [Math.max(0, span - 2 * half), span];
  }
  function openMoment(seq) {
    const t = timeOf(seq);
    document.body.dataset.selected = seq;
    const mark = D.marks.findIndex(m => m.seq === seq);
    // A call's receipts are in view with it (a project may have received it seconds later).
    const around = mark >= 0 && R ? R.marks.filter(r => r.mark === mark).map(r => r.t).concat([t]) : [t];
    const lo = Math.min(...around), hi = Math.max(...around);
    zoomTo((lo + hi) / 2, Math.max(span / 20, 500000, (hi - lo) * 0.65));
    if (mark >= 0) return showMark(mark);
    const sw = D.switches.findIndex(s => [s.requested, s.started, s.landed].some(a => a && a.seq === seq) || s.steps.some(p => p.began.seq === seq || (p.finished && p.finished.seq === seq)));
    if (sw >= 0) return showSwitch(sw, D.switches[sw].steps.findIndex(p => p.began.seq === seq || (p.finished && p.finished.seq === seq)));
    selected = null;
    $("details").innerHTML = `<h2>Moment seq ${seq}</h2><p>+${fmt(t)}</p>` + stateBlock(seq);
    render();
  }
  function fromHash() {
    const m = /seq=(\d+)/.exec(location.hash);
    if (m) openMoment(Number(m[1]));
  }

  // Findings at the top.
  function findings() {
    const items = (D.journal.lost_to_damage || []).map(l => `<li class="warning"><b>lost to damage</b> ${esc(l)}</li>`).concat(D.warnings.map(w => `<li class="warning"><a href="#seq=${w.seq}">seq ${w.seq}</a> <b>${esc(w.kind)}</b> ${esc(w.text)}</li>`))
      .concat(D.violations.map(v => `<li class="violation"><a href="#seq=${v.seqs.length ? v.seqs[0] : 0}">seq ${esc(v.seqs.join(", "))}</a> <b>check: ${esc(v.rule)}</b> ${esc(v.message)}</li>`));
    const moreWarnings = D.warning_count > D.warnings.length ? `<li>... and ${D.warning_count - D.warnings.length} more warning(s): run <code>replay diagnose</code></li>` : "";
    const more = moreWarnings + (D.violation_count > D.violations.length ? `<li>... and ${D.violation_count - D.violations.length} more violation(s): run <code>replay check</code></li>` : "");
    if (R) {
      // One finding per call (a duplicate has a mark per receipt), worst first.
      const seen = new Set();
      const shown = R.marks.filter(r => r.verdict !== "agreed" && r.verdict !== null)
        .filter(r => { const key = r.seq !== null ? r.verdict + " " + r.seq : null; if (key === null) return true; if (seen.has(key)) return false; seen.add(key); return true; })
        .sort((a, b) => VERDICTS.indexOf(a.verdict) - VERDICTS.indexOf(b.verdict));
      shown.slice(0, 200).forEach(r => items.push(`<li class="verdict">${r.seq !== null ? `<a href="#seq=${r.seq}">seq ${r.seq}</a> ` : ""}<b style="color:${VERDICT[r.verdict]}">${esc(r.verdict)}</b> ${esc(r.text)}</li>`));
      if (shown.length > 200) items.push(`<li>... and ${shown.length - 200} more receipt finding(s): run <code>replay reconcile</code></li>`);
      R.problems.forEach(p => items.push(`<li class="warning"><b>receipt input</b> ${esc(p)}</li>`));
    }
    $("findings").innerHTML = items.length ? `<ul>${items.join("")}${more}</ul>` : `<p class="ok">No warnings, no <code>check</code> violation${R ? ", every call agreed with the receipt logs" : ""}.</p>`;
  }
  function summary() {
    const j = D.journal;
    $("summary").innerHTML = `${j.records.toLocaleString("en")} records, seq ${j.first_seq}..${j.last_seq}, ${esc(j.start)} to ${esc(j.end)} (${fmt(j.span_us)}); ` +
      `${D.lanes.length - 1} project(s), ${D.switches.length} switch request(s), ${D.calls.toLocaleString("en")} call(s)` +
      (D.folded ? `; <b>${D.folded.toLocaleString("en")} call(s) folded into ${D.buckets.length} bucket(s)</b> (${D.marks.length ? "the " + D.marks.length.toLocaleString("en") + " notable ones (failed, discarded, pending, held) are drawn one by one" : "no notable call (failed, discarded, pending, held) to draw one by one"})` : "") +
      (window.replayServe ? "; any moment's state from the server" :
        `; states embedded for ${Object.keys(D.states).length} moment(s)` + (D.states_skipped ? ` (${D.states_skipped} left out for size)` : "")) +
      (j.unreadable ? `; <b>${j.unreadable} unreadable record(s) skipped</b>` : "") +
      (j.lost_to_damage ? `; <b>${j.lost_to_damage.length} loss(es) to damage gone on past (listed below)</b>` : "") +
      (R ? `; against ${R.logs.length} receipt log(s): ` + VERDICTS.map(v => R.totals[v] && v !== "agreed" ? `<b style="color:${VERDICT[v]}">${R.totals[v]} ${v}</b>` : `${R.totals[v] || 0} ${v}`).join(", ") +
        (R.not_judged ? `, ${R.not_judged} not judged (in a hole of the journal)` : "") + (R.problem_count ? `; <b>${R.problem_count} problem(s) in the receipt input</b>` : "") +
        (R.marks_left_out ? `; ${R.marks_left_out} agreed receipt mark(s) not drawn` : "") : "");
  }
  // The receipt marks' legend, beside the calls'.
  function legend() {
    if (!R) return;
    const icon = (v, missing) => `<svg width="18" height="18" style="vertical-align:-4px">${receiptShape(v, 9, 10, missing, true)}</svg>`;
    document.querySelector(".legend").insertAdjacentHTML("beforeend", `<span class="receipt-legend"><b>receipts:</b> ` +
      VERDICTS.map(v => `<span>${icon(v, v === "lost")}${v}</span>`).join("") + `<span>${icon(null, false)}not judged</span></span>`);
  }
  function search() {
    query = $("search").value.trim().toLowerCase();
    if (!query) { $("results").innerHTML = ""; render(); return; }
    const hits = [];
    D.marks.forEach((m, i) => { if (matches(markText(m)) && hits.length < 200) hits.push(`<li><a href="#seq=${m.seq}" data-mark="${i}">seq ${m.seq}</a> ${esc(m.summary)} - ${esc(m.status_text)}</li>`); });
    D.switches.forEach(s => { if (matches(switchText(s))) hits.push(`<li><a href="#seq=${(s.started || s.requested).seq}">${esc(s.id)}</a> ${esc(s.title)} ${esc(s.result || "")}</li>`); });
    $("results").innerHTML = hits.length ? `<ul>${hits.join("")}</ul>` : `<p class="hint">Nothing matches among the drawn marks and switches.</p>`;
    render();
  }

  $("timeline").addEventListener("click", e => {
    const el = e.target.closest("[data-mark],[data-switch],[data-bucket],[data-receipt]");
    if (!el) return;
    if (el.dataset.receipt !== undefined) showReceipt(Number(el.dataset.receipt));
    else if (el.dataset.mark !== undefined) showMark(Number(el.dataset.mark));
    else if (el.dataset.bucket !== undefined) showBucket(Number(el.dataset.bucket));
    else showSwitch(Number(el.dataset.switch), el.dataset.step === undefined ? -1 : Number(el.dataset.step));
  });
  $("timeline").addEventListener("wheel", e => {
    e.preventDefault();
    const box = $("timeline").getBoundingClientRect(), px = e.clientX - box.left;
    if (px < LEFT) return;
    const at = view[0] + (px - LEFT) / (width - LEFT - 10) * (view[1] - view[0]);
    const factor = e.deltaY > 0 ? 1.25 : 0.8, w = Math.min(span, Math.max(1000, (view[1] - view[0]) * factor));
    const left = Math.max(0, Math.min(span - w, at - (at - view[0]) * w / (view[1] - view[0])));
    view = [left, left + w]; render();
  }, {passive: false});
  let drag = null;
  $("timeline").addEventListener("mousedown", e => { drag = {x: e.clientX, view: view.slice()}; });
  window.addEventListener("mouseup", () => { drag = null; });
  window.addEventListener("mousemove", e => {
    if (!drag) return;
    const w = drag.view[1] - drag.view[0], shift = -(e.clientX - drag.x) / (width - LEFT - 10) * w;
    const left = Math.max(0, Math.min(span - w, drag.view[0] + shift));
    if (Math.abs(e.clientX - drag.x) > 2) { view = [left, left + w]; render(); }
  });
  $("fit").addEventListener("click", () => { view = [0, span]; render(); });
  $("zoom-in").addEventListener("click", () => { const c = (view[0] + view[1]) / 2; zoomTo(c, (view[1] - view[0]) / 4); render(); });
  $("zoom-out").addEventListener("click", () => { const c = (view[0] + view[1]) / 2; zoomTo(c, (view[1] - view[0])); render(); });
  $("search").addEventListener("input", search);
  window.addEventListener("hashchange", fromHash);
  window.addEventListener("resize", render);

  summary(); findings(); legend(); render(); fromHash();
  document.body.dataset.errors = window.__reportErrors.length;
  document.body.dataset.renderMs = Math.round(performance.now());
  document.body.dataset.rendered = "ok";
})();
"""#
}
