"""The console's second factor (issue 41): `user totp enable|disable`, the code asked at sign-in,
its replay refused, recovery codes, `require-totp`; the TOTP vectors the Swift tests read are
pyotp's, and the server draws QR codes with the kiosk's libqrencode only when it
draws one, so `serve` maps neither it nor libpng."""
import csv
import io
import json
import re
from pathlib import Path

import pytest

from conftest import ROOT
from serverutil import server_run

VECTORS = ROOT / "Tests" / "Server" / "ServerSecondFactorTests" / "vectors" / "pyotp-totp.json"


def test_the_vectors_the_swift_tests_read_are_what_pyotp_computes():
    """ServerSecondFactorTests' PyOTPVectorTests check our codes and URIs against this file; the
    file is only as good as its source, so it is checked against pyotp itself, here and now."""
    pytest.importorskip("pyotp", reason="pyotp (PyPI) computes the codes: scripts/install-deps --test")
    import totp_vectors
    committed = json.loads(VECTORS.read_text())
    assert committed == totp_vectors.vectors(), "regenerate: python3 Tests/e2e/totp_vectors.py > " + str(VECTORS.relative_to(ROOT))
    assert len(committed["codes"]) >= 50 and len(committed["uris"]) >= 4


def mapped_libraries(pid):
    """The file names of the shared objects process `pid` has mapped."""
    lines = Path(f"/proc/{pid}/maps").read_text().splitlines()
    return {Path(line.split()[-1]).name for line in lines if len(line.split()) >= 6 and ".so" in line.split()[-1]}


def test_serve_links_liboath_and_maps_neither_libqrencode_nor_libpng(servers, secret):
    """libqrencode is loaded on the first QR code the server draws (a TOTP enrolment), never at
    start or to answer a visitor; libpng is the kiosk's alone. liboath is linked (DT_NEEDED)."""
    server = servers(secret)
    status, _, _ = server.get("/")
    assert status in (200, 404), status
    mapped = mapped_libraries(server.pid)
    assert any(name.startswith("liboath.so") for name in mapped), sorted(mapped)
    assert not [name for name in mapped if name.startswith(("libqrencode.so", "libpng"))], sorted(mapped)


def enable_totp(server, secret, name):
    """`user totp enable NAME`: the URI, the QR code drawn in the terminal, the recovery codes."""
    result = server_run("user", "totp", "enable", name, "--database", f"sqlite:{server.database}", "--secret-file", str(secret),
                        "--qr", "utf8")
    assert result.returncode == 0, result.stderr
    uri = re.search(r"^otpauth://totp/\S+$", result.stdout, re.M).group(0)
    codes = re.findall(r"^  ([A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4})$", result.stdout, re.M)
    return uri, codes, result.stdout


def audit_rows(server):
    result = server_run("audit", "--database", f"sqlite:{server.database}", "--format", "csv")
    assert result.returncode == 0, result.stderr
    return list(csv.DictReader(io.StringIO(result.stdout)))


def test_user_totp_enable_prints_the_uri_a_terminal_qr_and_ten_recovery_codes_and_disable_takes_it_away(servers, secret, tmp_path):
    pyotp = pytest.importorskip("pyotp", reason="pyotp (PyPI) computes the codes: scripts/install-deps --test")
    from consoleutil import add_user
    server = servers(secret)
    add_user(server, "mina", "admin", tmp=tmp_path)
    uri, codes, shown = enable_totp(server, secret, "mina")
    totp = pyotp.parse_uri(uri)
    assert (totp.name, totp.issuer, totp.digits, totp.interval) == ("mina", "qrcheckin", 6, 30), uri
    assert len(codes) == 10 and len(set(codes)) == 10, shown
    # The QR code is the kiosk's terminal renderer's half blocks, between the URI and the codes.
    drawing = shown.split(uri, 1)[1].split("Recovery codes", 1)[0]
    rows = [line for line in drawing.splitlines() if line.strip()]
    assert len(rows) >= 20 and all(set(line) <= set(" ▀▄█") for line in rows), drawing
    # A second enable replaces the secret and the codes.
    again, new_codes, _ = enable_totp(server, secret, "mina")
    assert pyotp.parse_uri(again).secret != totp.secret and not set(new_codes) & set(codes)
    # Only password accounts that exist; disable once.
    missing = server_run("user", "totp", "enable", "nobody", "--database", f"sqlite:{server.database}", "--secret-file", str(secret))
    assert missing.returncode == 1 and "no account nobody" in missing.stderr
    bad = server_run("user", "totp", "on", "mina", "--database", f"sqlite:{server.database}")
    assert bad.returncode == 64, bad
    done = server_run("user", "totp", "disable", "mina", "--database", f"sqlite:{server.database}")
    assert done.returncode == 0 and "turned off" in done.stdout, done
    twice = server_run("user", "totp", "disable", "mina", "--database", f"sqlite:{server.database}")
    assert twice.returncode == 1 and "has no second factor" in twice.stderr, twice
    rows = [row for row in audit_rows(server) if row["action"].startswith("totp-")]
    assert [(row["action"], row["subject"]) for row in rows] == [
        ("totp-disable", "account mina"), ("totp-enable", "account mina"), ("totp-enable", "account mina")], rows
    assert all(row["source"] == "cli" for row in rows), rows
    everything = json.dumps(audit_rows(server))
    assert totp.secret not in everything and not [code for code in codes + new_codes if code in everything]


def verify(console, code):
    """Posts `code` to the second step with its page's hidden inputs."""
    from serverutil import hidden_inputs
    status, _, page = console.get("/admin/verify?lang=en")
    assert status == 200, page
    return console.request("POST", "/admin/verify", form={**hidden_inputs(page), "code": code})


def test_the_console_asks_for_a_code_after_the_password_refuses_it_again_throttles_and_takes_a_recovery_code_once(servers, secret, tmp_path):
    pyotp = pytest.importorskip("pyotp", reason="pyotp (PyPI) computes the codes: scripts/install-deps --test")
    from consoleutil import Console, add_user
    server = servers(secret)
    add_user(server, "mina", "admin", tmp=tmp_path)
    uri, recovery, _ = enable_totp(server, secret, "mina")
    totp = pyotp.parse_uri(uri)

    # The password alone opens no session: it leads to the code.
    browser = Console(server.admin_port)
    status, headers, _ = browser.sign_in("mina", "password-mina")
    assert status == 303 and headers["location"] == "/admin/verify", (status, headers)
    assert "qrcheckin_console" not in browser.cookies and browser.get("/admin/")[0] == 303
    status, _, page = browser.get("/admin/verify?lang=en")
    assert status == 200 and b"6-digit code" in page and b'autocomplete="one-time-code"' in page
    # A code pyotp computes signs in.
    code = totp.now()
    status, headers, _ = verify(browser, code)
    assert status == 303 and headers["location"] == "/admin/" and "qrcheckin_console" in browser.cookies, (status, headers)
    assert browser.get("/admin/audit")[0] == 200

    # The same code again (another browser, the right password): refused, a replay.
    second = Console(server.admin_port)
    assert second.sign_in("mina", "password-mina")[1]["location"] == "/admin/verify"
    status, _, body = verify(second, code)
    assert status == 401 and b"wrong, or was used already" in body and "qrcheckin_console" not in second.cookies, (status, body[:300])
    # A recovery code signs in once (typed in lower case, without its dashes).
    status, headers, _ = verify(second, recovery[3].lower().replace("-", ""))
    assert status == 303 and "qrcheckin_console" in second.cookies, (status, headers)
    third = Console(server.admin_port)
    assert third.sign_in("mina", "password-mina")[0] == 303
    assert verify(third, recovery[3])[0] == 401
    # Wrong codes spend the password's budget: 429 with Retry-After within it.
    statuses = []
    for guess in range(12):
        status, headers, _ = verify(third, f"{(int(totp.now()) + 1 + guess) % 1_000_000:06d}")
        statuses.append(status)
        if status == 429:
            assert int(headers["retry-after"]) >= 1
            break
    assert statuses[-1] == 429 and set(statuses[:-1]) == {401}, statuses

    rows = [row for row in audit_rows(server) if row["action"].startswith("sign-in") and row["actor"] == "mina"]
    details = [row["detail"] for row in reversed(rows)]
    assert details[:4] == ["role admin, code", "replayed code", "role admin, recovery code, 9 left", "wrong recovery code"], details
    assert set(details[4:]) == {"wrong code"}, details
    assert all(row["source"].startswith("console 127.0.0.1") for row in rows), rows

    # An admin takes the second factor away on the accounts page (as `user totp disable`):
    # the password alone signs in again.
    status, _, _ = browser.post_form("/admin/users", {"action": "totp-disable", "name": "mina"})
    assert status == 303, status
    assert browser.post_form("/admin/users", {"action": "totp-disable", "name": "mina"})[0] == 404
    disabled = [row for row in audit_rows(server) if row["action"] == "totp-disable"]
    assert [(row["actor"], row["subject"], row["source"].split(" ")[0]) for row in disabled] == [("mina", "account mina", "console")], disabled
    elsewhere = Console(server.admin_port, source="127.0.0.5")
    status, headers, _ = elsewhere.sign_in("mina", "password-mina")
    assert status == 303 and headers["location"] == "/admin/" and "qrcheckin_console" in elsewhere.cookies, (status, headers)


def test_require_totp_makes_those_roles_enrol_at_their_next_sign_in(servers, secret, tmp_path):
    pyotp = pytest.importorskip("pyotp", reason="pyotp (PyPI) computes the codes: scripts/install-deps --test")
    from consoleutil import Console, add_user
    config = tmp_path / "server.conf"
    config.write_text("require-totp = admin, supervisor\n")
    server = servers(secret, args=["-c", str(config)])
    add_user(server, "sam", "supervisor", tmp=tmp_path)
    add_user(server, "door", "steward", tmp=tmp_path)
    # A steward is not asked.
    steward = Console(server.admin_port)
    assert steward.sign_in("door", "password-door")[1]["location"] == "/admin/"
    # A supervisor without a second factor is shown the enrolment: the QR code inline, the key.
    browser = Console(server.admin_port)
    assert browser.sign_in("sam", "password-sam")[1]["location"] == "/admin/verify"
    status, _, page = browser.get("/admin/verify?lang=en")
    page = page.decode()
    assert status == 200 and '<div class="qr" role="img"' in page and "<svg" in page, page[:500]
    key = re.search(r'<code class="key">([A-Z2-7 ]+)</code>', page).group(1).replace(" ", "")
    assert verify(browser, "000000" if pyotp.TOTP(key).now() != "000000" else "111111")[0] == 401
    status, _, shown = verify(browser, pyotp.TOTP(key).now())
    shown = shown.decode()
    codes = re.findall(r"<li><code>([A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4})</code></li>", shown)
    assert status == 200 and len(codes) == 10 and "qrcheckin_console" in browser.cookies, shown[:500]
    assert browser.get("/admin/log")[0] == 200
    # From now on, the code is asked.
    again = Console(server.admin_port)
    assert again.sign_in("sam", "password-sam")[1]["location"] == "/admin/verify"
    status, _, page = again.get("/admin/verify?lang=en")
    assert b"<svg" not in page and b"6-digit code" in page
    enabled = [row for row in audit_rows(server) if row["action"] == "totp-enable"]
    assert [(row["actor"], row["subject"], row["source"].split(" ")[0]) for row in enabled] == [("sam", "account sam", "console")], enabled


def test_the_account_page_sets_up_a_second_factor_with_a_code_of_it(servers, secret, tmp_path):
    pyotp = pytest.importorskip("pyotp", reason="pyotp (PyPI) computes the codes: scripts/install-deps --test")
    from consoleutil import Console, add_user
    server = servers(secret)
    add_user(server, "door", "steward", tmp=tmp_path)
    browser = Console(server.admin_port)
    assert browser.sign_in("door", "password-door")[1]["location"] == "/admin/"
    status, _, page = browser.get("/admin/account?lang=en")
    assert status == 200 and b"None yet" in page, page
    status, _, page = browser.post_form("/admin/account?lang=en", {"action": "begin"})
    page = page.decode()
    assert status == 200 and '<div class="qr" role="img"' in page and "<svg" in page, page[:400]
    key = re.search(r'<code class="key">([A-Z2-7 ]+)</code>', page).group(1).replace(" ", "")
    sealed = re.search(r'name="sealed" value="([0-9a-f]+)"', page).group(1)
    from serverutil import hidden_inputs
    fields = {**hidden_inputs(page.encode()), "action": "confirm", "sealed": sealed}
    wrong = "000000" if pyotp.TOTP(key).now() != "000000" else "111111"
    assert browser.request("POST", "/admin/account?lang=en", form={**fields, "code": wrong})[0] == 400
    status, _, shown = browser.request("POST", "/admin/account?lang=en", form={**fields, "code": pyotp.TOTP(key).now()})
    codes = re.findall(r"<li><code>([A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4})</code></li>", shown.decode())
    assert status == 200 and len(codes) == 10, shown[:400]
    assert b"Recovery codes left: 10" in browser.get("/admin/account?lang=en")[2]
    # The next sign-in asks for a code of it.
    again = Console(server.admin_port)
    assert again.sign_in("door", "password-door")[1]["location"] == "/admin/verify"
    enabled = [row for row in audit_rows(server) if row["action"] == "totp-enable"]
    assert [(row["actor"], row["subject"], row["detail"]) for row in enabled] == [("door", "account door", "10 recovery codes")], enabled
