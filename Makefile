# Keyscope's everyday commands. `make` (or `make help`) lists them; none of them asks a question.
#
#   make run                 install what is missing, build, start the demo
#   make test                install what is missing, build, run every test
#   make run ARGS="--rate 5" pass arguments through to the demo (and to the benchmarks with `make bench`)
#   make test SWIFT=/opt/swift/usr/bin/swift   use another toolchain

SWIFT ?= swift
ARGS ?=

# Every recipe line runs in bash with -e and pipefail, so a failure anywhere in a pipe fails the target.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

# What `make format` and `make lint` look at: only the paths that exist (Tests/ and Benchmarks/ may be empty).
FORMAT_PATHS := $(wildcard Package.swift Sources Tests Benchmarks/Package.swift Benchmarks/Sources)
SWIFT_FORMAT_FLAGS := --configuration .swift-format --recursive --parallel

.PHONY: help deps build run test bench format lint clean

help: ## List the targets (this text)
	@echo "Keyscope: make TARGET [ARGS=\"...\"] [SWIFT=path/to/swift]"
	@echo
	@awk -F ':.*## ' '/^[a-z][a-z-]*:.*## / { printf "  %-8s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

deps: ## Install missing Debian packages (libwebsockets-dev, libjansson-dev, pkg-config); check for swift
	@bash scripts/install-deps.sh

build: deps ## Build the package (debug) with `swift build`
	$(SWIFT) build

run: deps build ## Build and start the demo: stores that change on their own, changes printed (ARGS passed on)
	$(SWIFT) run keyscope demo $(ARGS)

test: deps ## Build everything with tests, then run all tests once (fails when any test fails)
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: deps ## Run the benchmarks (release build of the Benchmarks/ package; ARGS passed on)
	$(SWIFT) run -c release --package-path Benchmarks keyscope-bench $(ARGS)

format: ## Reformat Sources, Tests, Benchmarks and Package.swift in place with swift-format (.swift-format)
	$(SWIFT) format format --in-place $(SWIFT_FORMAT_FLAGS) $(FORMAT_PATHS)

lint: ## Check formatting and style with swift-format --strict (fails on any finding)
	$(SWIFT) format lint --strict $(SWIFT_FORMAT_FLAGS) $(FORMAT_PATHS)

clean: ## Remove build folders: .build, .build-*/.build_* scratch folders, Benchmarks/.build
	rm -rf .build .build-* .build_* Benchmarks/.build Benchmarks/.build-* Benchmarks/.build_*
