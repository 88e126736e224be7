"""Shared fixtures: the built binary, a real QR decoder, the daemons and servers a test starts
(daemonutil.py and serverutil.py hold the harness: `Daemon`, `Server`, `wait_until`, `run`,
`zbar`), a secret, a directory others may reach, a small tmpfs; and the tests that need root,
which skip without it and say so in the summary."""
import os
import shutil
import signal
import subprocess
from collections import defaultdict

import pytest

from daemonutil import BIN, ROOT, Daemon, needs_release, reachable_directory, run, zbar  # noqa: F401 (tests import them from here)
from serverutil import Server

# What the reason of every skip for want of root starts with: the terminal summary lists them.
NEEDS_ROOT = "needs root"


def needs_root(why):
    """A mark (a module's `pytestmark`, or a test's) that skips without root, saying `why` it
    needs root; the terminal summary repeats it, so a developer's run says what it left out."""
    return pytest.mark.skipif(os.geteuid() != 0, reason=f"{NEEDS_ROOT}: {why}")


def require_root(why):
    """Skips the calling test or fixture without root, as `needs_root` does."""
    if os.geteuid() != 0:
        pytest.skip(f"{NEEDS_ROOT}: {why}")


def pytest_terminal_summary(terminalreporter):
    """A warning, after the results, naming the modules whose tests did not run for want of root
    and why (CI runs as root: there they run)."""
    skipped = defaultdict(list)
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if NEEDS_ROOT in reason:
            skipped[report.nodeid.split("::")[0]].append(reason.removeprefix("Skipped: "))
    if not skipped:
        return
    total = sum(len(reasons) for reasons in skipped.values())
    terminalreporter.write_sep("!", f"WARNING: {total} tests did not run: they need root", yellow=True, bold=True)
    for module, reasons in sorted(skipped.items()):
        terminalreporter.write_line(f"{module}: {len(reasons)} skipped ({'; '.join(sorted(set(reasons)))})", yellow=True)
    terminalreporter.write_line("Run the suite as root (make test, as CI does) for these to run.", yellow=True)


# `make test` runs the suite on several pytest-xdist workers (`--dist loadgroup`). The tests of a
# group below run one after another on one worker, because they share a module's one expensive
# fixture that would otherwise be made again on every worker, or worse, at once: a booted
# systemd-nspawn container whose state one test leaves for the next, a browser and nginx, a
# PostgreSQL cluster. Two groups may run side by side: the containers have their own names,
# roots, tmux servers and cgroups (booted.ContainerCgroups: sharing one, two containers' systemds
# killed each other's services), and the cached Debian root they unpack is built under a lock
# (booted.cached_root). Everything else shares nothing but temporary directories, free ports
# and randomly named users.
SERIAL_GROUPS = {
    "test_systemd_boot.py": "systemd-boot",
    "test_server_boot.py": "server-boot",
    "test_readme.py": "readme",
    "test_web.py": "web",
    "test_server_web.py": "server-web",
    "test_server_pages.py": "server-web",
    "test_server_presence_web.py": "server-web",
    "test_server_console_web.py": "server-web",
    "test_server_dashboard.py": "server-web",
    "test_server_kiosks_web.py": "server-web",
    "test_server_proxy_signin.py": "server-web",
    "test_server_postgres.py": "postgres",
    "test_server_presence_postgres.py": "postgres",
    "test_server_webhooks_postgres.py": "postgres",
}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Marks each test of SERIAL_GROUPS' files with its group (before xdist reads the marks), and
    puts the tests that need the release build last: `make test` builds it beside the others
    (they wait for it: daemonutil.release_built), so workers reach them once it is done."""
    items.sort(key=needs_release)
    for item in items:
        group = SERIAL_GROUPS.get(item.path.name)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))


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


@pytest.fixture
def servers(tmp_path):
    """Makes check-in servers as `daemons` makes daemons: `servers(secret, base=None, start=True,
    wait=True, **Server's options)` returns a started `Server` in `base` (a Path, a name under
    tmp_path, or tmp_path/sN); every one is stopped afterwards."""
    started = []

    def make(secret, base=None, *, start=True, wait=True, **options):
        if base is None:
            base = tmp_path / f"s{len(started)}"
        elif isinstance(base, str):
            base = tmp_path / base
        server = Server(base, secret, **options)
        started.append(server)
        return server.start(wait=wait) if start else server

    yield make
    for server in started:
        server.stop(timeout=10)


@pytest.fixture
def secret(tmp_path):
    """A new master secret, made by `qrcheckin keygen` (tmp_path/secret)."""
    path = tmp_path / "secret"
    assert subprocess.run([BIN, "keygen", "-o", str(path)], capture_output=True, timeout=30).returncode == 0
    return path


@pytest.fixture
def base(request):
    """A directory tree other users may traverse (pytest's tmp_path is 0700): `nobody`, a test
    user or a refused peer must reach the sockets and files in it. Removed afterwards."""
    name = request.module.__name__.removeprefix("test_").replace("_", "-")
    with reachable_directory(f"qrcheckin-{name}-") as directory:
        yield directory


@pytest.fixture
def tmpfs(base):
    """A 64 KiB tmpfs at base/tmpfs (mode 0755): real ENOSPC, and EROFS when remounted read-only.
    Needs root to mount; always unmounted (lazily if still busy)."""
    require_root("mounts a tmpfs")
    mountpoint = base / "tmpfs"
    mountpoint.mkdir(mode=0o755)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k,mode=0755", "tmpfs", str(mountpoint)], check=True)
    yield mountpoint
    if subprocess.run(["umount", str(mountpoint)], capture_output=True).returncode != 0:
        subprocess.run(["umount", "-l", str(mountpoint)], check=True)
