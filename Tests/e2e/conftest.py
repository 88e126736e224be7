"""Shared fixtures: the built binary, a real QR decoder, the daemons a test starts (daemonutil.py
holds the harness: `Daemon`, `wait_until`, `run`, `zbar`)."""
import os
import shutil
import signal

import pytest

from daemonutil import BIN, ROOT, Daemon, run, zbar  # noqa: F401 (tests import them from here)


@pytest.fixture
def qrcheckin():
    assert os.access(BIN, os.X_OK), f"build first: {BIN} missing"
    return run


@pytest.fixture(scope="session")
def tools():
    for tool in ("zbarimg", "qrencode"):
        assert shutil.which(tool), f"{tool} missing: run scripts/install-deps --test"


@pytest.fixture
def daemons(tmp_path):
    """Makes daemons: `daemons(base=None, start=True, wait=True, **Daemon's options)` returns a
    started (`start=False`: a not yet started) `Daemon` in `base` (a Path, a name under
    tmp_path, or tmp_path/dN). Every one is stopped afterwards (SIGCONT first: a test may have
    stopped it), gracefully, killed if it does not exit."""
    started = []

    def make(base=None, *, start=True, wait=True, **options):
        if base is None and options.get("state") is None:
            base = tmp_path / f"d{len(started)}"
        elif isinstance(base, str):
            base = tmp_path / base
        daemon = Daemon(base, **options)
        started.append(daemon)
        return daemon.start(wait=wait) if start else daemon

    yield make
    for daemon in started:
        if daemon.process and daemon.process.poll() is None:
            daemon.process.send_signal(signal.SIGCONT)
        daemon.stop(timeout=10)
