"""The check-in server's systemd units: valid, hardened, socket activation wired, and the package
split: the kiosk's files never mention the server's libraries."""
import re
import subprocess

from conftest import ROOT
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
    assert "libmicrohttpd" in needed(SERVER_BIN) and "libsqlite3" in needed(SERVER_BIN) and "libpq" in needed(SERVER_BIN)
    kiosk = closure("qrcheckin")
    assert not kiosk & {"CMicroHTTPD", "CSQLite", "CPostgres", "CheckInHTTP", "CheckInSQLite", "CheckInPostgres",
                        "CheckInServerDomain"}, kiosk
    assert {"CMicroHTTPD", "CSQLite", "CPostgres"} <= closure("qrcheckin-server")
