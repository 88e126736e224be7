"""Black-box fault tests of `qrcheckin run` (the issue's fault requirements).

Each test starts the real daemon, breaks something the way the world does (a full disk, a
read-only or deleted output directory, kill -9, hostile or unauthorised socket clients, a
second daemon) and checks what a user sees: files that always parse and decode, `status`,
`ctl` and their exit codes, and recovery without a restart. Needs root (tmpfs mounts,
setpriv, groupadd) and zbarimg.
"""
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import BIN, needs_root, run, zbar
from daemonutil import REMOVALS, Daemon, fill, read_state, request, shown_code, wait_until
from pngutil import bilevel_rows

pytestmark = needs_root("tmpfs mounts, setpriv, groupadd")

SCHEMA_KEYS = {"version", "state", "venue", "url", "token", "safeNumber", "window", "seq", "issuedAt",
               "expiresAt", "period", "shake", "refresh", "modeSource", "modeChangedBy", "modeChangedAt", "health", "reason",
               "updatedAt", "pid", "clock"}
OPS_GROUP = "qrcheckin-test-ops"

# --------------------------------------------------------------------------- helpers


def check_png(data):
    """Checks a complete 1-bit grey PNG: signature, chunk CRCs, IHDR, IDAT inflating to the
    exact size, IEND last. Returns (width, height)."""
    width, height, _, dark = bilevel_rows(data)
    assert dark == [True, False], "IHDR: grey, not a palette"
    return width, height


def check_document(text):
    """Parses a current.json document and checks it has every schema key."""
    document = json.loads(text)
    assert set(document) == SCHEMA_KEYS, set(document) ^ SCHEMA_KEYS
    assert document["version"] == 1
    return document


def decode_png_bytes(data, directory):
    """Decodes PNG bytes with zbarimg; returns the payload as text."""
    path = Path(directory) / f"sample-{threading.get_ident()}-{time.monotonic_ns()}.png"
    path.write_bytes(data)
    try:
        return zbar(path).decode()
    finally:
        path.unlink()


def checked(daemon):
    """The daemon's current.json, parsed and checked against the schema (check_document)."""
    return check_document((daemon.out / "current.json").read_text())


def fd_count(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def steady_fd_count(pid, samples=50):
    """The daemon's resting descriptor count: the least seen over half a second (a rotation in
    progress briefly holds a temporary file and the directory open)."""
    counts = []
    for _ in range(samples):
        counts.append(fd_count(pid))
        time.sleep(0.01)  # sampling over time is the point here
    return min(counts)


def far_from_the_next_window(daemon, margin=45):
    """The daemon's current.json once its window has at least `margin` seconds left (waiting for
    the next window when the test starts close to an hour's end), so that whatever happens in the
    next `margin` seconds cannot be the work of a rotation."""
    return wait_until(lambda: (d := checked(daemon))["expiresAt"] - time.time() >= margin and d,
                      margin + 30, message=f"a window with {margin}s left")


def status(out):
    result = run("status", "--output-dir", str(out))
    return result.returncode, result.stdout.decode() + result.stderr.decode()


def assert_degraded_then_recovers(daemon, reason_text, break_it, repair):
    """Shared by the full-disk and read-only cases: break, check degraded with the old files
    intact, repair, check recovery."""
    out = daemon.out
    assert checked(daemon)["health"] == "ok"

    break_it()
    reply = request(daemon.socket, "refresh now")  # a forced rotation must now fail to write
    assert not reply["ok"] and reply["code"] == "not-written" and reply["state"]["health"] == "degraded", reply
    assert reason_text in reply["state"]["reason"], reply["state"]["reason"]
    # From here on nothing can be written: these are the last good files, and the reply names them.
    good = checked(daemon)
    assert good["health"] == "ok" and good["url"] == reply["state"]["url"]
    good_files = {name: (out / name).read_bytes() for name in ("current.png", "current.txt", "current.json")}
    ctl = run("ctl", "--output-dir", str(out), "--json", "get")
    assert ctl.returncode == 0 and json.loads(ctl.stdout)["state"]["health"] == "degraded"

    # status reads current.json first; once the old code is stale it asks the socket and says why.
    code, text = wait_until(lambda: (s := status(out))[0] == 1 and s, daemon.period + 10,
                            message="status to exit 1 (degraded)")
    assert reason_text in text, text
    # The last good files stayed untouched all along, and still decode.
    for name, data in good_files.items():
        assert (out / name).read_bytes() == data, f"{name} changed while degraded"
    assert zbar(out / "current.png").decode() == good["url"]
    assert not [p for p in os.listdir(out) if p.endswith(".tmp")], "temporaries left behind"
    assert "degraded: " in daemon.logs() and reason_text in daemon.logs()

    repair()
    wait_until(lambda: daemon.get()["health"] == "ok", daemon.period + 30, message="health ok over the socket")
    wait_until(lambda: (d := checked(daemon))["health"] == "ok" and d["url"] != good["url"] and d,
               daemon.period + 30, message="current.json to update")
    shown_code(out)  # the image and current.json show one code again
    wait_until(lambda: status(out)[0] == 0, daemon.period + 30, message="status to exit 0")
    assert "healthy again" in daemon.logs()


# --------------------------------------------------------------------------- 1. readers never see a part


def test_readers_never_see_partial_files_during_rotations(base, daemons, tools):
    out, state = base / "out", base / "state"
    daemon = daemons(out=out, state=state, period=15, ready=Daemon.serving)
    stop = threading.Event()
    failures, seen_urls, samples = [], set(), []
    order = {}  # url -> (window, seq), from every document anyone saw

    def reader(index):
        reads = 0
        while not stop.is_set():
            try:
                before = check_document((out / "current.json").read_bytes())
                png = (out / "current.png").read_bytes()
                check_png(png)
                after = check_document((out / "current.json").read_bytes())
            except FileNotFoundError:
                # A reader slower than two publications finds its set removed (STATE.md: the
                # files are gone, ENOENT) and opens the current one again; under a CPU hog,
                # with refreshes back to back, that happens. A partial file never may.
                continue
            except Exception as error:  # any partial file is a failure
                failures.append(repr(error))
                return
            for d in (before, after):
                seen_urls.add(d["url"])
                order[d["url"]] = (d["window"], d["seq"])
            reads += 1
            if reads % 20 == index:
                samples.append((before, png, after))

    threads = [threading.Thread(target=reader, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    issued = []
    try:
        # 250 rotations at least, and on until the readers have seen 200 distinct codes (they
        # raced the writer): on a loaded machine the readers may get fewer turns per rotation.
        deadline = time.monotonic() + 120
        while len(issued) < 250 or (len(seen_urls) < 200 and time.monotonic() < deadline):
            reply = request(daemon.socket, "refresh now")
            assert reply["ok"] and reply["state"]["health"] == "ok", reply
            issued.append(reply["state"])
            order[reply["state"]["url"]] = (reply["state"]["window"], reply["state"]["seq"])
            if failures:
                break
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert not failures, failures[:3]
    assert len({d["url"] for d in issued}) == len(issued), "every refresh issued a new code"
    assert len(seen_urls) >= 200, f"readers saw only {len(seen_urls)} distinct codes"

    # The image read between two JSON reads shows the code of the first one or a newer one,
    # and never one newer than what follows the second (PNG is written before JSON).
    ranked = sorted(order.values())
    assert len(samples) >= 10, len(samples)
    for before, png, after in samples[:: max(1, len(samples) // 15)]:
        url = decode_png_bytes(png, base)
        assert url in order, f"decoded a URL nobody issued: {url}"
        assert order[url] >= (before["window"], before["seq"]), "image older than the JSON read before it"
        assert ranked.index(order[url]) <= ranked.index((after["window"], after["seq"])) + 1


# --------------------------------------------------------------------------- 2-4. unwritable output


def test_full_disk_degrades_keeps_last_good_files_and_recovers(base, tmpfs, daemons, tools):
    daemon = daemons(out=tmpfs, state=base / "state", period=1, ready=Daemon.serving)
    filler = []
    assert_degraded_then_recovers(daemon, "No space left on device",
                                  break_it=lambda: filler.append(fill(tmpfs)),
                                  repair=lambda: filler[0].unlink())


def test_read_only_output_degrades_and_recovers(base, tmpfs, daemons, tools):
    daemon = daemons(out=tmpfs, state=base / "state", period=1, ready=Daemon.serving)
    remount = lambda mode: subprocess.run(["mount", "-o", f"remount,{mode}", str(tmpfs)], check=True)
    assert_degraded_then_recovers(daemon, "Read-only file system",
                                  break_it=lambda: remount("ro"), repair=lambda: remount("rw"))


# The promise (docs/DAEMON.md, Faults; issue 14, and issue 37 where it was lost): removed outputs
# are whole again within a second, with the code they showed. The daemon puts them back at its
# next tick, at the next whole second, or at once when it hears that the directory itself is gone.
# A test on a loaded machine (two cores, builds beside it) cannot hold the daemon to the
# millisecond: the daemon's wake and the test's own polling can each be late by hundreds of
# milliseconds. So the bound asserted is 3 s, three times the promise and a tenth of the period,
# with at least 10 s of the window left: a rotation can never pass for the repair (the code must
# also be the same one), while the lost promise (back only at the next window) fails it every time.
RECOVERY_LIMIT = 3.0
RECOVERY_PERIOD = 30


@pytest.mark.parametrize("removal", REMOVALS)
def test_removed_outputs_are_whole_again_within_a_second_with_the_same_code(base, daemons, tools, removal):
    out = base / "out"
    daemon = daemons(out=out, state=base / "state", period=RECOVERY_PERIOD)
    # No request before a removal: an answered one makes the daemon rewrite metrics.prom a
    # second later, a write that once hid this regression from the test.
    before = far_from_the_next_window(daemon, margin=10)
    files = ("current.png", "current.txt", "current.json")
    releases = []
    try:
        # Twice: the second time, the directory the daemon made again is the one it must watch
        # (with a shell still holding the first, the kernel never said that one was gone). The
        # files come back within a second each time; the socket the first time, then after the
        # pause that a socket removed again within a minute waits (SocketRebindingTests).
        for names in (files + ("control.sock",), files):
            releases.append(REMOVALS[removal](out))
            removed = time.monotonic()
            wait_until(lambda: all((out / name).exists() for name in names), before["expiresAt"] - time.time() - 1,
                       interval=0.005, message=f"{', '.join(names)} to come back")
            took = time.monotonic() - removed
            print(f"whole again {took:.3f}s after the removal")
            assert took < RECOVERY_LIMIT, f"back after {took:.3f}s, promised within a second"
            url, document = shown_code(out)
            assert (document["window"], document["seq"], url) == (before["window"], before["seq"], before["url"]), \
                "the same code, not a new one"
            assert document["health"] == "ok" and document["expiresAt"] == before["expiresAt"]
        assert before["expiresAt"] - time.time() > 1, "still the window the code was shown in"
        wait_until(lambda: (out / "control.sock").exists(), before["expiresAt"] - time.time(), message="the socket")
        # What readers see: status (the file and the socket) and the socket itself.
        assert status(out)[0] == 0
        assert daemon.get()["url"] == before["url"]
        assert (out / "control.sock").stat().st_mode & 0o777 == 0o660
        assert daemon.process.poll() is None
        assert "issued a fresh code" not in daemon.logs()
    finally:
        for release in releases:
            release()


def test_deleted_outputs_on_a_full_disk_degrade_then_come_back(base, tmpfs, daemons, tools):
    """When removed files cannot be written again, the daemon says degraded and retries every
    second, not at the next window."""
    daemon = daemons(out=tmpfs, state=base / "state", period=3600, ready=Daemon.serving)
    far_from_the_next_window(daemon)
    shown = read_state(tmpfs)
    # Stopped meanwhile: it would put the files back before the filler has taken their room.
    daemon.process.send_signal(signal.SIGSTOP)
    try:
        for name in ("current.png", "current.txt", "current.json"):
            (tmpfs / name).unlink()
        filler = fill(tmpfs)
    finally:
        daemon.process.send_signal(signal.SIGCONT)
    # Asked while the removal settles, the refresh is written at once, and cannot be: the
    # reply says so, with the daemon's state (nothing is on disk to show), degraded.
    reply = request(daemon.socket, "refresh now")
    assert not reply["ok"] and reply["code"] == "not-written", reply
    written = reply["state"]
    assert written["health"] == "degraded", written
    wait_until(lambda: "No space left on device" in daemon.logs(), 30, message="the degraded log line")
    assert daemon.get()["health"] == "degraded"
    filler.unlink()
    # Back by the retry (every second: DaemonCoreTests), not at the next window: the refreshed
    # code, the one after the code shown before the removal.
    wait_until(lambda: (read_state(tmpfs) or {}).get("health") == "ok", 30, message="the files to come back")
    url, document = shown_code(tmpfs)
    assert (document["window"], document["seq"]) == (shown["window"], shown["seq"] + 1), (document, shown)
    assert url == document["url"]
    wait_until(lambda: "healthy again" in daemon.logs(), 30, message="the recovery log line: " + daemon.logs())


# --------------------------------------------------------------------------- 5. kill -9


def test_kill_9_leaves_whole_files_and_restart_keeps_settings(base, daemons, tools):
    out, state = base / "out", base / "state"
    daemon = daemons(out=out, state=state, period=30, ready=Daemon.serving)
    assert request(daemon.socket, "shake off")["state"]["shake"] == "off"

    def hammer():
        try:
            while True:
                request(daemon.socket, "refresh now", timeout=2)
        except (OSError, json.JSONDecodeError):
            return  # the daemon died under us, as intended

    for _ in range(2):
        thread = threading.Thread(target=hammer)
        thread.start()
        wait_until(lambda: checked(daemon)["seq"] >= 30, 60, message="forced rotations")
        daemon.kill(signal.SIGKILL)
        thread.join(timeout=30)
        assert daemon.process.returncode == -signal.SIGKILL

        document = checked(daemon)  # whole, parseable
        check_png((out / "current.png").read_bytes())
        decoded = zbar(out / "current.png").decode()
        verdict = run("verify", "--secret-file", str(state / "secret"), "--period", "30", decoded)
        assert verdict.returncode == 0, verdict.stdout  # a genuine, current code
        assert decoded.rsplit("/", 1)[0] == document["url"].rsplit("/", 1)[0]
        assert status(out)[0] == 3, "status must say not running after kill -9"

        # A writer killed mid-write may leave a temporary; plant one so the clean-up is always tested.
        (out / f".current.png.{daemon.pid}.12345.tmp").write_bytes(b"\x89PNG partial")
        daemon.start()
        assert not [p for p in os.listdir(out) if p.endswith(".tmp")], os.listdir(out)
        assert checked(daemon)["shake"] == "off"
    # Second round: pause, kill -9, restart: still paused, shake still off.
    assert request(daemon.socket, "refresh pause")["state"]["refresh"] == "paused"
    daemon.kill(signal.SIGKILL)
    daemon.start()
    document = checked(daemon)
    assert (document["state"], document["refresh"], document["shake"]) == ("paused", "paused", "off")
    assert document["pid"] == daemon.pid
    check_png((out / "current.png").read_bytes())
    assert not [p for p in os.listdir(out) if p.endswith(".tmp")]


# --------------------------------------------------------------------------- 6. who may steer


RAW_GET = """
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
try:
    s.sendall(b"get\\n")
except BrokenPipeError:
    pass  # refused and closed already; the reply is still there to read
print(s.recv(4096).decode())
"""


def as_user(group, *args):
    """Runs qrcheckin as `nobody` with primary group `group` and no supplementary groups."""
    return subprocess.run(["setpriv", "--reuid", "nobody", "--regid", group, "--clear-groups", BIN, *args],
                          capture_output=True, timeout=30)


def test_socket_refuses_outsiders_and_admits_the_ops_group(base, daemons):
    out = base / "out"
    daemon = daemons(out=out, state=base / "state", period=15, ready=Daemon.serving)
    sock = daemon.socket
    assert sock.stat().st_mode & 0o777 == 0o660

    # Mode 0660: nobody cannot even connect.
    denied = as_user("nogroup", "ctl", "--output-dir", str(out), "get")
    assert denied.returncode == 77, denied
    assert b"permission denied" in denied.stderr.lower()

    # Opened to everyone by mistake: SO_PEERCRED still refuses, and the daemon logs it.
    # The daemon replies and hangs up at once; ctl must read that reply, not die of SIGPIPE
    # writing its request (so try a few times: it is a race).
    sock.chmod(0o666)
    for _ in range(10):
        denied = as_user("nogroup", "ctl", "--output-dir", str(out), "shake", "off")
        assert denied.returncode == 77, denied
        assert b"permission denied: uid 65534" in denied.stderr, denied.stderr
    raw = subprocess.run(["setpriv", "--reuid", "nobody", "--regid", "nogroup", "--clear-groups",
                          shutil.which("python3", path="/usr/bin:/bin") or sys.executable, "-c", RAW_GET, str(sock)],
                         capture_output=True, timeout=30)
    reply = json.loads(raw.stdout)
    assert reply["ok"] is False and reply["code"] == "permission-denied" and "state" not in reply
    wait_until(lambda: "refused uid 65534" in daemon.logs(), 30, message="the refusal in the log")
    assert daemon.get()["shake"] == "on", "a refused request must change nothing"
    daemon.kill(signal.SIGTERM)
    assert daemon.process.returncode == 0

    # A member of the ops group may steer.
    subprocess.run(["groupadd", "-f", OPS_GROUP], check=True)
    out2 = base / "out2"
    ops = daemons(out=out2, state=base / "state2", period=15, args=["--ops-group", OPS_GROUP], ready=Daemon.serving)
    assert ops.socket.stat().st_gid == __import__("grp").getgrnam(OPS_GROUP).gr_gid
    allowed = as_user(OPS_GROUP, "ctl", "--output-dir", str(out2), "shake", "off")
    assert allowed.returncode == 0, allowed
    assert ops.get()["shake"] == "off"
    assert as_user("nogroup", "ctl", "--output-dir", str(out2), "get").returncode == 77


# --------------------------------------------------------------------------- 7. hostile clients


def test_hostile_clients_leave_the_daemon_serving(base, daemons):
    out = base / "out"
    daemon = daemons(out=out, state=base / "state", period=1, ready=Daemon.serving)
    baseline = steady_fd_count(daemon.pid)

    # 24 idle clients hold slots; a real request is answered at once all the same, and every
    # idle one is told it timed out (1 s; see test_faults_socket.py for 1,000 of them).
    idle = []
    started = time.monotonic()  # before the first connects: each one's 1 s starts later
    for _ in range(24):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(str(daemon.socket))  # blocking, as ctl does: waits for room in the backlog
        s.settimeout(30)
        idle.append(s)
    ctl = run("ctl", "--output-dir", str(out), "get", timeout=15)
    assert ctl.returncode == 0, ctl.stderr
    timeouts = 0
    for s in idle:
        reply = s.recv(4096)
        s.close()
        timeouts += b"timed out" in reply
    assert timeouts == 24, timeouts
    assert time.monotonic() - started >= 0.9  # they really were made to wait out the timeout

    rng = random.Random(20260401)
    valid = [b"get\n", b"refresh now\n", b"shake toggle\n", b"shake\n", b"refresh auto\n", b"get"]

    def payload(i):
        kind = i % 6
        if kind == 0:
            return bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 300)))
        if kind == 1:
            return b"g" * 10_000 + b"\n"
        if kind == 2:
            return bytes(rng.choice(b"abcdefghijklmnopqrstuvwxyz ") for _ in range(rng.randint(1, 40)))  # no newline
        if kind == 3:
            return bytes(rng.randint(0, 31) for _ in range(rng.randint(1, 50))) + b"\n"
        if kind == 4:
            return b"refresh \x00now\r\n" if i % 12 == 4 else b"\xff\xfe\xfd get\n"
        return rng.choice(valid)

    payloads = [payload(i) for i in range(1000)]
    problems, answered = [], []

    def client(chunk):
        for data in chunk:
            try:
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                    s.settimeout(5)
                    s.connect(str(daemon.socket))
                    s.sendall(data)
                    s.shutdown(socket.SHUT_WR)
                    reply = b""
                    while not reply.endswith(b"\n") and (chunk_ := s.recv(4096)):
                        reply += chunk_
                    if reply:
                        assert reply.endswith(b"\n") and reply.count(b"\n") == 1, reply
                        answered.append(json.loads(reply))
                    try:
                        assert s.recv(4096) == b"", "one reply line, then the daemon hangs up"
                    except ConnectionResetError:
                        # Closing with our unread excess bytes resets the connection: only an
                        # oversized request may see that.
                        assert len(data) > 256, data
            except Exception as error:
                problems.append(f"{data[:40]!r}: {error!r}")

    threads = [threading.Thread(target=client, args=(payloads[i::4],)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not problems, problems[:5]
    assert len(answered) == 1000, len(answered)  # every request got exactly one reply line
    assert any(r["ok"] for r in answered) and any(not r["ok"] for r in answered)
    assert any("too long" in r.get("error", "") for r in answered)

    # Still serving, still rotating, nothing leaked.
    assert daemon.process.poll() is None
    request(daemon.socket, "refresh auto")
    window = daemon.get()["window"]
    wait_until(lambda: daemon.get()["window"] > window, 30, message="the window to advance")
    wait_until(lambda: fd_count(daemon.pid) <= baseline, 30,
               message=f"fd count back to {baseline} (now {fd_count(daemon.pid)}: "
                       f"{[os.readlink(f'/proc/{daemon.pid}/fd/{fd}') for fd in os.listdir(f'/proc/{daemon.pid}/fd')]})")
    assert run("ctl", "--output-dir", str(out), "get").returncode == 0


# --------------------------------------------------------------------------- 8. a second daemon


def test_second_daemon_exits_69_and_leaves_the_first_alone(base, daemons):
    out, state = base / "out", base / "state"
    first = daemons(out=out, state=state, period=15, ready=Daemon.serving)
    stop, replies = threading.Event(), []

    def hammer():  # keep the first one writing while the second tries to start
        while not stop.is_set():
            replies.append(request(first.socket, "refresh now"))

    thread = threading.Thread(target=hammer)
    thread.start()
    try:
        # The second daemon must not touch the first's files, not even its in-flight
        # temporaries: keep trying while the first writes (tens of rotations).
        attempts = 0
        while attempts < 20 or (len(replies) < 40 and attempts < 300):
            attempts += 1
            second = run("run", "--output-dir", str(out), "--state-dir", str(state), "--period", "15", timeout=15)
            assert second.returncode == 69, second
            assert b"already running" in second.stderr and str(out).encode() in second.stderr, second.stderr
    finally:
        stop.set()
        thread.join()
    assert first.process.poll() is None
    assert all(r["ok"] and r["state"]["health"] == "ok" for r in replies), \
        [r["state"]["reason"] for r in replies if r["state"]["health"] != "ok"][:3]
    document = checked(first)
    assert document["pid"] == first.pid and document["health"] == "ok"
    assert first.serving()
    assert status(out)[0] == 0


# --------------------------------------------------------------------------- 9. outputs change together


LONG_BASE_URL = "HTTPS://CHECKIN.EXAMPLE.ORG/" + "A" * 170  # current.txt then needs 2 pages, the PNG 1


def free_pages(directory):
    stats = os.statvfs(directory)
    return stats.f_bavail * stats.f_frsize // 4096


def leave_free(filler, directory, pages):
    """Shrinks the (full-disk) filler until at least `pages` pages of the tmpfs are free (more
    when the daemon removes an old set of its own meanwhile: then it has that room too)."""
    size = filler.stat().st_size
    while free_pages(directory) < pages and size > 0:
        size -= 4096
        os.truncate(filler, size)
    assert free_pages(directory) >= pages, free_pages(directory)


def describe(out):
    """(json, png url, txt) as a reader sees them now."""
    document = check_document((out / "current.json").read_text())
    return document, zbar(out / "current.png").decode(), (out / "current.txt").read_text()


def assert_one_code(document, url, text):
    assert url == document["url"], "current.png shows another code than current.json"
    assert document["safeNumber"] in text, "current.txt shows another code than current.json"
    expires = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(document["expiresAt"]))
    assert f"expires {expires}" in text, "current.txt expires at another time than current.json"


def shows_code(document, text):
    """Whether current.txt's `text` shows the code of `document` (its safe number and expiry)."""
    expires = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(document["expiresAt"]))
    return document["safeNumber"] in text and f"expires {expires}" in text


def test_a_partly_full_disk_replaces_no_output_and_says_degraded_in_current_json(base, tmpfs, daemons, tools):
    # A long base URL: the text QR needs more room than the PNG, so there is room for a new
    # PNG but not for a new text file. Before the fix the PNG kept rotating while current.txt
    # and current.json stayed at an old code, and current.json said "ok".
    daemon = daemons(out=tmpfs, state=base / "state", period=3600, args=["--base-url", LONG_BASE_URL], ready=Daemon.serving)
    before, url, text = describe(tmpfs)
    assert_one_code(before, url, text)
    assert (tmpfs / "current.txt").stat().st_size > 4096 >= (tmpfs / "current.png").stat().st_size
    filler = fill(tmpfs)
    leave_free(filler, tmpfs, 1)  # one page: enough for the PNG or current.json, not the text

    reply = request(daemon.socket, "refresh now")
    assert not reply["ok"] and reply["code"] == "not-written" and reply["state"]["health"] == "degraded", reply
    assert "No space left on device" in reply["state"]["reason"]
    document, url, text = describe(tmpfs)
    assert_one_code(document, url, text)
    assert document["url"] == before["url"], "nothing was replaced: the old code is still on disk"
    assert document["health"] == "degraded" and "No space left on device" in document["reason"]
    assert status(tmpfs)[0] == 1
    assert not [p for p in os.listdir(tmpfs) if p.endswith(".tmp")], "temporaries left behind"

    filler.unlink()
    fresh = wait_until(lambda: (d := checked(daemon))["health"] == "ok" and d, 30, message="recovery")
    assert fresh["url"] != before["url"]
    assert_one_code(*describe(tmpfs))


def test_soak_readers_never_see_outputs_that_disagree_while_the_disk_fills_and_empties(base, tmpfs, daemons, tools):
    """Issue 14's soak: rotations every second, a tmpfs that fills (wholly and partly) and
    empties, and a reader reading JSON -> PNG -> TXT -> JSON: every triple whose two JSON reads
    name the same window and sequence describes one code, or was read in the moment between the
    renames of the next state (docs/STATE.md: the image and text may then already be the next
    code's, which the next current.json names). Bounded to about a minute."""
    daemon = daemons(out=tmpfs, state=base / "state", period=1, args=["--base-url", LONG_BASE_URL], ready=Daemon.serving)
    stop = threading.Event()
    triples, seen, named = [], set(), {}  # named: url -> a current.json that named it

    def reader():
        while not stop.is_set():
            try:
                first = (tmpfs / "current.json").read_bytes()
                png = (tmpfs / "current.png").read_bytes()
                text = (tmpfs / "current.txt").read_text()
                second = (tmpfs / "current.json").read_bytes()
            except FileNotFoundError:
                continue
            a, b = check_document(first), check_document(second)
            named[a["url"]], named[b["url"]] = a, b
            if (a["window"], a["seq"]) == (b["window"], b["seq"]):
                triples.append((b, png, text))
                seen.add((b["window"], b["seq"]))  # every code read, also those trimmed below
            if len(triples) > 200_000:
                del triples[:100_000]  # bounded memory; the checks below sample

    weather_failures = []

    def weather():
        rng = random.Random(14)
        try:
            while not stop.is_set():
                filler = fill(tmpfs)
                if rng.random() < 0.6:
                    leave_free(filler, tmpfs, rng.choice([1, 2]))  # room for some files, not all
                stop.wait(rng.uniform(0.5, 2.5))
                filler.unlink()
                stop.wait(rng.uniform(0.5, 2.0))
        except Exception as error:  # a dead weather thread would leave the disk full: say so
            weather_failures.append(repr(error))

    threads = [threading.Thread(target=reader), threading.Thread(target=weather)]
    for thread in threads:
        thread.start()
    try:
        # 45 s of weather; longer (up to 2 minutes) only while the soak has not yet seen what it
        # checks below, as on a loaded machine where the reader and the daemon get fewer turns.
        deadline, give_up = time.monotonic() + 45, time.monotonic() + 120

        def enough():
            log = daemon.logs()
            return len(triples) > 1000 and len(seen) >= 10 and "degraded: " in log and "healthy again" in log

        while daemon.process.poll() is None and time.monotonic() < give_up and (time.monotonic() < deadline or not enough()):
            time.sleep(0.5)  # the soak is time passing
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert daemon.process.poll() is None
    assert not weather_failures, weather_failures
    assert len(triples) > 1000, len(triples)
    # Every distinct PNG is decoded once; every triple is checked against its JSON.
    decoded, mismatches, between_renames = {}, [], 0
    for document, png, text in triples:
        if png not in decoded:
            check_png(png)
            decoded[png] = decode_png_bytes(png, base)
        try:
            assert_one_code(document, decoded[png], text)
        except AssertionError as error:
            # Read between the renames of a later state: the image and the text each show the
            # document's code or a newer one that a current.json named (never an older code, nor
            # one no current.json ever named, as when a partial write put the image alone in place).
            order = (document["window"], document["seq"])
            newer = [d for d in named.values() if (d["window"], d["seq"]) > order]
            image_ok = decoded[png] == document["url"] or decoded[png] in {d["url"] for d in newer}
            text_ok = any(shows_code(d, text) for d in [document, *newer])
            if image_ok and text_ok:
                between_renames += 1
            else:
                mismatches.append((document["window"], document["seq"], str(error)))
    assert not mismatches, f"{len(mismatches)} of {len(triples)} triples disagree: {mismatches[:3]}\n{daemon.logs()[-3000:]}"
    print(f"soak: {len(triples)} triples, {between_renames} read between the renames of the next state")
    assert len(seen) >= 10, f"only {len(seen)} codes rotated through in the soak"
    assert "degraded: " in daemon.logs() and "healthy again" in daemon.logs(), "the disk really filled and emptied"


def test_sigterm_on_a_full_disk_says_the_stopped_state_was_not_written(base, tmpfs, daemons):
    daemon = daemons(out=tmpfs, state=base / "state", period=3600, ready=Daemon.serving)
    running = checked(daemon)
    filler = fill(tmpfs)
    daemon.kill(signal.SIGTERM)
    assert daemon.process.returncode == 0
    lines = daemon.logs().splitlines()
    assert "qrcheckin: stopped" not in lines, "a plain 'stopped' although the state says running"
    said = [line for line in lines if "the stopped state could not be written" in line]
    assert said and "No space left on device" in said[0] and str(tmpfs) in said[0], lines[-3:]
    assert checked(daemon)["url"] == running["url"], "the old code stays on disk, as the log says"
    assert not (tmpfs / "control.sock").exists()
    filler.unlink()


def test_sigterm_with_room_writes_stopped_and_says_stopped(base, daemons):
    daemon = daemons(out=base / "out", state=base / "state", period=3600, ready=Daemon.serving)
    daemon.kill(signal.SIGTERM)
    assert daemon.process.returncode == 0
    assert "qrcheckin: stopped" in daemon.logs().splitlines()
    assert checked(daemon)["state"] == "stopped"
