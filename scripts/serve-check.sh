#!/usr/bin/env bash
# `make serve-check`: `replay serve` in headless Chromium over the DevTools protocol
# (scripts/serve-check.py): a click on a call the static report does not embed, the state in the
# DOM equal to `replay state --at`, keyboard stepping, the scrubber, fact search, a deep link into
# a second journal, no script error, and paths outside the served endpoints refused. REPLAY names
# the replay binary; SERVE_CHECK_DIR keeps the files.
set -euo pipefail

replay=${REPLAY:-.build/debug/replay}
if [ -n "${SERVE_CHECK_DIR:-}" ]; then
    out=$SERVE_CHECK_DIR
else
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
fi
python3 scripts/serve-check.py --replay "$replay" "$out/work"
