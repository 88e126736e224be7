# qrcheckin: `make run` starts the daemon on embedded defaults; `make test` runs every test.
SWIFT ?= swift
BIN_DEBUG := .build/debug/qrcheckin
BIN_RELEASE := .build/release/qrcheckin
BIN_SERVER_RELEASE := .build/release/qrcheckin-server

.PHONY: all deps test-deps build release run install uninstall deb test unit-test e2e-test stress golden bench startup-order clean

all: build

deps:
	@scripts/install-deps

test-deps:
	@scripts/install-deps --test

build: deps
	$(SWIFT) build

# Self-contained: the Swift runtime linked in (no RUNPATH into the toolchain), full RELRO.
# libstdc++, the runtime's one C++ dependency, is linked in too: the linker finds its static
# archive first in a directory that holds nothing else. Measured (docs/BENCHMARKS.md): about
# 1.5 MB less resident memory and a fifth less start-up time than loading libstdc++.so.
# Start-up (docs/BENCHMARKS.md, "Start-up"), with ASLR (PIE) and full RELRO kept: LLD (the
# toolchain's) instead of gold packs the 20,877 relative relocations into DT_RELR (glibc 2.36);
# GNU ld would too, but writes no RELRO segment here, as swiftc emits writable .rodata sections.
# libgcc's unwinder is linked in (one shared library fewer to map and bind), and a version script
# keeps the executable's 2,100 Swift symbols out of its dynamic symbol table, which the
# runtime's dladdr() at start-up walks one by one. Concrete generic types' metadata is made by
# direct calls that pass the conformances the compiler knows, not by demangling a name at run
# time, which also looked Hashable up by scanning every conformance record (a fifth of `status`).
# The functions the short commands run come first in .text (packaging/startup.order, written by
# `make startup-order`): a millisecond command then touches fewer 64 KB windows of code, each a
# page fault (`--version` 27 -> 16, `status --json` 38 -> 27; docs/BENCHMARKS.md). A name LLD
# no longer finds is skipped, so a stale list costs faults, never a build; a changed list relinks.
# The checks after the build refuse a binary without PIE, BIND_NOW or a RELRO segment.
# C targets' debug information is DWARF 4: Debian 12's valgrind (make bench's instruction counts)
# gives up on the DWARF 5 clang writes by default.
STATIC_CXX_DIR := $(CURDIR)/.build/static-cxx
EXPORTS_MAP := $(CURDIR)/.build/exports.map
STARTUP_ORDER := $(CURDIR)/packaging/startup.order
RELEASE_FLAGS := -c release --static-swift-stdlib --disable-local-rpath -Xlinker -z -Xlinker now -Xlinker -L$(STATIC_CXX_DIR) \
	-Xswiftc -use-ld=lld -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker pack-relative-relocs -Xswiftc -Xclang-linker -Xswiftc -static-libgcc \
	-Xlinker --version-script=$(EXPORTS_MAP) -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors -Xcc -gdwarf-4 \
	-Xlinker --symbol-ordering-file=$(STARTUP_ORDER) -Xlinker --no-warn-symbol-ordering
release: deps
	@# Without the archive (no libstdc++-dev) the directory stays empty and libstdc++.so is linked.
	@mkdir -p $(STATIC_CXX_DIR) && archive=$$(gcc -print-file-name=libstdc++.a 2>/dev/null) && \
		if [ -f "$$archive" ]; then ln -sf "$$archive" $(STATIC_CXX_DIR)/libstdc++.a; else rm -f $(STATIC_CXX_DIR)/libstdc++.a; fi
	@printf '{\n  local: *;\n};\n' > $(EXPORTS_MAP)
	@# SwiftPM relinks when objects change, not when the order does.
	@for binary in $(BIN_RELEASE) $(BIN_SERVER_RELEASE); do [ ! $(STARTUP_ORDER) -nt $$binary ] || rm -f $$binary; done
	$(SWIFT) build $(RELEASE_FLAGS)
	@# SwiftPM does not relink when only link flags change: relink a binary left by another build.
	@if readelf -d $(BIN_RELEASE) $(BIN_SERVER_RELEASE) | grep -q 'libswiftCore\|libstdc++\|libgcc_s\|RUNPATH' || \
		! readelf -d $(BIN_RELEASE) | grep -q RELR || ! readelf -d $(BIN_SERVER_RELEASE) | grep -q RELR; then \
		rm -f $(BIN_RELEASE) $(BIN_SERVER_RELEASE) && $(SWIFT) build $(RELEASE_FLAGS); fi
	@for binary in $(BIN_RELEASE) $(BIN_SERVER_RELEASE); do \
		readelf -lW $$binary | grep -q GNU_RELRO && readelf -d $$binary | grep -q 'FLAGS_1.*NOW.*PIE' || \
			{ echo "make: $$binary lacks RELRO, BIND_NOW or PIE" >&2; exit 1; }; done
	@# The kiosk binary never links Swift's Glibc overlay object (each module that imports Glibc
	@# has a GlibcOverlay.swift shadowing it): linked, it binds 56 libm functions at every start.
	@! nm $(BIN_RELEASE) | grep -q '$$s5Glibc' || { echo "make: $(BIN_RELEASE) links Swift's Glibc overlay (a module importing Glibc lacks GlibcOverlay.swift)" >&2; exit 1; }
	@# Each binary holds its own half's libraries only (Package.swift): the kiosk neither links
	@# nor loads the server's HTTP, database and TOTP libraries, the server never libpng (the
	@# stubs carry the soname they would load). libqrencode is shared since the server draws
	@# TOTP enrolments with the kiosk's QR code (SharedQR, issue 41): the server may load it on
	@# that first drawing, never link it (so `serve` never maps it).
	@! { readelf -d $(BIN_RELEASE); strings $(BIN_RELEASE); } | grep -q 'libmicrohttpd\.so\|libsqlite3\.so\|libpq\.so\|liboath\.so' || \
		{ echo "make: $(BIN_RELEASE) links or loads a server library (libmicrohttpd, SQLite, libpq or liboath)" >&2; exit 1; }
	@! { readelf -d $(BIN_SERVER_RELEASE); strings $(BIN_SERVER_RELEASE); } | grep -q 'libpng[0-9]*\.so' || \
		{ echo "make: $(BIN_SERVER_RELEASE) links or loads libpng (the kiosk's)" >&2; exit 1; }
	@! readelf -d $(BIN_SERVER_RELEASE) | grep -q 'libqrencode\.so' || \
		{ echo "make: $(BIN_SERVER_RELEASE) links libqrencode (it may only load it when it draws a QR code)" >&2; exit 1; }
	@# libcurl (qrcheckin report's HTTP) is loaded on first use, never linked: the daemon (run), which
	@# never reports, never maps it or OpenSSL (Tests/e2e/test_report.py reads /proc/PID/maps).
	@! readelf -d $(BIN_RELEASE) | grep -q 'libcurl\|libssl\|libcrypto' || \
		{ echo "make: $(BIN_RELEASE) links libcurl or OpenSSL: they are loaded by qrcheckin report alone" >&2; exit 1; }
	@strings $(BIN_RELEASE) | grep -qx 'libcurl\.so\.4' || \
		{ echo "make: $(BIN_RELEASE) has no libcurl stubs (CCurl): qrcheckin report could not load it" >&2; exit 1; }

run: release
	QRCHECKIN_BIN=$(BIN_RELEASE) scripts/run

# `sudo make install` installs the release binary built beforehand as a user (`make release`):
# it never runs the Swift compiler, so root needs no toolchain on its PATH.
PREFIX ?= /usr/local
UNITDIR ?= /etc/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
DOCDIR ?= $(PREFIX)/share/doc/qrcheckin
MANDIR ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
NGINXSITE ?= /etc/nginx/sites-available/qrcheckin
UNITS := $(notdir $(wildcard systemd/*.service))
DOCS := README.md $(wildcard docs/*.md)
define need_release
	@test -x $(BIN_RELEASE) || { echo "make: $(BIN_RELEASE) missing: build it first with 'make release' (as your user, not root)" >&2; exit 1; }
endef

install:
	$(need_release)
	install -D -m 0755 $(BIN_RELEASE) $(DESTDIR)$(PREFIX)/bin/qrcheckin
	install -d -m 0755 $(DESTDIR)$(UNITDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPLETIONDIR) $(DESTDIR)$(DOCDIR)
	for unit in $(UNITS); do \
		sed 's#/usr/bin/qrcheckin#$(PREFIX)/bin/qrcheckin#g; s#/usr/share/doc/qrcheckin#$(DOCDIR)#g' systemd/$$unit > $(DESTDIR)$(UNITDIR)/$$unit; \
		chmod 0644 $(DESTDIR)$(UNITDIR)/$$unit; done
	install -D -m 0644 packaging/sysusers.conf $(DESTDIR)$(SYSUSERSDIR)/qrcheckin.conf
	packaging/gen-docs $(BIN_RELEASE) --man $(DESTDIR)$(MANDIR)/man1/qrcheckin.1 --completion $(DESTDIR)$(COMPLETIONDIR)/qrcheckin
	chmod 0644 $(DESTDIR)$(MANDIR)/man1/qrcheckin.1 $(DESTDIR)$(COMPLETIONDIR)/qrcheckin
	install -m 0644 $(DOCS) $(DESTDIR)$(DOCDIR)/
	@# The web page and what its nginx site serves, when the tree has them (see README). Replaced
	@# whole (a second install must not nest copies); the nginx files name PREFIX's paths. The site
	@# itself (its CHANGE: lines are yours) is installed once, like the config.
	if [ -d web ]; then rm -rf $(DESTDIR)$(PREFIX)/share/qrcheckin/web $(DESTDIR)$(PREFIX)/share/qrcheckin/nginx && \
		install -d -m 0755 $(DESTDIR)$(PREFIX)/share/qrcheckin/web $(DESTDIR)$(PREFIX)/share/qrcheckin/nginx && \
		install -m 0644 web/*.html web/*.css web/*.js $(DESTDIR)$(PREFIX)/share/qrcheckin/web/ && \
		sed 's#/usr/share/qrcheckin#$(PREFIX)/share/qrcheckin#g' web/nginx/qrcheckin-locations.conf \
			> $(DESTDIR)$(PREFIX)/share/qrcheckin/nginx/qrcheckin-locations.conf && \
		if [ ! -e $(DESTDIR)$(NGINXSITE) ]; then install -d -m 0755 $(dir $(DESTDIR)$(NGINXSITE)) && \
			sed 's#/usr/share/qrcheckin#$(PREFIX)/share/qrcheckin#g' web/nginx/qrcheckin.conf > $(DESTDIR)$(NGINXSITE); fi; fi
	test -e $(DESTDIR)/etc/qrcheckin/qrcheckin.conf || install -D -m 0644 docs/qrcheckin.conf $(DESTDIR)/etc/qrcheckin/qrcheckin.conf
	@# The live system gets what the package's postinst does: the group and a secret for LoadCredential=.
	@set -e; if [ -z "$(DESTDIR)" ]; then \
		getent group qrcheckin >/dev/null || systemd-sysusers $(SYSUSERSDIR)/qrcheckin.conf 2>/dev/null \
			|| /usr/sbin/groupadd --system qrcheckin; \
		test -e /etc/qrcheckin/secret || $(PREFIX)/bin/qrcheckin keygen -o /etc/qrcheckin/secret; \
		test -d /etc/qrcheckin/secrets || install -d -m 0700 /etc/qrcheckin/secrets; \
		test -e /etc/qrcheckin/report-key || (umask 077 && QRCHECKIN_CONFIG=/etc/qrcheckin/qrcheckin.conf \
			$(PREFIX)/bin/qrcheckin keygen --report --from /etc/qrcheckin/secret -o /etc/qrcheckin/report-key >/dev/null) \
			|| echo "make: could not make /etc/qrcheckin/report-key (qrcheckin-report needs it)" >&2; \
		test -d /etc/qrcheckin/report-keys || install -d -m 0700 /etc/qrcheckin/report-keys; \
		if [ -d /run/systemd/system ]; then systemctl daemon-reload; fi; \
		echo "installed; start with: systemctl enable --now qrcheckin"; \
	fi

# Removes what install put there. Kept: /etc/qrcheckin (your config and secret), the group
# qrcheckin and the daemon's state; delete them by hand for a clean slate.
uninstall:
	-@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then systemctl disable --now qrcheckin-report qrcheckin-kiosk qrcheckin; \
		systemctl stop 'qrcheckin-report@*' 'qrcheckin-kiosk@*' 'qrcheckin@*'; fi
	rm -f $(DESTDIR)$(PREFIX)/bin/qrcheckin $(addprefix $(DESTDIR)$(UNITDIR)/,$(UNITS))
	rm -f $(DESTDIR)$(SYSUSERSDIR)/qrcheckin.conf $(DESTDIR)$(MANDIR)/man1/qrcheckin.1 $(DESTDIR)$(COMPLETIONDIR)/qrcheckin
	rm -f $(addprefix $(DESTDIR)$(DOCDIR)/,$(notdir $(DOCS)))
	-rmdir $(DESTDIR)$(DOCDIR) $(DESTDIR)$(SYSUSERSDIR) 2>/dev/null
	rm -rf $(DESTDIR)$(PREFIX)/share/qrcheckin
	@# The config only when it is still the shipped example (an edited one is yours).
	if cmp -s docs/qrcheckin.conf $(DESTDIR)/etc/qrcheckin/qrcheckin.conf; then rm -f $(DESTDIR)/etc/qrcheckin/qrcheckin.conf; fi
	@# An enabled site would include what is gone: nginx would refuse to start.
	if [ "$$(readlink -f $(DESTDIR)/etc/nginx/sites-enabled/qrcheckin)" = "$$(readlink -f $(DESTDIR)$(NGINXSITE))" ]; then \
		rm -f $(DESTDIR)/etc/nginx/sites-enabled/qrcheckin; fi
	if [ -d web ] && sed 's#/usr/share/qrcheckin#$(PREFIX)/share/qrcheckin#g' web/nginx/qrcheckin.conf | cmp -s - $(DESTDIR)$(NGINXSITE); then \
		rm -f $(DESTDIR)$(NGINXSITE); rmdir -p $(dir $(DESTDIR)$(NGINXSITE)) 2>/dev/null || true; fi
	@if [ -e $(DESTDIR)/etc/qrcheckin ]; then echo "kept $(DESTDIR)/etc/qrcheckin (the secret your check-in server shares, an edited config) and the group qrcheckin; remove them by hand"; fi

# qrcheckin_VERSION_ARCH.deb and qrcheckin-server_VERSION_ARCH.deb in build/ (see
# packaging/build-deb and build-server-deb): kiosks install the first, which links no HTTP or
# database library; the check-in server the second. lintian build/*.deb checks them.
DEB_DIR ?= build
deb: release
	packaging/build-deb $(BIN_RELEASE) $(DEB_DIR)
	packaging/build-server-deb $(BIN_SERVER_RELEASE) $(DEB_DIR)

# The e2e tests run on E2E_WORKERS pytest-xdist workers (most of their time is spent waiting for
# what a daemon does, not computing); the files that share a container, a browser or a database
# run on one worker (Tests/e2e/conftest.py, SERIAL_GROUPS). E2E_WORKERS=0: one process.
E2E_WORKERS ?= 4
export E2E_WORKERS
E2E_PYTEST = env QRCHECKIN_BIN=$(CURDIR)/$(BIN_DEBUG) QRCHECKIN_DEB_DIR=$(CURDIR)/$(DEB_DIR) python3 -m pytest -q \
	$(if $(filter-out 0,$(E2E_WORKERS)),-n $(E2E_WORKERS) --dist loadgroup) Tests/e2e

# The release build happens once: the .deb the package tests install is made from it. To take
# about half the time of one step after another, it runs (then `swift test`) beside the e2e
# tests, which mostly wait for daemons: the e2e tests that need the release build run last and
# wait for RELEASE_STATUS (Tests/e2e/daemonutil.py, release_built). The unit tests, which have
# minutes of slack, run at nice 10 (the e2e tests do not: on a busy machine their daemons must
# keep their share). The release build's and the unit tests' output is shown after the e2e
# tests' (in .build/*.log meanwhile).
RELEASE_STATUS := $(CURDIR)/.build/release-build.status
RELEASE_LOG := $(CURDIR)/.build/release-build.log
UNIT_LOG := $(CURDIR)/.build/unit-test.log
test: test-deps build
	@rm -f $(RELEASE_STATUS); \
	{ $(MAKE) -s deb > $(RELEASE_LOG) 2>&1; echo $$? > $(RELEASE_STATUS); \
	  if [ "$$(cat $(RELEASE_STATUS))" = 0 ]; then nice -n 10 $(SWIFT) test > $(UNIT_LOG) 2>&1; else echo "not run: make deb failed" > $(UNIT_LOG); false; fi; } & \
	background=$$!; \
	QRCHECKIN_RELEASE_STATUS=$(RELEASE_STATUS) QRCHECKIN_RELEASE_LOG=$(RELEASE_LOG) $(E2E_PYTEST); e2e=$$?; \
	wait $$background; unit=$$?; \
	echo "--- make deb ($(RELEASE_LOG)), exit $$(cat $(RELEASE_STATUS) 2>/dev/null)"; cat $(RELEASE_LOG); \
	echo "--- swift test ($(UNIT_LOG))"; cat $(UNIT_LOG); \
	if [ $$e2e -ne 0 ] || [ $$unit -ne 0 ]; then echo "make: test failed (e2e exit $$e2e, make deb + swift test exit $$unit)" >&2; exit 1; fi

unit-test: build
	$(SWIFT) test

e2e-test: test-deps build deb
	$(E2E_PYTEST)

# The whole suite several times in a row (scripts/stress-test): STRESS_ARGS="--runs 10", "--hog"
# (every core busy), "-- Tests/e2e/test_show.py" (a pytest selection), "--swift" (swift test),
# "--server" (the server's e2e modules, Tests/e2e/test_server_*.py).
STRESS_ARGS ?= --runs 3
stress: test-deps build deb
	QRCHECKIN_BIN=$(CURDIR)/$(BIN_DEBUG) QRCHECKIN_DEB_DIR=$(CURDIR)/$(DEB_DIR) scripts/stress-test $(STRESS_ARGS)

# Rewrites packaging/startup.order from the release binary's short commands (needs valgrind).
startup-order: release
	QRCHECKIN_BIN=$(CURDIR)/$(BIN_RELEASE) scripts/startup-order
	$(MAKE) release

# Regenerates the golden files from the build: Tests/e2e/golden/help/*.txt (the --help texts the
# tests compare) and the renderers' Tests/*/*/golden/ (text and PNG bytes, compared whole).
golden: build
	QRCHECKIN_BIN=$(CURDIR)/$(BIN_DEBUG) SWIFT=$(SWIFT) scripts/golden

# Performance targets vs same-run floors and references (bench/floor.c built with cc, qrencode,
# cat), the verifier included; then the many-venues figures. See docs/BENCHMARKS.md.
# BENCH_ARGS=--quick for a smoke run, --check to fail on a missed target, --json for
# machine-readable output.
BENCH_ARGS ?=
bench: release
	QRCHECKIN_BIN=$(CURDIR)/$(BIN_RELEASE) scripts/bench $(BENCH_ARGS)
	QRCHECKIN_BIN=$(CURDIR)/$(BIN_RELEASE) scripts/bench-venues $(filter --quick --json,$(BENCH_ARGS))
	QRCHECKIN_BIN=$(CURDIR)/$(BIN_RELEASE) QRCHECKIN_SERVER_BIN=$(CURDIR)/$(BIN_SERVER_RELEASE) scripts/bench-server $(BENCH_ARGS)
	QRCHECKIN_SERVER_BIN=$(CURDIR)/$(BIN_SERVER_RELEASE) scripts/bench-visitorlog $(BENCH_ARGS)
	QRCHECKIN_BIN=$(CURDIR)/$(BIN_RELEASE) QRCHECKIN_SERVER_BIN=$(CURDIR)/$(BIN_SERVER_RELEASE) scripts/bench-presence $(filter --quick --json,$(BENCH_ARGS))
	QRCHECKIN_SERVER_BIN=$(CURDIR)/$(BIN_SERVER_RELEASE) scripts/bench-console $(filter --quick --json --check,$(BENCH_ARGS))
	QRCHECKIN_SERVER_BIN=$(CURDIR)/$(BIN_SERVER_RELEASE) scripts/bench-dashboard $(filter --quick --json --check,$(BENCH_ARGS))
	QRCHECKIN_BIN=$(CURDIR)/$(BIN_RELEASE) QRCHECKIN_SERVER_BIN=$(CURDIR)/$(BIN_SERVER_RELEASE) scripts/bench-webhooks $(filter --quick --json --check,$(BENCH_ARGS))
	QRCHECKIN_BIN=$(CURDIR)/$(BIN_RELEASE) QRCHECKIN_SERVER_BIN=$(CURDIR)/$(BIN_SERVER_RELEASE) scripts/bench-servers $(filter --quick --json,$(BENCH_ARGS))
	QRCHECKIN_BIN=$(CURDIR)/$(BIN_RELEASE) QRCHECKIN_SERVER_BIN=$(CURDIR)/$(BIN_SERVER_RELEASE) scripts/bench-fleet $(filter --quick --json,$(BENCH_ARGS))

clean:
	rm -rf .build
