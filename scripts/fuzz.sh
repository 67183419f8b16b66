#!/usr/bin/env bash
# Runs libFuzzer targets built by `make fuzz-build`, one after the other on one core.
#
#   scripts/fuzz.sh BIN_DIR SECONDS TARGET...
#
# Each target fuzzes a temporary copy of its committed corpus (Fuzz/Corpus/TARGET), so the
# repository is never modified, for SECONDS seconds; then the corpus it grew is run once more
# with AddressSanitizer's full use-after-free checking (see docs/FUZZING.md). Crashing inputs
# go to $FUZZ_ARTIFACTS/TARGET/ (default fuzz-artifacts/). Exits 1 at the first crash.
# With FUZZ_CORPUS_DIR set, the grown corpus is kept in $FUZZ_CORPUS_DIR/TARGET between runs
# (long sessions resume where they stopped); the committed seeds are added to it each time.
set -euo pipefail

bin=$(cd "$1" && pwd) || { echo "fuzz: no directory $1; run make fuzz-build" >&2; exit 2; }
seconds=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
artifacts=${FUZZ_ARTIFACTS:-$root/fuzz-artifacts}
case $artifacts in /*) ;; *) artifacts=$root/$artifacts ;; esac
kept=${FUZZ_CORPUS_DIR:-}
case $kept in ''|/*) ;; *) kept=$PWD/$kept ;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

# libFuzzer reports crashes itself; Swift's own backtracer would only get in its way.
export SWIFT_BACKTRACE=enable=no
# The replay target's fixture journals and scratch directory go here, and go with it.
export REPLAY_FUZZ_DIR=$work
# Fuzzing: freed memory is not quarantined (every cursor maps a 4 MiB decode window, and
# quarantining them cuts the speed fivefold). Replaying the corpus afterwards: the defaults.
fuzzing_asan=quarantine_size_mb=0:detect_leaks=0
replay_asan=detect_leaks=0

for target in "$@"; do
    case $target in
        journal) options=(-max_len=16384 "-dict=$root/Fuzz/journal.dict") ;;
        facts) options=(-max_len=4096) ;;
        replay) options=(-max_len=512 "-dict=$root/Fuzz/replay.dict") ;;
        receipts) options=(-max_len=4096 "-dict=$root/Fuzz/receipts.dict") ;;
        *) echo "fuzz: unknown target '$target' (journal, facts, replay, receipts)" >&2; exit 2 ;;
    esac
    binary=$bin/fuzz-$target
    [ -x "$binary" ] || { echo "fuzz: $binary is missing; run make fuzz-build" >&2; exit 2; }
    corpus=${kept:+$kept/$target}
    corpus=${corpus:-$work/corpus-$target}
    log=$work/$target.log
    mkdir -p "$corpus" "$artifacts/$target"
    cp "$root/Fuzz/Corpus/$target/"* "$corpus/"
    echo "fuzz-$target: ${seconds}s on $(ls "$corpus" | wc -l) inputs"
    common=("${options[@]}" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 "-artifact_prefix=$artifacts/$target/")
    if ! (cd "$work" && ASAN_OPTIONS=$fuzzing_asan "$binary" "${common[@]}" -max_total_time="$seconds" -print_final_stats=1 \
            "$corpus" >"$log" 2>&1); then
        grep -v -E '^#[0-9]+ +(NEW|REDUCE|pulse)' "$log" | tail -n 80
        echo "fuzz-$target: FAILED; the input is under $artifacts/$target/" >&2
        exit 1
    fi
    if grep -q 'no interesting inputs were found' "$log"; then
        echo "fuzz-$target: FAILED: libFuzzer sees no coverage (is the build instrumented? see make fuzz-build)" >&2
        exit 1
    fi
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$log" | sed "s/^/  /"
    if ! (cd "$work" && ASAN_OPTIONS=$replay_asan "$binary" "${common[@]}" -runs=0 "$corpus" >"$log" 2>&1); then
        tail -n 80 "$log"
        echo "fuzz-$target: FAILED replaying the grown corpus; the input is under $artifacts/$target/" >&2
        exit 1
    fi
    echo "  corpus of $(ls "$corpus" | wc -l) inputs replayed clean"
done
