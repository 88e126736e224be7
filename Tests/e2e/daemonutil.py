"""Starting the real daemon in temporary directories, and waiting for what it does."""
import errno
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from conftest import BIN, zbar


def wait_until(predicate, timeout=30.0, interval=0.02, message="condition"):
    """Polls `predicate` until it returns something truthy; returns it, or fails at the deadline
    (generous: a deadline only ends a wait that failed, and a loaded machine is slow)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {message}")
        time.sleep(interval)


def read_state(out):
    """The parsed current.json in `out`, or None if missing or (impossibly) partial."""
    try:
        return json.loads((Path(out) / "current.json").read_bytes())
    except FileNotFoundError:
        return None


def shown_code(out, timeout=30.0):
    """(the URL current.png decodes to, the current.json it belongs to), as a reader sees them:
    JSON, PNG, JSON read in turn, and the PNG's code must be one of the two documents'. A rotation
    landing between the reads (the PNG is renamed first) makes the sample inconclusive, not
    wrong: it is taken again, until the deadline. zbarimg decodes a copy, so however slowly it
    runs, the three reads are moments apart."""
    deadline = time.monotonic() + timeout
    while True:
        first = read_state(out)
        png = (Path(out) / "current.png").read_bytes()
        second = read_state(out)
        with tempfile.NamedTemporaryFile(suffix=".png") as copy:
            copy.write(png)
            copy.flush()
            url = zbar(copy.name).decode()
        for document in (first, second):
            if document and document["url"] == url:
                return url, document
        if time.monotonic() > deadline:
            raise AssertionError(f"current.png shows {url}, current.json names "
                                 f"{first and first['url']} then {second and second['url']}")


def request(sock_path, line, timeout=5.0):
    """One control-socket round trip; `line` is a request (str, newline added) or raw bytes.
    Returns the parsed reply."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(timeout)
        client.connect(str(sock_path))
        client.sendall(line if isinstance(line, bytes) else line.encode() + b"\n")
        reply = b""
        while not reply.endswith(b"\n"):
            chunk = client.recv(4096)
            if not chunk:
                break
            reply += chunk
    return json.loads(reply)


class Daemon:
    """A `qrcheckin run` process with its own output and state directories."""

    def __init__(self, base, period=2, args=(), env=None, journal=False, prefix=(), popen=None):
        """`prefix` runs the daemon under a wrapper (deny_syscalls.py, say); `popen` are more
        keyword arguments for Popen (`group=`, `user=`: run it with other credentials)."""
        self.base = Path(base)
        # As under systemd with StandardError=journal: $JOURNAL_STREAM names the log's device
        # and inode, so the daemon writes journald's priority prefixes (<3>, <5>, ...).
        self.journal = journal
        self.prefix = list(prefix)
        self.popen = dict(popen or {})
        self.out = self.base / "out"
        self.state = self.base / "state"
        self.period = period
        self.args = list(args)
        self.env = dict(os.environ)
        for key in list(self.env):
            if key.startswith("QRCHECKIN_") or key in ("NOTIFY_SOCKET", "JOURNAL_STREAM", "WATCHDOG_USEC"):
                del self.env[key]
        self.env.update(env or {})
        self.process = None
        self.log_path = self.base / f"daemon-{time.monotonic_ns()}.log"

    @property
    def socket(self):
        return self.out / "control.sock"

    @property
    def secret(self):
        return self.state / "secret"

    def command(self):
        return [BIN, "run", "--output-dir", str(self.out), "--state-dir", str(self.state),
                "--period", str(self.period), *self.args]

    def start(self, wait=True):
        self.base.mkdir(parents=True, exist_ok=True)
        os.chmod(self.base, 0o755)
        self.log = open(self.log_path, "wb")
        if self.journal:
            status = os.fstat(self.log.fileno())
            self.env["JOURNAL_STREAM"] = f"{status.st_dev}:{status.st_ino}"
        self.process = subprocess.Popen(self.prefix + self.command(), stdout=self.log, stderr=subprocess.STDOUT, env=self.env,
                                        **self.popen)
        if wait:
            wait_until(lambda: self.socket.exists() and (read_state(self.out) or {}).get("pid") == self.process.pid,
                       message="the daemon's first code")
        return self

    def signal(self, number):
        self.process.send_signal(number)

    def stop(self, timeout=30):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process:
            self.log.close()
        return self.process.returncode if self.process else None

    def logs(self):
        return self.log_path.read_text(errors="replace")

    def state_now(self):
        return read_state(self.out)

    def request(self, line):
        return request(self.socket, line)

    def cli(self, *args, **kwargs):
        """Runs another qrcheckin command against this daemon's directories."""
        env = dict(self.env)
        env.update(kwargs.pop("env", {}))
        return subprocess.run([BIN, *args], capture_output=True, env=env, timeout=kwargs.pop("timeout", 30), **kwargs)


def fill(directory):
    """Writes a filler file until the file system is full; returns its path."""
    filler = Path(directory) / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError as error:
        assert error.errno == errno.ENOSPC, error
    finally:
        os.close(fd)
    return filler


@contextmanager
def reachable_directory(prefix):
    """A temporary directory other users may traverse (pytest's tmp_path is 0700, and `nobody`,
    nginx's workers or a test user must reach the sockets and files in it), removed afterwards."""
    path = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    try:
        path.chmod(0o755)
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
