# The two commands the README gives: `make test` (everything CI runs) and `make demo`.
SWIFT ?= swift

.PHONY: all deps build test demo bench clean

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

clean:
	rm -rf .build
