# orgdir: the two Quick start commands (make demo, make test) install what is missing themselves.
SHELL := /bin/bash
SWIFT ?= swift
BUILD_FLAGS ?=
# Debian packages: cmark-gfm for the site, pkg-config to find it, mimalloc (orgdir's allocator), libcurl's
# development link (a release orgdir links Foundation statically, whose networking names -lcurl; see Package.swift),
# chromium for the browser tests.
BUILD_PACKAGES := pkg-config libcmark-gfm-dev libcmark-gfm-extensions-dev libmimalloc-dev libcurl4-openssl-dev
TEST_PACKAGES := $(BUILD_PACKAGES) chromium python3 fonts-dejavu-core e2fsprogs

.PHONY: demo test build release lint format bench deps-build deps-test clean

## make demo: install what is missing, build, run the whole pipeline on the built-in demo tenant.
demo: deps-build
	$(SWIFT) build $(BUILD_FLAGS) --product orgdir
	$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/orgdir build --demo

## make test: install what is missing, build everything, run every test suite, lint the sources.
## One test at a time: the end-to-end tests serve their Graph sandbox from the test process's own cooperative
## thread pool (two threads on two cores), and CPU-heavy site tests running beside them starved it until the
## orgdir under test timed out signing in.
test: deps-test
	$(SWIFT) build $(BUILD_FLAGS) --build-tests
	$(SWIFT) test $(BUILD_FLAGS) --skip-build --no-parallel
	-$(SWIFT) format lint --recursive Sources Tests

build: deps-build
	$(SWIFT) build $(BUILD_FLAGS)

release: deps-build
	$(SWIFT) build -c release $(BUILD_FLAGS)

lint:
	$(SWIFT) format lint --recursive --strict Sources Tests

format:
	$(SWIFT) format --in-place --recursive Sources Tests

bench: deps-build
	Benchmarks/run.sh

deps-build:
	@Scripts/install-packages.sh $(BUILD_PACKAGES)

deps-test:
	@Scripts/install-packages.sh $(TEST_PACKAGES)

clean:
	rm -rf .build Output/* .Output.spare .Output.replaced State
