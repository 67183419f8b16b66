#!/usr/bin/env bash
# Reverts each mechanism of the engine shell in turn (scripts/shell-mutations.py) in a scratch
# worktree, builds replay, and runs the simulator from seed 1 until the first failing seed:
# every mechanism must be found (docs/RELIABILITY.md, "After issue 12"). Never commits.
# Usage: scripts/shell-mutations.sh [name ...]   (default: every mutation)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=${MUTATION_WORKTREE:-/tmp/shell-mutations}
[ -d "$scratch" ] || git -C "$root" worktree add --detach "$scratch" HEAD >/dev/null
cd "$scratch"
for name in ${@:-$(python3 "$root/scripts/shell-mutations.py" list)}; do
  git checkout -q -- .
  python3 "$root/scripts/shell-mutations.py" "$name" || { echo "$name: does not apply"; continue; }
  swift build -c release --product replay > "/tmp/shell-mutation-$name.build" 2>&1 || { echo "$name: build failed"; continue; }
  start=1; found=""; line=""
  for chunk in 1000 4000 15000 30000; do
    out=$(.build/release/replay simulate --from-seed $start --seeds $chunk --steps 10 --jobs 2 2>&1)
    found=$(echo "$out" | grep -oE "^seed [0-9]+ FAILED" | head -1 | grep -oE "[0-9]+")
    if [ -n "$found" ]; then line=$(echo "$out" | grep -A1 "^seed $found FAILED" | tail -1); break; fi
    start=$((start + chunk))
  done
  echo "$name: first failing seed ${found:-none in 1...$((start - 1))} ${line:0:200}"
done
git checkout -q -- .
