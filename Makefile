# The two commands the README gives: `make test` (everything CI runs) and `make demo`.
SWIFT ?= swift

.PHONY: all deps build test demo bench simulate clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

# Installs what is missing, builds everything (tests included) and runs the whole suite.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

demo: deps
	$(SWIFT) run replay demo

bench: deps
	$(SWIFT) run -c release bench all

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

clean:
	rm -rf .build
