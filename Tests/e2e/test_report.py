"""Kiosk reports, black-box (issue 39): a real `qrcheckin run` daemon, its `qrcheckin report`,
and a receiver written from docs/TOKEN.md (reportutil.ReportReceiver, on the Python reference)
that checks every report's signature. Reports come every interval and at once after a change;
a signed steer pauses the daemon within 5 s and `status` names who did; forged or replayed
answers change nothing; a slow, stopped or hostile server never touches the daemon, and
neither does killing the reporter."""
import json
import os
import re
import signal
import subprocess
import time

import jsonschema
import pytest

from conftest import ROOT
from daemonutil import BIN, run, wait_until
from reportutil import ReportReceiver, Reporter, report_key_for

LIBFAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
SCHEMA = json.loads((ROOT / "docs" / "qrcheckin.schema.json").read_text())


def validate(definition, document):
    """`document` is what docs/qrcheckin.schema.json's `definition` says."""
    schema = dict(SCHEMA)
    schema["$ref"] = f"#/$defs/{definition}"
    jsonschema.validate(document, schema, cls=jsonschema.Draft202012Validator)


@pytest.fixture
def kiosk(daemons, request):
    """A daemon (period 2 s), a receiver holding reports as the test says, and a reporter
    factory; everything stops afterwards."""
    made = []
    daemon = daemons()
    receiver = ReportReceiver(report_key_for(daemon.secret), hold_limit=getattr(request, "param", 25.0))

    def reporter(**options):
        process = Reporter(daemon, options.pop("report_to", receiver.url), **options)
        made.append(process)
        return process.start()

    yield daemon, receiver, reporter
    for process in made:
        process.stop(timeout=10)
    receiver.stop()


def status_text(daemon):
    result = daemon.cli("status", "--output-dir", str(daemon.out), "--lang", "en")
    return result.stdout.decode()


def reporting_row(daemon):
    return next((line for line in status_text(daemon).splitlines() if line.strip().startswith("Reporting")), "")


@pytest.mark.parametrize("kiosk", [0.0], indirect=True)
def test_reports_come_every_interval_and_at_once_after_a_change(kiosk):
    daemon, receiver, reporter = kiosk
    reporter(interval=5)
    first = receiver.wait_for(lambda r: True, message="the first report")
    assert first.body["kiosk"] == "door-1" and first.body["state"] == "running" and first.body["reportInterval"] == 5
    assert first.body["window"] is not None and first.body["modeSource"] is None
    # Every interval (measured at the receiver; a loaded machine may add a little, never remove).
    third = receiver.wait_for(lambda r: receiver.count() >= 3, timeout=30, message="three reports")
    with receiver.condition:
        times = [report.at for report in receiver.reports[:3]]
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert all(4.5 <= gap <= 9 for gap in gaps), gaps
    # A change is reported at once, not at the next interval.
    before = receiver.count()
    changed = time.monotonic()
    assert daemon.cli("ctl", "--output-dir", str(daemon.out), "refresh", "pause").returncode == 0
    paused = receiver.wait_for(lambda r: r.body["refresh"] == "paused", timeout=10, message="the pause reported")
    assert paused.at - changed < 3, "reported within about a second (the reporter looks every second)"
    assert paused.body["state"] == "paused" and paused.body["modeSource"] == "local"
    assert paused.body["modeChangedBy"] in (None, os.environ.get("USER"), "root")
    assert receiver.count() == before + 1 or all(r.body["refresh"] == "paused" for r in receiver.reports[before + 1:])
    assert not receiver.refusals
    assert re.search(r"Reporting\s+to http://127\.0\.0\.1:\d+/C: last ok \d+s ago", status_text(daemon)), status_text(daemon)


def test_a_signed_steer_pauses_the_daemon_within_5_seconds_and_status_names_who(kiosk):
    daemon, receiver, reporter = kiosk
    reporter()  # the default interval: 30 s, each report held up to 25 s
    wait_until(lambda: receiver.held() == 1, timeout=30, message="a report held open (the long poll)")
    clicked = time.monotonic()
    steer = receiver.steer(refresh="paused", by="mina")
    wait_until(lambda: (daemon.state_now() or {}).get("state") == "paused", timeout=10, interval=0.01, message="current.json paused")
    latency = time.monotonic() - clicked
    assert latency < 5, f"the steer took {latency:.2f}s"
    state = daemon.state_now()
    assert state["modeSource"] == "console" and state["modeChangedBy"] == "mina"
    text = status_text(daemon)
    assert re.search(r"paused from the console by mina at \d\d:\d\d", text), text
    # The kiosk says at once that it applied it; the server may then forget it.
    acked = receiver.wait_for(lambda r: (r.body.get("applied") or {}).get("steer") == steer, timeout=10, message="the steer acknowledged")
    assert acked.body["applied"]["outcome"] == "ok" and acked.body["refresh"] == "paused"
    assert acked.body["modeSource"] == "console" and acked.body["modeChangedBy"] == "mina"
    # Every report, report.json and status --json are what the schema says (one vocabulary).
    for report in list(receiver.reports):
        validate("kioskReport", report.body)
        assert len(report.raw) <= 4096
    validate("currentJson", daemon.state_now())
    validate("reportJson", json.loads((daemon.out / "report.json").read_bytes()))
    status = json.loads(daemon.cli("status", "--output-dir", str(daemon.out), "--json").stdout)
    validate("statusJson", status)
    assert status["reporting"]["ok"] is True and status["reporting"]["applied"]["steer"] == steer
    # Latest change wins: resumed locally, then a fresh code from the console.
    assert daemon.cli("ctl", "--output-dir", str(daemon.out), "refresh", "auto").returncode == 0
    wait_until(lambda: (daemon.state_now() or {}).get("modeSource") == "local", timeout=10, message="the local resume")
    wait_until(lambda: receiver.held() == 1 and receiver.reports[-1].body["refresh"] == "auto", timeout=30,
               message="the resume reported and held")
    resumed = daemon.state_now()
    receiver.steer(new_code=True, by="mina")
    wait_until(lambda: (s := daemon.state_now() or {}).get("seq") is not None
               and (s["window"], s["seq"]) > (resumed["window"], resumed["seq"]) and s["seq"] > 0,
               timeout=10, message="a fresh code (a new sequence in its window)")
    assert daemon.state_now()["modeSource"] == "local", "a fresh code is no mode change"
    print(f"steer applied {latency * 1000:.0f} ms after it was queued (report held open)")


def test_a_forged_or_replayed_answer_changes_nothing(kiosk):
    daemon, receiver, reporter = kiosk
    receiver.mode = "forge"
    receiver.hold_limit = 0
    process = reporter(interval=5)
    receiver.steer(refresh="paused", by="mallory")
    wait_until(lambda: (process.status() or {}).get("failed", 0) >= 1, timeout=20, message="the forged answer refused")
    assert "not signed with this venue's report key" in process.status()["lastError"]
    assert daemon.state_now()["refresh"] == "auto" and daemon.state_now()["modeSource"] is None
    assert "failing" in reporting_row(daemon) and "not signed" in reporting_row(daemon)
    # The reporter's own metrics count it (report.prom beside report.json).
    from prometheus_client.parser import text_string_to_metric_families
    samples = {sample.name: sample for family in text_string_to_metric_families((daemon.out / "report.prom").read_text())
               for sample in family.samples}
    assert samples["qrcheckin_reports_failed_total"].value >= 1
    assert samples["qrcheckin_reports_sent_total"].value >= samples["qrcheckin_reports_failed_total"].value
    assert samples["qrcheckin_reports_sent_total"].labels == {"venue": "DEMO", "kiosk": "door-1"}
    # A genuine answer, but to another report (its nonce): replayed, it steers nothing either.
    receiver.pending = None
    receiver.mode = "answer"
    wait_until(lambda: (process.status() or {}).get("state") == "reporting", timeout=30, message="reporting again")
    receiver.capture_and_replay(refresh="paused")
    wait_until(lambda: "another report's answer" in ((process.status() or {}).get("lastError") or ""), timeout=60,
               message="the replayed answer refused")
    assert daemon.state_now()["refresh"] == "auto" and daemon.state_now()["modeSource"] is None
    # Unsigned: the same.
    receiver.mode = "unsigned"
    receiver.steer(shake="off", by="mallory")
    wait_until(lambda: "not signed (no Qrcheckin-Answer header)" in ((process.status() or {}).get("lastError") or ""), timeout=60,
               message="the unsigned answer refused")
    assert daemon.state_now()["shake"] == "on"
    assert not receiver.refusals, "every report the kiosk sent was well signed"


@pytest.mark.parametrize("kiosk", [0.0], indirect=True)
def test_a_slow_or_stopped_server_never_touches_the_daemon(kiosk):
    daemon, receiver, reporter = kiosk
    receiver.mode = "slow"
    receiver.slow_seconds = 10.0  # beyond the exchange's limit: 5 s hold + 5 s
    process = reporter(interval=5)
    pid = daemon.process.pid
    log = daemon.logs()
    # The daemon rotates on time meanwhile (period 2 s): each window appears within a second of its start.
    late = []
    deadline = time.monotonic() + 12
    while time.monotonic() < deadline:
        state = daemon.state_now()
        expected = int(time.time()) // 2
        if state and state["window"] < expected and time.time() % 2 > 1.0:
            late.append((expected, state["window"]))
        time.sleep(0.1)
    assert not late, late
    wait_until(lambda: "no answer within 10s" in ((process.status() or {}).get("lastError") or ""), timeout=30,
               message="the slow server's timeout reported")
    assert "failing" in reporting_row(daemon), status_text(daemon)
    # Stopped altogether: connections refused, said so; the daemon is the same process, healthy.
    receiver.stop()
    wait_until(lambda: "Connection refused" in ((process.status() or {}).get("lastError") or "")
               or "Couldn't connect" in ((process.status() or {}).get("lastError") or ""), timeout=120,
               message="the refused connection reported")
    state = daemon.get()
    assert daemon.process.pid == pid and state["health"] == "ok" and state["state"] == "running"
    assert daemon.logs() == log, "the daemon logged nothing: it never knew"


def test_killing_the_reporter_leaves_the_daemon_untouched_and_only_the_reporter_loads_libcurl(kiosk):
    daemon, receiver, reporter = kiosk
    process = reporter(interval=5)
    receiver.wait_for(lambda r: True)
    maps = lambda pid: open(f"/proc/{pid}/maps").read()
    assert "libcurl" in maps(process.pid), "the reporter loaded libcurl"
    assert "libcurl" not in maps(daemon.process.pid) and "libssl" not in maps(daemon.process.pid), "the daemon never does"
    before = daemon.logs()
    window = daemon.state_now()["window"]
    process.kill()
    wait_until(lambda: daemon.state_now()["window"] >= window + 2, timeout=15, message="two more rotations")
    assert daemon.logs() == before or "control:" not in daemon.logs()[len(before):]
    assert daemon.get()["health"] == "ok"
    assert "the reporter is not running" in reporting_row(daemon), status_text(daemon)
    report = json.loads(daemon.cli("status", "--output-dir", str(daemon.out), "--json").stdout)["reporting"]
    assert report["running"] is False and report["ok"] is False and report["kiosk"] == "door-1"


@pytest.mark.parametrize("kiosk", [0.0], indirect=True)
def test_a_kiosk_40_seconds_fast_reports_its_clock_as_it_is(kiosk, daemons, tmp_path):
    _, receiver, _ = kiosk
    assert os.path.exists(LIBFAKETIME), "libfaketime (faketime) is installed by scripts/install-deps --test"
    fast = {"LD_PRELOAD": LIBFAKETIME, "FAKETIME": "+40", "FAKETIME_DONT_FAKE_MONOTONIC": "1", "FAKETIME_DISABLE_SHM": "1"}
    daemon = daemons(tmp_path / "fast", env=fast)
    key_receiver = ReportReceiver(report_key_for(daemon.secret), hold_limit=0)
    try:
        process = Reporter(daemon, key_receiver.url, interval=5, env=fast).start()
        try:
            report = key_receiver.wait_for(lambda r: True, message="a report from the fast kiosk")
            skew = report.t - report.at_wall_ms
            assert 38_000 <= skew <= 42_000, skew
            assert report.body["wallClock"] == report.t
            # Its daemon shows the window of its own (fast) clock: the server will judge that.
            assert report.body["window"] >= (report.at_wall_ms + 38_000) // 2000
        finally:
            process.stop()
    finally:
        key_receiver.stop()


def test_report_without_report_to_says_so_and_exits_78(tmp_path):
    result = run("report", "--output-dir", str(tmp_path / "out"), "--state-dir", str(tmp_path / "state"),
                 env={"QRCHECKIN_REPORT_TO": ""})
    assert result.returncode == 78
    assert b"report-to is not set: nothing to report to" in result.stderr
    bad = run("report", "--report-to", "ftp://x/C")
    assert bad.returncode == 64 and b"--report-to: must be an http:// or https:// URL" in bad.stderr
    off = run("report", "--report-to", "off")
    assert off.returncode == 78


def test_a_report_key_of_another_venue_is_refused_and_run_refuses_a_report_key(tmp_path, secret):
    key = tmp_path / "hall.report-key"
    assert run("keygen", "--report", "--venue", "HALL-1", "--from", str(secret), "-o", str(key)).returncode == 0
    assert key.read_text().startswith("QRCHECKIN-REPORT-KEY-1 HALL-1 ")
    result = run("report", "--report-to", "http://127.0.0.1:9/C", "--secret-file", str(key), "--kiosk-name", "k",
                 "--output-dir", str(tmp_path / "out"), "--state-dir", str(tmp_path / "state"))
    assert result.returncode == 78 and b"serves venue HALL-1 only, not DEMO" in result.stderr
    code = run("code", "--secret-file", str(key), "--venue", "HALL-1")
    assert code.returncode == 65 and b"report key of HALL-1: it signs kiosk reports only" in code.stderr
