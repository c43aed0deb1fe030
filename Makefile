# Keyscope's everyday commands. `make` (or `make help`) lists them; none of them asks a question.
#
#   make run                 install what is missing, build, start the demo service with the inspector
#   make test                install what is missing, build, run every test (Swift, then end-to-end and browser)
#   make run ARGS="--rate 5" pass arguments through to `keyscope serve --demo` (and to `make bench`'s Swift part)
#   make bench-browser BROWSER_ARGS="--rates 50000"   pass arguments to Benchmarks/browser/dashboard_bench.py
#   make fuzz FUZZ_SECONDS=600 FUZZ_TARGETS=codec     fuzz one target for ten minutes
#   make test SWIFT=/opt/swift/usr/bin/swift   use another toolchain

SWIFT ?= swift
ARGS ?=
BROWSER_ARGS ?=
# Where every part of `make bench` writes its figures (<part>.json) and `make bench-report` reads them: git-ignored.
KEYSCOPE_BENCH_RESULTS ?= $(CURDIR)/.build-bench/results
export KEYSCOPE_BENCH_RESULTS
# `make fuzz`: how long each target runs, and which run (docs/hardening.md "Fuzzing").
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= keypath codec request recording
# `make leaks`: how many times the inspector is started and stopped (docs/hardening.md "Leak check").
LEAK_ROUNDS ?= 100

# Every recipe line runs in bash with -e and pipefail, so a failure anywhere in a pipe fails the target.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

# What `make format` and `make lint` look at: only the paths that exist (Tests/ and Benchmarks/ may be empty).
FORMAT_PATHS := $(wildcard Package.swift Sources Tests Benchmarks/Package.swift Benchmarks/Sources \
	Fuzz/Package.swift Fuzz/Sources Leaks/Package.swift Leaks/Sources Examples/shop-service/Package.swift \
	Examples/shop-service/Sources Examples/shop-service/Tests)
SWIFT_FORMAT_FLAGS := --configuration .swift-format --recursive --parallel

.PHONY: help deps build run test test-swift test-js test-e2e test-browser example conformance load bench bench-browser bench-tunables bench-recording bench-report fixtures fuzz leaks format lint clean

help: ## List the targets (this text)
	@echo "Keyscope: make TARGET [ARGS=\"...\"] [SWIFT=path/to/swift]"
	@echo
	@awk -F ':.*## ' '/^[a-z][a-z0-9-]*:.*## / { printf "  %-14s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

deps: ## Install missing Debian packages (libwebsockets-dev, libjansson-dev, pkg-config, python3-venv, chromium…)
	@bash scripts/install-deps.sh

build: deps ## Build the package (debug) with `swift build`
	$(SWIFT) build

run: deps build ## Build and start the demo service with the inspector; prints the dashboard URL (ARGS passed on)
	$(SWIFT) run keyscope serve --demo $(ARGS)

# Swift tests get a UserDefaults home of their own: corelibs Foundation reads XDG_CONFIG_HOME once at start, so the
# preference tests' suites never land in ~/.config.
test: deps ## Build everything, then run every test once: Swift, dashboard JS (Node), end-to-end and browser tests
	$(SWIFT) build --build-tests
	XDG_CONFIG_HOME="$$(mktemp -d)" $(SWIFT) test --skip-build
	node --test Tests/js/
	bash scripts/e2e-venv.sh
	KEYSCOPE_BIN="$$($(SWIFT) build --show-bin-path)/keyscope" .venv-e2e/bin/python -m pytest Tests/e2e -q

test-swift: deps ## Only the Swift tests
	$(SWIFT) build --build-tests
	XDG_CONFIG_HOME="$$(mktemp -d)" $(SWIFT) test --skip-build

test-e2e: deps ## Only the end-to-end tests (Tests/e2e: Python clients and headless Chromium against the server)
	$(SWIFT) build --product keyscope
	$(SWIFT) build --product KeyscopeConformanceEcho
	bash scripts/e2e-venv.sh
	KEYSCOPE_BIN="$$($(SWIFT) build --show-bin-path)/keyscope" .venv-e2e/bin/python -m pytest Tests/e2e -q

test-js: deps ## Only the dashboard's unit tests (Tests/js, node --test, no npm packages)
	node --test Tests/js/

test-browser: deps ## Only the browser tests (Tests/e2e/browser: headless Chromium on the dashboard)
	$(SWIFT) build --product keyscope
	bash scripts/e2e-venv.sh
	KEYSCOPE_BIN="$$($(SWIFT) build --show-bin-path)/keyscope" .venv-e2e/bin/python -m pytest Tests/e2e/browser -q

# The example is its own package (Hummingbird is its dependency, never the main build's): its tests run the real
# service in debug; then its built binary serves the inspector in debug, and in release opens no inspector port.
example: deps ## Build and test Examples/shop-service (a Hummingbird service embedding Keyscope); check its binaries
	$(SWIFT) build --package-path Examples/shop-service --build-tests
	$(SWIFT) test --package-path Examples/shop-service --skip-build
	python3 Examples/shop-service/scripts/check_binary.py debug \
		"$$($(SWIFT) build --package-path Examples/shop-service --show-bin-path)/shop-service"
	$(SWIFT) build --package-path Examples/shop-service -c release --product shop-service
	python3 Examples/shop-service/scripts/check_binary.py release \
		"$$($(SWIFT) build --package-path Examples/shop-service -c release --show-bin-path)/shop-service"

# autobahn.py starts the echo with its default --max-message of 20 MiB (the 9.* cases send up to 16 MiB); it is set
# there only, so a direct run of the script behaves like this target.
conformance: deps ## The Autobahn WebSocket suite (kosoku) against KeyscopeConformanceEcho; report in conformance-report/
	$(SWIFT) build --product KeyscopeConformanceEcho
	bash scripts/e2e-venv.sh
	KEYSCOPE_ECHO_BIN="$$($(SWIFT) build --show-bin-path)/KeyscopeConformanceEcho" \
		.venv-e2e/bin/python Tests/conformance/autobahn.py --report conformance-report

# The issues' full figures (about 10 minutes), against the release build as the figures are; LOAD_* variables make a
# quick run (Tests/load/README.md).
load: deps ## Load and fault tests (Tests/load, release build): soak, hostile clients, kill -9 loop, host survival
	$(SWIFT) build -c release --product keyscope
	$(SWIFT) build -c release --product KeyscopeHostProbe
	bash scripts/e2e-venv.sh
	KEYSCOPE_BIN="$$($(SWIFT) build -c release --show-bin-path)/keyscope" .venv-e2e/bin/python -m pytest Tests/load -q

bench: deps ## Run every benchmark (the Benchmarks/ package, ARGS passed on; browser, tunables, recording), then bench-report
	$(SWIFT) run -c release --package-path Benchmarks keyscope-bench $(ARGS)
	$(MAKE) --no-print-directory bench-browser
	$(MAKE) --no-print-directory bench-tunables
	$(MAKE) --no-print-directory bench-recording
	$(MAKE) --no-print-directory bench-report

bench-browser: deps ## Time the dashboard in headless Chromium against a release keyscope (BROWSER_ARGS passed on)
	$(SWIFT) build -c release --product keyscope
	bash scripts/e2e-venv.sh
	KEYSCOPE_BIN="$$($(SWIFT) build -c release --show-bin-path)/keyscope" \
		.venv-e2e/bin/python Benchmarks/browser/dashboard_bench.py $(BROWSER_ARGS)

bench-tunables: deps ## Time tunables against a release keyscope: PUT /tune round trips, tune watch save → server
	$(SWIFT) build -c release --product keyscope
	bash scripts/e2e-venv.sh
	KEYSCOPE_BIN="$$($(SWIFT) build -c release --show-bin-path)/keyscope" \
		.venv-e2e/bin/python Benchmarks/tunables/tune_bench.py

bench-recording: deps ## Replay of a 1M-event recording (CLI and dashboard time travel) and recording overhead on a busy demo
	$(SWIFT) build -c release --product keyscope
	bash scripts/e2e-venv.sh
	KEYSCOPE_BIN="$$($(SWIFT) build -c release --show-bin-path)/keyscope" \
		.venv-e2e/bin/python Benchmarks/recording/recording_bench.py
	KEYSCOPE_BIN="$$($(SWIFT) build -c release --show-bin-path)/keyscope" \
		.venv-e2e/bin/python Benchmarks/browser/replay_bench.py

bench-report: ## Print the one table of every figure beside its peer, from the last results (docs/performance.md)
	python3 Benchmarks/report.py

fixtures: deps ## Record fixtures/recordings/*.kslog again with the real demo and recorder (scripts/record_fixtures.py)
	$(SWIFT) build --product keyscope
	$(SWIFT) build --product KeyscopeFixtureMaker
	python3 scripts/record_fixtures.py --bin "$$($(SWIFT) build --show-bin-path)"

# The sanitizer builds live in their own packages and build folders, so they never touch .build. lld links them
# (gold warns about every ASan symbol); CJansson and CLibWebSockets link as they are (uninstrumented system libraries).
FUZZ_BUILD_FLAGS := -c release --package-path Fuzz --scratch-path .build-fuzz \
	-Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing -Xswiftc -use-ld=lld
LEAKS_BUILD_FLAGS := --package-path Leaks --scratch-path .build-leaks -Xswiftc -sanitize=address -Xswiftc -use-ld=lld

fuzz: deps ## Build the libFuzzer targets (Fuzz/), run each FUZZ_SECONDS (60) from fixtures/fuzz; fails on a crash
	$(SWIFT) build $(FUZZ_BUILD_FLAGS)
	bash scripts/fuzz.sh "$(FUZZ_SECONDS)" $(FUZZ_TARGETS)

leaks: deps ## Start and stop the inspector LEAK_ROUNDS (100) times with clients under LeakSanitizer; fails on any leak
	$(SWIFT) build $(LEAKS_BUILD_FLAGS)
	ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions="$(CURDIR)/Leaks/lsan.supp":print_suppressions=1 \
		SWIFT_BACKTRACE=enable=no "$$($(SWIFT) build $(LEAKS_BUILD_FLAGS) --show-bin-path)/keyscope-leaks" $(LEAK_ROUNDS)

format: ## Reformat Package.swift, Sources, Tests and the Benchmarks, Fuzz and Leaks packages in place (swift-format)
	$(SWIFT) format format --in-place $(SWIFT_FORMAT_FLAGS) $(FORMAT_PATHS)

lint: ## Check the same files as format (Fuzz and Leaks included) with swift-format --strict; fails on any finding
	$(SWIFT) format lint --strict $(SWIFT_FORMAT_FLAGS) $(FORMAT_PATHS)

clean: ## Remove build folders (.build, .build-*, Benchmarks/.build, the example's), .venv-e2e, conformance-report/
	rm -rf .build .build-* .build_* Benchmarks/.build Benchmarks/.build-* Benchmarks/.build_* .venv-e2e conformance-report \
		Examples/shop-service/.build
