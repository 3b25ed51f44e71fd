# The two commands of README.md: `make run` and `make test`.
SHELL := /bin/bash
PORT ?= 8080
export PORT

.PHONY: run test unit e2e bench build release deps generate format fuzz sanitize

run: deps release generate
	scripts/run

test:
	scripts/install-deps test
	swift build --build-tests
	swift test --skip-build
	python3 -m pytest -q Tests/EndToEnd

deps:
	scripts/install-deps run

release:
	swift build -c release --product checklists

generate:
	.build/release/checklists generate --public Public

bench:
	scripts/install-deps bench
	swift build -c release
	.build/release/checklists generate --public Public
	scripts/bench
	scripts/bench-polling
	scripts/bench-stores
	scripts/bench-postgres-floor
	scripts/bench-import
	.build/release/bench-scale
	.build/release/bench-web --interchange-only
	.build/release/bench-search
	.build/release/bench-transfer

format:
	swift format -i -r Sources Tests Benchmarks Package.swift

# Every fuzz target for FUZZ_SECONDS each (default 20); see README "Fuzzing and sanitizers".
fuzz:
	scripts/install-deps run
	scripts/fuzz $(FUZZ_SECONDS)

# The unit tests under AddressSanitizer, then ThreadSanitizer.
sanitize:
	scripts/install-deps run
	scripts/sanitize
