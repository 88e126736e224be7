"""Tokens for a fleet, black-box: docs/token-vectors.json through the CLI and the Python
reference, venue keys, the streaming verifier, one configuration for code/verify, time and
period spellings, write failures, and secret-file refusals."""
import json
import os
import select
import subprocess

import pytest

import token_reference as ref
from conftest import BIN, ROOT, require_root

SECRET = bytes(range(32))
VECTORS = json.loads((ROOT / "docs" / "token-vectors.json").read_text())
VERIFY_KEYS = ["valid", "reason", "venue", "window", "seq", "issuedAt", "expiresAt", "expiresIn", "secondsLeft", "secretFile"]


@pytest.fixture
def env(tmp_path):
    return {"STATE_DIRECTORY": str(tmp_path / "state"), "CREDENTIALS_DIRECTORY": "", "HOME": str(tmp_path / "home"),
            "QRCHECKIN_CONFIG": "", "QRCHECKIN_VENUE": "", "QRCHECKIN_PERIOD": "", "QRCHECKIN_SECRET_FILE": "",
            "QRCHECKIN_BASE_URL": ""}


@pytest.fixture
def cli(qrcheckin, env):
    def call(*args, **kwargs):
        return qrcheckin(*args, env={**env, **kwargs.pop("env", {})}, **kwargs)
    return call


def write_secret(path, content):
    path.write_text(content)
    path.chmod(0o600)
    return path


@pytest.fixture
def secret_file(tmp_path):
    return write_secret(tmp_path / "secret", SECRET.hex() + "\n")


def key_files(tmp_path, keys):
    paths = []
    for index, source in enumerate(keys):
        content = source["master"] + "\n" if "master" in source else \
            f"{ref.VENUE_KEY_MAGIC} {source['venue']} {source['key']}\n"
        paths.append(write_secret(tmp_path / f"key{index}", content))
    return paths


# --- the vectors file -----------------------------------------------------------------------

def test_the_vectors_cover_every_reason_and_decomposed_hangul():
    cases = VECTORS["cases"]
    reasons = {case["expect"]["reason"] for case in cases if case["kind"] == "verify"} - {None}
    assert reasons == set(ref.REASONS) == set(VECTORS["reasons"])
    assert any(any(0x1100 <= ord(c) <= 0x1175 for c in case.get("input", "")) for case in cases)
    assert {case["kind"] for case in cases} == {"issue", "venue-id", "verify", "report"}


@pytest.mark.parametrize("case", VECTORS["cases"], ids=lambda case: case["name"])
def test_the_python_reference_passes_the_vectors(case):
    assert ref.check_vector(case) == case["expect"]


@pytest.mark.parametrize("case", [c for c in VECTORS["cases"] if c["kind"] == "issue"], ids=lambda c: c["name"])
def test_qrcheckin_issues_the_vectors(cli, tmp_path, case):
    [path] = key_files(tmp_path, [{"master": case["secret"]}])
    result = cli("code", "--secret-file", str(path), "--venue", case["venue"], "--period", str(case["period"]),
                 "--at", str(case["time"]), "--seq", str(case["seq"]), "--json")
    assert result.returncode == 0, result.stderr
    out, expect = json.loads(result.stdout), case["expect"]
    assert {k: out[k] for k in ("window", "token", "url", "safeNumber", "issuedAt", "expiresAt")} == \
        {k: expect[k] for k in ("window", "token", "url", "safeNumber", "issuedAt", "expiresAt")}
    venue_key = tmp_path / "venue.key"
    assert cli("keygen", "--venue", case["venue"], "--from", str(path), "-o", str(venue_key)).returncode == 0
    assert venue_key.read_text() == expect["venueKeyFile"]
    assert (venue_key.stat().st_mode & 0o777) == 0o600
    # The report key, from the master secret and from the venue key alike (docs/TOKEN.md, Kiosk reports).
    for source, name in ((path, "report.key"), (venue_key, "report-from-venue.key")):
        report_key = tmp_path / name
        made = cli("keygen", "--report", "--venue", case["venue"], "--from", str(source), "-o", str(report_key))
        assert made.returncode == 0, made.stderr
        assert report_key.read_text() == expect["reportKeyFile"]
        assert (report_key.stat().st_mode & 0o777) == 0o600


def test_qrcheckin_verifies_the_vectors_as_a_stream(cli, tmp_path):
    """Every verify case through `verify --stdin`, one stream per configuration."""
    groups = {}
    for case in VECTORS["cases"]:
        if case["kind"] == "verify":
            key = json.dumps([case["keys"], case["venue"], case["period"], case["skew"], case["time"]])
            groups.setdefault(key, []).append(case)
    for number, cases in enumerate(groups.values()):
        first = cases[0]
        directory = tmp_path / f"g{number}"
        directory.mkdir()
        paths = key_files(directory, first["keys"])
        args = ["verify", "--stdin", "--period", str(first["period"]), "--skew", str(first["skew"]),
                "--at", str(first["time"])]
        for path in paths:
            args += ["--secret-file", str(path)]
        if first["venue"]:
            args += ["--venue", first["venue"]]
        lines = "".join(case["input"].replace("\n", "") + "\n" for case in cases)
        result = cli(*args, input=lines.encode())
        bound = {source.get("venue") for source in first["keys"]}
        if first["venue"] and None not in bound and first["venue"] not in bound:
            # The CLI refuses a venue no key serves before reading anything: a clear error at
            # start-up, where the Domain (and the vectors) answer wrong-venue per code.
            assert result.returncode == 64 and "serves" in result.stderr.decode()
            assert {case["expect"]["reason"] for case in cases} == {"wrong-venue"}
            continue
        assert result.returncode == 0, result.stderr
        outputs = [json.loads(line) for line in result.stdout.decode().splitlines()]
        assert len(outputs) == len(cases)
        for case, out in zip(cases, outputs):
            assert list(out) == VERIFY_KEYS
            expect = dict(case["expect"])
            index = expect.pop("secretIndex")
            assert out.pop("secretFile") == (str(paths[index]) if index is not None else None), case["name"]
            # Not in the vectors (TOKEN.md's result): the seconds left in the code's own window.
            valid_expiry = expect["valid"] and expect["expiresAt"] is not None
            assert out.pop("expiresIn") == (expect["expiresAt"] - case["time"] if valid_expiry else None), case["name"]
            assert out == expect, case["name"]


# --- venue keys -----------------------------------------------------------------------------

def test_a_venue_key_signs_what_the_master_verifies_and_nothing_else(cli, tmp_path, secret_file):
    key = tmp_path / "hall-1.key"
    result = cli("keygen", "--venue", "HALL-1", "--from", str(secret_file), "-o", str(key))
    assert result.returncode == 0 and "HALL-1" in result.stdout.decode()
    assert SECRET.hex() not in key.read_text()
    code = json.loads(cli("code", "--secret-file", str(key), "--at", "1700000000", "--json").stdout)
    assert code["venue"] == "HALL-1" and code["url"] == ref.url(SECRET, "HALL-1", 15, 1700000000, 0)
    assert cli("verify", "--secret-file", str(secret_file), "--at", "1700000000", code["url"]).returncode == 0
    assert cli("verify", "--secret-file", str(key), "--at", "1700000000", "--safe-number", code["safeNumber"]).returncode == 0
    other = cli("code", "--secret-file", str(key), "--venue", "HALL-2")
    assert other.returncode == 64 and "serves HALL-1 only" in other.stderr.decode()
    other = cli("code", "--secret-file", str(key), env={"QRCHECKIN_VENUE": "HALL-2"})
    assert other.returncode == 78 and "serves HALL-1 only" in other.stderr.decode()
    hall2 = ref.url(SECRET, "HALL-2", 15, 1700000000, 0)
    result = cli("verify", "--secret-file", str(key), "--at", "1700000000", hall2)
    assert result.returncode == 1 and result.stdout.decode().startswith("invalid: wrong-venue")
    # A venue key cannot make other venue keys.
    refused = cli("keygen", "--venue", "HALL-2", "--from", str(key), "-o", str(tmp_path / "h2"))
    assert refused.returncode == 65 and "not a master secret" in refused.stderr.decode()
    assert not (tmp_path / "h2").exists()


@pytest.mark.parametrize("args,message", [
    (["--venue", "HALL-1"], "--venue needs --from"),
    (["--from", "x", "-o", "y"], "--from needs --venue"),
    (["--venue", "HALL-1", "--from", "x"], "--venue needs -o FILE"),
    (["--venue", "..", "--from", "x", "-o", "y"], "dots only"),
])
def test_keygen_venue_usage(cli, args, message):
    result = cli("keygen", *args)
    assert result.returncode == 64 and message in result.stderr.decode()


# --- the streaming verifier -----------------------------------------------------------------

def test_stdin_answers_each_line_before_the_next_arrives(env, secret_file):
    """A co-process: write one line, read its answer, repeat; bad lines never end the stream."""
    process = subprocess.Popen([BIN, "verify", "--stdin", "--secret-file", str(secret_file), "--venue", "HALL-1"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, env={**os.environ, **env})
    try:
        now_code = subprocess.run([BIN, "code", "--secret-file", str(secret_file), "--venue", "HALL-1", "--json"],
                                  capture_output=True, env={**os.environ, **env}).stdout
        url = json.loads(now_code)["url"]
        for line, valid, reason in [(url, True, None), ("garbage", False, "malformed"), ("", False, "malformed"),
                                    ("\xff\xfe", False, "malformed"), (url + "?x=1", True, None),
                                    ("X" * 10000, False, "malformed"), (url, True, None)]:
            process.stdin.write(line.encode("utf-8", "surrogateescape") + b"\n")
            process.stdin.flush()
            ready, _, _ = select.select([process.stdout], [], [], 10)
            assert ready, f"no answer to {line[:40]!r}"
            answer = json.loads(process.stdout.readline())
            assert (answer["valid"], answer["reason"]) == (valid, reason), line[:40]
            assert list(answer) == VERIFY_KEYS
        process.stdin.close()
        assert process.stdout.read() == b""
        assert process.wait(10) == 0
    finally:
        process.kill()


def test_stdin_last_line_without_newline_and_no_venue(cli, secret_file):
    url = ref.url(SECRET, "DEMO", 15, 1700000000, 0)
    token = url.rsplit("/", 1)[1]
    result = cli("verify", "--stdin", "--secret-file", str(secret_file), "--at", "1700000000",
                 input=f"{url}\n{token}\n2ABC\n12가34나\n{url}".encode())
    answers = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert [a["reason"] for a in answers] == [None, "no-venue", "unknown-version", "no-venue", None]
    assert answers[0]["secretFile"] == str(secret_file) and answers[0]["secondsLeft"] == 25


INVALID_UTF8 = [b"\x80", b"\xbf", b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
                b"\xf8\x88\x80\x80\x80", b"\xff", b"\xfe", b"\xe2\x82", b"\xf0\x9f\x98", b"\xc3"]


def test_stdin_refuses_every_line_with_invalid_utf8_or_a_control_character(cli, secret_file):
    """Lines with invalid UTF-8 or a NUL in the unsigned base URL were answered valid (1,210
    cases in an adversarial run); TOKEN.md says malformed. Many generated cases, one stream."""
    rng = __import__("random").Random(25)
    url = ref.url(SECRET, "HALL-1", 15, 1700000000, 0).encode()
    base_end = url.index(b"/HALL-1/")
    bad = [bytes([c]) for c in list(range(0x00, 0x20)) + [0x7F] if c not in (0x0A,)] + INVALID_UTF8
    lines = []
    for _ in range(3000):
        insert = rng.choice(bad)
        where = rng.choice(["base", "query", "fragment", "venue", "token"])
        if where == "base":
            at = rng.randrange(1, base_end)        # inside the base URL, never first (whitespace is trimmed)
            lines.append(url[:at] + insert + url[at:])
        elif where == "query":
            lines.append(url + b"?x=" + insert + b"y")
        elif where == "fragment":
            lines.append(url + b"#" + insert + b"z")
        elif where == "venue":
            at = base_end + 1 + rng.randrange(0, 6)
            lines.append(url[:at] + insert + url[at:])
        else:
            lines.append(url[:-rng.randrange(1, 20)] + insert + url[-5:])
    result = cli("verify", "--stdin", "--secret-file", str(secret_file), "--venue", "HALL-1", "--at", "1700000000",
                 input=b"\n".join([url] + lines + [url]) + b"\n")
    answers = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert result.returncode == 0 and len(answers) == len(lines) + 2
    assert answers[0]["valid"] and answers[-1]["valid"], "the clean URL before and after"
    wrong = [(line, a["reason"]) for line, a in zip(lines, answers[1:-1]) if a["valid"] or a["reason"] != "malformed"]
    assert not wrong, f"{len(wrong)} of {len(lines)} not malformed, e.g. {wrong[:3]}"


def test_verify_json_shape(cli, secret_file):
    url = ref.url(SECRET, "DEMO", 15, 1700000000, 0)
    result = cli("verify", "--secret-file", str(secret_file), "--at", "1700000000", "--json", url)
    assert result.returncode == 0
    assert json.loads(result.stdout) == {"valid": True, "reason": None, "venue": "DEMO", "window": 113333333, "seq": 0,
                                         "issuedAt": 1699999995, "expiresAt": 1700000010, "expiresIn": 10, "secondsLeft": 25,
                                         "secretFile": str(secret_file)}
    # verify and current.json count one clock: the seconds left in the code's window, from --at.
    text = cli("verify", "--secret-file", str(secret_file), "--at", "1700000007", url)
    assert text.stdout.startswith(b"valid: 3 seconds left, accepted for 18 (venue DEMO"), text.stdout
    late = cli("verify", "--secret-file", str(secret_file), "--at", "1700000012", url)
    assert late.stdout.startswith(b"valid: its window ended 2 seconds ago, accepted for 13 (venue DEMO"), late.stdout
    result = cli("verify", "--secret-file", str(secret_file), "--at", "1700000040", "--json", url)
    assert result.returncode == 1
    assert json.loads(result.stdout) == {"valid": False, "reason": "expired", "venue": "DEMO", "window": 113333333,
                                         "seq": 0, "issuedAt": 1699999995, "expiresAt": 1700000010,
                                         "expiresIn": None, "secondsLeft": None, "secretFile": str(secret_file)}


def test_rotation_reports_the_matching_file(cli, tmp_path, secret_file):
    new = write_secret(tmp_path / "new", bytes(range(50, 82)).hex())
    url = ref.url(SECRET, "DEMO", 15, 1700000000, 0)
    result = cli("verify", "--secret-file", str(new), "--secret-file", str(secret_file), "--at", "1700000000", url)
    assert result.returncode == 0 and f"secret {secret_file})" in result.stdout.decode()
    assert cli("verify", "--secret-file", str(new), "--at", "1700000000", url).returncode == 1
    repeated = cli("code", "--secret-file", str(new), "--secret-file", str(secret_file))
    assert repeated.returncode == 64 and "more than once" in repeated.stderr.decode()


# --- write failures -------------------------------------------------------------------------

@pytest.mark.parametrize("args", [["code"], ["code", "--json"], ["verify", "--json", "URL"], ["verify", "--stdin"]])
def test_write_failures_exit_74_with_one_message(env, secret_file, args):
    url = ref.url(SECRET, "DEMO", 15, 1700000000, 0)
    argv = [BIN, *[url if a == "URL" else a for a in args], "--secret-file", str(secret_file), "--at", "1700000000"]
    with open("/dev/full", "wb") as full:
        result = subprocess.run(argv, stdout=full, stderr=subprocess.PIPE, input=(url + "\n").encode(),
                                env={**os.environ, **env}, timeout=30)
    assert result.returncode == 74, result.stderr
    assert result.stderr.decode().count("\n") == 1 and "No space left on device" in result.stderr.decode()


def test_a_closed_pipe_is_a_write_error_not_a_signal(env, secret_file):
    url = ref.url(SECRET, "DEMO", 15, 1700000000, 0)
    process = subprocess.Popen([BIN, "verify", "--stdin", "--secret-file", str(secret_file), "--at", "1700000000"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={**os.environ, **env})
    process.stdout.close()
    try:
        process.stdin.write((url + "\n").encode() * 10000)
        process.stdin.close()
    except BrokenPipeError:
        pass
    assert process.wait(30) == 74


# --- one configuration ----------------------------------------------------------------------

def test_code_and_verify_read_the_configuration_of_run(cli, tmp_path, secret_file):
    config = tmp_path / "qrcheckin.conf"
    config.write_text(f"venue = HALL-9\nperiod = 30\nsecret-file = {secret_file}\nbase-url = HTTPS://H.EXAMPLE/C\n"
                      "scale = 12\noutput-dir = /nonexistent\n")
    expected = ref.url(SECRET, "HALL-9", 30, 1700000000, 0, base="HTTPS://H.EXAMPLE/C")
    for how in (["--config", str(config)], ["-c", str(config)]):
        out = json.loads(cli("code", *how, "--at", "1700000000", "--json").stdout)
        assert out["url"] == expected and out["period"] == 30
    out = json.loads(cli("code", "--at", "1700000000", "--json", env={"QRCHECKIN_CONFIG": str(config)}).stdout)
    assert out["url"] == expected
    # The environment overrides the file, flags override both.
    out = json.loads(cli("code", "--at", "1700000000", "--json", env={
        "QRCHECKIN_CONFIG": str(config), "QRCHECKIN_VENUE": "HALL-8", "QRCHECKIN_PERIOD": "15"}).stdout)
    assert out["url"] == ref.url(SECRET, "HALL-8", 15, 1700000000, 0, base="HTTPS://H.EXAMPLE/C")
    out = json.loads(cli("code", "--at", "1700000000", "--json", "--venue", "HALL-7", env={
        "QRCHECKIN_CONFIG": str(config), "QRCHECKIN_VENUE": "HALL-8"}).stdout)
    assert out["venue"] == "HALL-7"
    # verify: the token alone is enough, the venue and period come from the file.
    token = expected.rsplit("/", 1)[1]
    result = cli("verify", "--config", str(config), "--at", "1700000000", token)
    assert result.returncode == 0, result.stderr
    # QRCHECKIN_SECRET_FILE alone.
    assert cli("code", env={"QRCHECKIN_SECRET_FILE": str(secret_file)}).returncode == 0


@pytest.mark.parametrize("content,message", [
    ("venue = ..\n", ":1: venue: invalid venue id '..'"),
    ("period = 15x\n", ":1: period: must be a whole number of seconds"),
    ("colour = red\n", "unknown key 'colour'"),
])
def test_bad_configuration_is_78(cli, tmp_path, secret_file, content, message):
    config = tmp_path / "c.conf"
    config.write_text(content)
    result = cli("code", "--config", str(config), "--secret-file", str(secret_file))
    assert result.returncode == 78 and message in result.stderr.decode(), result.stderr


def test_bad_environment_is_78(cli, secret_file):
    result = cli("code", "--secret-file", str(secret_file), env={"QRCHECKIN_PERIOD": "0"})
    assert result.returncode == 78 and "$QRCHECKIN_PERIOD" in result.stderr.decode()


# --- times and periods ----------------------------------------------------------------------

@pytest.mark.parametrize("at,unix", [
    ("1700000000", 1700000000), ("@1700000000", 1700000000), ("@-1", -1),
    ("2023-11-14T22:13:20Z", 1700000000), ("2023-11-15T07:13:20+09:00", 1700000000),
    ("2023-11-14T17:13:20-0500", 1700000000), ("2023-11-14 22:13:20.999Z", 1700000000),
    ("2024-02-29T00:00:00Z", 1709164800), ("1969-12-31T23:59:59Z", -1),
    ("1000000000000000", 10**15), ("-1000000000000000", -10**15),
])
def test_at_spellings(cli, secret_file, at, unix):
    out = json.loads(cli("code", "--secret-file", str(secret_file), "--at", at, "--json").stdout)
    assert out["window"] == unix // 15


@pytest.mark.parametrize("at", ["", "-", " 1", "1e3", "+1", "1000000000000001", "-1000000000000001",
                                "9223372036854775807", "-9223372036854775808", "9223372036854775808",
                                "2023-11-14T22:13:20", "2023-02-29T00:00:00Z", "2023-11-14T24:00:00Z",
                                "2023-11-14T22:13:20+24:00", "@", "@@1", "tomorrow"])
@pytest.mark.parametrize("command", ["code", "verify"])
def test_bad_at_is_64_never_a_signal(cli, secret_file, at, command):
    extra = ["X"] if command == "verify" else []
    result = cli(command, "--secret-file", str(secret_file), "--at", at, *extra)
    assert result.returncode == 64 and "--at must be" in result.stderr.decode(), (at, result)


@pytest.mark.parametrize("at", ["1000000000000001", "-1000000000000001", "9223372036854775808", "99999999999999999999",
                                "-99999999999999999999", "@99999999999999999999", "1" + "0" * 400])
def test_too_many_seconds_get_the_range_message(cli, secret_file, at):
    # 99999999999999999999 overflows Int64 and got the format message ("Unix seconds, 'now', ...").
    result = cli("code", "--secret-file", str(secret_file), "--at", at)
    first = result.stderr.decode().splitlines()[0]
    assert result.returncode == 64 and first.startswith("qrcheckin: --at must be within ±10^15 Unix seconds, got '"), first


def test_at_now(cli, secret_file):
    assert cli("code", "--secret-file", str(secret_file), "--at", "now").returncode == 0


@pytest.mark.parametrize("period,seconds", [("15", 15), ("15s", 15), ("1m", 60), ("60m", 3600), ("3600", 3600)])
def test_period_spellings(cli, secret_file, period, seconds):
    out = json.loads(cli("code", "--secret-file", str(secret_file), "--period", period, "--at", "1700000000",
                         "--json").stdout)
    assert out["period"] == seconds


@pytest.mark.parametrize("period", ["0", "3601", "61m", "1h", "", "-", " 1", "1e3", "15 s", "-15",
                                    "9223372036854775807", "-9223372036854775808", "1.5"])
@pytest.mark.parametrize("command", ["code", "verify"])
def test_bad_period_is_64(cli, secret_file, period, command):
    extra = ["X"] if command == "verify" else []
    result = cli(command, "--secret-file", str(secret_file), "--period", period, *extra)
    assert result.returncode == 64 and "--period" in result.stderr.decode(), (period, result)


@pytest.mark.parametrize("seq", ["-1", "4294967296", "9223372036854775807", "-9223372036854775808", "", " 1", "1e3"])
def test_bad_seq_is_64(cli, secret_file, seq):
    result = cli("code", "--secret-file", str(secret_file), "--seq", seq)
    assert result.returncode == 64 and "--seq" in result.stderr.decode()


# --- secret files (issue 14, item 7) --------------------------------------------------------

def test_another_users_secret_is_refused(cli, tmp_path):
    require_root("gives a file away (chown)")
    path = write_secret(tmp_path / "theirs", SECRET.hex())
    os.chown(path, 65534, 65534)
    result = cli("code", "--secret-file", str(path))
    assert result.returncode == 77 and "belongs to uid 65534" in result.stderr.decode()


def test_a_secret_unreadable_for_permissions_is_77(tmp_path, env):
    require_root("runs as another user")
    tmp_path.chmod(0o755)
    path = write_secret(tmp_path / "root-only", SECRET.hex())
    result = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", BIN, "code",
                             "--secret-file", str(path)], capture_output=True, env={**os.environ, **env}, timeout=30)
    assert result.returncode == 77, result.stderr
    assert "Permission denied" in result.stderr.decode()


def test_a_linked_secrets_advice_names_the_target(cli, tmp_path):
    target = tmp_path / "real"
    target.write_text(SECRET.hex())
    target.chmod(0o644)
    link = tmp_path / "link"
    link.symlink_to(target)
    result = cli("code", "--secret-file", str(link))
    message = result.stderr.decode()
    assert result.returncode == 77
    assert f"chmod 600 {target.resolve()}" in message and f"chmod 600 {link}" not in message
    assert f"{link} (a link to {target.resolve()})" in message


def test_one_byte_is_singular(cli, tmp_path):
    path = write_secret(tmp_path / "tiny", "ab\n")
    result = cli("code", "--secret-file", str(path))
    assert result.returncode == 65 and "holds only 1 byte;" in result.stderr.decode()


def test_a_fifo_secret_does_not_hang(cli, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo, 0o600)
    result = cli("code", "--secret-file", str(fifo), timeout=30)
    assert result.returncode == 66 and "a FIFO" in result.stderr.decode()


def test_verify_ignores_the_settings_it_does_not_use(cli, tmp_path, secret_file):
    config = tmp_path / "c.conf"
    config.write_text("scale = 999\nops-group = no-such-group-here\n")
    url = ref.url(SECRET, "DEMO", 15, 1700000000, 0)
    bad = {"QRCHECKIN_BASE_URL": "ftp://x", "QRCHECKIN_SCALE": "0", "QRCHECKIN_CONFIG": str(config)}
    assert cli("verify", "--secret-file", str(secret_file), "--at", "1700000000", url, env=bad).returncode == 0
    refused = cli("code", "--secret-file", str(secret_file), env=bad)
    assert refused.returncode == 78 and "$QRCHECKIN_BASE_URL" in refused.stderr.decode()


@pytest.mark.parametrize("skew", ["-1", "61", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
                                  "", "-", " 1", "1e3", "1.0"])
def test_bad_skew_is_64(cli, secret_file, skew):
    result = cli("verify", "--secret-file", str(secret_file), "--skew", skew, "--stdin", input=b"")
    assert result.returncode == 64 and "--skew" in result.stderr.decode(), (skew, result)


@pytest.mark.parametrize("skew,valid", [("0", False), ("60", True)])
def test_skew_ends(cli, secret_file, skew, valid):
    url = ref.url(SECRET, "DEMO", 15, 1700000000, 0)
    result = cli("verify", "--secret-file", str(secret_file), "--skew", skew, "--at", str(1700000000 + 15 * 60), url)
    assert result.returncode == (0 if valid else 1)
