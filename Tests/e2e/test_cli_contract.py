"""One honest command-line contract (issue 10), checked on the built binary as a script would:
nothing dies by a signal, every exit status is in the man page's EXIT STATUS, every write failure is
reported, usage errors teach, help texts are complete and match the golden files, every JSON
output matches docs/qrcheckin.schema.json, and a dead daemon is reported at once."""
import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import jsonschema
import pytest

from conftest import BIN, ROOT, run
from daemonutil import wait_until

COMMANDS = ["run", "status", "ctl", "shake", "encode", "code", "verify", "keygen", "show", "report"]
GOLDEN = ROOT / "Tests" / "e2e" / "golden" / "help"
SCHEMA = json.loads((ROOT / "docs" / "qrcheckin.schema.json").read_text())


def documented_exit_codes():
    """The exit statuses the man page's EXIT STATUS section documents."""
    text = (ROOT / "packaging" / "qrcheckin.1.sections").read_text()
    section = text.split(".SH EXIT STATUS", 1)[1].split("\n.SH ", 1)[0]
    return {int(code) for code in re.findall(r"^\.B (\d+)$", section, re.M)}


EXIT_CODES = documented_exit_codes()


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("QRCHECKIN_") and k not in ("NO_COLOR",)}
    env.update(extra)
    return env


def execute(args, env=None, stdout=subprocess.PIPE, timeout=30):
    """Runs the binary with no terminal anywhere (stdin from /dev/null)."""
    return subprocess.run([BIN, *args], stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.PIPE,
                          env=env or clean_env(), timeout=timeout)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """A secret file, an empty output directory and a path no daemon can create."""
    base = tmp_path_factory.mktemp("contract")
    secret = base / "secret"
    assert execute(["keygen", "-o", str(secret)]).returncode == 0
    blocker = base / "a-file"
    blocker.write_text("not a directory\n")
    return {"base": base, "secret": str(secret), "out": str(base / "out"), "state": str(base / "state"),
            "unusable": str(blocker / "out")}


# --------------------------------------------------------------------------- extremes

EXTREMES = ["-9223372036854775808", "9223372036854775807", "-9223372036854775809", "9223372036854775808",
            "", "-", " 1", "1e3"]


def numeric_cases():
    """(id, argv, env) for every numeric option and setting of every command at its extremes:
    minimum, maximum, one beyond each, ±2^63 (and one beyond), empty, '-', ' 1', '1e3'."""
    options = {
        # command: [(option or QRCHECKIN_ variable, minimum, maximum)]
        "run": [("--period", 1, 3600), ("--scale", 1, 64), ("--margin", 1, 64),
                ("QRCHECKIN_PERIOD", 1, 3600), ("QRCHECKIN_SCALE", 1, 64), ("QRCHECKIN_MARGIN", 1, 64)],
        "encode": [("-s", 1, 64), ("-m", 1, 64), ("-v", 1, 40)],
        "code": [("--period", 1, 3600), ("--seq", 0, 4095), ("--at", -10**15, 10**15), ("QRCHECKIN_PERIOD", 1, 3600)],
        "verify": [("--period", 1, 3600), ("--skew", 0, 60), ("--at", -10**15, 10**15), ("QRCHECKIN_PERIOD", 1, 3600)],
    }
    for command in ("status", "ctl", "shake", "show", "keygen"):
        options[command] = [("QRCHECKIN_PERIOD", 1, 3600), ("QRCHECKIN_SCALE", 1, 64), ("QRCHECKIN_MARGIN", 1, 64)]
    for command in ("run", "status", "ctl", "shake", "show"):
        # The same settings in a config file (-c FILE): 'key = value' lines.
        options[command] += [("config:period", 1, 3600), ("config:scale", 1, 64), ("config:margin", 1, 64)]
    for command, specs in options.items():
        for name, low, high in specs:
            values = [str(low), str(high), str(low - 1), str(high + 1)] + EXTREMES
            for value in values:
                yield pytest.param(command, name, value, low, high, id=f"{command}-{name}={value!r}")


def argv_for(command, world):
    """A command line that gets past the option under test quickly and without a terminal."""
    return {
        "run": ["run", "--output-dir", world["unusable"], "--state-dir", world["state"]],  # exits 73 when valid
        "encode": ["encode", "-o", "-", "HELLO"],
        "code": ["code", "--secret-file", world["secret"]],
        "verify": ["verify", "--secret-file", world["secret"], "--venue", "DEMO", "NOT-A-TOKEN"],
        "status": ["status", "--output-dir", world["out"]],
        "ctl": ["ctl", "--output-dir", world["out"], "get"],
        "shake": ["shake", "--output-dir", world["out"]],
        "show": ["show", "--output-dir", world["out"]],
        "keygen": ["keygen", "-o", str(world["base"] / f"k-{time.monotonic_ns()}")],
    }[command]


def in_range(value, low, high, setting):
    """Whether `value` is a valid whole number in [low, high] (an empty variable is unset; a
    config file's values are trimmed, and an empty one is an empty number)."""
    if setting == "variable" and value == "":
        return True
    if setting == "file":
        value = value.strip()
    return re.fullmatch(r"-?[0-9]+", value) is not None and low <= int(value) <= high


@pytest.mark.parametrize("command, name, value, low, high", list(numeric_cases()))
def test_no_signal_and_a_documented_exit_status_at_every_extreme(world, command, name, value, low, high):
    argv = argv_for(command, world)
    env = clean_env()
    setting = "variable" if name.startswith("QRCHECKIN_") else "file" if name.startswith("config:") else None
    if setting == "variable":
        env[name] = value
    elif setting == "file":
        config = world["base"] / f"config-{time.monotonic_ns()}.conf"
        config.write_text(f"{name.split(':')[1]} = {value}\n")
        argv = argv[:1] + ["-c", str(config)] + argv[1:]
    else:
        argv = argv[:1] + [name, value] + argv[1:]
    result = execute(argv, env=env, stdout=subprocess.DEVNULL)
    assert result.returncode >= 0, f"killed by signal {-result.returncode}: {result.stderr!r}"
    assert result.returncode in EXIT_CODES, (result.returncode, result.stderr)
    if command in ("code", "verify", "keygen"):
        # Which settings they read and the forms they accept (--at @UNIX, 30s) are the tokens
        # helper's to define: here only no signal and a documented status.
        return
    message = result.stderr.decode()
    if command in ("status", "ctl", "shake", "show") and setting:
        # Settings these clients do not use (period, scale, margin) are ignored wherever they
        # come from: the command ends as it would without them.
        baseline = execute(argv_for(command, world), env=clean_env(), stdout=subprocess.DEVNULL)
        assert result.returncode == baseline.returncode, message
        return
    if in_range(value, low, high, setting):
        assert result.returncode not in (65, 78) and "must be" not in message, message
    else:
        # Refused, naming the option, variable or file line (a flag: 64; a setting: 78).
        assert result.returncode == (78 if setting else 64), message
        long = {"-s": "--scale", "-m": "--margin", "-v": "--symversion"}.get(name, name)
        assert long.removeprefix("config:") in message, message


# --------------------------------------------------------------------------- write failures

def full(args, env=None, timeout=30):
    with open("/dev/full", "wb") as sink:
        return execute(args, env=env, stdout=sink, timeout=timeout)


def assert_write_failure(result):
    assert result.returncode == 74, (result.returncode, result.stderr)
    lines = result.stderr.decode().splitlines()
    assert lines == ["qrcheckin: cannot write standard output: No space left on device"], lines


@pytest.mark.parametrize("args", [["--help"], ["encode", "-t", "utf8", "HELLO"], ["status", "--watch"]])
def test_a_reader_that_goes_away_is_exit_74_not_sigpipe(world, args):
    """`qrcheckin status --watch | head -1`: the closed pipe is a write error, reported once."""
    if args[0] == "status":
        args = args + ["--output-dir", world["out"]]
    read, write = os.pipe()
    os.close(read)  # nobody will ever read
    try:
        result = execute(args, stdout=write)
    finally:
        os.close(write)
    assert result.returncode == 74, (result.returncode, result.stderr)
    assert result.stderr.decode().splitlines() == ["qrcheckin: cannot write standard output: Broken pipe"]


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["help", "status"]] + [[c, "--help"] for c in COMMANDS])
def test_help_to_a_full_disk_exits_74(args):
    assert_write_failure(full(args))


@pytest.mark.parametrize("args", [["status"], ["status", "--json"], ["status", "-w"], ["status", "--watch", "--json"]])
def test_status_to_a_full_disk_exits_74_and_watch_stops(world, args):
    """`status --json > /dev/full` exited 0; `status --watch > /dev/full` ran forever."""
    assert_write_failure(full(args + ["--output-dir", world["out"]], timeout=30))


def test_code_and_verify_to_a_full_disk_exit_74(world):
    assert_write_failure(full(["code", "--secret-file", world["secret"]]))
    assert_write_failure(full(["code", "--secret-file", world["secret"], "--json"]))
    assert_write_failure(full(["verify", "--secret-file", world["secret"], "--venue", "DEMO", "X"]))


@pytest.fixture
def daemon(daemons):
    return daemons("d", period=3)


def test_ctl_and_shake_to_a_full_disk_exit_74(daemon):
    """`ctl get --json > /dev/full` exited 0."""
    env = dict(daemon.env)
    where = ["--output-dir", str(daemon.out)]
    for args in (["ctl", "get", "--json"], ["ctl", "get"], ["ctl", "shake", "on"], ["shake"]):
        assert_write_failure(full([args[0], *where, *args[1:]], env=env))


# --------------------------------------------------------------------------- errors that teach

@pytest.mark.parametrize("command", COMMANDS)
def test_a_usage_error_prints_the_commands_usage_line(command):
    result = execute([command, "--no-such-option"])
    assert result.returncode == 64
    lines = result.stderr.decode().splitlines()
    assert lines[0].startswith("qrcheckin: unknown option '--no-such-option'")
    assert lines[1].startswith(f"usage: qrcheckin {command} "), lines


@pytest.mark.parametrize("args, words", [
    (["ctl"], ["needs a request", "get", "shake on|off|toggle", "refresh auto|pause|now"]),
    (["ctl", "refresh"], ["'ctl refresh' expects auto|pause|now"]),
    (["ctl", "shake"], ["'ctl shake' expects on|off|toggle", "qrcheckin shake"]),
    (["ctl", "refresh", "later"], ["expects auto|pause|now", "'later'"]),
    (["ctl", "frob"], ["unknown request 'frob'", "expected get"]),
    (["ctl", "get", "now"], ["'ctl get' takes no argument"]),
])
def test_ctl_names_what_it_expected(args, words):
    """`ctl refresh` said "unknown request 'refresh'", `ctl shake` was a bare usage error, and
    bare `ctl` said only "takes 1 to 2 arguments, got 0"."""
    result = execute(args)
    assert result.returncode == 64
    message = result.stderr.decode()
    for word in words:
        assert word in message, (word, message)
    assert "usage: qrcheckin ctl " in message


def test_repeated_single_value_flags_are_refused():
    result = execute(["encode", "-s", "2", "-s", "3", "x"])
    assert result.returncode == 64 and b"more than once" in result.stderr


# --------------------------------------------------------------------------- help

def help_text(*args):
    result = execute([*args, "--help"])
    assert result.returncode == 0 and result.stderr == b""
    return result.stdout.decode()


@pytest.mark.parametrize("command", COMMANDS)
def test_usage_lists_every_option_and_help_ends_with_examples(command):
    text = help_text(command)
    usage = text.split("\n\n", 1)[0]
    options = re.findall(r"^  (?:-(\w), )?\s*--([\w-]+)", text.split("OPTIONS:\n", 1)[1].split("\n\n", 1)[0], re.M)
    assert options, text
    for short, long in options:
        if long == "help":
            continue
        assert f"[-{short} " in usage or f"[-{short}]" in usage or f"--{long}" in usage, (long, usage)
    examples = text.rstrip("\n").split("\nEXAMPLES:\n")
    assert len(examples) == 2, "no EXAMPLES section at the end"
    lines = examples[1].splitlines()
    assert 2 <= len(lines) <= 4 and all(re.match(r"  (\S+ \| )?(echo|sudo )?.*qrcheckin ", line) for line in lines), lines


@pytest.mark.parametrize("name", ["qrcheckin"] + COMMANDS)
def test_help_matches_its_golden_file(name):
    """Regenerate with `make golden` after changing an option or a help text."""
    text = help_text() if name == "qrcheckin" else help_text(name)
    golden = GOLDEN / f"{name}.txt"
    assert golden.exists(), f"{golden} missing: run make golden"
    assert text == golden.read_text(), f"--help of {name} differs from {golden}: run make golden and review the diff"


def test_margin_has_one_range_for_run_and_encode():
    for command in ("run", "encode"):
        line = next(l for l in help_text(command).splitlines() if "--margin" in l and "  " in l.strip())
        assert "1-64" in line, line


# --------------------------------------------------------------------------- a dead daemon

def test_a_killed_daemon_is_reported_not_running_at_once(daemons):
    """After kill -9, status said running and healthy (exit 0) while the socket refused
    connections: the unreaped process still had a pid."""
    daemon = daemons("d", period=60)
    daemon.signal(signal.SIGKILL)
    # Not reaped on purpose: a zombie still answers kill(pid, 0), as a parent that does not
    # wait (or a reused pid) would make it.
    wait_until(lambda: Path(f"/proc/{daemon.process.pid}/stat").read_text().split(") ")[1][0] == "Z",
               message="the daemon to be a zombie")
    result = daemon.cli("status", "--output-dir", str(daemon.out), "--lang", "en")
    text = result.stdout.decode()
    assert result.returncode == 3, text
    assert "not running" in text and "refuses" in text
    assert not re.search(r"Health\s+ok", text), text
    as_json = json.loads(daemon.cli("status", "--output-dir", str(daemon.out), "--json").stdout)
    assert as_json["status"] == "not-running" and as_json["exitStatus"] == 3


def test_a_stale_report_does_not_claim_health_ok(tmp_path):
    from kiosk_screen import write_state
    now = int(time.time())
    write_state(tmp_path, issuedAt=now - 100, expiresAt=now - 85, updatedAt=now - 100)
    result = run("status", "--output-dir", str(tmp_path), "--lang", "en")
    text = result.stdout.decode()
    assert result.returncode == 3 and "stale" in text
    assert not re.search(r"Health\s+ok", text) and re.search(r"Health\s+unknown", text), text
    korean = run("status", "--output-dir", str(tmp_path), "--lang", "ko").stdout.decode()
    assert "정상" not in korean and "알 수 없음" in korean


def test_korean_status_translates_every_label_once(tmp_path):
    """`status --lang ko` printed `남은 시간     남은 시간 11초` and left 6 of 8 labels English."""
    from kiosk_screen import write_state
    write_state(tmp_path, expiresAt=int(time.time()) + 12)
    text = run("status", "--output-dir", str(tmp_path), "--lang", "ko").stdout.decode()
    assert text.count("남은 시간") == 1 and re.search(r"남은 시간\s+\d+초", text), text
    for label in ("장소", "안심번호", "모드", "상태", "흔들기 켜짐 | 자동 새로고침"):
        assert label in text, (label, text)
    for english in ("venue", "safe number", "countdown", "shake ", "refresh ", "health", "updated", "running"):
        assert english not in text.lower(), (english, text)


# --------------------------------------------------------------------------- JSON schema

def validate(definition, document):
    schema = dict(SCHEMA)
    schema["$ref"] = f"#/$defs/{definition}"
    jsonschema.validate(document, schema, cls=jsonschema.Draft202012Validator)


def test_every_json_output_of_the_daemon_and_its_clients_matches_the_schema(daemon):
    where = ["--output-dir", str(daemon.out)]
    validate("currentJson", daemon.state_now())
    status = json.loads(daemon.cli("status", *where, "--json").stdout)
    validate("statusJson", status)
    validate("ctlReply", json.loads(daemon.cli("ctl", *where, "get", "--json").stdout))
    validate("ctlReply", json.loads(daemon.cli("ctl", *where, "refresh", "now", "--json").stdout))
    assert daemon.cli("ctl", *where, "refresh", "pause").returncode == 0
    validate("currentJson", wait_until(lambda: (daemon.state_now() or {}).get("state") == "paused" and daemon.state_now()))
    refused = daemon.cli("ctl", *where, "refresh", "now", "--json")
    assert refused.returncode == 1
    validate("ctlReply", json.loads(refused.stdout))
    validate("statusJson", json.loads(daemon.cli("status", *where, "--json").stdout))
    assert daemon.stop() == 0
    validate("currentJson", daemon.state_now())
    validate("statusJson", json.loads(daemon.cli("status", *where, "--json").stdout))


def test_status_json_without_a_daemon_matches_the_schema(tmp_path):
    validate("statusJson", json.loads(run("status", "--output-dir", str(tmp_path / "none"), "--json").stdout))


def test_the_schema_refuses_what_it_should():
    with pytest.raises(jsonschema.ValidationError):
        validate("currentJson", {"version": 1})
    with pytest.raises(jsonschema.ValidationError):
        validate("codeJson", {"url": "u", "token": "t", "safe-number": "12가34나"})


def test_code_json_matches_the_schema(world):
    result = execute(["code", "--secret-file", world["secret"], "--venue", "HALL-1", "--json"])
    assert result.returncode == 0
    validate("codeJson", json.loads(result.stdout))


def test_verify_json_matches_the_schema(world):
    code = json.loads(execute(["code", "--secret-file", world["secret"], "--json"]).stdout)
    for token, valid in ((code["url"], True), ("NOT-A-TOKEN", False)):
        result = execute(["verify", "--secret-file", world["secret"], "--venue", "DEMO", "--json", token])
        assert result.returncode == (0 if valid else 1)
        document = json.loads(result.stdout)
        validate("verifyJson", document)
        assert document["valid"] is valid


def test_refusals_while_paused_are_logged_as_refusals(daemon):
    """A refused `refresh now` while paused was logged like any accepted request."""
    where = ["--output-dir", str(daemon.out)]
    assert daemon.cli("ctl", *where, "refresh", "pause").returncode == 0
    assert daemon.cli("ctl", *where, "refresh", "now").returncode == 1
    assert daemon.cli("shake", *where).returncode == 1
    line = wait_until(lambda: next((l for l in daemon.logs().splitlines() if "'refresh now'" in l), None),
                      message="the log line of the refused request")
    assert "refused 'refresh now'" in line and "paused" in line, line
    wait_until(lambda: "refused 'shake'" in daemon.logs(), message="the refused shake in the log")
    accepted = next(l for l in daemon.logs().splitlines() if "'refresh pause'" in l)
    assert "refused" not in accepted, accepted
