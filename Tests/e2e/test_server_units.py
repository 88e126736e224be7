"""The check-in server's systemd units: valid, hardened, socket activation wired, and the package
split: the kiosk's files never mention the server's libraries, and every module a Swift file
imports is a dependency Package.swift declares for its target."""
import re
import subprocess
from pathlib import Path

from conftest import ROOT
from daemonutil import release_built
from serverutil import SERVER_BIN

UNITS = ROOT / "server" / "systemd"


def test_the_service_and_socket_verify_and_the_service_is_hardened(tmp_path):
    for name in ("qrcheckin-server.service", "qrcheckin-server.socket"):
        unit = tmp_path / name
        unit.write_text((UNITS / name).read_text().replace("/usr/bin/qrcheckin-server", SERVER_BIN))
    verify = subprocess.run(["systemd-analyze", "verify", "--man=no", str(tmp_path / "qrcheckin-server.socket"),
                             str(tmp_path / "qrcheckin-server.service")], capture_output=True, text=True, timeout=60)
    assert verify.returncode == 0 and "qrcheckin" not in verify.stderr, verify.stderr
    security = subprocess.run(["systemd-analyze", "security", "--offline=yes", str(tmp_path / "qrcheckin-server.service")],
                              capture_output=True, text=True, timeout=60)
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", security.stdout + security.stderr)
    # A network service: only its network access (INET sockets, no IP allow list) is left open.
    assert match and float(match.group(1)) <= 1.2, security.stdout
    text = (UNITS / "qrcheckin-server.service").read_text()
    for line in ("Type=notify", "DynamicUser=yes", "StateDirectory=qrcheckin-server", "UMask=0077",
                 "LoadCredential=secret:/etc/qrcheckin-server/secret", "ExecStart=/usr/bin/qrcheckin-server serve"):
        assert line in text
    assert "PrivateNetwork=yes" not in text and "IPAddressDeny=any" not in text


def test_the_kiosk_package_ships_nothing_of_the_server():
    build_deb = (ROOT / "packaging" / "build-deb").read_text()
    assert "server" not in build_deb.replace("check-in server", "")
    assert not list((ROOT / "systemd").glob("qrcheckin-server*")), "the kiosk package installs systemd/*"
    # The kiosk binary's dependencies (its SwiftPM target graph) contain no HTTP or database module.
    described = subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=ROOT, capture_output=True,
                               text=True, timeout=300)
    assert described.returncode == 0, described.stderr
    import json
    targets = {target["name"]: target for target in json.loads(described.stdout)["targets"]}

    def closure(name, seen=None):
        seen = seen if seen is not None else set()
        for dependency in targets[name].get("target_dependencies", []):
            if dependency not in seen:
                seen.add(dependency)
                closure(dependency, seen)
        return seen

    from conftest import BIN
    needed = lambda binary: subprocess.run(["readelf", "-d", binary], capture_output=True, text=True, check=True).stdout
    assert "libmicrohttpd" not in needed(BIN) and "libsqlite3" not in needed(BIN) and "libpq" not in needed(BIN)
    assert "liboath" not in needed(BIN)
    assert "libmicrohttpd" in needed(SERVER_BIN) and "libsqlite3" in needed(SERVER_BIN) and "libpq" in needed(SERVER_BIN)
    # The server links liboath (TOTP), and never libqrencode: it loads it when it draws a QR code.
    assert "liboath" in needed(SERVER_BIN) and "libqrencode" not in needed(SERVER_BIN)
    # The halves show in the names (Package.swift): each executable reaches the shared targets
    # and its own half's, never the other half's, and only its own C libraries.
    kiosk, server = closure("qrcheckin"), closure("qrcheckin-server")
    assert not {name for name in kiosk if name.startswith("Server")} | (kiosk & {"CMicroHTTPD", "CSQLite", "CPostgres"}), kiosk
    # libqrencode's module is shared (SharedQREncoder): the server draws TOTP enrolments with the
    # kiosk's QR code (issue 41); libpng stays the kiosk's, liboath the server's.
    assert not {name for name in server if name.startswith("Kiosk")} | (server & {"CPNG"}), server
    assert "COath" not in kiosk and {"COath", "SharedQR", "SharedQREncoder"} <= server, (kiosk, server)
    assert {"KioskCore", "KioskViews", "KioskAdapters", "SharedDomain"} <= kiosk
    # The kiosk is synchronous: SharedAsync would link Swift's concurrency runtime into it
    # (half a megabyte of code), and SharedTesting is for tests only.
    assert not kiosk & {"SharedAsync", "SharedTesting"} and "SharedTesting" not in server, (kiosk, server)
    assert {"CMicroHTTPD", "CSQLite", "CPostgres", "ServerDomain", "ServerSite", "SharedDomain"} <= server
    # Both sites' pages stand on ServerWeb (HTML, words, form tokens); the console reaches
    # nothing of the visitor site (issue 38: it imported all of it for those).
    assert "ServerWeb" in closure("ServerSite") and "ServerWeb" in closure("ServerConsole")
    assert "ServerSite" not in closure("ServerConsole"), closure("ServerConsole")
    for name in targets:
        half = next((half for half in ("Shared", "Kiosk", "Server") if name.startswith(half)), None)
        if half and not name.endswith("Tests"):
            assert targets[name]["path"] == f"Sources/{half}/{name}", (name, targets[name]["path"])
            others = {"Shared": ("Kiosk", "Server"), "Kiosk": ("Server",), "Server": ("Kiosk",)}[half]
            assert not [d for d in closure(name) if d.startswith(others)], (name, closure(name))


# The one door for raw markup, and why each use cannot be a literal (every other page markup
# is an `HTML` literal, which interpolation fills escaped). Empty: none needs it today.
RAW_MARKUP_USES = {
    # The enrolment's QR code: an <svg> SharedQR's SVGRenderer writes, of its own elements and
    # numbers only (the otpauth:// URI it encodes is in no attribute or text of it).
    "Sources/Server/ServerConsole/EnrolmentMarkup.swift": "the enrolment's QR code, SharedQR's own SVG",
}


def test_only_the_html_type_escapes_and_raw_markup_has_one_door():
    """Every page of both sites is ServerWeb's `HTML`, whose interpolation escapes what is not
    markup already (issue 38). Escaping by hand anywhere else (`HTML.escape(…)`, any `escape(`)
    would be a second rule beside it, and one forgotten call a stored XSS in a console that shows
    what visitors typed; so `escape(` appears in HTML.swift alone. Raw markup enters only through
    `HTML(unescaped:)`, each use listed in RAW_MARKUP_USES with its reason."""
    html_type = ROOT / "Sources" / "Server" / "ServerWeb" / "HTML.swift"
    assert "func escape(" in html_type.read_text()
    escaping, doors = [], {}
    for file in sorted((ROOT / "Sources" / "Server").rglob("*.swift")):
        if file == html_type:
            continue
        for number, line in enumerate(file.read_text().splitlines(), 1):
            code = line.split("//")[0]
            if re.search(r"escape\(", code, re.I):
                escaping.append(f"{file.relative_to(ROOT)}:{number}: {line.strip()}")
            if "HTML(unescaped:" in code:
                doors.setdefault(str(file.relative_to(ROOT)), []).append(number)
    assert not escaping, "escaping outside the HTML type:\n" + "\n".join(escaping)
    assert set(doors) == set(RAW_MARKUP_USES), f"HTML(unescaped:) used in {doors}; listed: {RAW_MARKUP_USES}"


# `import X`, `@testable import X`, `import struct X.Y`: the module is the first name after the kind.
IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?(\w+)", re.M)


def declared_imports():
    """Each Swift target of Package.swift (`swift package dump-package`): its module name, its
    folder, the targets it declares as dependencies, and the package's modules its files import."""
    import json
    dumped = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert dumped.returncode == 0, dumped.stderr
    targets = json.loads(dumped.stdout)["targets"]
    module = lambda name: name.replace("-", "_")  # SwiftPM's c99name: qrcheckin-server is qrcheckin_server
    modules = {module(target["name"]): target["name"] for target in targets}
    found = {}
    for target in targets:
        if target["type"] == "system":
            continue
        folder = ROOT / (target.get("path") or f"{'Tests' if target['type'] == 'test' else 'Sources'}/{target['name']}")
        declared = {entry[0] for dependency in target["dependencies"] for kind, entry in dependency.items()
                    if kind in ("byName", "target")}
        imported = {}
        for file in sorted(folder.rglob("*.swift")):
            for name in IMPORT.findall(file.read_text()):
                # Toolchain modules (Glibc, FoundationEssentials, Synchronization, Testing) are no target's.
                if name in modules and modules[name] != target["name"]:
                    imported.setdefault(modules[name], []).append(str(file.relative_to(ROOT)))
        found[target["name"]] = (folder, declared, imported)
    return found


def half_of(name, folder):
    """Shared, Kiosk or Server: the half a target lives in (its folder says), None for C modules."""
    parts = folder.relative_to(ROOT).parts
    return parts[1] if len(parts) > 2 and parts[1] in ("Shared", "Kiosk", "Server") else None


def test_package_swift_declares_every_import_and_no_test_crosses_the_halves():
    """A module imported without being declared builds only when SwiftPM happens to have built it
    first (a clean `swift build --build-tests` failed on SharedDomainTests' `import KioskCore`):
    each import must be a declared dependency. A test target keeps to its half as its sources
    do: a Shared test imports Shared targets only, a Kiosk or Server test no target of the other
    half (what both need belongs in a Shared target)."""
    found = declared_imports()
    undeclared = [f"{target} imports {name} ({', '.join(sorted(set(files)))})"
                  for target, (_, declared, imported) in sorted(found.items())
                  for name, files in sorted(imported.items()) if name not in declared]
    halves = {name: half_of(name, folder) for name, (folder, _, _) in found.items()}
    allowed = {"Shared": {"Shared"}, "Kiosk": {"Shared", "Kiosk"}, "Server": {"Shared", "Server"}}
    crossing = [f"{target} ({halves[target]}) imports {name} ({halves[name]})"
                for target, (_, _, imported) in sorted(found.items()) if halves[target]
                for name in sorted(imported) if halves.get(name) and halves[name] not in allowed[halves[target]]]
    assert not undeclared and not crossing, ("undeclared in Package.swift:\n" + "\n".join(undeclared)
                                             + "\nimports across the halves:\n" + "\n".join(crossing))


def test_the_server_package_builds_clean_and_depends_on_its_libraries(tmp_path):
    """The server's .deb (the one `make deb` wrote to $QRCHECKIN_DEB_DIR, else one built here by
    packaging/build-server-deb from the release binary; nothing is installed): lintian has nothing
    to say, Depends names libmicrohttpd, SQLite, libpq and liboath, and the man page and completion are inside."""
    import os
    release_built()
    kiosk_dir = os.environ.get("QRCHECKIN_DEB_DIR")
    made = sorted(Path(kiosk_dir).glob("qrcheckin-server_*.deb")) if kiosk_dir else []
    if made:
        deb = str(made[-1])
    else:
        release = ROOT / ".build" / "release" / "qrcheckin-server"
        assert release.exists(), f"{release} missing: make release (or make deb and set QRCHECKIN_DEB_DIR)"
        built = subprocess.run([str(ROOT / "packaging" / "build-server-deb"), str(release), str(tmp_path)],
                               capture_output=True, text=True, timeout=300)
        assert built.returncode == 0, built.stderr
        deb = built.stdout.strip()
    depends = subprocess.run(["dpkg-deb", "-f", deb, "Depends"], capture_output=True, text=True, check=True).stdout
    assert "libmicrohttpd12" in depends and "libsqlite3-0" in depends and "libpq5" in depends, depends
    assert "liboath0" in depends, depends
    # Loaded on first use, so named by packaging/loaded-libraries' probe: libsodium, Nettle and
    # libqrencode (TOTP enrolments' QR codes, issue 41), and not libpng, which the server never calls.
    assert "libsodium23" in depends and "libnettle8" in depends and "libqrencode4" in depends, depends
    assert "libcurl4" in depends, depends  # loaded by serve to send webhooks (issue 40)
    assert "libpng" not in depends, depends
    files = subprocess.run(["dpkg-deb", "-c", deb], capture_output=True, text=True, check=True).stdout
    for path in ("./usr/bin/qrcheckin-server", "./usr/lib/systemd/system/qrcheckin-server.socket",
                 "./usr/share/man/man1/qrcheckin-server.1.gz", "./usr/share/bash-completion/completions/qrcheckin-server",
                 "./etc/qrcheckin-server/qrcheckin-server.conf", "./usr/share/doc/qrcheckin-server/examples/nginx-qrcheckin-server.conf"):
        assert path in files, path
    lint = subprocess.run(["lintian", "--fail-on", "error,warning", deb], capture_output=True, text=True, timeout=600)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    if kiosk_dir:
        for kiosk in Path(kiosk_dir).glob("qrcheckin_*.deb"):
            kiosk_depends = subprocess.run(["dpkg-deb", "-f", str(kiosk), "Depends"], capture_output=True, text=True, check=True).stdout
            assert "microhttpd" not in kiosk_depends and "sqlite" not in kiosk_depends and "libpq" not in kiosk_depends, kiosk_depends
