"""What an adversarial run found (issue 25 items 4-8), as tests of the real daemon:

- a kill -9 sweep during 1 s rotations and forced refreshes: every read of the published set
  shows one code in all its files (URL, safe number, seq), and no (window, seq) is issued twice
  across the restarts;
- a full state disk: `ctl refresh pause` fails clearly and a restart comes up paused;
- restarts after forced refreshes and after a clock step back (libfaketime) repeat no code;
- a read-only output directory: replies are not ok and say what the files show;
- refusals are counted in metrics.prom at once.
Needs root (tmpfs mounts) and libzbar (zbar-tools), both from scripts/install-deps --test.
"""
import base64
import ctypes
import json
import os
import random
import shutil
import signal
import struct
import subprocess
import threading
import time
from pathlib import Path

from conftest import needs_root, run
from daemonutil import Daemon, fill, request, wait_until
from pngutil import sampled_matrix

pytestmark = needs_root("tmpfs mounts, setpriv")

LIBFAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
SET_FILES = ("current.json", "current.txt", "current.png")

# --------------------------------------------------------------------------- reading a whole set


class Zbar:
    """libzbar through ctypes: decodes a module matrix in-process (zbarimg costs a process per
    image, and the sweep reads thousands)."""

    def __init__(self):
        self.lib = ctypes.CDLL("libzbar.so.0")
        self.lib.zbar_image_scanner_create.restype = ctypes.c_void_p
        self.lib.zbar_image_create.restype = ctypes.c_void_p
        self.lib.zbar_image_first_symbol.restype = ctypes.c_void_p
        self.lib.zbar_image_first_symbol.argtypes = [ctypes.c_void_p]
        self.lib.zbar_symbol_get_data.restype = ctypes.c_char_p
        self.lib.zbar_symbol_get_data.argtypes = [ctypes.c_void_p]
        for name in ("zbar_image_set_format", "zbar_image_set_size", "zbar_image_set_data", "zbar_scan_image",
                     "zbar_image_destroy", "zbar_image_scanner_set_config", "zbar_image_scanner_destroy"):
            getattr(self.lib, name).restype = ctypes.c_int
        self.scanner = ctypes.c_void_p(self.lib.zbar_image_scanner_create())
        self.lib.zbar_image_scanner_set_config(self.scanner, 0, 0, 1)  # ZBAR_CFG_ENABLE for every symbology

    def decode(self, matrix):
        """The text of a module matrix; a few scales are tried (zbar's finder misses a small
        image now and then)."""
        for scale in (3, 4, 6, 8):
            text = self.decode_at(matrix, scale)
            if text is not None:
                return text
        raise AssertionError("zbar found no code in the matrix read from current.png")

    def decode_at(self, matrix, scale, margin=4):
        size = len(matrix)
        side = (size + 2 * margin) * scale
        pixels = bytearray(b"\xff" * side * side)
        for y, row in enumerate(matrix):
            for x, dark in enumerate(row):
                if dark:
                    for dy in range(scale):
                        start = ((y + margin) * scale + dy) * side + (x + margin) * scale
                        pixels[start:start + scale] = b"\0" * scale
        buffer = ctypes.create_string_buffer(bytes(pixels), len(pixels))
        image = ctypes.c_void_p(self.lib.zbar_image_create())
        self.lib.zbar_image_set_format(image, ctypes.c_ulong(0x30303859))  # 'Y800'
        self.lib.zbar_image_set_size(image, ctypes.c_uint(side), ctypes.c_uint(side))
        self.lib.zbar_image_set_data(image, buffer, ctypes.c_ulong(len(pixels)), None)
        try:
            if self.lib.zbar_scan_image(self.scanner, image) <= 0:
                return None
            symbol = self.lib.zbar_image_first_symbol(image)
            return self.lib.zbar_symbol_get_data(symbol).decode()
        finally:
            self.lib.zbar_image_set_data(image, None, ctypes.c_ulong(0), None)
            self.lib.zbar_image_destroy(image)


def text_matrix(text, margin=2):
    """The QR modules of current.txt's half blocks (light modules drawn), its safe number and expiry."""
    lines = text.rstrip("\n").split("\n")
    blocks, (safe_number, expires) = lines[:-2], lines[-2:]
    light = {" ": (False, False), "▀": (True, False), "▄": (False, True), "█": (True, True)}
    grid = []
    for line in blocks:
        cells = [light[c] for c in line]
        grid.append([not top for top, _ in cells])
        grid.append([not bottom for _, bottom in cells])
    size = len(blocks[0]) - 2 * margin
    matrix = tuple(tuple(grid[margin + y][margin:margin + size]) for y in range(size))
    return matrix, safe_number, expires.removeprefix("expires ")


def token_fields(token):
    """(window, seq) read from a version-1 token's bytes."""
    payload = base64.b32decode(token[1:])
    return struct.unpack(">q", payload[:8])[0], struct.unpack(">I", payload[8:12])[0]


class SetReader:
    """Reads the published set through one descriptor of `current` (docs/STATE.md) and checks
    that every file shows the same code: the URL in the PNG, the QR and safe number in the text,
    the window and seq in the token and in current.json."""

    def __init__(self, out):
        self.out = Path(out)
        self.zbar = Zbar()
        self.urls = {}  # PNG bytes -> decoded URL
        self.texts = {}  # text -> (matrix, safe number, expiry)
        self.sets = 0
        self.gone = 0  # sets removed under the reader (two newer ones published): read again

    def read(self, through_links=False):
        """One whole set, checked; None when it went away under the reader or is not a code."""
        try:
            if through_links:  # the paths every reader uses; only consistent while nobody writes
                files = {name: (self.out / name).read_bytes() for name in SET_FILES}
            else:
                fd = os.open(self.out / "current", os.O_RDONLY | os.O_DIRECTORY)
                try:
                    files = {}
                    for name in SET_FILES:
                        with open(name, "rb", opener=lambda path, flags: os.open(path, flags, dir_fd=fd)) as handle:
                            files[name] = handle.read()
                finally:
                    os.close(fd)
        except FileNotFoundError:
            self.gone += 1
            return None
        document = json.loads(files["current.json"])
        if document["state"] != "running":
            return document
        png, text = files["current.png"], files["current.txt"].decode()
        if png not in self.urls:
            matrix = sampled_matrix(png)
            self.urls[png] = (self.zbar.decode(matrix), matrix)
        url, matrix = self.urls[png]
        if text not in self.texts:
            self.texts[text] = text_matrix(text)
        text_modules, safe_number, expires = self.texts[text]
        where = f"{document['pid']} {document['window']}.{document['seq']}"
        assert url == document["url"], f"{where}: current.png shows {url}, current.json {document['url']}"
        assert text_modules == matrix, f"{where}: current.txt shows another QR than current.png"
        assert safe_number == document["safeNumber"], f"{where}: current.txt {safe_number}, current.json {document['safeNumber']}"
        expected = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(document["expiresAt"]))
        assert expires == expected, f"{where}: current.txt expires {expires}, current.json {expected}"
        assert token_fields(document["token"]) == (document["window"], document["seq"]), where
        assert document["url"].endswith("/" + document["token"])
        self.sets += 1
        return document


class Issued:
    """Every (window, seq) seen, with the daemon processes that showed it: two processes showing
    one is a code issued twice."""

    def __init__(self):
        self.by_code = {}
        self.lock = threading.Lock()

    def saw(self, document):
        if document and document.get("state") == "running":
            with self.lock:
                self.by_code.setdefault((document["window"], document["seq"]), set()).add(document["pid"])

    def twice(self):
        return {code: pids for code, pids in self.by_code.items() if len(pids) > 1}


# --------------------------------------------------------------------------- helpers


def ctl(daemon, *words):
    return run("ctl", "--output-dir", str(daemon.out), *words)


# --------------------------------------------------------------------------- the kill -9 sweep


def test_kill_9_sweep_every_set_shows_one_code_and_no_code_is_issued_twice(base, daemons):
    out, state = base / "out", base / "state"
    daemon = daemons(out=out, state=state, period=1, ready=Daemon.wrote_first_code)
    reader, issued = SetReader(out), Issued()
    stop, failures = threading.Event(), []

    def read_sets():
        while not stop.is_set():
            try:
                issued.saw(reader.read())
            except Exception as error:  # noqa: BLE001 - any disagreement ends the test
                failures.append(repr(error))
                return
            stop.wait(0.001)  # lets the killing thread have the interpreter lock too

    thread = threading.Thread(target=read_sets)
    thread.start()
    kills, refreshes, at_rest = 0, 0, 0
    rng = random.Random(25)
    started = time.monotonic()
    deadline = started + 300  # 300 kills take about a minute; a loaded machine is given longer
    try:
        while kills < 300 and time.monotonic() < deadline and not failures:
            for _ in range(rng.randrange(3)):
                try:
                    reply = request(daemon.socket, "refresh now", timeout=2)
                except (OSError, ValueError):
                    break
                if reply.get("ok"):
                    refreshes += 1
                    issued.saw(reply["state"])
            time.sleep(rng.random() * 0.04)  # kill anywhere: mid-write, mid-switch, idle
            daemon.stop(signal.SIGKILL)
            kills += 1
            # At rest, the files at their usual paths show one code (no writer is left to race).
            issued.saw(reader.read(through_links=True))
            at_rest += 1
            daemon.start()
    finally:
        stop.set()
        thread.join()
    assert not failures, failures[:3]
    assert kills >= 300, f"only {kills} kills in {time.monotonic() - started:.0f} s"
    assert reader.sets >= 300 and at_rest == kills, (reader.sets, at_rest)
    twice = issued.twice()
    assert not twice, f"{len(twice)} codes issued twice, e.g. {list(twice.items())[:3]}"
    assert len(issued.by_code) >= kills, f"only {len(issued.by_code)} codes seen"
    assert refreshes >= 100, refreshes
    print(f"{kills} kills, {refreshes} forced refreshes, {len(issued.by_code)} codes each shown by one daemon, "
          f"{reader.sets} whole sets read, {reader.gone} read again")
    # Nothing of the killed writers is left once the last one has started (the live one's own
    # temporary, named with its pid, may be caught mid-write).
    entries = set(os.listdir(out))
    leftovers = [name for name in entries if name.endswith(".tmp") and f".{daemon.process.pid}." not in name]
    assert not leftovers, entries
    assert len(os.listdir(out / ".generations")) <= 2, os.listdir(out / ".generations")


# --------------------------------------------------------------------------- restarts


def test_restarts_after_forced_refreshes_issue_no_code_twice(base, daemons):
    out, state = base / "out", base / "state"
    issued = Issued()
    daemon = daemons(out=out, state=state, period=3600, ready=Daemon.wrote_first_code)
    issued.saw(daemon.document())
    for round_ in range(4):
        for _ in range(2):
            result = ctl(daemon, "--json", "refresh", "now")
            assert result.returncode == 0, result.stderr
            issued.saw(json.loads(result.stdout)["state"])
        daemon.stop(signal.SIGKILL if round_ % 2 else signal.SIGTERM)
        daemon.start()
        issued.saw(daemon.document())
    assert not issued.twice(), issued.twice()
    assert len(issued.by_code) == 13, sorted(issued.by_code)
    # Each window's sequences run 0, 1, 2, … with none skipped (the hour may turn during the test).
    for window in {window for window, _ in issued.by_code}:
        seqs = sorted(seq for w, seq in issued.by_code if w == window)
        assert seqs == list(range(len(seqs))), f"window {window}: {seqs}"
    newest = max(issued.by_code)
    settings = (state / "settings").read_text()
    assert f"issued = DEMO 3600 {newest[0]} {newest[1]}\n" in settings, settings


def faked(seconds):
    """The environment that runs the daemon `seconds` off the real wall clock (libfaketime)."""
    return {"LD_PRELOAD": LIBFAKETIME, "FAKETIME": f"{seconds:+d}", "FAKETIME_DONT_FAKE_MONOTONIC": "1",
            "FAKETIME_DISABLE_SHM": "1"}


def test_a_restart_with_the_clock_stepped_back_issues_no_old_window_again(base, daemons):
    out, state = base / "out", base / "state"
    issued = Issued()
    daemon = daemons(out=out, state=state, period=2, ready=Daemon.wrote_first_code)
    first = daemon.document()
    issued.saw(first)
    wait_until(lambda: issued.saw(d := daemon.document()) or d["window"] >= first["window"] + 2, 10,
               message="two rotations")
    last = daemon.document()
    issued.saw(last)
    daemon.stop()

    back = daemons(out=out, state=state, period=2, env=faked(-6), ready=Daemon.wrote_first_code)
    document = back.document()
    assert document["state"] == "waiting" and document["url"] is None, document
    assert document["health"] == "degraded" and "the wall clock moved back" in document["reason"], document
    result = ctl(back, "refresh", "now")
    assert result.returncode != 0 and "no new code: the wall clock moved back" in result.stderr.decode(), result
    # Codes come back with the newest window's next sequence once the faked clock reaches it.
    resumed = wait_until(lambda: (d := back.document())["state"] == "running" and d, 15, message="codes again")
    issued.saw(resumed)
    assert (resumed["window"], resumed["seq"]) > (last["window"], last["seq"]), (resumed, last)
    assert not issued.twice(), issued.twice()
    back.stop()


# --------------------------------------------------------------------------- a state disk that is full


def test_a_pause_on_a_full_state_disk_fails_and_a_restart_comes_up_paused(base, tmpfs, daemons):
    out = base / "out"
    daemon = daemons(out=out, state=tmpfs, period=2, ready=Daemon.wrote_first_code)
    assert daemon.document()["state"] == "running"
    filler = fill(tmpfs)
    try:
        result = ctl(daemon, "refresh", "pause")
        message = result.stderr.decode()
        assert result.returncode != 0, result
        assert "cannot save the daemon's state" in message and "No space left on device" in message, message
        # Fail closed at once: the code is gone from the files.
        document = daemon.document()
        assert (document["state"], document["url"], document["health"]) == ("paused", None, "degraded"), document
        status = run("status", "--output-dir", str(out))
        assert status.returncode != 0 and "cannot save the daemon's state" in status.stdout.decode() + status.stderr.decode()
        assert "refresh = auto" in (tmpfs / "settings").read_text(), "the file could not be changed"

        daemon.stop()
        daemon.start()
        document = daemon.document()
        assert (document["state"], document["refresh"], document["url"]) == ("paused", "paused", None), document
        assert "No space left on device" in document["reason"]
        resume = ctl(daemon, "refresh", "auto")
        assert resume.returncode != 0 and "cannot save" in resume.stderr.decode()
        assert daemon.document()["state"] == "paused"
    finally:
        filler.unlink()
    # Once it can be saved, the pause is saved (fail closed) and an operator resumes.
    wait_until(lambda: "refresh = paused" in (tmpfs / "settings").read_text(), 5, message="the pause saved")
    wait_until(lambda: daemon.document()["health"] == "ok", 5, message="healthy again")
    assert daemon.document()["state"] == "paused"
    assert ctl(daemon, "refresh", "auto").returncode == 0
    wait_until(lambda: daemon.document()["state"] == "running", 5, message="codes again")


def test_a_removed_state_directory_makes_a_pause_fail(base, daemons):
    out, state = base / "out", base / "state"
    daemon = daemons(out=out, state=state, period=2, ready=Daemon.wrote_first_code)
    subprocess.run(["rm", "-rf", str(state)], check=True)
    result = ctl(daemon, "refresh", "pause")
    assert result.returncode != 0 and "No such file or directory" in result.stderr.decode(), result
    assert daemon.document()["state"] == "paused"


# --------------------------------------------------------------------------- replies about the disk


def test_a_read_only_output_directory_makes_replies_not_ok_and_status_names_the_code_on_disk(base, tmpfs, daemons):
    daemon = daemons(out=tmpfs, state=base / "state", period=30, ready=Daemon.wrote_first_code)
    shown = daemon.document()
    subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], check=True)
    try:
        shake = run("shake", "--output-dir", str(tmpfs))
        assert shake.returncode != 0 and "could not be written" in shake.stderr.decode(), shake
        for words in (("refresh", "now"), ("shake", "off"), ("refresh", "now")):
            result = ctl(daemon, "--json", *words)
            assert result.returncode != 0, result
            reply = json.loads(result.stdout)
            assert reply["ok"] is False and reply["code"] == "not-written", reply
            assert "Read-only file system" in reply["error"]
            assert reply["state"]["seq"] == shown["seq"] and reply["state"]["url"] == shown["url"], reply["state"]
            assert reply["state"]["shake"] == "on", "the files still say on"
        status = run("status", "--output-dir", str(tmpfs), "--json")
        report = json.loads(status.stdout)
        assert report["state"]["url"] == shown["url"], "status names the code the files show"
        assert report["status"] == "degraded" and status.returncode == 1
        assert daemon.document() == shown
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(tmpfs)], check=True)
    wait_until(lambda: ((d := daemon.document())["window"], d["seq"]) > (shown["window"], shown["seq"]), 30,
               message="the retry writes the newest code")
    assert ctl(daemon, "refresh", "now").returncode == 0


def test_a_refresh_while_the_clock_is_behind_is_not_ok(base, daemons):
    out, state = base / "out", base / "state"
    first = daemons(out=out, state=state, period=2, ready=Daemon.wrote_first_code)
    first.stop()
    behind = daemons(out=out, state=state, period=2, env=faked(-8), ready=Daemon.wrote_first_code)
    result = ctl(behind, "--json", "refresh", "now")
    reply = json.loads(result.stdout)
    assert result.returncode != 0 and reply["ok"] is False and reply["code"] == "not-issued", reply


# --------------------------------------------------------------------------- refusals in metrics


def test_every_refusal_is_counted_in_metrics_at_once_and_kept_at_stop(base, daemons):
    out, state = base / "out", base / "state"
    daemon = daemons(out=out, state=state, period=30, ready=Daemon.wrote_first_code)
    daemon.socket.chmod(0o666)  # opened to everyone by mistake: SO_PEERCRED still refuses
    python = shutil.which("python3", path="/usr/bin:/bin")
    script = ("import socket, sys\n"
              "for _ in range(int(sys.argv[2])):\n"
              "    s = socket.socket(socket.AF_UNIX)\n"
              "    s.connect(sys.argv[1])\n"
              "    s.recv(4096)\n"
              "    s.close()\n")
    result = subprocess.run(["setpriv", "--reuid", "nobody", "--regid", "nogroup", "--clear-groups",
                             python, "-c", script, str(daemon.socket), "40"], capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr
    metric = 'qrcheckin_control_refusals_total{venue="DEMO"} '

    def counted():
        for line in (out / "metrics.prom").read_text().splitlines():
            if line.startswith(metric):
                return int(line.removeprefix(metric))
        return None

    wait_until(lambda: counted() == 40, 3, message="40 refusals in metrics.prom")
    assert daemon.logs().count("refused uid") <= 2, "the log stays rate limited"
    subprocess.run(["setpriv", "--reuid", "nobody", "--regid", "nogroup", "--clear-groups",
                    python, "-c", script, str(daemon.socket), "5"], capture_output=True, timeout=60, check=True)
    daemon.stop()
    assert counted() == 45, "the stopped state's metrics hold the last refusals"
