"""Many venues on one host: three daemons in the template unit's layout (OUTPUT/VENUE,
STATE/VENUE, a key each, the shared settings then the venue's own) in a temporary root, steered
and watched by venue: `ctl --venue`, `status --all`, `show --venue` (decoded with zbarimg off a
tmux screen). The units themselves run under a booted systemd in test_systemd_boot.py."""
import json
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import jsonschema
import pytest

from conftest import BIN, ROOT, zbar
from daemonutil import reachable_directory, read_state, shown_code, wait_until
from kiosk_screen import Tmux, decode_screen, shell_command
from webutil import WebKiosk, raw_get

TEMPLATE = ROOT / "systemd" / "qrcheckin@.service"
KIOSK_TEMPLATE = ROOT / "systemd" / "qrcheckin-kiosk@.service"
MAIN = ROOT / "systemd" / "qrcheckin.service"
SCHEMA = json.loads((ROOT / "docs" / "qrcheckin.schema.json").read_text())
VENUES = ["GATE-A", "GATE-B", "GATE-C"]


def directives(unit):
    """The unit's `Key=value` lines (comments skipped) as (key, value) pairs, in order."""
    pairs = []
    for line in Path(unit).read_text().splitlines():
        if "=" in line and not line.startswith(("#", ";", "[")):
            key, value = line.split("=", 1)
            pairs.append((key, value))
    return pairs


def validate(definition, document):
    schema = dict(SCHEMA)
    schema["$ref"] = f"#/$defs/{definition}"
    jsonschema.validate(document, schema, cls=jsonschema.Draft202012Validator)


class Host:
    """A temporary root standing in for /: etc/qrcheckin, run and var/lib, and the venues'
    daemons started in it."""

    def __init__(self, root):
        self.root = root
        self.etc = root / "etc" / "qrcheckin"
        self.run_root = root / "run"
        self.state_root = root / "var" / "lib"
        (self.etc / "secrets").mkdir(parents=True)
        self.master = self.etc / "secret"
        self.processes = {}
        self.logs = {}
        cli("keygen", "-o", str(self.master), check=True)

    @property
    def outputs(self):
        """/run/qrcheckin in the temporary root: the venues' output root."""
        return self.run_root / "qrcheckin"

    @property
    def states(self):
        return self.state_root / "qrcheckin"

    def client_env(self, **extra):
        """What an operator's client needs to look in this root instead of /run and /var/lib."""
        return {"QRCHECKIN_OUTPUT_DIR": str(self.outputs), "QRCHECKIN_STATE_DIR": str(self.states), **extra}

    def start(self, venue):
        """Starts venue `venue`'s daemon in the template unit's layout (OUTPUT/VENUE, STATE/VENUE,
        the shared settings then the venue's own, the venue's key), as a user runs their own
        venues (docs/VENUES.md). The unit itself runs under systemd in test_systemd_boot.py."""
        runtime = self.outputs / venue
        state = self.states / venue
        environment = {k: v for k, v in os.environ.items()
                       if not k.startswith("QRCHECKIN_") and k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "CREDENTIALS_DIRECTORY")}
        command = [BIN, "run", "--venue", venue, "--config", str(self.etc / "qrcheckin.conf"),
                   "--config", "-" + str(self.etc / f"{venue}.conf"), "--output-dir", str(runtime),
                   "--state-dir", str(state), "--secret-file", str(self.etc / "secrets" / venue)]
        self.logs[venue] = open(self.root / f"{venue}.log", "wb")
        process = subprocess.Popen(command, env=environment, stdout=self.logs[venue], stderr=subprocess.STDOUT,
                                   preexec_fn=lambda: os.umask(0o077))
        self.processes[venue] = process
        wait_until(lambda: process.poll() is not None
                   or (runtime / "control.sock").exists() and (read_state(runtime) or {}).get("pid") == process.pid,
                   message=f"{venue}'s first code")
        assert process.poll() is None, self.log(venue)
        return runtime

    def stop(self, venue, remove_runtime=True):
        """SIGTERM, as systemctl stop; then the runtime directory goes, as systemd removes it."""
        process = self.processes[venue]
        process.send_signal(signal.SIGTERM)
        assert process.wait(10) == 0, self.log(venue)
        if remove_runtime:
            shutil.rmtree(self.outputs / venue)

    def stop_all(self):
        for venue, process in self.processes.items():
            if process.poll() is None:
                process.kill()
                process.wait()
            self.logs[venue].close()

    def log(self, venue):
        self.logs[venue].flush()
        return (self.root / f"{venue}.log").read_text(errors="replace")

    def key(self, venue):
        """The venue key the operator creates for the instance (README, Many venues)."""
        path = self.etc / "secrets" / venue
        cli("keygen", "--venue", venue, "--from", str(self.master), "-o", str(path), check=True)
        return path


def cli(*args, env=None, check=False, timeout=30):
    full = {k: v for k, v in os.environ.items() if not k.startswith("QRCHECKIN_") and k != "CREDENTIALS_DIRECTORY"}
    full.update({"LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"})
    full.update(env or {})
    result = subprocess.run([BIN, *args], capture_output=True, text=True, env=full, timeout=timeout)
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def verify(host, venue, url, period, at=None):
    """Checks `url` for `venue` now, or as at `at` (Unix seconds), when it was read: a 2 s code read
    a few checks ago is still judged at the moment a phone scanned it."""
    when = ["--at", str(int(at))] if at is not None else []
    return cli("verify", "--secret-file", str(host.master), "--venue", venue, "--period", str(period), *when,
               "--json", url)


@pytest.fixture
def host():
    # Not under pytest's 0700 tmp_path: nginx's workers (nobody) must read the output root,
    # as they read /run/qrcheckin.
    with reachable_directory("qrcheckin-venues.") as base:
        made = Host(base)
        yield made
        made.stop_all()


@pytest.fixture
def three(host):
    """GATE-A, GATE-B, GATE-C with venue keys; the shared file says period 2, GATE-B's own 3."""
    (host.etc / "qrcheckin.conf").write_text("period = 2\nbase-url = HTTPS://GATES.EXAMPLE.ORG/C\n")
    (host.etc / "GATE-B.conf").write_text("# GATE-B's own settings, over the shared file\nperiod = 3\n")
    for venue in VENUES:
        host.key(venue)
        host.start(venue)
    return host


def read_with_moment(out):
    """(current.json, the moment it was read): the clock is read just before the file, and a
    rotation landing in between (the file then holds the next window's code) moves the moment to
    that window's start, so however slow the machine the moment is never a window early."""
    before = time.time()
    state = read_state(out)
    return state, max(before, state["window"] * state["period"])


def test_three_instances_rotate_with_their_own_codes(three):
    periods = {"GATE-A": 2, "GATE-B": 3, "GATE-C": 2}
    first, read_at = {}, {}
    for venue in VENUES:
        state, read_at[venue] = read_with_moment(three.outputs / venue)
        assert state["venue"] == venue and state["state"] == "running"
        # The venue's own file layered over the shared one; the shared base URL still applies.
        assert state["period"] == periods[venue]
        assert state["url"].startswith(f"HTTPS://GATES.EXAMPLE.ORG/C/{venue}/")
        url, shown = shown_code(three.outputs / venue)
        assert url == shown["url"] and shown["venue"] == venue
        assert "venue key of " + venue in three.log(venue)
        first[venue] = state
    assert len({state["url"] for state in first.values()}) == 3
    for venue in VENUES:
        # Each rotates on its own: a later window, a new code that verifies for its venue only.
        later, later_at = wait_until(lambda: (r := read_with_moment(three.outputs / venue))[0]["window"] > first[venue]["window"] and r,
                                     timeout=60, message=f"{venue}'s next code")
        for state, at in ((first[venue], read_at[venue]), (later, later_at)):
            result = verify(three, venue, state["url"], periods[venue], at=at)
            assert result.returncode == 0 and json.loads(result.stdout)["valid"], result.stdout
            for other in VENUES:
                if other != venue:
                    refused = verify(three, other, state["url"], periods[venue], at=at)
                    assert refused.returncode == 1 and json.loads(refused.stdout)["reason"] == "wrong-venue", refused.stdout


def test_ctl_venue_changes_that_venue_and_nothing_else(three):
    result = cli("ctl", "--venue", "GATE-B", "shake", "off", env=three.client_env())
    assert result.returncode == 0, result.stderr
    assert "shake off" in result.stdout
    shakes = {venue: read_state(three.outputs / venue)["shake"] for venue in VENUES}
    assert shakes == {"GATE-A": "on", "GATE-B": "off", "GATE-C": "on"}
    assert "off" in (three.states / "GATE-B" / "settings").read_text()
    assert not (three.states / "GATE-A" / "settings").exists() or "off" not in (three.states / "GATE-A" / "settings").read_text()
    # A shake now goes to GATE-B (ignored: off) and GATE-A (a fresh code), each by name.
    assert cli("shake", "--venue", "GATE-B", env=three.client_env()).returncode == 1
    assert "shake ignored" in three.log("GATE-B") and "shake ignored" not in three.log("GATE-A")
    before = read_state(three.outputs / "GATE-A")
    assert cli("shake", "--venue", "GATE-A", env=three.client_env()).returncode == 0
    after = read_state(three.outputs / "GATE-A")
    # One more code in the window (or, if its 2 s ran out meanwhile, a later window), and the
    # daemon says it was the shake's.
    assert after["seq"] == before["seq"] + 1 or after["window"] > before["window"], (before, after)
    assert "issued a fresh code (shake" in three.log("GATE-A") and "issued a fresh code (shake" not in three.log("GATE-B")
    # The same through --output-dir instead of the environment, and status --venue.
    status = cli("status", "--venue", "GATE-B", "--output-dir", str(three.outputs), "--json")
    assert status.returncode == 0 and json.loads(status.stdout)["state"]["venue"] == "GATE-B"


def test_status_all_lists_every_venue_then_exits_3_when_one_stops(three):
    for lang, label in (("en", "Safe number"), ("ko", "안심번호")):
        result = cli("status", "--all", "--lang", lang, env=three.client_env())
        assert result.returncode == 0, result.stdout + result.stderr
        lines = result.stdout.splitlines()
        assert [line.split()[0] for line in lines] == VENUES, result.stdout
        for line, venue in zip(lines, VENUES):
            assert label in line and ("Time left" in line or "남은 시간" in line), line
            assert line.endswith("ok") or line.endswith("정상"), line
    document = json.loads(cli("status", "--all", "--json", env=three.client_env()).stdout)
    validate("statusAllJson", document)
    assert document["status"] == "running" and [v["venue"] for v in document["venues"]] == VENUES
    assert all(v["report"]["state"]["venue"] == v["venue"] for v in document["venues"])

    # Stopped cleanly: the state says so before systemd removes the directory ...
    three.stop("GATE-C", remove_runtime=False)
    result = cli("status", "--all", env=three.client_env())
    assert result.returncode == 3, result.stdout
    assert re.search(r"^GATE-C\s+Check-in is not running.*stopped", result.stdout, re.M), result.stdout
    # ... and after: the venue's state directory still says it exists, so it is listed as down.
    shutil.rmtree(three.outputs / "GATE-C")
    result = cli("status", "--all", "--json", env=three.client_env())
    document = json.loads(result.stdout)
    validate("statusAllJson", document)
    assert result.returncode == 3 and document["exitStatus"] == 3 and document["status"] == "not-running"
    down = [v for v in document["venues"] if v["venue"] == "GATE-C"]
    assert down and down[0]["report"]["status"] == "not-running" and "no " in down[0]["report"]["summary"]
    assert [v["report"]["status"] for v in document["venues"] if v["venue"] != "GATE-C"] == ["running", "running"]
    single = cli("status", "--venue", "GATE-C", env=three.client_env())
    assert single.returncode == 3 and str(three.outputs / "GATE-C") in single.stdout


def test_show_venue_shows_that_venues_code(three, tmp_path, tools):
    env = {"LANG": "C.UTF-8", "LC_MESSAGES": "ko_KR.UTF-8", "QRCHECKIN_OUTPUT_DIR": str(three.outputs)}
    pane = Tmux("venues", shell_command(BIN, "show", "--venue", "GATE-C", "--mode", "utf8", env=env), cols=80, rows=24)
    try:
        pane.wait_for(lambda text: sum(ch in "█▀▄" for ch in text) > 100)
        # A capture can land between two frames: capture again until one decodes.
        deadline = time.monotonic() + 15
        while True:
            try:
                url = decode_screen(pane.capture(), "utf8", tmp_path, zbar)
                break
            except AssertionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        assert url.startswith("HTTPS://GATES.EXAMPLE.ORG/C/GATE-C/"), url
        assert verify(three, "GATE-C", url, 2, at=pane.captured_at).returncode == 0
        assert verify(three, "GATE-A", url, 2, at=pane.captured_at).returncode == 1
        assert "안심번호" in pane.text()
    finally:
        pane.kill()


def test_the_web_page_layout_serves_each_venue(three, tmp_path):
    """nginx serves the venues' output root like /run/qrcheckin: /V/current.json is venue V's."""
    if not shutil.which("nginx"):
        pytest.fail("nginx missing: run scripts/install-deps --test")
    web = WebKiosk(three.outputs, tmp_path).start()
    try:
        for venue in VENUES:
            status, headers, body = raw_get(web.port, f"/{venue}/current.json")
            assert status == 200 and json.loads(body)["venue"] == venue
            assert raw_get(web.port, f"/{venue}/control.sock")[0] == 404
    finally:
        web.stop()


def test_status_venue_finds_the_default_daemon_when_it_serves_that_venue(host):
    (host.etc / "qrcheckin.conf").write_text("period = 2\n")
    out = host.outputs
    process = subprocess.Popen([BIN, "run", "--output-dir", str(out), "--state-dir", str(host.states),
                                "--venue", "HALL-1", "--secret-file", str(host.master)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until(lambda: (read_state(out) or {}).get("pid") == process.pid, message="HALL-1's first code")
        result = cli("status", "--venue", "HALL-1", "--json", env=host.client_env())
        assert result.returncode == 0 and json.loads(result.stdout)["state"]["venue"] == "HALL-1"
        result = cli("status", "--all", env=host.client_env())
        assert result.returncode == 0 and result.stdout.startswith("HALL-1 "), result.stdout
        missing = cli("status", "--venue", "HALL-2", env=host.client_env())
        assert missing.returncode == 3 and f"{out}/HALL-2/current.json" in missing.stdout
    finally:
        process.terminate()
        process.wait(10)


def test_status_all_with_no_venue_says_where_it_looked(tmp_path):
    result = cli("status", "--all", "--output-dir", str(tmp_path / "none"))
    assert result.returncode == 3 and "no venue found in " + str(tmp_path / "none") in result.stdout
    document = json.loads(cli("status", "--all", "--json", "--output-dir", str(tmp_path / "none")).stdout)
    validate("statusAllJson", document)
    assert document["venues"] == [] and document["exitStatus"] == 3


@pytest.mark.parametrize("args", [
    ["status", "--all", "--venue", "GATE-A"],
    ["status", "--all", "--socket", "/tmp/x.sock"],
    ["ctl", "--venue", "GATE-A", "--socket", "/tmp/x.sock", "get"],
    ["status", "--venue", "gate-a"],
    ["show", "--venue", ""],
])
def test_venue_options_refuse_nonsense(args):
    result = cli(*args)
    assert result.returncode == 64, result.stdout + result.stderr
    assert "Usage:" in result.stderr or "usage" in result.stderr.lower(), result.stderr


def test_per_venue_config_is_optional_but_a_broken_one_stops_the_instance(host):
    (host.etc / "qrcheckin.conf").write_text("period = 2\n")
    host.key("GATE-A")
    host.start("GATE-A")  # no GATE-A.conf: fine
    host.key("GATE-B")
    (host.etc / "GATE-B.conf").write_text("period = 2\nscale = huge\n")
    with pytest.raises(AssertionError):
        host.start("GATE-B")
    assert host.processes["GATE-B"].wait(10) == 78
    assert f"{host.etc}/GATE-B.conf:2: scale" in host.log("GATE-B")
    # A bad line in the shared file is reported even where the venue's file overrides it.
    (host.etc / "qrcheckin.conf").write_text("period = often\n")
    (host.etc / "GATE-B.conf").write_text("period = 2\n")
    result = cli("run", "--config", str(host.etc / "qrcheckin.conf"), "--config", "-" + str(host.etc / "GATE-B.conf"),
                 "--output-dir", str(host.root / "x"), "--state-dir", str(host.root / "y"))
    assert result.returncode == 78 and f"{host.etc}/qrcheckin.conf:1: period" in result.stderr, result.stderr
    # A required file that is missing is still an error; an optional one is skipped.
    (host.etc / "qrcheckin.conf").write_text("period = 2\n")
    result = cli("status", "--config", str(host.etc / "nope.conf"), "--json")
    assert result.returncode == 78 and "nope.conf" in result.stderr
    result = cli("code", "--secret-file", str(host.master), "--json",
                 env={"QRCHECKIN_CONFIG": f"{host.etc}/qrcheckin.conf:-{host.etc}/nope.conf:-{host.etc}/GATE-B.conf",
                      "QRCHECKIN_VENUE": "GATE-B"})
    assert result.returncode == 0 and json.loads(result.stdout)["period"] == 2, result.stderr


def test_template_units_match_the_main_units_hardening_and_wire_the_instance():
    main, template = dict(directives(MAIN)), dict(directives(TEMPLATE))
    per_instance = {"RuntimeDirectory", "StateDirectory", "LoadCredential", "Environment", "Description"}
    for key, value in main.items():
        if key not in per_instance:
            assert template.get(key) == value, f"{key}: {template.get(key)!r} != {value!r}"
    pairs = directives(TEMPLATE)
    assert ("RuntimeDirectory", "qrcheckin/%i") in pairs and ("StateDirectory", "qrcheckin/%i") in pairs
    assert ("LoadCredential", "secret:/etc/qrcheckin/secrets/%i") in pairs
    assert ("Environment", "QRCHECKIN_VENUE=%i") in pairs
    assert ("Environment", "QRCHECKIN_CONFIG=/etc/qrcheckin/qrcheckin.conf:-/etc/qrcheckin/%i.conf") in pairs
    # /run/qrcheckin is qrcheckin.service's runtime directory, removed when it stops.
    assert ("Conflicts", "qrcheckin.service") in pairs
    kiosk = dict(directives(KIOSK_TEMPLATE))
    for key, value in dict(directives(ROOT / "systemd" / "qrcheckin-kiosk.service")).items():
        if key not in {"Description", "Wants", "After", "ExecStart"}:
            assert kiosk.get(key) == value, f"kiosk {key}: {kiosk.get(key)!r} != {value!r}"
    assert kiosk["ExecStart"] == "/usr/bin/qrcheckin show --output-dir /run/qrcheckin/%i"
    assert kiosk["Wants"] == "qrcheckin@%i.service" and kiosk["After"].startswith("qrcheckin@%i.service")


@pytest.mark.parametrize("unit", [TEMPLATE, KIOSK_TEMPLATE], ids=lambda u: u.name)
def test_an_instance_passes_systemd_analyze(unit, tmp_path):
    """The template as an instance (qrcheckin@GATE-1.service), checked as systemd reads it."""
    if not shutil.which("systemd-analyze"):
        pytest.fail("systemd-analyze missing: run scripts/install-deps --test")
    instance = tmp_path / unit.name.replace("@.", "@GATE-1.")
    instance.write_text(unit.read_text().replace("/usr/bin/qrcheckin", BIN))
    result = subprocess.run(["systemd-analyze", "verify", "--man=no", str(instance)], capture_output=True, text=True)
    assert result.returncode == 0 and "qrcheckin" not in result.stderr, result.stderr
    gate = subprocess.run(["systemd-analyze", "security", "--offline=true", "--threshold=3", str(instance)],
                          capture_output=True, text=True)
    assert gate.returncode == 0, gate.stdout + gate.stderr
    level = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", gate.stdout + gate.stderr)
    assert level and float(level.group(1)) <= 0.3, gate.stdout
