# The two commands the README gives: `make test` (everything CI runs) and `make demo`.
SWIFT ?= swift

.PHONY: all deps build test layers-check portability-check nolz4-check unit-tests mutations new-case-cost docs-check readme-check dependency-check report-check serve-check tsan demo bench simulate reliability clean fuzz-build fuzz fuzz-smoke fuzz-corpus fleet-check fleet-spark bench-replay

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

# What CI runs: installs what is missing, builds everything (tests included), runs the whole
# suite, reverts each engine-shell mechanism in turn and checks the thread-free tests catch it,
# measures what a new public call and a new fact cost in files (and that the template compiles),
# reads the Apple build for Linux-only code, builds the journal as iOS does (without liblz4),
# checks the API documentation with docc, builds and runs the README's snippet as an app that
# depends on this package by URL and version would (no unsafeFlags in what it links), renders
# the demo's HTML report in headless Chromium and drives `replay serve` in it, then the
# concurrency suites under ThreadSanitizer, a short smoke of each fuzzer and the fleet SQL's
# cross-check on DuckDB (audit and reconcile).
test: layers-check portability-check nolz4-check unit-tests mutations new-case-cost docs-check dependency-check report-check serve-check tsan fuzz-smoke fleet-check

# The Journal built as iOS builds it, without liblz4 (every block through the journal's own LZ4
# in Swift), in a package of its own under .build/nolz4-check, warnings as errors: a journal it
# writes and every golden journal read alike through it and through replay, which uses liblz4
# (scripts/journal-without-liblz4.sh). About 20 seconds.
nolz4-check: deps
	SWIFT=$(SWIFT) scripts/journal-without-liblz4.sh

# Every target imports only the layers below it, and the pure core (SDKCore) does no I/O,
# starts no thread and reads no clock (docs/ARCHITECTURE.md, "Targets").
layers-check: deps
	python3 scripts/layers-check.py

# No Xcode runs here, so the Apple platforms' build is read instead (docs/PLATFORMS.md): every
# Linux-only import, call and flag in a target an app or a Mac build of `replay` uses is inside a
# Linux branch of `#if`, nothing used is above Package.swift's `platforms:` floor, and Apple builds
# get no Linux-only linker flag or library. Then the check's own test: planted Linux-only code in
# a temporary copy must fail it, naming each line, and the same code guarded must pass.
# The SDK's privacy manifest too (scripts/privacy-manifest-check.py): a valid property list the SDK
# target ships as a resource, declaring every required-reason API (file timestamps, boot time, disk
# space, UserDefaults, keyboards) the targets an app links call; its self-test plants an
# undeclared call, a dropped resource and a malformed list.
portability-check: deps
	python3 scripts/portability-check.py
	python3 scripts/portability-check.py --self-test
	python3 scripts/privacy-manifest-check.py
	python3 scripts/privacy-manifest-check.py --self-test

# The unit suite in two layers (scripts/unit-tests.py; docs/RELIABILITY.md, "Two layers"). The
# tests without the `.endToEnd` tag (pure core, codecs, the journal's API, replay over files, the
# engine shell over the simulator's world) run in parallel, as many at once as there are cores;
# the `.endToEnd` ones (URLSession and the loopback Sandbox or `replay serve`, the real SDK's
# threads, crash children, blocking thread races, the overload burst, the demo journal) then run
# one at a time, as the whole suite used to: run together on two cores, CPU-heavy tests held the
# shared pool's threads for tens of seconds and tests that hold a request on the sandbox lost
# the race against URLSession's real 30 s timeout. Each run's xUnit report names what ran; the
# script fails unless every test of `swift test list` ran exactly once, in its own layer (its
# --self-test plants each mistake).
# Each suite has a .timeLimit; a test stuck in an await that ignores cancellation would still
# hold the run, so both runs together are bounded too (UNIT_TESTS_TIMEOUT seconds): a hang fails
# CI instead of using up its time. Here, on two cores other builds share (load about 3): a median
# 58.5 s, against 60.8 s for all 563 tests one at a time (three interleaved runs each; the
# parallel layer alone 25.6 s against 29.4 s one at a time).
UNIT_TESTS_TIMEOUT ?= 1200
unit-tests: deps
	$(SWIFT) build --build-tests
	python3 scripts/unit-tests.py --self-test
	python3 scripts/unit-tests.py --swift $(SWIFT) --timeout $(UNIT_TESTS_TIMEOUT)

# Each mechanism of the engine shell (scripts/shell-mutations.py: the token epoch, the provider's
# bound, landing callbacks, module overruns and failures, the interrupted switch, the gap's fold,
# timers and durability waits after a relaunch, background time given back once its flush is
# done) reverted in turn in this working tree, the tests rebuilt incrementally and the
# EngineStore suites run: every mutation must make one of them fail, and a mutation that no
# longer applies fails too. The sources are restored after each one. About two minutes here
# (incremental builds of one file each); `scripts/shell-mutations.sh
# --simulate` runs the simulator against each instead (slow).
mutations: deps
	$(SWIFT) build --build-tests
	SWIFT=$(SWIFT) scripts/shell-mutations.sh

# What a new public call and a new fact cost, measured (scripts/new-case-cost.py; docs/ARCHITECTURE.md
# quotes its output): each added from a template to a scratch copy of Sources, each module that
# depends on an edited one type-checked with SwiftPM's own flags (`swiftc -wmo -emit-module`, no
# code generated), each file the compiler names answered from the template until the copy
# builds clean; then the files touched, with the count, the issue's goal and today's figure. Fails
# when a count grows past today's figure, when the compiler asks a decision the template does not
# answer, or when the answered copy does not build clean (an error or any warning); its
# self-test leaves one answer out, plants a warning and a stale anchor, and each must fail the run. Over the debug build unit-tests made: 28 s
# here (46 s of CPU for both cases, one core each; 68 s with other builds sharing the cores);
# a rerun over the same sources, script and compiler reads the figures it cached in
# .build/new-case-cost (under a second; --fresh measures again). NEW_CASE_COST_FLAGS=--goal
# fails over the issue's goal instead.
NEW_CASE_COST_FLAGS ?=
new-case-cost: deps
	$(SWIFT) build --build-tests
	python3 scripts/new-case-cost.py --self-test
	python3 scripts/new-case-cost.py $(NEW_CASE_COST_FLAGS)

# The SDK's, SDKTesting's, the journal's and the Sandbox's API documentation builds with the toolchain's docc without a
# warning (a broken ``symbol`` link, an undocumented parameter), over the same debug build.
docs-check: deps
	scripts/docs-check.sh

# The README's "Using the SDK" snippet, verbatim, builds as an app's own package (depending on this
# one by path, Swift 6 mode) with -warnings-as-errors, next to a file whose async and synchronous
# functions make the plain calls without `await` (scripts/readme-snippet-check.sh). Its package
# and build directory stay in .build/readme-check: a rerun builds only what changed.
readme-check: deps
	scripts/readme-snippet-check.sh

# The same snippet in an app that depends on this package as apps do, by URL and version: a
# bare git repository of HEAD (commit first) tagged with EngagementSDK.version, resolved with
# `exact:`, built with -warnings-as-errors, then run to its end against a loopback Sandbox (the
# awaited track delivered, the switch landed, the link resolved); fails if any target the SDK
# product links uses unsafeFlags (scripts/unsafe-flags-check.py, with its self-test). It covers
# readme-check, so `make test` runs only this one: one build of the snippet, not two. About
# 100 s from nothing here, 4 s when HEAD did not change (.build/dependency-check).
dependency-check: deps
	scripts/readme-snippet-check.sh --by-version

# The demo journal's `replay report` in headless Chromium (scripts/report-check.sh): no console
# or script error, the demo's lanes and switch windows in the DOM, a deep link, a non-blank
# screenshot; then with `--received` and a misbehaving backend's receipt log: a receipt mark per
# verdict, no script error, a deep link naming the misrouted call's verdict.
# Then a device folder written by two processes at once: its page, a lane per process.
# REPORT_CHECK_SHOT=docs/report.png and REPORT_CHECK_DEVICE_SHOT=docs/device.png refresh the
# README's screenshots.
report-check: deps
	$(SWIFT) build --product replay
	$(SWIFT) build --product crash-child
	REPLAY=$$($(SWIFT) build --show-bin-path)/replay CRASH_CHILD=$$($(SWIFT) build --show-bin-path)/crash-child scripts/report-check.sh

# `replay serve` in headless Chromium driven over the DevTools protocol (scripts/serve-check.py,
# stdlib Python): the demo's page, the journal picker, a click on a call whose state the static
# report leaves out, its state in the DOM equal to `replay state --at`, stepping by keyboard
# (fact, call, switch), the scrubber, search over every fact, a deep link, no script error, and
# paths outside the served endpoints refused; then `--received`: the receipt marks, a click on
# the misrouted receipt and a deep link to the lost call naming their verdicts. About 15 s here.
serve-check: deps
	$(SWIFT) build --product replay
	REPLAY=$$($(SWIFT) build --show-bin-path)/replay scripts/serve-check.sh

# The suites where threads meet (the engine's mailbox, switches under load, group commit, the
# keyring, the transport, the sandbox server, replay's journals read side by side and `serve`'s
# server; its long-journal sample, 90 s under TSan, stays out) under ThreadSanitizer, in their
# own scratch directory, one test at a time (as unit-tests, and under TSan parallel runs took
# 69 s against 47 s and starved held requests into timeouts). Any report fails the run (TSan's
# exit code).
TSAN_SUITES ?= DiagnosticsExportTests|PrivacyTests|SwitchStressTests|SwitchContractTests|SwitchBasicsTests|OverloadTests|DeliveryTests|PublicCallTests|KeyringTests|WriterTests|RotationOnRequestTests|RotationWaitTests|RotationDuringBurstTests|RecordBundleTests|TransportTests|HTTPProtocolTests|ShutdownTests|CallbackQueueTests|TokenScopeTests|SwitchStatusTests|JournalOutageTests|LateWorkTests|ReadAheadTests|FleetExportTests|RedactionTests|OfflineDeliveryTests|UserScopedDeliveryTests|NothingVanishesTests|LateResultsTests|BoundsTests|SettleTimeoutTests|CallFormsTests|ManyJournalsTests|ServeTests/(everyDemoSequence|refusals|pages|search|auditRowsAndSteps|folder|holdsUnderSiege|overloadIs503|singleFlight)
TSAN_SCRATCH ?= .build/tsan
tsan: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path $(TSAN_SCRATCH)
	TSAN_OPTIONS=halt_on_error=1 OVERLOAD_CALLS=30000 $(SWIFT) test --skip-build --no-parallel --sanitize=thread --scratch-path $(TSAN_SCRATCH) --filter "$(TSAN_SUITES)"

# The long reliability runs (docs/RELIABILITY.md): the SDK killed with SIGKILL 100 times
# mid-story, the journal writer 100 times, and a burst of a million calls during a held switch.
reliability: deps
	$(SWIFT) build --build-tests
	SDK_CRASH_ITERATIONS=100 JOURNAL_CRASH_ITERATIONS=100 OVERLOAD_CALLS=1000000 \
		$(SWIFT) test --skip-build --filter "SDKCrashTests|CrashLoopTests|OverloadTests"

# The demo story (README): its journal and its HTML report in DEMO_DIR.
DEMO_DIR ?= /tmp/replay-demo

# Fleet SQL (docs/EXPORT.md): FLEET_JOURNALS simulated journals (`replay simulate --keep
# --receipt-logs`, each with its backend's receipt log), exported as NDJSON, converted to Parquet
# and queried on DuckDB (installed with pip when missing); every query's answer must equal the
# sum of `replay audit --json` / `diagnose --json` over the journals, and the reconciliation's
# (fleet/reconcile/, docs/RECONCILE.md) must give every call the verdict `replay reconcile
# --json` gives it, over the receipt logs changed so that every verdict occurs. Exit 1 on any
# difference. About 20 seconds here (19.6 s, 34 s of CPU, at load 5; docs/BENCHMARKS.md, "Fleet
# SQL").
FLEET_JOURNALS ?= 1040
FLEET_JOBS ?= 4
fleet-check: deps
	scripts/install-fleet-deps.sh duckdb
	$(SWIFT) build --product replay
	python3 fleet/check.py --replay .build/debug/replay --journals $(FLEET_JOURNALS) --jobs $(FLEET_JOBS) .build/fleet-check

# The same cross-check on Spark SQL (pyspark from pip, a local session), over
# FLEET_SPARK_JOURNALS journals with a release replay: the figures in docs/BENCHMARKS.md.
FLEET_SPARK_JOURNALS ?= 10000
fleet-spark: deps
	scripts/install-fleet-deps.sh spark
	$(SWIFT) build -c release --product replay
	python3 fleet/check.py --replay .build/release/replay --journals $(FLEET_SPARK_JOURNALS) --jobs $(FLEET_JOBS) --engine spark .build/fleet-spark

demo: deps
	$(SWIFT) build --product replay
	@rm -rf $(DEMO_DIR)/journal
	@$$($(SWIFT) build --show-bin-path)/replay demo --out $(DEMO_DIR)/journal
	@$$($(SWIFT) build --show-bin-path)/replay report -o $(DEMO_DIR)/report.html $(DEMO_DIR)/journal

bench: deps
	$(SWIFT) build -c release --product bench
	for suite in journal blocks sdk offline; do .build/release/bench $$suite || exit 1; done

# replay at fleet scale (issue 15, item 3; docs/BENCHMARKS.md): an SDK journal of
# BENCH_REPLAY_RECORDS records, replay's commands over it as release child processes, and
# DuckDB over its NDJSON export (installed with pip when missing).
BENCH_REPLAY_RECORDS ?= 1000000
bench-replay: deps
	scripts/install-fleet-deps.sh duckdb
	$(SWIFT) build -c release --product replay
	$(SWIFT) build -c release --product bench
	.build/release/bench replay --records $(BENCH_REPLAY_RECORDS) --replay .build/release/replay

# Deterministic simulation (docs/RELIABILITY.md): SIMULATE_SEEDS stories of SIMULATE_STEPS steps
# from seed SIMULATE_FROM, in release mode. The default fits in about 10 minutes on one core of
# this machine (about 1,000 ten-step stories per second). Exit 1 on any failure, with its seed
# and the smallest story it shrinks to; `replay simulate --seed S` replays one.
SIMULATE_SEEDS ?= 600000
SIMULATE_STEPS ?= 10
SIMULATE_FROM ?= 1
SIMULATE_JOBS ?= 1
simulate: deps
	$(SWIFT) build -c release --product replay
	.build/release/replay simulate --seeds $(SIMULATE_SEEDS) --steps $(SIMULATE_STEPS) --from-seed $(SIMULATE_FROM) --jobs $(SIMULATE_JOBS)

# Fuzzing (docs/FUZZING.md): the libFuzzer targets, built with AddressSanitizer in their own
# scratch directory, each run for FUZZ_SECONDS on a temporary copy of its committed corpus.
FUZZ_TARGETS ?= journal facts replay receipts
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 5
FUZZ_SCRATCH ?= .build/fuzz
# `--sanitize fuzzer` makes SwiftPM build the executables for libFuzzer's main. The sanitizers
# themselves come as one -sanitize=fuzzer,address: swiftc keeps only the last -sanitize flag, and
# SwiftPM's `--sanitize fuzzer --sanitize address` passes two, in no fixed order. The toolchain's
# lld links the sanitizer runtimes without ld.gold's spurious warning; dead stripping would let
# it drop the coverage counters libFuzzer is guided by.
FUZZ_BUILD_FLAGS = -c release --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld \
	--disable-dead-strip --scratch-path $(FUZZ_SCRATCH)

fuzz-build: deps
	for target in $(FUZZ_TARGETS); do \
		$(SWIFT) build $(FUZZ_BUILD_FLAGS) --product fuzz-$$target || exit 1; \
	done

fuzz: fuzz-build
	scripts/fuzz.sh $(FUZZ_SCRATCH)/release $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# A few seconds per target, for CI: the build, the harnesses and the seeds still work.
fuzz-smoke: fuzz-build
	scripts/fuzz.sh $(FUZZ_SCRATCH)/release $(FUZZ_SMOKE_SECONDS) $(FUZZ_TARGETS)

# Rewrites Fuzz/Corpus and the dictionaries from the code (commit the result).
fuzz-corpus: deps
	$(SWIFT) run fuzz-corpus Fuzz

clean:
	rm -rf .build
