"""Kiosk reports in the e2e suite: a `qrcheckin report` process beside a test's daemon, and a
small check-in server's receiving end written from docs/TOKEN.md ("Kiosk reports") with the
Python reference (token_reference.py), not from qrcheckin's code: it verifies every report's
signature, refuses stale times and replayed nonces, holds reports open as long polls, and
answers with signed steers (or, on purpose, forged, unsigned, replayed or slow ones)."""
import http.server
import json
import os
import re
import threading
import time
from pathlib import Path

import token_reference as ref
from daemonutil import BIN
from processutil import Process, wait_until


def report_key_for(secret_path, venue="DEMO"):
    """The report key of `venue` from the master secret file at `secret_path`."""
    secret = bytes.fromhex(Path(secret_path).read_text().strip())
    return ref.report_key(ref.venue_key(secret, venue), venue)


class Reporter(Process):
    """`qrcheckin report` for a test's `Daemon` (its output and state directories), reporting to
    `report_to`. Ready once it wrote its report.json (it does at its first exchange)."""

    label = "the reporter"

    def __init__(self, daemon, report_to, interval=None, kiosk="door-1", args=(), env=None, prefix=()):
        environment = {key: value for key, value in daemon.env.items()
                       if not key.startswith("QRCHECKIN_") and key not in ("NOTIFY_SOCKET", "JOURNAL_STREAM", "LD_PRELOAD")}
        environment.update(env or {})
        super().__init__(daemon.base / f"reporter-{time.monotonic_ns()}.log", environment, prefix=prefix)
        self.daemon = daemon
        self.report_to = report_to
        self.interval = interval
        self.kiosk = kiosk
        self.args = [str(arg) for arg in args]
        self.readiness = Reporter.ready

    def command(self):
        return [BIN, "report", "--output-dir", str(self.daemon.out), "--state-dir", str(self.daemon.state),
                "--report-to", self.report_to, "--kiosk-name", self.kiosk,
                *(["--report-interval", str(self.interval)] if self.interval else []), *self.args]

    @property
    def status_path(self):
        return self.daemon.out / "report.json"

    def status(self):
        """report.json, parsed, or None."""
        try:
            return json.loads(self.status_path.read_bytes())
        except (FileNotFoundError, json.JSONDecodeError):
            return None

    def ready(self):
        """It wrote report.json (at its first exchange, whatever came of it)."""
        self.alive()
        status = self.status()
        return status is not None and status["pid"] == self.process.pid


class Received:
    """One report as the receiver got it."""

    def __init__(self, t, nonce, body, raw, wait, at_wall_ms, at):
        self.t, self.nonce, self.body, self.raw, self.wait = t, nonce, body, raw, wait
        self.at_wall_ms = at_wall_ms   # the receiver's clock at receipt (Unix ms)
        self.at = at                   # time.monotonic() at receipt
        self.answered = None           # time.monotonic() when answered

    def __repr__(self):
        return f"Received(t={self.t}, state={self.body.get('state')}, refresh={self.body.get('refresh')}, at={self.at:.2f})"


class ReportReceiver:
    """POST /C/VENUE/kiosk on 127.0.0.1, answering as docs/TOKEN.md says a server does.

    `mode`: "answer" (signed answers), "forge" (answers signed with another venue's key),
    "unsigned" (no Qrcheckin-Answer header), "slow" (holds every answer `slow_seconds`).
    `hold_limit` caps the long poll (the report's `wait`); 0 answers at once."""

    def __init__(self, key, venue="DEMO", hold_limit=25.0, port=0):
        self.key, self.venue, self.hold_limit = key, venue, hold_limit
        self.mode = "answer"
        self.slow_seconds = 10.0
        self.reports = []
        self.refusals = []             # (status, reason) of refused requests
        self.seen = set()
        self.pending = None            # the steer waiting to be applied (dict), or None
        self.next_id = 1
        self.capture = None            # a steer whose genuine answer is captured, not sent
        self.captured = None           # (header, body) of that answer, replayed to the next report
        self.condition = threading.Condition()
        self.stopping = False
        self.holding = 0
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                receiver.handle(self)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}/C"

    def stop(self):
        """Stops listening (connections are refused from now on) and ends held requests."""
        with self.condition:
            self.stopping = True
            self.condition.notify_all()
        self.server.shutdown()
        self.server.server_close()

    # --- what tests ask ------------------------------------------------------------------

    def steer(self, refresh=None, shake=None, new_code=False, by="mina"):
        """Queues a console steer; held reports are answered at once. Returns its id."""
        with self.condition:
            steer = {"id": self.next_id, "refresh": refresh, "shake": shake, "newCode": new_code, "by": by,
                     "at": int(time.time())}
            self.next_id += 1
            self.pending = steer
            self.condition.notify_all()
            return steer["id"]

    def capture_and_replay(self, refresh="paused", by="mallory"):
        """The next report's genuine answer with this steer is kept (a plain one is sent); the
        report after it gets that captured answer, signed for the wrong nonce."""
        with self.condition:
            self.capture = {"id": 900, "refresh": refresh, "shake": None, "newCode": False, "by": by, "at": int(time.time())}
            self.condition.notify_all()

    def held(self):
        with self.condition:
            return self.holding

    def wait_for(self, predicate, timeout=30.0, message="a report"):
        """The first report (from the newest back) that `predicate` accepts, waiting for it."""
        def find():
            with self.condition:
                return next((report for report in reversed(self.reports) if predicate(report)), None)
        return wait_until(find, timeout=timeout, interval=0.02, message=message)

    def count(self):
        with self.condition:
            return len(self.reports)

    # --- the server's side ------------------------------------------------------------------

    def refuse(self, handler, status, reason):
        body = json.dumps({"type": "about:blank", "title": reason, "status": status}).encode()
        with self.condition:
            self.refusals.append((status, reason))
        handler.send_response(status)
        handler.send_header("Content-Type", "application/problem+json")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    def handle(self, handler):
        match = re.fullmatch(r"/C/([0-9A-Z.\-]{1,16})/kiosk(?:\?wait=([0-9]+))?", handler.path)
        length = int(handler.headers.get("Content-Length") or 0)
        if length > 4096:
            return self.refuse(handler, 413, "too large")
        raw = handler.rfile.read(length)
        if not match or match.group(1) != self.venue:
            return self.refuse(handler, 404, "no such venue")
        header = handler.headers.get("Qrcheckin-Report") or ""
        # Before anything of the body is believed: the signature, the time, the nonce.
        if not ref.verify_report(self.key, self.venue, header, raw):
            return self.refuse(handler, 401, "bad signature")
        t, nonce, _ = ref.parse_report_header(header)
        now_ms = int(time.time() * 1000)
        if abs(t - now_ms) > 300_000:
            return self.refuse(handler, 400, "stale timestamp")
        with self.condition:
            if nonce in self.seen:
                replayed = True
            else:
                replayed = False
                self.seen.add(nonce)
        if replayed:
            return self.refuse(handler, 409, "replayed nonce")
        body = json.loads(raw)
        assert body["venue"] == self.venue and body["wallClock"] == t, body
        report = Received(t, nonce, body, raw, int(match.group(2) or 0), now_ms, time.monotonic())
        with self.condition:
            self.reports.append(report)
            applied = body.get("applied")
            if self.pending and applied and applied["steer"] == self.pending["id"]:
                self.pending = None
            self.condition.notify_all()
            # A capture first (this report's genuine answer kept back), its replay on the next.
            capture, self.capture = self.capture, None
            replay = None
            if capture is None and self.captured is not None:
                replay, self.captured = self.captured, None
            # The long poll: held until a steer is waiting, the hold ends, or the receiver stops.
            hold = 0.0 if replay or capture else min(report.wait, self.hold_limit)
            if self.mode == "slow":
                hold = self.slow_seconds
            deadline = time.monotonic() + hold
            self.holding += 1
            try:
                while not self.stopping and time.monotonic() < deadline and (self.mode == "slow" or self.pending is None):
                    self.condition.wait(deadline - time.monotonic())
            finally:
                self.holding -= 1
            steer = None if self.mode == "slow" else self.pending
        if self.stopping:
            return
        answer = json.dumps({"serverTime": int(time.time() * 1000), "steer": steer}, separators=(",", ":")).encode()
        signature = ref.answer_header(self.key, self.venue, nonce, answer)
        if capture:
            genuine = json.dumps({"serverTime": int(time.time() * 1000), "steer": capture}, separators=(",", ":")).encode()
            with self.condition:
                self.captured = (ref.answer_header(self.key, self.venue, nonce, genuine), genuine)
        if replay:
            signature, answer = replay
        elif self.mode == "forge":
            signature = ref.answer_header(report_key_of_another_venue(), self.venue, nonce, answer)
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(answer)))
        if self.mode != "unsigned":
            handler.send_header("Qrcheckin-Answer", signature)
        handler.end_headers()
        try:
            handler.wfile.write(answer)
        except (BrokenPipeError, ConnectionResetError):
            return  # the kiosk gave up waiting (its timeout), or replaced the report
        report.answered = time.monotonic()


def report_key_of_another_venue():
    """A key nobody gave the kiosk: what a forger without the venue's key signs with."""
    return ref.report_key(ref.venue_key(os.urandom(32), "DEMO"), "DEMO")
