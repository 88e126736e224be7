"""Black-box tests of `code`, `verify` and `keygen`: exit statuses, messages, secret handling,
and agreement with docs/TOKEN.md through an independent Python implementation."""
import json
import random
import re
import stat
from pathlib import Path

import pytest

import token_reference as ref
from conftest import ROOT, zbar

SECRET = bytes(range(32))
REASONS = {"malformed", "unknown-version", "wrong-venue", "bad-mac", "expired", "not-yet-valid"}  # plus no-venue (--stdin)


@pytest.fixture
def env(tmp_path):
    """An isolated environment: no credentials, a private state directory."""
    state = tmp_path / "state"
    return {"STATE_DIRECTORY": str(state), "CREDENTIALS_DIRECTORY": "", "HOME": str(tmp_path / "home")}


@pytest.fixture
def secret_file(tmp_path):
    path = tmp_path / "secret"
    path.write_text(SECRET.hex() + "\n")
    path.chmod(0o600)
    return path


@pytest.fixture
def cli(qrcheckin, env):
    """Runs qrcheckin in the isolated environment; remembers every output to check for leaks."""
    outputs = []

    def call(*args, **kwargs):
        result = qrcheckin(*args, env={**env, **kwargs.pop("env", {})}, **kwargs)
        outputs.append(result.stdout + result.stderr)
        return result
    call.outputs = outputs
    return call


def fields(stdout):
    return dict(line.split(": ", 1) for line in stdout.decode().strip().split("\n"))


def code(cli, secret_file, *args):
    result = cli("code", "--secret-file", str(secret_file), *args)
    assert result.returncode == 0, result.stderr
    return fields(result.stdout)


def verify(cli, secret_file, *args):
    result = cli("verify", "--secret-file", str(secret_file), *args)
    return result.returncode, result.stdout.decode(), result.stderr.decode()


def doc_vectors():
    text = (ROOT / "docs" / "TOKEN.md").read_text()
    table = text.split("<!-- test-vectors:begin -->")[1].split("<!-- test-vectors:end -->")[0]
    rows = [line for line in table.strip().split("\n")[2:]]
    vectors = []
    for row in rows:
        cells = [cell.strip().strip("`") for cell in row.strip().strip("|").split("|")]
        secret, venue, period, time, seq, window, url, safe = cells
        vectors.append((bytes.fromhex(secret), venue, int(period), int(time), int(seq), int(window), url, safe))
    return vectors


# --- code -----------------------------------------------------------------------------------

def test_code_prints_every_field(cli, secret_file):
    out = code(cli, secret_file, "--at", "1700000000")
    assert list(out) == ["url", "token", "safeNumber", "venue", "period", "window", "seq",
                         "issuedAt", "expiresAt", "expiresIn"]
    assert out["url"] == ref.url(SECRET, "DEMO", 15, 1700000000, 0)
    assert out["url"].endswith("/DEMO/" + out["token"])
    assert re.fullmatch(r"[0-9]{2}[가-힣][0-9]{2}[가-힣]", out["safeNumber"])
    assert (out["venue"], out["period"], out["window"], out["seq"]) == ("DEMO", "15", "113333333", "0")
    assert (out["issuedAt"], out["expiresAt"], out["expiresIn"]) == ("1699999995", "1700000010", "10")


def test_code_json(cli, secret_file):
    result = cli("code", "--secret-file", str(secret_file), "--at", "1700000000", "--venue", "HALL-1",
                 "--seq", "2", "--json")
    assert result.returncode == 0
    data = json.loads(result.stdout)
    assert data["url"] == ref.url(SECRET, "HALL-1", 15, 1700000000, 2)
    assert list(data) == ["venue", "url", "token", "safeNumber", "window", "seq", "issuedAt", "expiresAt", "period"]
    assert data["safeNumber"] == ref.safe_number(SECRET, "HALL-1", 15, 113333333)
    assert data["window"] == 113333333 and data["seq"] == 2 and data["expiresAt"] == 1700000010
    assert (data["venue"], data["issuedAt"], data["period"]) == ("HALL-1", 1699999995, 15)


def test_code_matches_an_independent_implementation(cli, tmp_path):
    rng = random.Random(6238)
    for index in range(25):
        secret = bytes(rng.randrange(256) for _ in range(rng.randrange(16, 65)))
        path = tmp_path / f"s{index}"
        path.write_text(secret.hex())
        path.chmod(0o600)
        venue = "".join(rng.choice("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-.") for _ in range(rng.randrange(1, 17)))
        period = rng.randrange(1, 3601)
        time = rng.randrange(-2**33, 2**34)
        seq = rng.randrange(0, 2**32)
        out = code(cli, path, "--venue", venue, "--period", str(period), "--at", str(time), "--seq", str(seq))
        assert out["url"] == ref.url(secret, venue, period, time, seq)
        assert out["safeNumber"] == ref.safe_number(secret, venue, period, ref.window_of(time, period))


@pytest.mark.parametrize("vector", doc_vectors(), ids=lambda v: v[1])
def test_token_md_vectors(cli, tmp_path, vector):
    secret, venue, period, time, seq, window, url, safe = vector
    path = tmp_path / "s"
    path.write_text(secret.hex() + "\n")
    path.chmod(0o600)
    out = code(cli, path, "--venue", venue, "--period", str(period), "--at", str(time), "--seq", str(seq))
    assert (out["url"], out["safeNumber"], int(out["window"])) == (url, safe, window)
    assert ref.url(secret, venue, period, time, seq) == url
    assert ref.safe_number(secret, venue, period, window) == safe
    status, stdout, _ = verify(cli, path, "--venue", venue, "--period", str(period), "--at", str(time), url)
    assert status == 0 and stdout.startswith("valid: "), stdout


def test_the_default_url_scans_back(cli, secret_file, tmp_path, tools):
    url = code(cli, secret_file, "--venue", "ABCDEFGH")["url"]
    png = tmp_path / "code.png"
    assert cli("encode", "-o", str(png), url).returncode == 0
    assert zbar(png).decode() == url


@pytest.mark.parametrize("args,message", [
    (["--venue", "demo"], "use upper case (DEMO)"),
    (["--venue", "A/B"], "only 0-9, A-Z, '-' and '.'"),
    (["--period", "0"], "--period: must be a whole number of seconds from 1 to 3600"),
    (["--at", "soon"], "--at must be Unix seconds"),
    (["--at", "9223372036854775807"], "--at must be within ±10^15 Unix seconds"),
    (["--at", "-9223372036854775808"], "--at must be within ±10^15 Unix seconds"),
    (["--seq", "-1"], "--seq must be a whole number"),
    (["--base-url", "https://x.org"], "write it in upper case"),
])
def test_code_usage_errors(cli, secret_file, args, message):
    result = cli("code", "--secret-file", str(secret_file), *args)
    assert result.returncode == 64
    assert message in result.stderr.decode()


# --- verify ---------------------------------------------------------------------------------

def test_verify_valid_prints_seconds_left(cli, secret_file):
    url = ref.url(SECRET, "DEMO", 15, 1700000000, 0)
    status, stdout, _ = verify(cli, secret_file, "--at", "1700000000", url)
    assert status == 0
    assert stdout == "valid: 10 seconds left, accepted for 25 (venue DEMO, window 113333333, sequence 0)\n"
    token = url.rsplit("/", 1)[1]
    assert verify(cli, secret_file, "--at", "1700000000", "--venue", "DEMO", token)[0] == 0


def test_a_bare_token_without_a_venue_says_to_pass_venue(cli, secret_file):
    token = ref.url(SECRET, "DEMO", 15, 1700000000, 0).rsplit("/", 1)[1]
    result = cli("verify", "--secret-file", str(secret_file), "--at", "1700000000", token)
    assert result.returncode == 64 and "pass --venue" in result.stderr.decode()
    result = cli("verify", "--secret-file", str(secret_file), "--safe-number", "12가34나")
    assert result.returncode == 64 and "pass --venue" in result.stderr.decode()
    # The venue from the environment or the config file is enough.
    assert cli("verify", "--secret-file", str(secret_file), "--at", "1700000000", token,
               env={"QRCHECKIN_VENUE": "DEMO"}).returncode == 0


def test_verify_reasons(cli, secret_file):
    url = ref.url(SECRET, "DEMO", 15, 1700000000, 0)
    base, venue, token = url.rsplit("/", 2)
    cases = {
        "malformed": [url[:-1], "NOT A URL", base + "/DEMO/" + token.lower()],
        "unknown-version": [f"{base}/DEMO/2{token[1:]}"],
        "wrong-venue": [("--venue", "CAFE", url)],
        "bad-mac": [f"{base}/DEMO/{token[:-1]}{'B' if token[-1] == 'A' else 'A'}", f"{base}/CAFE/{token}"],
        "expired": [("--at", "1700000025", url)],
        "not-yet-valid": [("--at", "1699999979", url)],
    }
    for reason, inputs in cases.items():
        for given in inputs:
            args = list(given) if isinstance(given, tuple) else ["--at", "1700000000", given]
            status, stdout, _ = verify(cli, secret_file, *args)
            assert status == 1, (reason, given)
            assert stdout.startswith(f"invalid: {reason} ("), (reason, given, stdout)
    assert {reason for reason in cases} == REASONS


def test_verify_skew_edges(cli, secret_file):
    url = ref.url(SECRET, "DEMO", 15, 1700000000, 0)  # window 1699999995..1700000010
    assert verify(cli, secret_file, "--skew", "0", "--at", "1700000009", url)[0] == 0
    assert "expired" in verify(cli, secret_file, "--skew", "0", "--at", "1700000010", url)[1]
    assert verify(cli, secret_file, "--skew", "0", "--at", "1699999995", url)[0] == 0
    assert "not-yet-valid" in verify(cli, secret_file, "--skew", "0", "--at", "1699999994", url)[1]
    assert verify(cli, secret_file, "--skew", "2", "--at", "1700000039", url)[1].startswith(
        "valid: its window ended 29 seconds ago, accepted for 1 (")
    assert "expired" in verify(cli, secret_file, "--skew", "2", "--at", "1700000040", url)[1]


def test_verify_period_is_part_of_the_signature(cli, secret_file):
    url = ref.url(SECRET, "DEMO", 30, 1700000000, 0)
    assert verify(cli, secret_file, "--period", "30", "--at", "1700000000", url)[0] == 0
    assert verify(cli, secret_file, "--at", "1700000000", url)[1].startswith("invalid: bad-mac")


def test_verify_safe_number(cli, secret_file):
    safe = ref.safe_number(SECRET, "HALL-1", 15, 113333333)
    status, stdout, _ = verify(cli, secret_file, "--venue", "HALL-1", "--at", "1700000000", "--safe-number", safe)
    assert (status, stdout) == (0, "valid: 10 seconds left, accepted for 25 (venue HALL-1, window 113333333)\n")
    assert "expired" in verify(cli, secret_file, "--venue", "HALL-1", "--at", "1700000025", "--safe-number", safe)[1]
    assert "not-yet-valid" in verify(cli, secret_file, "--venue", "HALL-1", "--at", "1699999979", "--safe-number", safe)[1]
    assert verify(cli, secret_file, "--venue", "DEMO", "--at", "1700000000", "--safe-number", safe)[0] == 1
    status, stdout, _ = verify(cli, secret_file, "--venue", "HALL-1", "--safe-number", "12현34규")
    assert (status, stdout.split(" (")[0]) == (1, "invalid: malformed")
    digits = [c for c in "0123456789" if c != safe[0]]
    status, stdout, _ = verify(cli, secret_file, "--venue", "HALL-1", "--at", "1700000000",
                               "--safe-number", digits[0] + safe[1:])
    assert status == 1


@pytest.mark.parametrize("args,message", [
    ([], "give a URL or TOKEN"),
    (["X", "--safe-number", "12가34나"], "give one of"),
    (["X", "--stdin"], "give one of"),
    (["--skew", "61", "X"], "--skew must be a whole number from 0 to 60"),
    (["--skew", "-9223372036854775808", "X"], "--skew must be a whole number from 0 to 60"),
    (["--skew", "-1", "X"], "--skew must be a whole number from 0 to 60"),
])
def test_verify_usage_errors(cli, secret_file, args, message):
    result = cli("verify", "--secret-file", str(secret_file), *args)
    assert result.returncode == 64 and message in result.stderr.decode()


# --- keygen ---------------------------------------------------------------------------------

def test_keygen_writes_0600_hex_and_refuses_to_overwrite(cli, tmp_path):
    path = tmp_path / "new"
    result = cli("keygen", "-o", str(path))
    assert result.returncode == 0
    assert result.stdout.decode() == f"wrote a new 32-byte secret to {path} (mode 0600)\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    content = path.read_text()
    assert re.fullmatch(r"[0-9a-f]{64}\n", content)
    again = cli("keygen", "-o", str(path))
    assert again.returncode == 73
    assert "already exists" in again.stderr.decode() and "--force" in again.stderr.decode()
    assert path.read_text() == content
    assert cli("keygen", "-o", str(path), "--force").returncode == 0
    assert path.read_text() != content and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new"]
    for output in cli.outputs:
        assert content.strip().encode() not in output and path.read_text().strip().encode() not in output


def test_keygen_defaults_to_the_state_directory(cli, env):
    assert cli("keygen").returncode == 0
    path = Path(env["STATE_DIRECTORY"]) / "secret"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    # code and verify find it there without flags.
    assert cli("code").returncode == 0


def test_keygen_never_writes_to_standard_output(cli):
    result = cli("keygen", "-o", "-")
    assert result.returncode == 64 and "never written to standard output" in result.stderr.decode()


def test_keygen_cannot_create(cli, tmp_path):
    result = cli("keygen", "-o", str(tmp_path / "missing" / "secret"))
    assert result.returncode == 73 and "No such file or directory" in result.stderr.decode()


# --- secret files ---------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["code", "verify"])
def test_secret_file_errors(cli, tmp_path, command):
    args = ["--at", "0", "X"] if command == "verify" else []
    loose = tmp_path / "loose"
    loose.write_text(SECRET.hex())
    loose.chmod(0o644)
    empty = tmp_path / "empty"
    empty.write_text("")
    empty.chmod(0o600)
    short = tmp_path / "short"
    short.write_text("00" * 15)
    short.chmod(0o600)
    cases = [
        (loose, 77, f"secret file {loose} is readable by group or others (mode 0644); run chmod 600 {loose}"),
        (tmp_path / "missing", 66, f"secret file {tmp_path / 'missing'} does not exist; create one with: qrcheckin keygen -o"),
        (empty, 65, f"secret file {empty} is empty"),
        (short, 65, f"secret file {short} holds only 15 bytes; at least 16 are needed"),
        (tmp_path, 66, f"secret file {tmp_path} is a directory, not a regular file"),
    ]
    for path, status, message in cases:
        result = cli(command, "--secret-file", str(path), *args)
        assert result.returncode == status, (path, result.stderr)
        assert result.stderr.decode() == f"qrcheckin: {message}" + result.stderr.decode().split(message, 1)[1]
        assert result.stderr.decode().count("\n") == 1 and result.stdout == b""


def test_secret_lookup_order(cli, tmp_path, env):
    credentials = tmp_path / "credentials"
    credentials.mkdir()
    other = bytes(range(100, 132))
    (credentials / "secret").write_text(other.hex())
    (credentials / "secret").chmod(0o400)
    out = fields(cli("code", "--at", "0", env={"CREDENTIALS_DIRECTORY": str(credentials)}).stdout)
    assert out["url"] == ref.url(other, "DEMO", 15, 0, 0)
    missing = cli("code")
    assert missing.returncode == 66
    assert f"secret file {env['STATE_DIRECTORY']}/secret does not exist" in missing.stderr.decode()
    assert not Path(env["STATE_DIRECTORY"]).exists(), "code must not generate a secret"


def test_the_secret_never_appears_in_any_output(cli, secret_file, tmp_path):
    url = ref.url(SECRET, "DEMO", 15, 1700000000, 0)
    cli("code", "--secret-file", str(secret_file), "--at", "1700000000")
    cli("code", "--secret-file", str(secret_file), "--json")
    cli("verify", "--secret-file", str(secret_file), "--at", "1700000000", url)
    cli("verify", "--secret-file", str(secret_file), "--safe-number", "12가34나")
    secret_file.chmod(0o644)
    cli("code", "--secret-file", str(secret_file))
    for output in cli.outputs:
        assert SECRET.hex().encode() not in output.lower()
        assert SECRET not in output
        assert SECRET.hex()[:16].encode() not in output.lower()


# --- help -----------------------------------------------------------------------------------

@pytest.mark.parametrize("command,words", [
    ("code", ["USAGE: qrcheckin code", "--secret-file FILE", "--json", "--seq N", "CREDENTIALS_DIRECTORY",
              "EXIT STATUS: 0 printed; 64", "65", "66", "77"]),
    ("verify", ["USAGE: qrcheckin verify", "--skew N", "--safe-number NUMBER", "malformed,",
                "unknown-version, no-venue, wrong-venue, bad-mac, expired, not-yet-valid",
                "EXIT STATUS: 0 valid (or --stdin finished); 1 invalid", "--stdin", "EXAMPLES:", "74",
                "64", "65", "66", "77"]),
    ("keygen", ["USAGE: qrcheckin keygen [-o FILE] [--force]", "-o, --output FILE", "--force", "0600",
                "EXIT STATUS: 0 written; 64 bad command line;", "73", "--venue VENUE", "--from FILE"]),
])
def test_help(qrcheckin, command, words):
    result = qrcheckin(command, "--help")
    assert result.returncode == 0 and result.stderr == b""
    text = result.stdout.decode()
    for word in words:
        assert word in text, word
    assert command in qrcheckin("--help").stdout.decode()
