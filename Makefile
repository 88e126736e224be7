# qrcheckin: `make run` starts the daemon on embedded defaults; `make test` runs every test.
SWIFT ?= swift
BIN_DEBUG := .build/debug/qrcheckin
BIN_RELEASE := .build/release/qrcheckin

.PHONY: all deps test-deps build release run test unit-test e2e-test bench clean

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
	$(BIN_RELEASE) encode "HTTPS://CHECKIN.EXAMPLE.ORG/C/DEMO"

test: test-deps build
	$(SWIFT) test
	QRCHECKIN_BIN=$(CURDIR)/$(BIN_DEBUG) python3 -m pytest -q Tests/e2e

unit-test: build
	$(SWIFT) test

e2e-test: test-deps build
	QRCHECKIN_BIN=$(CURDIR)/$(BIN_DEBUG) python3 -m pytest -q Tests/e2e

clean:
	rm -rf .build
