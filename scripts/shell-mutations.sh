#!/usr/bin/env bash
# Reverts each mechanism of the engine shell in turn (scripts/shell-mutations.py) and checks that
# something catches it: every mutation must be caught (docs/RELIABILITY.md, "The shell, reverted,
# is found"). Never commits.
#
# By default (`make mutations`, part of `make test`): each mutation is applied to this working
# tree, the tests are built incrementally and the thread-free EngineStore suites run
# (MUTATION_TESTS, by default every suite named *StoreTests); a mutation is caught when one of
# them records an issue. The mutated files are restored after each mutation and on exit (a copy
# of each is kept in a temporary directory until then). Exit 1 when a mutation does not apply
# any more, does not build, or is not caught.
#
# With --simulate, as before issue 33: each mutation in a scratch worktree, a release `replay`,
# and the simulator from seed 1 until the first failing seed (slow: minutes per mutation).
#
# Usage: scripts/shell-mutations.sh [--simulate] [name ...]   (default: every mutation)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
SWIFT=${SWIFT:-swift}
tests=${MUTATION_TESTS:-StoreTests}

if [ "${1:-}" = "--simulate" ]; then
  shift
  scratch=${MUTATION_WORKTREE:-/tmp/shell-mutations}
  [ -d "$scratch" ] || git -C "$root" worktree add --detach "$scratch" HEAD >/dev/null
  cd "$scratch"
  for name in ${@:-$(python3 "$root/scripts/shell-mutations.py" list)}; do
    git checkout -q -- .
    python3 "$root/scripts/shell-mutations.py" "$name" || { echo "$name: does not apply"; continue; }
    $SWIFT build -c release --product replay > "/tmp/shell-mutation-$name.build" 2>&1 || { echo "$name: build failed"; continue; }
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
  exit 0
fi

python3 scripts/shell-mutations.py check || exit 1
files=$(python3 scripts/shell-mutations.py files)
backup=$(mktemp -d /tmp/shell-mutations-backup.XXXXXX)
for file in $files; do mkdir -p "$backup/$(dirname "$file")"; cp "$file" "$backup/$file"; done
restore() { for file in $files; do cmp -s "$backup/$file" "$file" || cp "$backup/$file" "$file"; done; }
trap 'restore; rm -rf "$backup"' EXIT
trap 'exit 130' INT TERM
log=$(mktemp /tmp/shell-mutations-log.XXXXXX)
status=0
for name in ${@:-$(python3 scripts/shell-mutations.py list)}; do
  restore
  python3 scripts/shell-mutations.py "$name" || { status=1; continue; }
  if ! $SWIFT build --build-tests > "$log" 2>&1; then
    echo "$name: the mutant does not build: $(grep -m1 'error:' "$log")"
    status=1
    continue
  fi
  $SWIFT test --skip-build --filter "$tests" > "$log" 2>&1
  issues=$(grep -c "recorded an issue" "$log")
  if [ "$issues" -gt 0 ]; then
    echo "$name: caught by $(grep "recorded an issue" "$log" | sed -E 's/^.*Test "([^"]*)".*$/\1/' | sort -u | wc -l) test(s), $issues issue(s)"
  else
    echo "$name: NOT CAUGHT by $tests"
    status=1
  fi
done
restore
# Build the restored sources again, so what follows runs the real shell.
$SWIFT build --build-tests > "$log" 2>&1 || { echo "the restored sources do not build"; status=1; }
rm -f "$log"
exit $status
