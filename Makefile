# qrcheckin: `make run` starts the daemon on embedded defaults; `make test` runs every test.
SWIFT ?= swift
BIN_DEBUG := .build/debug/qrcheckin
BIN_RELEASE := .build/release/qrcheckin

.PHONY: all deps test-deps build release run install test unit-test e2e-test bench clean

all: build

deps:
	@scripts/install-deps

test-deps:
	@scripts/install-deps --test

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

run: release
	QRCHECKIN_BIN=$(BIN_RELEASE) scripts/run

PREFIX ?= /usr/local
install: release
	install -D -m 0755 $(BIN_RELEASE) $(DESTDIR)$(PREFIX)/bin/qrcheckin
	install -D -m 0644 systemd/qrcheckin.service $(DESTDIR)/etc/systemd/system/qrcheckin.service
	install -D -m 0644 systemd/qrcheckin-kiosk.service $(DESTDIR)/etc/systemd/system/qrcheckin-kiosk.service
	test -e $(DESTDIR)/etc/qrcheckin/qrcheckin.conf || install -D -m 0644 docs/qrcheckin.conf $(DESTDIR)/etc/qrcheckin/qrcheckin.conf
	install -D -m 0644 README.md $(DESTDIR)$(PREFIX)/share/doc/qrcheckin/README.md
	install -m 0644 docs/*.md $(DESTDIR)$(PREFIX)/share/doc/qrcheckin/

test: test-deps build
	$(SWIFT) test
	QRCHECKIN_BIN=$(CURDIR)/$(BIN_DEBUG) python3 -m pytest -q Tests/e2e

unit-test: build
	$(SWIFT) test

e2e-test: test-deps build
	QRCHECKIN_BIN=$(CURDIR)/$(BIN_DEBUG) python3 -m pytest -q Tests/e2e

# Performance targets vs same-run references (a C reference daemon built from bench/ with cc,
# qrencode, cat); see docs/BENCHMARKS.md. BENCH_ARGS=--quick for a smoke run, --check to fail on a
# missed target, --json for machine-readable output.
BENCH_ARGS ?=
bench: release
	QRCHECKIN_BIN=$(CURDIR)/$(BIN_RELEASE) scripts/bench $(BENCH_ARGS)

clean:
	rm -rf .build
