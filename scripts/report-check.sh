#!/usr/bin/env bash
# `make report-check`: renders the demo journal's `replay report` in headless Chromium and
# checks it (scripts/report-check.py): the page loads without console or script errors, the
# lanes, switch windows and steps are in the DOM with the demo's counts (2 projects, 3 switch
# requests of which 2 ran a teardown of 8 steps), a #seq=N deep link opens its moment, and a
# screenshot is not blank. Then the same with `--received` and the demo's receipt log as a
# misbehaving backend would have written it (report-check.py receipts): the receipt marks of
# each verdict are drawn, the page still has no script error, and a deep link to the misrouted
# call names its verdict and the project that received it. REPLAY names the replay binary;
# REPORT_CHECK_DIR keeps the files (REPORT_CHECK_SHOT=PATH also writes the README's screenshot).
set -euo pipefail

replay=${REPLAY:-.build/debug/replay}
if [ -n "${REPORT_CHECK_DIR:-}" ]; then
    out=$REPORT_CHECK_DIR
    mkdir -p "$out"
else
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
fi
browser=(chromium --headless --disable-gpu --no-sandbox --no-first-run --disable-extensions
         --enable-logging=stderr --v=0 --virtual-time-budget=5000 --window-size=1500,1000
         --user-data-dir="$out/profile")

rm -rf "$out/journal"
"$replay" demo --out "$out/journal" > /dev/null
"$replay" report -o "$out/report.html" "$out/journal"

"${browser[@]}" --dump-dom "file://$out/report.html" > "$out/dom.html" 2> "$out/chromium.log"
python3 scripts/report-check.py dom "$out/dom.html" "$out/chromium.log" \
    --expect lanes=2 --expect switches=3 --expect windows=2 --expect steps=16 --expect marks=18

# The noisy step of the third switch, by deep link.
"${browser[@]}" --dump-dom "file://$out/report.html#seq=145" > "$out/dom-seq.html" 2> "$out/chromium-seq.log"
python3 scripts/report-check.py dom "$out/dom-seq.html" "$out/chromium-seq.log" --selected 145 "disable push"

"${browser[@]}" --screenshot="$out/report.png" "file://$out/report.html#seq=145" > /dev/null 2> "$out/chromium-shot.log"
python3 scripts/report-check.py png "$out/report.png"

# Receipt marks: one call per verdict but unconfirmed (the demo fails no call), 7 agreed.
python3 scripts/report-check.py receipts "$out/journal/received.ndjson" "$out/received-bad.ndjson"
"$replay" reconcile --json "$out/journal" --received "$out/received-bad.ndjson" > "$out/reconcile.ndjson" 2> /dev/null || true
grep -q '"verdicts":{"elsewhere":1,"lost":1,"duplicate":1,"unconfirmed":0,"late":1,"unjournaled":1,"agreed":7}' "$out/reconcile.ndjson" \
    || { echo "report-check: FAIL: the misbehaving log does not reconcile to one of each verdict: $(tail -1 "$out/reconcile.ndjson")" >&2; exit 1; }
status=0
"$replay" report -o "$out/received.html" "$out/journal" --received "$out/received-bad.ndjson" > /dev/null || status=$?
[ "$status" = 1 ] || { echo "report-check: FAIL: report --received exited $status, not 1 (findings)" >&2; exit 1; }
"${browser[@]}" --dump-dom "file://$out/received.html" > "$out/dom-received.html" 2> "$out/chromium-received.log"
python3 scripts/report-check.py dom "$out/dom-received.html" "$out/chromium-received.log" \
    --expect lanes=2 --expect marks=18 --expect receipts=13 \
    --expect verdicts="elsewhere=1 lost=1 duplicate=2 unconfirmed=0 late=1 unjournaled=1 agreed=7 unjudged=0"
# The misrouted call, by deep link: its details name the verdict and EU; its receipt is in view.
seq=$(python3 scripts/report-check.py seq "$out/received.html" elsewhere)
"${browser[@]}" --dump-dom "file://$out/received.html#seq=$seq" > "$out/dom-received-seq.html" 2> "$out/chromium-received-seq.log"
python3 scripts/report-check.py dom "$out/dom-received-seq.html" "$out/chromium-received-seq.log" --selected "$seq" "received by</th>"
grep -q 'class="pill verdict"[^>]*>elsewhere<' "$out/dom-received-seq.html" \
    && grep -q '<g class="receipt elsewhere"' "$out/dom-received-seq.html" \
    || { echo "report-check: FAIL: the deep link to seq $seq does not show the verdict elsewhere and its receipt mark" >&2; exit 1; }
"${browser[@]}" --hide-scrollbars --screenshot="$out/received.png" "file://$out/received.html#seq=$seq" > /dev/null 2> "$out/chromium-shot2.log"
python3 scripts/report-check.py png "$out/received.png"
if [ -n "${REPORT_CHECK_SHOT:-}" ]; then cp "$out/received.png" "$REPORT_CHECK_SHOT"; fi

# A device folder: an app and its widget, two processes of their own writing at once
# (crash-child's `process` mode, as DeviceFolderTests), read as one page with a lane per process.
child=${CRASH_CHILD:-.build/debug/crash-child}
rm -rf "$out/device"
mkdir -p "$out/device"
for role in app widget; do
    (echo go | "$child" process "$out/device" "$role" 150 > "$out/child-$role.log") &
done
wait
grep -q '^done$' "$out/child-app.log" && grep -q '^done$' "$out/child-widget.log" \
    || { echo "report-check: FAIL: the device's processes did not finish: $(cat "$out"/child-*.log)" >&2; exit 1; }
"$replay" report -o "$out/device.html" "$out/device" > /dev/null
"${browser[@]}" --dump-dom "file://$out/device.html" > "$out/dom-device.html" 2> "$out/chromium-device.log"
"${browser[@]}" --hide-scrollbars --window-size=1100,330 --screenshot="$out/device.png" "file://$out/device.html" > /dev/null 2> "$out/chromium-shot3.log"
python3 scripts/report-check.py device "$out/dom-device.html" "$out/chromium-device.log" "$out/device.png" app widget
if [ -n "${REPORT_CHECK_DEVICE_SHOT:-}" ]; then cp "$out/device.png" "$REPORT_CHECK_DEVICE_SHOT"; fi
echo "report-check: all good"
