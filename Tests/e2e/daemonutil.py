"""The e2e harness: the built binaries, starting the real daemon in temporary directories, and
waiting for what it does. conftest.py exposes it to every test (the `daemons` fixture)."""
import errno
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from processutil import Process, wait_until  # noqa: F401 (tests import wait_until from here)

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("QRCHECKIN_BIN", str(ROOT / ".build" / "debug" / "qrcheckin"))


def run(*args, input=None, env=None, check=False, timeout=30):
    """Runs the built qrcheckin with `args`; returns the CompletedProcess (bytes)."""
    full_env = dict(os.environ)
    full_env.pop("NO_COLOR", None)
    if env:
        full_env.update(env)
    if isinstance(input, str):
        input = input.encode()
    return subprocess.run([BIN, *args], input=input, capture_output=True, env=full_env,
                          check=check, timeout=timeout)


def zbar(path):
    """Decodes a QR image with zbarimg as a user would; returns the raw payload bytes."""
    result = subprocess.run(["zbarimg", "--raw", "-q", "--nodbus", str(path)],
                            capture_output=True, timeout=30)
    assert result.returncode == 0, f"zbarimg could not decode {path}: {result.stderr!r}"
    return result.stdout.removesuffix(b"\n")


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


def request(sock_path, line, timeout=30.0):
    """One control-socket round trip; `line` is a request (str, newline added) or raw bytes.
    Returns the parsed reply. The timeout is a deadline for a daemon that stopped answering,
    not a speed limit: `refresh now` answers after its rotation's fsyncs, and on a disk that a
    build is flooding one took longer than 5 s (seen once in a stress run)."""
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


class Daemon(Process):
    """A `qrcheckin run` process with its own output and state directories and its log: the one
    daemon helper of the suite (conftest's `daemons` fixture makes them and always stops them;
    processutil.Process starts, waits for and stops it).

    `base` holds `out/` and `state/` (`out=` and `state=` place either elsewhere: a tmpfs, a
    shared directory); `prefix` runs the daemon under a wrapper (deny_syscalls.py, setpriv);
    `popen` are more keyword arguments for Popen (`group=`, `user=`: other credentials);
    `journal` sets $JOURNAL_STREAM as systemd's StandardError=journal does, so the daemon writes
    journald's priority prefixes (<3>, <5>, ...); `ready` is what start() waits for (default
    `Daemon.ready`; `Daemon.serving` where the disk may be full, `Daemon.wrote_first_code`)."""

    label = "the daemon"
    poll_interval = 0.005

    def __init__(self, base, period=2, args=(), env=None, journal=False, prefix=(), popen=None, out=None, state=None,
                 ready=None):
        self.base = Path(base) if base is not None else Path(state).parent
        environment = dict(os.environ)
        for key in list(environment):
            if key.startswith("QRCHECKIN_") or key in ("NOTIFY_SOCKET", "JOURNAL_STREAM", "WATCHDOG_USEC"):
                del environment[key]
        environment.update(env or {})
        super().__init__(self.base / f"daemon-{time.monotonic_ns()}.log", environment, prefix=prefix, popen=popen)
        self.journal = journal
        self.out = Path(out) if out is not None else self.base / "out"
        self.state = Path(state) if state is not None else self.base / "state"
        self.period = period
        self.args = [str(arg) for arg in args]
        self.readiness = ready or Daemon.ready

    @property
    def socket(self):
        return self.out / "control.sock"

    @property
    def secret(self):
        return self.state / "secret"

    def command(self):
        return [BIN, "run", "--output-dir", str(self.out), "--state-dir", str(self.state),
                "--period", str(self.period), *self.args]

    def prepare(self):
        """The base directory others may traverse; with `journal`, $JOURNAL_STREAM names the log."""
        os.chmod(self.base, 0o755)
        if self.journal:
            status = os.fstat(self.log.fileno())
            self.env["JOURNAL_STREAM"] = f"{status.st_dev}:{status.st_ino}"

    def ready(self):
        """Its socket is there and current.json is this process's (its first code is written)."""
        return self.alive() and self.socket.exists() and self.document_pid() == self.process.pid

    def wrote_first_code(self):
        """current.json is this process's (whether or not its socket is there yet)."""
        return self.alive() and self.document_pid() == self.process.pid

    def serving(self):
        """Its control socket answers `get` (whatever is on disk: a full one, say)."""
        self.alive()
        try:
            return request(self.socket, "get", timeout=2)["ok"]
        except OSError:
            return False

    def document(self):
        """current.json, parsed; fails when it is missing or not JSON."""
        return json.loads((self.out / "current.json").read_bytes())

    def document_pid(self):
        try:
            return self.document()["pid"]
        except (FileNotFoundError, json.JSONDecodeError):
            return None

    def state_now(self):
        """current.json, parsed, or None when it is missing."""
        return read_state(self.out)

    def request(self, line):
        return request(self.socket, line)

    def get(self):
        """The state over the control socket (`get`), which must succeed."""
        reply = request(self.socket, "get")
        assert reply["ok"], reply
        return reply["state"]

    def cli(self, *args, **kwargs):
        """Runs another qrcheckin command against this daemon's directories."""
        env = dict(self.env)
        env.update(kwargs.pop("env", {}))
        return subprocess.run([BIN, *args], capture_output=True, env=env, timeout=kwargs.pop("timeout", 30), **kwargs)


def release_built(timeout=1800):
    """Waits for the release build `make test` runs beside the first e2e tests (the release
    binaries and the .deb made from them): $QRCHECKIN_RELEASE_STATUS names the file its exit
    status lands in, $QRCHECKIN_RELEASE_LOG its output. Returns at once when neither is set (the
    build was done before the tests, or the tests build what they need)."""
    status = os.environ.get("QRCHECKIN_RELEASE_STATUS")
    if not status:
        return
    path = Path(status)
    wait_until(path.exists, timeout=timeout, interval=0.5, message="the release build (make deb) to finish")
    log = os.environ.get("QRCHECKIN_RELEASE_LOG")
    output = Path(log).read_text(errors="replace")[-3000:] if log and Path(log).exists() else ""
    assert path.read_text().strip() == "0", f"make deb failed:\n{output}"


def needs_release(item):
    """Whether a collected test needs the release build (the .deb, or the release binary)."""
    if item.path.name in ("test_package.py", "test_systemd_boot.py", "test_server_boot.py", "test_readme.py",
                          "test_server_units.py"):
        return True
    return item.path.name == "test_startup.py" and getattr(item, "callspec", None) is not None \
        and item.callspec.params.get("binary") == "release"


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


def require_runnable_by(user, *binaries):
    """Fails at once, saying why, when `user` cannot run `binaries`: a checkout under a directory
    only its owner may enter (`mktemp -d` makes them 0700) leaves every test that drops to that
    user failing later with "Permission denied" or exit 127, which says nothing of the cause."""
    for binary in binaries:
        if subprocess.run(["runuser", "-u", user, "--", "test", "-x", str(binary)], capture_output=True).returncode == 0:
            continue
        closed = next((parent for parent in reversed(Path(binary).resolve().parents) if parent.stat().st_mode & 0o001 == 0), None)
        where = f"{closed} is mode {oct(closed.stat().st_mode & 0o777)}" if closed else "the file's own mode"
        pytest.fail(f"{user} cannot run {binary} ({where}): check out and build the project under directories other users "
                    "may enter (mode 0755), as a fresh clone in /tmp or /work is")


# Ways the world removes a daemon's outputs (issue 37): each takes the output directory and
# returns what to call once the test is done with it.


def remove_directory(out):
    """`rm -rf`, the directory and all in it; returns what to call afterwards (nothing here)."""
    shutil.rmtree(out)  # must not fail: the daemon waits until rm -rf is done with the directory
    return lambda: None


def remove_directory_while_a_shell_is_in_it(out):
    """An operator's shell inside the directory keeps it alive unlinked: the kernel says it is
    gone only when the last holder lets go (as the daemon's own held descriptor did, issue 37)."""
    shell = subprocess.Popen(["sleep", "120"], cwd=out)
    shutil.rmtree(out)
    return lambda: (shell.kill(), shell.wait())


def remove_the_files(out):
    """A cleaner (systemd-tmpfiles, say) removes old files and leaves the directory."""
    for name in ("current.png", "current.txt", "current.json", "metrics.prom"):
        (out / name).unlink()
    return lambda: None


REMOVALS = {"rm-rf": remove_directory, "rm-rf-while-held": remove_directory_while_a_shell_is_in_it,
            "files-only": remove_the_files}
