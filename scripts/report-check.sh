#!/usr/bin/env bash
# `make report-check`: renders the demo journal's `replay report` in headless Chromium and
# checks it (scripts/report-check.py): the page loads without console or script errors, the
# lanes, switch windows and steps are in the DOM with the demo's counts (2 projects, 3 switch
# requests of which 2 ran a teardown of 8 steps), a #seq=N deep link opens its moment, and a
# screenshot is not blank. REPLAY names the replay binary; REPORT_CHECK_DIR keeps the files.
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
echo "report-check: all good"
