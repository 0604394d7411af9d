# Phosphor: `make run` and `make test` are all a new checkout needs.
# deps       install the Debian packages that are missing (sudo only when not root)
# build      release build of the phosphor binary
# test       every test (unit, integration with real cores, end-to-end in tmux / a pseudo-terminal)
#            against the debug build, long stress runs as a representative slice: under 5 minutes
# test-long  the same with the stress runs at full size (PHOSPHOR_LONG_TESTS=1), against the
#            release binary, then the rings, the mailbox and the core thread under ThreadSanitizer
# run        open the game browser on the bundled demo cartridges
# bench      speed, bytes and memory tables (BENCHMARKS.md)
# roms       rebuild the test cartridges from their assembly sources
# soak       30-minute unthrottled run of every installed core (not in CI)
# install    the binary, man page, bash and zsh completion and demo cartridges under PREFIX
#            (default /usr/local; DESTDIR for packaging; INSTALL_BIN=FILE installs that binary
#            instead of building the release one)

SHELL := /bin/bash
SWIFT ?= swift
BUILD_FLAGS ?= -c release --static-swift-stdlib
BIN := .build/release/phosphor
DEBUG_BIN := .build/debug/phosphor

# Build and link dependencies (-dev packages), the cores, and what the tests drive.
DEPS_BUILD := libncurses-dev libasound2-dev retroarch-dev libretro-core-info libsamplerate0-dev \
	libsqlite3-dev libarchive-dev libpng-dev zlib1g-dev libx11-dev libxi-dev libegl-dev libgles-dev \
	liblz4-dev libzstd-dev liblzma-dev
# OpenGL cores render offscreen through EGL; without a GPU, Mesa's llvmpipe (tests run on it).
DEPS_GL := libegl1 libegl-mesa0 libgl1-mesa-dri libgbm1
DEPS_CORES := libretro-nestopia libretro-gambatte libretro-mgba libretro-bsnes-mercury-performance \
	libretro-desmume libretro-beetle-pce-fast
DEPS_TEST := tmux cc65 sdcc binutils-arm-none-eabi libchafa-dev libglib2.0-dev python3 zip p7zip-full zsh \
	openssh-server openssh-client xvfb xterm xdotool kitty imagemagick screen x11-utils fonts-dejavu-core \
	mlterm foot cage xwayland grim
# make bench: a venv for the peer (gambaterm, from PyPI); libsixel for the pixel section's comparison;
# sqlite3 counts the library section's games.
DEPS_BENCH := python3-venv libsixel-dev sqlite3
DEPS := $(DEPS_BUILD) $(DEPS_GL) $(DEPS_CORES) $(DEPS_TEST) $(DEPS_BENCH)

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build test test-long test-reliability test-others run bench roms soak clean install

deps:
	@missing=$$(for p in $(DEPS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing:" $$missing; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build $(BUILD_FLAGS) --product phosphor

# One debug build serves both the test bundle and the binary the end-to-end tests drive (it plays
# the test cartridges at a full 60 fps; a separate release build would double the build time).
test: deps
	$(SWIFT) build --build-tests
	@rm -rf $(TEST_LOGS) && mkdir -p $(TEST_LOGS)
	PHOSPHOR_BINARY=$(CURDIR)/$(DEBUG_BIN) $(TEST_HALVES)
	@Tests/summary.sh $(TEST_LOGS)/*.log

# The full stress runs, against the binary users get, then the lock-free rings, the mailbox and the
# core thread under ThreadSanitizer (its own build of everything: too slow for `make test`).
test-long: deps
	$(SWIFT) build $(BUILD_FLAGS) --product phosphor
	$(SWIFT) build --build-tests
	@rm -rf $(TEST_LOGS) && mkdir -p $(TEST_LOGS)
	PHOSPHOR_LONG_TESTS=1 PHOSPHOR_BINARY=$(CURDIR)/$(BIN) $(TEST_HALVES)
	set -o pipefail; $(SWIFT) test --sanitize=thread --scratch-path .build/tsan \
		--filter 'PhosphorKitTests\.RingTests|EmulationTests\.(Scripted)?CoreThreadTests' 2>&1 | tee $(TEST_LOGS)/tsan.log
	@Tests/summary.sh $(TEST_LOGS)/*.log

# The two halves of test and test-long. Both spend most of their time waiting on games that play
# in real time, so they run side by side, each one's output printed whole when it is done. They
# only read the finished build: --ignore-lock keeps SwiftPM from running them one after the other.
# (Not `swift test --parallel`: that starts a process per test case and prints no per-test times.)
# Each half keeps its log in $(TEST_LOGS); Tests/summary.sh adds them up into one closing line.
TEST_LOGS := .build/test-logs
TEST_HALVES = $(MAKE) --no-print-directory -j2 --output-sync=target test-reliability test-others
test-reliability:
	set -o pipefail; $(SWIFT) test --skip-build --ignore-lock --filter '^ReliabilityTests\.' 2>&1 | tee $(TEST_LOGS)/reliability.log
test-others:
	set -o pipefail; $(SWIFT) test --skip-build --ignore-lock --skip '^ReliabilityTests\.' 2>&1 | tee $(TEST_LOGS)/others.log

run: build
	$(BIN)

bench: build
	Bench/run.sh $(BIN)

roms:
	$(MAKE) -C Roms

soak: build
	Bench/soak.sh $(BIN)

PREFIX ?= /usr/local
INSTALL_BIN ?=
DEMO_ROMS := nes/phosphor-test.nes gb/phosphor-test.gbc snes/phosphor-test.sfc gba/phosphor-test.gba \
	pce/phosphor-test.pce ds/phosphor-test.nds
install: $(if $(INSTALL_BIN),,build)
	install -Dm755 $(or $(INSTALL_BIN),$(BIN)) $(DESTDIR)$(PREFIX)/bin/phosphor
	install -Dm644 man/phosphor.1 $(DESTDIR)$(PREFIX)/share/man/man1/phosphor.1
	install -Dm644 completions/phosphor.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/phosphor
	install -Dm644 completions/_phosphor $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_phosphor
	for rom in $(DEMO_ROMS); do install -Dm644 Roms/$$rom $(DESTDIR)$(PREFIX)/share/phosphor/roms/$$rom || exit 1; done

clean:
	rm -rf .build
