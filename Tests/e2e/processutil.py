"""The one wrapper of the long-running programs the tests start (the kiosk daemon, the check-in
server): spawn with the output in a log file, wait for readiness with a deadline, stop gracefully
(killed at the deadline), read the log. daemonutil.Daemon and serverutil.Server say what to run
and what "ready" means."""
import signal
import subprocess
import time
from pathlib import Path


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


class Process:
    """A program a test runs in the background, its standard output and error in `log_path`
    (appended to across restarts). A subclass gives `command()`, `label` ("the daemon", for
    messages) and `readiness`, a function of the process that is truthy once it is ready (it
    may call alive(), which fails the wait at once with the log when the program has exited).

    `env` is the program's whole environment; `prefix` runs it under a wrapper (setpriv,
    deny_syscalls.py); `popen` are more keyword arguments for Popen (`group=`, `user=`)."""

    label = "the process"
    readiness = None
    #: How often readiness is polled: a daemon's first code takes milliseconds.
    poll_interval = 0.02

    def __init__(self, log_path, env, prefix=(), popen=None):
        self.log_path = Path(log_path)
        self.env = env
        self.prefix = list(prefix)
        self.popen = dict(popen or {})
        self.process = None
        self.log = None

    def command(self):
        raise NotImplementedError

    def prepare(self):
        """Called by start() once the log is open, just before the spawn (a subclass's hook)."""

    @property
    def pid(self):
        return self.process.pid

    def start(self, wait=True):
        """Starts the process (again, after a stop: the log goes on); `wait`: until it is ready."""
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        if self.log and not self.log.closed:
            self.log.close()
        self.log = open(self.log_path, "ab")
        self.prepare()
        self.process = subprocess.Popen(self.prefix + self.command(), stdout=self.log, stderr=subprocess.STDOUT,
                                        env=self.env, **self.popen)
        if wait:
            self.wait_ready()
        return self

    def wait_ready(self, timeout=30):
        """Waits until `readiness` holds (failing at the deadline, or at once if it exited)."""
        wait_until(lambda: self.readiness(self), timeout=timeout, interval=self.poll_interval,
                   message=f"{self.label} to be ready ({self.readiness.__name__})")

    def alive(self):
        """True while the process runs; fails the test with its log when it has exited."""
        assert self.process.poll() is None, f"{self.label} exited {self.process.returncode}: {self.logs()}"
        return True

    def signal(self, number):
        self.process.send_signal(number)

    def stop(self, sig=None, timeout=30):
        """Sends `sig` (default SIGTERM: a graceful stop) if it still runs and waits for it to
        exit (killing it at the deadline); returns the exit status."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM if sig is None else sig)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.log and not self.log.closed:
            self.log.close()
        return self.process.returncode if self.process else None

    def kill(self, sig=None):
        """stop() with SIGKILL (or `sig`): no clean-up by the program."""
        return self.stop(signal.SIGKILL if sig is None else sig)

    def logs(self):
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
