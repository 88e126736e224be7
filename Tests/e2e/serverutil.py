"""Starting the real check-in server (qrcheckin-server serve) in temporary directories."""
import http.client
import os
import re
import socket
import subprocess
import time
from pathlib import Path

from daemonutil import BIN
from processutil import Process
from webutil import free_port

SERVER_BIN = os.environ.get("QRCHECKIN_SERVER_BIN", str(Path(BIN).with_name("qrcheckin-server")))


def server_run(*args, env=None, timeout=60, input=None):
    """Runs qrcheckin-server with `args` (not `serve`); returns the CompletedProcess (text)."""
    full_env = clean_env()
    full_env.update(env or {})
    return subprocess.run([SERVER_BIN, *args], capture_output=True, text=True, env=full_env, timeout=timeout, input=input)


# A load test's server: every request is a new phone from one address, so the new-device
# budgets (docs/SERVER.md, "Security") are off.
LOAD_ARGS = ["--new-devices-per-network", "0", "--new-devices-per-code", "0", "--new-devices-per-hour", "0"]

FORM_HEADERS = {"Content-Type": "application/x-www-form-urlencoded"}


def hidden_inputs(body):
    """The hidden inputs of a page's forms, by name (bytes in, str out)."""
    return {name.decode(): value.decode() for name, value in re.findall(rb'<input type="hidden" name="([^"]+)" value="([^"]*)"', body)}


def post_safe_number(server, number, venue="HALL-1", headers=None, source=None):
    """Types `number` into the safe-number form as a browser does: the form first (with the same
    headers, cookies included), then its hidden inputs back with the number. Returns
    (status, headers, body) of the post."""
    import urllib.parse
    _, _, form = server.get(f"/C/{venue}", headers=headers, source=source)
    body = urllib.parse.urlencode({**hidden_inputs(form), "safe-number": number}).encode()
    return server.get(f"/C/{venue}", method="POST", body=body, headers={**(headers or {}), **FORM_HEADERS}, source=source)


def clean_env():
    """The environment without qrcheckin's, systemd's or socket activation's variables."""
    env = dict(os.environ)
    for key in list(env):
        if key.startswith("QRCHECKIN_") or key in ("NOTIFY_SOCKET", "JOURNAL_STREAM", "LISTEN_FDS", "LISTEN_PID",
                                                  "CREDENTIALS_DIRECTORY", "STATE_DIRECTORY"):
            del env[key]
    return env


def code(secret, venue, port, at=None, base="/C"):
    """The URL `qrcheckin code` prints for `venue` at `at` (default now), base URL on `port`."""
    args = [BIN, "code", "--secret-file", str(secret), "--venue", venue, "--base-url", f"HTTP://127.0.0.1:{port}{base}"]
    if at is not None:
        args += ["--at", str(at)]
    result = subprocess.run(args, capture_output=True, text=True, timeout=30, env=clean_env())
    assert result.returncode == 0, result.stderr
    fields = dict(line.split(": ", 1) for line in result.stdout.splitlines())
    return fields


class Server(Process):
    """A `qrcheckin-server serve` process on a free loopback port with its own database: the
    server's counterpart of daemonutil.Daemon, started, awaited and stopped by the same
    processutil.Process (start(wait), alive(), stop(sig, timeout), kill(), logs()); it is ready
    when it listens. conftest's `servers` fixture stops every one it made."""

    label = "the server"

    def __init__(self, base, secret, args=(), env=None, port=None):
        self.base = Path(base)
        self.base.mkdir(parents=True, exist_ok=True)
        environment = clean_env()
        environment.setdefault("TZ", "Asia/Seoul")
        environment.update(env or {})
        super().__init__(self.base / f"server-{time.monotonic_ns()}.log", environment)
        self.secret = Path(secret) if secret is not None else None  # None: the server's own lookup
        self.port = port or free_port()
        # The operator console listens on a port of its own (admin-listen, 8081 by default):
        # a free one, so that servers started side by side never take each other's.
        self.admin_port = free_port()
        self.database = self.base / "checkins.db"
        self.args = list(args)
        self.readiness = Server.listening

    def command(self):
        secret = ["--secret-file", str(self.secret)] if self.secret is not None else []
        admin = [] if "--admin-listen" in self.args else ["--admin-listen", f"127.0.0.1:{self.admin_port}"]
        return [SERVER_BIN, "serve", "--listen", f"127.0.0.1:{self.port}", "--database", f"sqlite:{self.database}", *secret, *admin, *self.args]

    def listening(self):
        """It accepts a connection on its port, and on the console's when it chose that port
        (the two listeners start one after the other)."""
        self.alive()
        ports = [self.port] + ([] if "--admin-listen" in self.args else [self.admin_port])
        try:
            for port in ports:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    pass
            return True
        except OSError:
            return False

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def get(self, path, headers=None, method="GET", body=None, source=None):
        """One request on a new connection; returns (status, headers dict lower-case, body bytes)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15,
                                                source_address=(source, 0) if source else None)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            data = response.read()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, data
        finally:
            connection.close()

    def checkins(self, *args):
        result = server_run("checkins", "--database", f"sqlite:{self.database}", *args)
        assert result.returncode == 0, result.stderr
        return result.stdout
