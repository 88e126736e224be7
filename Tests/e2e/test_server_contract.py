"""qrcheckin-server's contract with the outside checks, its command line and its settings."""
import csv
import io
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from conftest import BIN, ROOT
from serverutil import SERVER_BIN, Server, code, server_run

GOLDEN = ROOT / "Tests" / "e2e" / "golden" / "help"


@pytest.fixture
def workspace(tmp_path):
    secret = tmp_path / "secret"
    result = subprocess.run([BIN, "keygen", "-o", str(secret)], capture_output=True, timeout=30)
    assert result.returncode == 0, result.stderr
    return tmp_path, secret


def test_serve_answers_the_urls_qrcheckin_code_prints_and_checkins_lists_them(workspace):
    base, secret = workspace
    server = Server(base, secret).start()
    try:
        for venue in ("HALL-1", "CAFE.2", "X"):
            url = code(secret, venue, server.port)["url"]
            path = "/" + url.split("/", 3)[3]
            status, headers, _ = server.get(path)
            assert status == 303, (venue, status)
            assert re.fullmatch(rf"/C/{re.escape(venue)}/receipt/\d+", headers["location"])
            assert headers["referrer-policy"] == "no-referrer"
            assert "qrcheckin_device=" in headers["set-cookie"] and "HttpOnly" in headers["set-cookie"]
    finally:
        assert server.stop() == 0, server.logs()
    text = server.checkins("--format", "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [row["venue"] for row in rows] == ["HALL-1", "CAFE.2", "X"]
    assert {row["method"] for row in rows} == {"qr"}
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", row["time"]) for row in rows)
    assert text.splitlines()[0].split(",")[:3] == ["id", "venue", "time"]
    lines = server.checkins("--format", "jsonl").splitlines()
    assert len(lines) == 3 and '"venue":"HALL-1"' in lines[0]


def test_period_and_skew_default_to_fifteen_and_one(workspace):
    base, secret = workspace
    server = Server(base, secret).start()

    def status_of_code_made(offset, venue):
        """The server's answer to a code made for `offset` seconds from now. Windows are
        aligned to the epoch (15 s), so what `offset` means depends on the window the server
        checks in: a window boundary passing between making the code and its answer (a slow
        `qrcheckin code` under load) asks again."""
        while True:
            start = time.time()
            status = server.get("/" + code(secret, venue, server.port, at=int(start) + offset)["url"].split("/", 3)[3])[0]
            if int(start) // 15 == int(time.time()) // 15:
                return status
    try:
        # One window back is within skew 1; two windows back is not, nor two ahead.
        assert status_of_code_made(-15, "HALL-1") == 303
        assert status_of_code_made(-31, "HALL-2") == 410
        assert status_of_code_made(31, "HALL-3") == 409
    finally:
        server.stop()


def test_help_texts_match_their_golden_files():
    for name, args in (("qrcheckin-server", ["--help"]), ("qrcheckin-server-serve", ["serve", "--help"]),
                       ("qrcheckin-server-checkins", ["checkins", "--help"])):
        result = server_run(*args)
        assert result.returncode == 0
        assert result.stdout == (GOLDEN / f"{name}.txt").read_text(), f"{name}: run 'make golden'"
    assert server_run("--version").stdout.startswith("qrcheckin-server ")


@pytest.mark.parametrize("args, status, message", [
    (["serve", "--listen", "localhost:80"], 64, "--listen: must be HOST:PORT"),
    (["serve", "--period", "0"], 64, "--period: must be a whole number of seconds"),
    (["serve", "--duplicate-time", "5y"], 64, "--duplicate-time: must be a duration"),
    (["serve", "--database", "mysql://x"], 64, "--database: must be sqlite:PATH"),
    (["serve", "--trusted-proxies", "10.0.0.0/33"], 64, "--trusted-proxies: must be addresses or CIDR"),
    (["serve", "--trusted-proxies", "*"], 78, "would trust every address"),
    (["serve", "--trusted-proxies", "10.0.0.5, 0.0.0.0/0"], 78, "would trust every address"),
    (["serve", "--admin-auth", "sso"], 64, "--admin-auth: must be password, proxy or password,proxy"),
    (["serve", "--nope"], 64, "unknown option '--nope' for 'serve' (see qrcheckin-server serve --help)"),
    (["frobnicate"], 64, "unknown command 'frobnicate'"),
    (["checkins", "--format", "xml"], 64, "--format must be one of table, csv, jsonl"),
    (["checkins", "--from", "yesterday"], 64, "--from must be Unix seconds"),
])
def test_bad_command_lines_are_usage_errors(args, status, message):
    result = server_run(*args)
    assert result.returncode == status, result.stderr
    assert message in result.stderr
    assert result.stderr.startswith("qrcheckin-server: ")


def test_bad_settings_in_a_file_name_the_file_line_and_key(workspace):
    base, secret = workspace
    config = base / "server.conf"
    config.write_text(f"secret-file = {secret}\n# per venue\nname.HALL-1 = 대강당\nduplicate-time.HALL-1 = forever\n")
    result = server_run("serve", "-c", str(config), "--listen", "127.0.0.1:0")
    assert result.returncode == 78, result.stderr
    assert f"{config}:4: duplicate-time.HALL-1: must be a duration" in result.stderr
    config.write_text("name.hall-1 = x\n")
    result = server_run("serve", "-c", str(config))
    assert result.returncode == 78 and f"{config}:1: name.hall-1: " in result.stderr and "upper case" in result.stderr
    config.write_text("listen = 127.0.0.1:1\nlisten = 127.0.0.1:2\n")
    result = server_run("serve", "-c", str(config))
    assert result.returncode == 78 and f"{config}:2: listen is already set on line 1" in result.stderr
    config.write_text("colour = red\n")
    result = server_run("serve", "-c", str(config))
    assert result.returncode == 78 and f"{config}:1: unknown key 'colour'" in result.stderr
    result = server_run("serve", env={"QRCHECKIN_SERVER_SKEW": "61"})
    assert result.returncode == 78 and "$QRCHECKIN_SERVER_SKEW: must be a whole number from 0 to 60" in result.stderr


def test_the_pages_settings_are_checked_at_start(workspace):
    """accent, logo, receipt-freshness and controller (issue 34): a bad one fails at start with
    its file, line and key, never on a visitor's phone."""
    base, secret = workspace
    config = base / "server.conf"
    cases = [
        ("accent.HALL-1 = green\n", "accent.HALL-1: must be a colour #rrggbb"),
        (f"logo.HALL-1 = {base}/missing.svg\n", "logo.HALL-1: cannot"),
        (f"logo = {secret}\n", "logo: must be a .png, .svg, .jpg or .webp file"),
        ("receipt-freshness = soon\n", "receipt-freshness: must be a duration"),
        ("receipt-freshness = 0\n", "receipt-freshness: must be at least 1s"),
    ]
    big = base / "big.png"
    big.write_bytes(b"\x89PNG" + b"\0" * (256 * 1024))
    cases.append((f"logo.HALL-1 = {big}\n", "at most 256 KiB"))
    for line, message in cases:
        config.write_text(f"secret-file = {secret}\n" + line)
        result = server_run("serve", "-c", str(config), "--listen", "127.0.0.1:0")
        assert result.returncode == 78, (line, result.stderr)
        assert f"{config}:2: {message}" in result.stderr or message in result.stderr, (line, result.stderr)


def test_secret_and_database_failures_have_their_exit_codes(workspace):
    base, secret = workspace
    result = server_run("serve", "--secret-file", str(base / "none"), "--database", f"sqlite:{base}/c.db")
    assert result.returncode == 66, result.stderr
    secret.chmod(0o644)
    result = server_run("serve", "--secret-file", str(secret), "--database", f"sqlite:{base}/c.db")
    assert result.returncode == 77, result.stderr
    secret.chmod(0o600)
    result = server_run("checkins", "--database", f"sqlite:{base}/missing.db")
    assert result.returncode == 66 and "does not exist" in result.stderr
    assert not (base / "missing.db").exists()
    (base / "junk.db").write_bytes(b"not a database at all" * 500)
    result = server_run("checkins", "--database", f"sqlite:{base}/junk.db")
    assert result.returncode == 65, result.stderr
    taken = Server(base / "a", secret).start()
    try:
        result = server_run("serve", "--secret-file", str(secret), "--database", f"sqlite:{base}/b.db",
                            "--listen", f"127.0.0.1:{taken.port}")
        assert result.returncode == 69 and "Address already in use" in result.stderr, result.stderr
    finally:
        taken.stop()


def test_a_libsodium_that_cannot_be_loaded_stops_serve_at_start_with_exit_69(workspace):
    # libsodium is loaded on first use (Sources/C/CLibraryLoader), so serve checks it before it
    # opens the ledger or listens: a damaged one on the library path is what dlopen finds.
    base, secret = workspace
    broken = base / "broken-libraries"
    broken.mkdir()
    (broken / "libsodium.so.23").write_text("not a shared library\n")
    result = server_run("serve", "--secret-file", str(secret), "--database", f"sqlite:{base}/c.db",
                        "--listen", "127.0.0.1:0", env={"LD_LIBRARY_PATH": str(broken)})
    assert result.returncode == 69, result.stderr
    assert result.stderr.startswith("qrcheckin-server: cannot load libsodium.so.23: "), result.stderr
    assert not (base / "c.db").exists()
    version = server_run("--version", env={"LD_LIBRARY_PATH": str(broken)})
    assert version.returncode == 0 and version.stdout.startswith("qrcheckin-server "), version


def test_the_database_is_private(workspace):
    base, secret = workspace
    server = Server(base, secret).start()
    try:
        assert server.get("/" + code(secret, "HALL-1", server.port)["url"].split("/", 3)[3])[0] == 303
        for path in base.glob("checkins.db*"):
            assert path.stat().st_mode & 0o077 == 0, f"{path} is readable by others"
    finally:
        server.stop()
