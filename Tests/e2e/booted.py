"""A minimal Debian 12 with systemd 252 booted for real in systemd-nspawn, for the package tests.

The root is debootstrap's minbase plus systemd, made once and cached as a tarball outside the
checkout (CACHE_DIR; about 50 s, then about 3 s to unpack), with the .deb's own dependencies and
the tools README's commands use already in it, so installing the .deb needs no network. Each
`Container` unpacks a fresh copy into a temporary directory, installs packages in a chroot (with
/proc and a minimal /dev mounted, as image builders do, or without /proc), boots it with
`systemd-nspawn -b` inside a private tmux server (whose pane is the container's console, so a
kiosk on /dev/console can be read back like a screen), runs commands in it with `nsenter`, and
always tears it all down again (poweroff, kill, unmount, remove)."""
import fcntl
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from daemonutil import wait_until
from kiosk_screen import Tmux

CACHE_DIR = Path(os.environ.get("QRCHECKIN_TEST_CACHE", "/var/cache/qrcheckin-tests"))
SUITE = "bookworm"
MIRROR = os.environ.get("QRCHECKIN_TEST_MIRROR", "http://deb.debian.org/debian")
# systemd as PID 1; sudo, jq and nginx-light because README's commands use them.
BASE_PACKAGES = ("systemd", "systemd-sysv", "dbus", "sudo", "jq", "nginx-light")
# What commands inside see: the container's own tools, never this machine's PATH or toolchain.
ENVIRONMENT = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
               "HOME": "/root", "TERM": "dumb", "DEBIAN_FRONTEND": "noninteractive"}
# A minimal /dev for the chroot: the nodes a package's maintainer scripts may open (not the
# host's /dev: a broken postinst writing through /dev/null must not break this machine).
DEVICES = {"null": (1, 3), "zero": (1, 5), "full": (1, 7), "random": (1, 8), "urandom": (1, 9), "tty": (5, 0)}
BOOT_TIMEOUT = 90
# A drop-in for qrcheckin-kiosk.service: a container has no tty1, its screen is its console (the
# test's tmux pane), where console-getty.service holds a login prompt as getty@tty1 does on a box.
KIOSK_ON_CONSOLE = """[Unit]
Conflicts=console-getty.service
After=console-getty.service
[Service]
TTYPath=/dev/console
"""


def built_deb(package="qrcheckin"):
    """The .deb of `package` (the kiosk's, or qrcheckin-server) under test: the newest in
    $QRCHECKIN_DEB_DIR (`make test` builds both once), else built here with `make deb`."""
    from daemonutil import ROOT, release_built
    release_built()
    directory = Path(os.environ.get("QRCHECKIN_DEB_DIR", ROOT / "build"))
    if "QRCHECKIN_DEB_DIR" not in os.environ:
        (ROOT / ".build").mkdir(exist_ok=True)
        with open(ROOT / ".build" / "deb.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # two package test files never run make deb at once
            result = subprocess.run(["make", "-s", "-C", str(ROOT), "deb"], capture_output=True, text=True, timeout=1800)
        assert result.returncode == 0, result.stdout + result.stderr
    debs = sorted(directory.glob(f"{package}_*.deb"), key=lambda p: p.stat().st_mtime)
    assert debs, f"no {package} .deb in {directory}: run make deb"
    return debs[-1]


def package_root():
    """The cached root every package test boots: BASE_PACKAGES and the Depends of both packages,
    so that either installs without the network. One list for every test file: the cache keeps
    one tarball, and a file asking for another list would build it again and again."""
    return cached_root([*deb_depends(built_deb()), *deb_depends(built_deb("qrcheckin-server"))])


def deb_depends(deb):
    """The package names a .deb depends on or recommends (alternatives and versions dropped):
    README's reader installs with apt-get, which installs the recommended too (ca-certificates,
    for the reporter's https)."""
    field = subprocess.run(["dpkg-deb", "-f", str(deb), "Depends", "Recommends"], capture_output=True, text=True,
                           check=True).stdout
    field = ",".join(line.split(":", 1)[-1] for line in field.splitlines())
    return sorted({re.split(r"[\s(]", part.strip())[0] for part in re.split(r"[,|]", field) if part.strip()})


def cached_root(extra_packages=()):
    """The cached root tarball holding BASE_PACKAGES and `extra_packages`; built when missing.
    Its name carries a hash of the package list, so a new dependency builds a new cache (and
    the older tarballs are removed)."""
    packages = sorted(set(BASE_PACKAGES) | set(extra_packages))
    tag = hashlib.sha256(" ".join([SUITE, *packages]).encode()).hexdigest()[:12]
    tarball = CACHE_DIR / f"{SUITE}-systemd-{tag}.tar"
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    with open(CACHE_DIR / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two test runs never build it twice or read half of it
        if tarball.exists():
            return tarball
        work = Path(tempfile.mkdtemp(prefix="build.", dir=CACHE_DIR))
        try:
            root = work / "root"
            result = subprocess.run(["debootstrap", "--variant=minbase", "--include=" + ",".join(packages),
                                     SUITE, str(root), MIRROR], capture_output=True, text=True, timeout=900)
            assert result.returncode == 0, f"debootstrap failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
            # An image is made once: its machine id comes at each boot, its package lists are not kept.
            (root / "etc/machine-id").write_text("")
            shutil.rmtree(root / "var/cache/apt/archives", ignore_errors=True)
            (root / "var/cache/apt/archives/partial").mkdir(parents=True)
            partial = work / "root.tar"
            subprocess.run(["tar", "--numeric-owner", "-C", str(root), "-cf", str(partial), "."], check=True)
            partial.rename(tarball)
            for old in CACHE_DIR.glob(f"{SUITE}-systemd-*.tar"):
                if old != tarball:
                    old.unlink()
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return tarball


def own_cgroups():
    """This process's cgroup in each hierarchy systemd tracks processes in, as directories:
    the named `systemd` one (cgroup v1 or hybrid) and the unified one (hybrid, or v2 alone)."""
    places = []
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if controllers == "name=systemd":
            root = Path("/sys/fs/cgroup/systemd")
        elif controllers == "":
            root = next((r for r in (Path("/sys/fs/cgroup/unified"), Path("/sys/fs/cgroup"))
                         if (r / "cgroup.controllers").exists()), None)
        else:
            continue
        if root is not None and (root / "cgroup.procs").exists():
            places.append(root / path.lstrip("/"))
    return places


class ContainerCgroups:
    """A cgroup of the container's own, in every hierarchy systemd uses, for nspawn to start in.

    With --keep-unit (this machine has no systemd to ask for a scope) nspawn puts the container
    in the cgroup it runs in, split into `payload` and `supervisor`. Two containers started from
    one cgroup share `payload`: each one's systemd then finds the other's services in its own
    service cgroups and kills them as its own ("Failed to kill control group ...: Input/output
    error"; a restart failed so in a clean-clone CI with two package test files side by side)."""

    def __init__(self, name):
        label = f"qrcheckin-test.{name}.{os.getpid()}.{time.monotonic_ns()}"
        self.directories = [place / label for place in own_cgroups()]
        for directory in self.directories:
            directory.mkdir()

    def enter(self):
        """Shell words that move the shell running them into these cgroups (before `exec`)."""
        return "".join(f"echo $$ > {shlex.quote(str(d / 'cgroup.procs'))} && " for d in self.directories)

    def remove(self):
        """Removes them, deepest first, once the container's processes are gone (its PID 1 died
        with nspawn; the kernel may take a moment to reap the rest)."""
        def removed():
            for directory in self.directories:
                if not directory.exists():
                    continue
                for path, _, _ in sorted(os.walk(directory), key=lambda entry: -len(entry[0])):
                    try:
                        os.rmdir(path)
                    except OSError:
                        return False
            return True
        wait_until(removed, timeout=30, interval=0.1, message="the container's cgroups to empty")


class Container:
    """One unpacked root: chroot installs, then a booted systemd and commands run inside it."""

    def __init__(self, tarball, name):
        self.name = name
        self.base = Path(tempfile.mkdtemp(prefix=f"qrcheckin-{name}.", dir="/var/tmp"))
        self.root = self.base / "root"
        self.root.mkdir()
        subprocess.run(["tar", "--numeric-owner", "-C", str(self.root), "-xf", str(tarball)], check=True)
        # A 0700 root (mkdtemp's) makes every DynamicUser= service fail with 200/CHDIR.
        self.root.chmod(0o755)
        # nspawn names the host after the machine: sudo resolves it without a warning.
        with open(self.root / "etc/hosts", "a") as hosts:
            hosts.write(f"127.0.1.1 {name}\n")
        self.pane = None
        self.leader = None
        self.cgroups = None
        self.transcript = []

    # --- before boot: a chroot, as an image builder installs packages -----------------------

    def chroot(self, script, proc=True, check=True, timeout=300):
        """Runs `script` (sh) chrooted into the root, with a minimal /dev and (proc=True) /proc
        mounted for the run, in a private mount namespace so nothing stays mounted."""
        mounts = ""
        if proc:
            mounts += f"mount -t proc proc {self.root}/proc\n"
        mounts += f"mount -t tmpfs -o mode=0755,size=64k tmpfs {self.root}/dev\n"
        for node, (major, minor) in DEVICES.items():
            mounts += f"mknod -m 0666 {self.root}/dev/{node} c {major} {minor}\n"
        mounts += (f"mkdir {self.root}/dev/pts {self.root}/dev/shm\n"
                   f"mount -t devpts -o newinstance,ptmxmode=0666 devpts {self.root}/dev/pts\n"
                   f"ln -s pts/ptmx {self.root}/dev/ptmx\n")
        wrapper = f"set -e\n{mounts}exec chroot {self.root} /bin/sh -c {shlex.quote(script)}\n"
        result = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", wrapper],
                                capture_output=True, text=True, env=ENVIRONMENT, timeout=timeout)
        self.transcript.append(("chroot", script, result))
        if check:
            assert result.returncode == 0, f"chroot {script!r}: exit {result.returncode}\n{result.stdout}\n{result.stderr}"
        return result

    def copy_in(self, source, target):
        """Copies a host file into the root (as root, mode kept)."""
        destination = self.root / target.lstrip("/")
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, destination)
        return target

    # --- boot ------------------------------------------------------------------------------

    def boot(self, cols=100, rows=50):
        """Boots systemd in the root (its own network namespace: nginx inside binds no port of
        this machine) and waits for `systemctl is-system-running` to say running."""
        self.cgroups = ContainerCgroups(self.name)
        command = (f"{self.cgroups.enter()}exec systemd-nspawn --register=no --keep-unit --private-network --quiet "
                   f"--machine={self.name} -D {shlex.quote(str(self.root))} -b")
        self.pane = Tmux(f"nspawn-{self.name}", command, cols=cols, rows=rows, env={"TERM": "linux"})
        nspawn = int(self.pane.display("#{pane_pid}"))

        def leader():
            try:
                children = Path(f"/proc/{nspawn}/task/{nspawn}/children").read_text().split()
            except FileNotFoundError:
                raise AssertionError(f"systemd-nspawn exited: {self.pane.text()}")
            for child in children:
                if Path(f"/proc/{child}/comm").read_text().strip() == "systemd":
                    return int(child)
            return None

        self.leader = wait_until(leader, timeout=30, interval=0.05, message="the container's systemd")
        # The manager's socket exists once PID 1 listens; then systemctl can wait for the boot.
        wait_until(lambda: self.run("test -S /run/systemd/private", check=False).returncode == 0,
                   timeout=BOOT_TIMEOUT, interval=0.05, message="systemd's private socket")
        state = self.run("systemctl is-system-running --wait", check=False, timeout=BOOT_TIMEOUT)
        assert state.stdout.strip() == "running", \
            f"boot ended {state.stdout.strip()!r}:\n" + self.run("systemctl --failed --no-pager", check=False).stdout
        return self

    def run(self, script, user=None, check=True, timeout=60, input=None, env=None):
        """Runs `script` (sh) inside the booted container as root or `user` (a login's groups,
        through runuser); returns the CompletedProcess (text)."""
        assert self.leader, "boot first"
        environment = dict(ENVIRONMENT, **(env or {}))
        inner = ["env", "-i", *(f"{k}={v}" for k, v in environment.items())]
        if user:
            inner += ["runuser", "-u", user, "--", "env", f"HOME=/home/{user}", "USER=" + user]
        argv = ["nsenter", "-t", str(self.leader), "-m", "-u", "-i", "-n", "-p", "--", *inner, "/bin/sh", "-c", script]
        result = subprocess.run(argv, capture_output=True, text=True, input=input, timeout=timeout)
        self.transcript.append((user or "root", script, result))
        if check and result.returncode != 0:
            journal = ""
            if "systemctl" in script:  # a unit that failed says why only in its journal
                journal = "\n" + self.run("journalctl --no-pager -n 40", check=False).stdout
            raise AssertionError(f"{user or 'root'}$ {script}\nexit {result.returncode}\n{result.stdout}\n{result.stderr}{journal}")
        return result

    def read(self, path):
        """A file's bytes as the container sees it (its /run is its own tmpfs)."""
        assert self.leader, "boot first"
        result = subprocess.run(["nsenter", "-t", str(self.leader), "-m", "--", "cat", path],
                                capture_output=True, timeout=30)
        assert result.returncode == 0, f"cat {path}: {result.stderr.decode(errors='replace')}"
        return result.stdout

    def fetch(self, url):
        """(status, body) of an HTTP GET from inside the container's network namespace (its own
        127.0.0.1), made by this machine's Python: the container needs no HTTP client."""
        assert self.leader, "boot first"
        script = ("import sys, urllib.request, urllib.error\n"
                  "try:\n    r = urllib.request.urlopen(sys.argv[1], timeout=10); code, body = r.status, r.read()\n"
                  "except urllib.error.HTTPError as e:\n    code, body = e.code, e.read()\n"
                  "sys.stdout.buffer.write(str(code).encode() + b'\\n' + body)\n")
        result = subprocess.run(["nsenter", "-t", str(self.leader), "-n", "--", sys.executable, "-c", script, url],
                                capture_output=True, timeout=30)
        assert result.returncode == 0, result.stderr.decode(errors="replace")
        status, _, body = result.stdout.partition(b"\n")
        return int(status), body

    def python(self, script, *args, timeout=60):
        """Runs `script` with this machine's Python in the container's network namespace (its own
        127.0.0.1; the container needs no Python), Tests/e2e importable (serverutil's and
        consoleutil's clients); returns its standard output, failing with its error output."""
        assert self.leader, "boot first"
        env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent))
        result = subprocess.run(["nsenter", "-t", str(self.leader), "-n", "--", sys.executable, "-c", script, *args],
                                capture_output=True, text=True, timeout=timeout, env=env)
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    def unit(self, name, prop):
        """One property of a unit (`systemctl show -p PROP --value`)."""
        return self.run(f"systemctl show -p {prop} --value {shlex.quote(name)}").stdout.strip()

    def wait_active(self, name, timeout=30):
        """Waits until `name` is active (not merely activating); fails with its status and log."""
        def active():
            return self.run(f"systemctl is-active {shlex.quote(name)}", check=False).stdout.strip() == "active"
        try:
            return wait_until(active, timeout=timeout, interval=0.1, message=f"{name} active")
        except AssertionError:
            raise AssertionError(self.run(f"systemctl status --no-pager -l {shlex.quote(name)}; "
                                          f"journalctl --no-pager -n 30 -u {shlex.quote(name)}", check=False).stdout)

    def log(self):
        """The last commands and their results, for a failure's message."""
        lines = []
        for who, script, result in self.transcript[-15:]:
            lines.append(f"{who}$ {script}\n  exit {result.returncode}\n  {result.stdout[-800:]}{result.stderr[-800:]}")
        return "\n".join(lines)

    # --- teardown --------------------------------------------------------------------------

    def poweroff(self, timeout=30):
        """A clean shutdown (every unit stopped by systemd); kills the container after `timeout`."""
        if self.pane is None:
            return self.remove_cgroups()
        nspawn = self.pane.display("#{pane_pid}")
        if self.leader:
            subprocess.run(["nsenter", "-t", str(self.leader), "-m", "-p", "--", "systemctl", "poweroff"],
                           capture_output=True, timeout=30)
        deadline = time.monotonic() + timeout
        while nspawn and Path(f"/proc/{nspawn}").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        if nspawn and Path(f"/proc/{nspawn}").exists():
            subprocess.run(["kill", "-KILL", nspawn], capture_output=True)  # nspawn's death ends the container
            wait_until(lambda: not Path(f"/proc/{nspawn}").exists(), timeout=10, message="nspawn gone")
        self.pane.kill()
        self.pane = None
        self.leader = None
        self.remove_cgroups()

    def remove_cgroups(self):
        if self.cgroups:
            self.cgroups.remove()
            self.cgroups = None

    def destroy(self):
        """Powers off (if booted) and removes the whole tree; nothing is left mounted."""
        try:
            self.poweroff()
        finally:
            with open("/proc/self/mounts") as mounts:
                inside = [line.split()[1] for line in mounts if line.split()[1].startswith(str(self.base))]
            for mount in sorted(inside, reverse=True):
                subprocess.run(["umount", "-l", mount], capture_output=True)
            shutil.rmtree(self.base, ignore_errors=True)


@contextmanager
def container(tarball, name):
    """A Container that is always destroyed, even when the test fails."""
    made = Container(tarball, name)
    try:
        yield made
    finally:
        made.destroy()
