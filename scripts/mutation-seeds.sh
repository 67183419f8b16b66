#!/usr/bin/env bash
# Which seed finds each reverted fix (docs/RELIABILITY.md, "Liveness, reverted, is found by a
# seed"): for each mutation of scripts/shell-mutations.py named (default: issue 42's and 43's
# liveness and privacy mechanisms), applied to THIS working tree, a release `replay` is built
# and `replay simulate --no-shrink` runs over seeds from MUTATION_FROM_SEED (default 1) in
# growing chunks until the first failing seed, MUTATION_SEEDS seeds (default 100000) or
# MUTATION_SECONDS of simulation (default 900) are reached. One line per mutation:
#   name | first failing seed | its first failure | seeds run | seconds of simulation
# The mutated files are restored after each mutation and on exit, and `replay` is built again
# from the restored sources. Never commits. Exit 1 when a mutation does not apply or build.
#
# Usage: scripts/mutation-seeds.sh [name ...]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
SWIFT=${SWIFT:-swift}
from=${MUTATION_FROM_SEED:-1}
budget=${MUTATION_SEEDS:-100000}
seconds=${MUTATION_SECONDS:-900}
steps=${MUTATION_STEPS:-10}
jobs=${MUTATION_JOBS:-2}
default="aside-blocks-its-project refusal-retried refresh-budget-per-instance bulk-expires-whole ages-on-the-wall-clock disables-not-coalesced erasure-spares-the-wire"
python3 scripts/shell-mutations.py check || exit 1
files=$(python3 scripts/shell-mutations.py files)
backup=$(mktemp -d /tmp/mutation-seeds-backup.XXXXXX)
for file in $files; do mkdir -p "$backup/$(dirname "$file")"; cp "$file" "$backup/$file"; done
restore() { for file in $files; do cmp -s "$backup/$file" "$file" || cp "$backup/$file" "$file"; done; }
trap 'restore; rm -rf "$backup"' EXIT
trap 'exit 130' INT TERM
status=0
for name in ${@:-$default}; do
  restore
  python3 scripts/shell-mutations.py "$name" || { status=1; continue; }
  if ! $SWIFT build -c release --product replay > "/tmp/mutation-seeds-$name.build" 2>&1; then
    echo "$name | does not build: $(grep -m1 'error:' "/tmp/mutation-seeds-$name.build")"
    status=1
    continue
  fi
  start=$from; chunk=200; found=""; line=""; spent=0
  while [ $((start - from)) -lt "$budget" ] && [ "$spent" -lt "$seconds" ]; do
    left=$((budget - (start - from)))
    [ "$chunk" -gt "$left" ] && chunk=$left
    began=$(date +%s)
    # A chunk whose story never ends (a livelock the world's budgets do not see) is stopped
    # at the time left, and named.
    out=$(timeout $((seconds - spent + 30)) .build/release/replay simulate --from-seed "$start" --seeds "$chunk" --steps "$steps" --jobs "$jobs" --no-shrink 2>&1)
    code=$?
    spent=$((spent + $(date +%s) - began))
    if [ "$code" = 124 ]; then
      found="$start-$((start + chunk - 1))"
      line="(timed out: a story of these seeds never ended)"
      break
    fi
    found=$(echo "$out" | grep -oE "^seed [0-9]+ FAILED" | grep -oE "[0-9]+" | sort -n | head -1)
    if [ -n "$found" ]; then
      line=$(echo "$out" | grep -A1 "^seed $found FAILED" | tail -1 | sed -E 's/^ +//')
      break
    fi
    start=$((start + chunk))
    [ "$chunk" -lt 20000 ] && chunk=$((chunk * 2))
  done
  if [ -n "$found" ]; then
    case "$found" in
      *-*) echo "$name | seeds $found | $line | - | $spent" ;;
      *) echo "$name | $found | ${line:0:160} | $((found - from + 1)) (of a chunk of $chunk) | $spent" ;;
    esac
  else
    echo "$name | none | - | $((start - from)) | $spent"
  fi
done
restore
$SWIFT build -c release --product replay > /tmp/mutation-seeds-restored.build 2>&1 || { echo "the restored sources do not build"; status=1; }
exit $status
