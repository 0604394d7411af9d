# Phosphor: `make run` and `make test` are all a new checkout needs.
# deps     install the Debian packages that are missing (sudo only when not root)
# build    release build of the phosphor binary
# test     every test (unit, integration with real cores, end-to-end in tmux / a pseudo-terminal)
# run      open the game browser on the bundled demo cartridges
# bench    speed, bytes and memory tables (BENCHMARKS.md)
# roms     rebuild the test cartridges from their assembly sources
# soak     30-minute unthrottled run of every installed core (not in CI)

SHELL := /bin/bash
SWIFT ?= swift
BUILD_FLAGS ?= -c release
BIN := .build/release/phosphor

# Build and link dependencies (-dev packages), the cores, and what the tests drive.
DEPS_BUILD := libncurses-dev libasound2-dev retroarch-dev libretro-core-info libsamplerate0-dev \
	libsqlite3-dev libarchive-dev libpng-dev
DEPS_CORES := libretro-nestopia libretro-gambatte libretro-mgba libretro-bsnes-mercury-performance \
	libretro-desmume libretro-beetle-pce-fast
DEPS_TEST := tmux cc65 sdcc binutils-arm-none-eabi libchafa-dev libglib2.0-dev python3 zip p7zip-full \
	openssh-server openssh-client
# make bench: a venv for the peer (gambaterm, from PyPI).
DEPS_BENCH := python3-venv
DEPS := $(DEPS_BUILD) $(DEPS_CORES) $(DEPS_TEST) $(DEPS_BENCH)

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build test run bench roms soak clean

deps:
	@missing=$$(for p in $(DEPS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing:" $$missing; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build $(BUILD_FLAGS) --product phosphor

# Every test against the release binary, then the lock-free rings, the mailbox and the core thread
# again under ThreadSanitizer. (No --parallel: with it SwiftPM 6.3 ran no XCTest case at all here.)
test: deps
	$(SWIFT) build $(BUILD_FLAGS) --product phosphor
	PHOSPHOR_BINARY=$(CURDIR)/$(BIN) $(SWIFT) test
	$(SWIFT) test --sanitize=thread --scratch-path .build/tsan --filter 'PhosphorKitTests|CoreThreadTests'

run: build
	$(BIN)

bench: build
	Bench/run.sh $(BIN)

roms:
	$(MAKE) -C Roms

soak: build
	Bench/soak.sh $(BIN)

clean:
	rm -rf .build
