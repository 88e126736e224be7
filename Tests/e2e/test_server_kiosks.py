"""The server half of kiosk reports (issue 39), black-box with real processes: a `qrcheckin run`
daemon and its `qrcheckin report` reporting to a real `qrcheckin-server serve`. The kiosk is
listed ok within one interval; `kiosks set` pauses it within 5 s and `status` names who;
`--new-code` gives a new sequence number; forged, other-venue, replayed, stale and oversized
reports are refused and recorded nowhere; with the server stopped the codes still rotate; a
kiosk 40 s fast is listed with its clock skew; each change of a kiosk's light or problems
reaches a webhook endpoint once (issue 40's `kiosk` event)."""
import json
import os
import re
import secrets
import signal
import time

import pytest

import token_reference as ref
from daemonutil import wait_until
from reportutil import Reporter, report_key_for
from serverutil import server_run
from standardwebhooks.webhooks import Webhook
from webhookutil import WebhookReceiver

LIBFAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
INTERVAL = 5


def kiosks(server, *args, ahead=None):
    """`qrcheckin-server kiosks ARGS` on the server's database: (exit status, stdout, stderr).
    `ahead`: seconds the command's clock is put ahead (libfaketime), to judge the fleet later."""
    env = {"QRCHECKIN_SERVER_PERIOD": "2"}
    if ahead is not None:
        env.update({"LD_PRELOAD": LIBFAKETIME, "FAKETIME": f"+{ahead}", "FAKETIME_DONT_FAKE_MONOTONIC": "1", "FAKETIME_DISABLE_SHM": "1"})
    result = server_run("kiosks", "--database", f"sqlite:{server.database}", *args, env=env)
    return result.returncode, result.stdout, result.stderr


def listed(server):
    """`kiosks --format json`, parsed."""
    status, out, err = kiosks(server, "--format", "json")
    assert status in (0, 1, 2), err
    return json.loads(out)


def one(server, name="door-1"):
    return next((row for row in listed(server) if row["kiosk"] == name), None)


@pytest.fixture
def fleet(daemons, servers):
    """A daemon (period 2 s), a server serving its venue with its secret, and a reporter
    factory; everything stops afterwards."""
    made = []
    daemon = daemons()
    server = servers(daemon.secret, args=["--period", "2"])

    def reporter(target=None, **options):
        process = Reporter(daemon, (target or server).url("/C"), interval=options.pop("interval", INTERVAL), **options)
        made.append(process)
        return process.start()

    yield daemon, server, reporter
    for process in made:
        process.stop(timeout=10)


def test_a_reporting_kiosk_is_listed_ok_and_steered_from_the_shell(fleet):
    daemon, server, reporter = fleet
    venue = daemon.document()["venue"]
    started = time.monotonic()
    reporter()
    row = wait_until(lambda: one(server), timeout=INTERVAL + 10, message="the kiosk listed")
    assert time.monotonic() - started < INTERVAL + 10
    assert row["venue"] == venue and row["state"] == "ok", row
    for key in ("venue", "kiosk", "state", "lastSeen", "clockSkewSeconds", "window", "refresh", "shake", "health", "problems"):
        assert key in row, key
    assert abs(row["clockSkewSeconds"]) <= 2 and row["refresh"] == "auto" and row["health"] == "ok", row
    assert row["window"] == row["expectedWindow"] or abs(row["window"] - row["expectedWindow"]) <= 1, row
    status, table, _ = kiosks(server)
    assert status == (0 if not row["problems"] else 1), (status, row)
    assert "door-1" in table and "STATE" in table
    _, _, metrics = server.get("/metrics")
    text = metrics.decode()
    assert 'qrcheckin_server_kiosks{state="ok"} 1' in text and 'qrcheckin_server_kiosks{state="offline"} 0' in text, text
    assert f'qrcheckin_server_kiosk_last_report_seconds{{venue="{venue}",kiosk="door-1"}}' in text, text
    assert 'qrcheckin_server_kiosk_reports_total{outcome="stored"}' in text, text

    # Paused from the shell: the daemon says so within 5 s, naming who.
    clicked = time.monotonic()
    status, out, err = kiosks(server, "set", venue, "door-1", "--refresh", "pause")
    assert status == 0, err
    assert "steer" in out
    wait_until(lambda: daemon.state_now()["refresh"] == "paused", timeout=5, message="current.json says paused")
    assert time.monotonic() - clicked < 5.5
    text = daemon.cli("status", "--output-dir", str(daemon.out), "--lang", "en").stdout.decode()
    user = os.environ.get("SUDO_USER") or __import__("pwd").getpwuid(os.getuid()).pw_name
    assert "from the console by" in text and user.split()[0][:8] in text, text
    applied = wait_until(lambda: (one(server) or {}).get("steer") and one(server)["steer"]["appliedAt"] and one(server),
                         timeout=INTERVAL + 10, message="the steer shown applied")
    assert applied["steer"]["outcome"] == "ok" and "paused" in applied["problemCodes"], applied
    audit = server_run("audit", "--database", f"sqlite:{server.database}", "--format", "jsonl")
    assert audit.returncode == 0, audit.stderr
    assert "kiosk-steer" in audit.stdout and "door-1" in audit.stdout

    # A fresh code: a new sequence number.
    seq = daemon.state_now()["seq"]
    status, _, err = kiosks(server, "set", venue, "door-1", "--new-code", "--refresh", "auto")
    assert status == 0, err
    wait_until(lambda: daemon.state_now()["seq"] != seq and daemon.state_now()["refresh"] == "auto", timeout=5,
               message="a new code and rotation again")

    # Unknown kiosks: exit 1, nothing audited; forget removes it.
    assert kiosks(server, "set", venue, "nobody", "--shake", "off")[0] == 1
    assert kiosks(server, "set", venue, "door-1")[0] == 64


def announce_huge_body(server, venue, key):
    """A signed report's head announcing a 10 MB body: refused (413) before the body is sent."""
    import http.client
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=15)
    try:
        t, nonce = int(time.time() * 1000), secrets.token_hex(16)
        connection.putrequest("POST", f"/C/{venue}/kiosk")
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Content-Length", str(10 * 1024 * 1024))
        connection.putheader("Qrcheckin-Report", ref.report_header(key, venue, t, nonce, b"x"))
        connection.endheaders()
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def test_refused_reports_are_recorded_nowhere(fleet, tmp_path):
    daemon, server, _ = fleet
    venue = daemon.document()["venue"]
    key = report_key_for(daemon.secret, venue)
    other_key = os.urandom(32)

    def body(kiosk, t):
        return json.dumps({"venue": venue, "kiosk": kiosk, "version": "0.1.0", "reportInterval": 30, "wallClock": t,
                           "status": "running", "summary": "running", "daemon": None,
                           "outputAgeSeconds": {"png": None, "json": None, "txt": None}, "applied": None}).encode()

    def post(kiosk, signing_key=key, t=None, nonce=None, payload=None, path_venue=venue, extra=b""):
        t = t if t is not None else int(time.time() * 1000)
        nonce = nonce or secrets.token_hex(16)
        data = payload if payload is not None else body(kiosk, t)
        header = ref.report_header(signing_key, venue, t, nonce, data)
        return server.get(f"/C/{path_venue}/kiosk", method="POST", body=data + extra,
                          headers={"Content-Type": "application/json", "Qrcheckin-Report": header})

    t = int(time.time() * 1000)
    status, headers, answer = post("good", t=t, nonce="ab" * 16)
    assert status == 200, answer
    assert headers["qrcheckin-answer"] == ref.answer_header(key, venue, "ab" * 16, answer)
    assert json.loads(answer)["steer"] is None
    refused = {
        "another venue's key": post("forged-1", signing_key=other_key),
        "a forged signature": post("forged-2", extra=b" "),
        "a replayed report": post("good", t=t, nonce="ab" * 16),
        "a stale timestamp": post("stale", t=int(time.time() * 1000) - 6 * 60 * 1000),
        "a 10 MB body": announce_huge_body(server, venue, key),
    }
    assert {why: answer[0] for why, answer in refused.items()} == {
        "another venue's key": 401, "a forged signature": 401, "a replayed report": 409, "a stale timestamp": 400,
        "a 10 MB body": 413}
    for why, (_, headers, problem) in refused.items():
        if why != "a 10 MB body":
            assert headers["content-type"] == "application/problem+json", why
            assert json.loads(problem)["title"], why
    names = [row["kiosk"] for row in listed(server)]
    assert names == ["good"], names
    text = server.get("/metrics")[2].decode()
    for outcome in ("bad-signature", "replayed", "stale", "stored"):
        assert f'qrcheckin_server_kiosk_reports_total{{outcome="{outcome}"}}' in text, (outcome, text)
    assert one(server, "good")["lastSeen"] and "kiosk" not in server_run(
        "audit", "--database", f"sqlite:{server.database}", "--format", "jsonl").stdout.lower().replace("kiosks", "")
    status, _, err = kiosks(server, "forget", venue, "good")
    assert status == 0, err
    assert listed(server) == []
    assert kiosks(server, "forget", venue, "good")[0] == 1


def test_with_the_server_stopped_codes_still_rotate_and_status_says_reporting_fails(fleet):
    daemon, server, reporter = fleet
    reporter()
    wait_until(lambda: one(server), timeout=INTERVAL + 10, message="the kiosk listed")
    server.stop()
    window = daemon.state_now()["window"]
    wait_until(lambda: daemon.state_now()["window"] >= window + 3, timeout=15, message="three more rotations")
    assert daemon.state_now()["health"] == "ok"

    def failing():
        text = daemon.cli("status", "--output-dir", str(daemon.out), "--lang", "en").stdout.decode()
        row = next((line for line in text.splitlines() if line.strip().startswith("Reporting")), "")
        return "last ok" in row and ("fail" in row or "refused" in row or "error" in row or "cannot" in row) and row
    wait_until(failing, timeout=INTERVAL * 3 + 15, message="status says reporting fails")


def test_a_kiosk_40_seconds_fast_is_listed_with_its_clock_skew(daemons, servers, tmp_path):
    assert os.path.exists(LIBFAKETIME), "libfaketime (apt package faketime) is installed by scripts/install-deps --test"
    fast = {"LD_PRELOAD": LIBFAKETIME, "FAKETIME": "+40", "FAKETIME_DONT_FAKE_MONOTONIC": "1", "FAKETIME_DISABLE_SHM": "1"}
    daemon = daemons(tmp_path / "fast", env=fast)
    server = servers(daemon.secret, args=["--period", "2"])
    process = Reporter(daemon, server.url("/C"), interval=INTERVAL, env=fast).start()
    try:
        row = wait_until(lambda: one(server), timeout=INTERVAL + 10, message="the fast kiosk listed")
        assert 38 <= row["clockSkewSeconds"] <= 42, row
        assert "clock" in row["problemCodes"] and any("s fast" in words for words in row["problems"]), row
        status, table, _ = kiosks(server)
        assert status == 1 and "fast" in table, table
    finally:
        process.stop()


def test_a_kiosk_paused_then_silent_reaches_a_webhook_once_each_change(fleet):
    """The `kiosk` event: its first state, paused, then late once its reporter is killed; each
    told once (one webhook-id each), verified by the standardwebhooks package, no visitor data."""
    daemon, server, reporter = fleet
    venue = daemon.document()["venue"]
    receiver = WebhookReceiver("whsec_" + "A" * 32)
    try:
        added = server_run("webhook", "add", "ops", receiver.url, "--events", "kiosk", "--database", f"sqlite:{server.database}")
        assert added.returncode == 0, added.stderr
        receiver.webhook = Webhook(re.search(r"(whsec_\S+)", added.stdout).group(1))

        def told(ds):
            return [d.payload["data"] for d in ds if d.verified and d.status == 200]
        kiosk = reporter()
        # The server looks at its fleet every 15 s: each event within a look of its change.
        receiver.wait_for(lambda ds: len(told(ds)) >= 1, INTERVAL + 25, "the kiosk's first state")
        assert told(receiver.deliveries)[0]["state"] == "ok" and told(receiver.deliveries)[0]["kiosk"] == "door-1"
        status, _, err = kiosks(server, "set", venue, "door-1", "--refresh", "pause")
        assert status == 0, err
        receiver.wait_for(lambda ds: any("paused" in data["problem_codes"] for data in told(ds)), INTERVAL + 25, "paused told")
        kiosk.stop(sig=signal.SIGKILL)
        # Late after two report intervals without a report (10 s), told at the next look.
        receiver.wait_for(lambda ds: any(data["state"] == "late" for data in told(ds)), 2 * INTERVAL + 25, "late told")
        events = told(receiver.deliveries)
        # A loaded machine may add a passing problem (a code a window late): each still a change.
        told_states = [(data["state"], tuple(data["problem_codes"])) for data in events]
        assert all(a != b for a, b in zip(told_states, told_states[1:])), f"each state told once: {told_states}"
        assert told_states[0][0] == "ok" and "paused" not in told_states[0][1], told_states
        assert told_states[-1][0] == "late" and "paused" in told_states[-1][1], told_states
        assert all(data["venue"] == venue and data["kiosk"] == "door-1" and "name" not in data and "phone" not in data for data in events)
        ids = [d.id for d in receiver.successes()]
        assert len(ids) == len(set(ids)) == len(events), ids
        assert all(d.verified for d in receiver.deliveries), "every delivery verifies"
        assert all(d.payload["type"] == "kiosk" for d in receiver.successes())
    finally:
        receiver.close()


def test_a_killed_kiosk_is_late_then_offline_on_an_injected_clock(fleet):
    """Daemon and reporter killed (SIGKILL: nothing said goodbye); the fleet judged by `kiosks`
    with its clock put ahead: ok now, late past two intervals of silence, offline past 10
    minutes, with the exit status scripts read (0 ok, 1 a kiosk late or with a problem, 2 one
    offline: docs/SERVER.md)."""
    daemon, server, reporter = fleet
    kiosk = reporter()
    wait_until(lambda: one(server), timeout=INTERVAL + 10, message="the kiosk listed")
    kiosk.stop(sig=signal.SIGKILL)
    daemon.stop(sig=signal.SIGKILL)
    seen = one(server)["lastSeen"]

    def judged(ahead):
        status, out, err = kiosks(server, "--format", "json", ahead=ahead)
        row = next(row for row in json.loads(out) if row["kiosk"] == "door-1")
        assert row["lastSeen"] == seen, "the clock moved, not the record"
        return status, row

    status, row = judged(0)
    assert row["state"] == "ok", row
    status, row = judged(2 * INTERVAL + 5)
    assert row["state"] == "late" and status == 1, (status, row)
    status, row = judged(601)
    assert row["state"] == "offline" and status == 2, (status, row)
    status, table, _ = kiosks(server, ahead=601)
    assert "offline" in table and "door-1" in table, table
