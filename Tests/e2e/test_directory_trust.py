"""Directory trust (docs/STATE.md): what the adversarial run of issue 25 did, kept as tests, and the
state directory systemd makes for a DynamicUser= service (issue 19).

- An operator who may write the socket's directory races the daemon's rebinding with symlinks
  for a minute: no file outside the output directory changes, and rebinds are bounded.
- A /tmp/qrcheckin-UID another user planted (with a current.json and a socket of their own) is
  refused by status, ctl and shake, naming its owner; a socket answered by another user's process
  is refused (SO_PEERCRED).
- An output directory loosened (chmod 0777), or swapped for a link or a directory another user
  planted, while the daemon runs: it stops publishing and says why, and resumes once a
  trustworthy directory is back.
- $STATE_DIRECTORY as a link into private/ (systemd's shape) is accepted; a link another user
  could have planted is refused before anything is written through it.
- With the group already right, the socket is not chowned (the daemon runs under a seccomp
  filter denying chown, as SystemCallFilter=~@privileged does).

Needs root: throwaway users and groups (removed afterwards), credentials of other users, mount
namespaces."""
import ctypes
import hashlib
import json
import os
import secrets
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import BIN
from daemonutil import Daemon, reachable_directory, request, wait_until

HERE = Path(__file__).resolve().parent
RACE_SECONDS = 60
BIND_DELAY_US = 200_000
NOBODY = 65534
# Other users run the system's Python (the test's own may live under root's home).
SYSTEM_PYTHON = "/usr/bin/python3"


@pytest.fixture
def accounts():
    """ops: an operators' group with member `operator`; `user` and `planter`, the planter a member
    of the user's own group. Each as (name, uid, gid). Deleted afterwards."""
    if os.geteuid() != 0:
        pytest.fail("creates users: run as root (make test does)")
    tag = secrets.token_hex(3)
    ops, operator, user, planter = f"qrtrops{tag}", f"qrtrop{tag}", f"qrtrus{tag}", f"qrtrpl{tag}"
    made = []
    try:
        subprocess.run(["groupadd", "--system", ops], check=True)
        made.append(("groupdel", ops))
        # In this order: the user's own group exists once the user does.
        for name, extra in ((operator, ["-G", ops]), (user, ["--user-group"]), (planter, ["-G", user])):
            subprocess.run(["useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent",
                            "--shell", "/usr/sbin/nologin", *extra, name], check=True)
            made.insert(0, ("userdel", name))
        ids = lambda name: (name, int(subprocess.check_output(["id", "-u", name])), int(subprocess.check_output(["id", "-g", name])))
        yield {"ops": (ops, int(subprocess.check_output(["getent", "group", ops]).split(b":")[2])),
               "operator": ids(operator), "user": ids(user), "planter": ids(planter)}
    finally:
        for command, name in made:
            subprocess.run([command, name], capture_output=True)
        subprocess.run(["groupdel", user], capture_output=True)  # when userdel left it


def snapshot(root, skip):
    """Every entry under `root` but those under `skip` (paths): type, owner, mode, size, times and
    content, to tell whether anything changed."""
    entries = {}
    for directory, names, files in os.walk(root):
        names[:] = [n for n in names if Path(directory, n) not in skip]
        for name in [*names, *files]:
            path = Path(directory, name)
            if path in skip:
                continue
            info = path.lstat()
            content = (hashlib.sha256(path.read_bytes()).hexdigest() if stat.S_ISREG(info.st_mode)
                       else os.readlink(path) if stat.S_ISLNK(info.st_mode) else None)
            entries[str(path)] = (info.st_mode, info.st_uid, info.st_gid, info.st_size, info.st_mtime_ns, info.st_ctime_ns, content)
    return entries


def unchanged_for(seconds, read, message):
    """Asserts `read()` keeps its first value for `seconds` (an absence, observed over a bounded
    window: at period 1 the daemon would have written several times)."""
    first = read()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert read() == first, message
        time.sleep(0.05)
    return first


def exchange(a, b):
    """Swaps two names atomically (renameat2 RENAME_EXCHANGE), as if an attacker had won the race
    to a name the daemon left free for a moment."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.renameat2(-100, os.fsencode(a), -100, os.fsencode(b), 2) != 0:
        raise OSError(ctypes.get_errno(), f"renameat2 {a} {b}")


def as_user(uid, gid, *command, groups=(), **kwargs):
    """Runs `command` with another user's credentials (a clean environment, like a fresh login)."""
    env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "LANG": "C.UTF-8"}
    return subprocess.run(list(command), user=uid, group=gid, extra_groups=list(groups), env=env,
                          capture_output=True, text=True, timeout=60, **kwargs)


ATTACKER = r"""
import os, stat, sys, time
role, out, victim, victim_dir, seconds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
sock = os.path.join(out, "control.sock")
deadline = time.monotonic() + seconds
count = 0
if role == "socket":
    # Spin on the socket's name: the moment a socket is there, rename a ready link over it (one
    # call), hoping the daemon still sets its group or mode by that name.
    ready = os.path.join(out, ".ready-%d" % os.getpid())
    swapped = 0.0
    while time.monotonic() < deadline:
        try:
            os.symlink(victim, ready)
        except FileExistsError:
            pass
        except OSError:
            continue
        for _ in range(2000):
            try:
                mode = os.lstat(sock).st_mode
            except OSError:
                continue
            if stat.S_ISSOCK(mode):
                try:
                    os.rename(ready, sock)
                    count += 1
                    swapped = time.monotonic()
                except OSError:
                    pass
                break
            if stat.S_ISLNK(mode) and time.monotonic() - swapped > 0.5:
                try:  # the daemon had its chance to follow it: let it bind again, to race it once more
                    os.unlink(sock)
                except OSError:
                    pass
else:
    # The daemon's private bind directory and its outputs, replaced by links to the victims.
    while time.monotonic() < deadline:
        for name in os.listdir(out):
            path = os.path.join(out, name)
            if name.endswith(".bind") and not os.path.islink(path):
                try:
                    os.rename(path, path + ".moved")
                    os.symlink(victim_dir, path)
                    count += 1
                except OSError:
                    pass
        try:
            os.symlink(victim, os.path.join(out, ".evil"))
            os.rename(os.path.join(out, ".evil"), os.path.join(out, "current.json"))
            count += 1
        except OSError:
            pass
print(count)
"""


def test_a_minute_of_symlink_swaps_by_an_operator_changes_no_file_outside_the_output_directory(accounts):
    """As the packaged unit runs it: the daemon's own group is the operators' group, and the output
    directory is 0775 root:ops, so any operator may write it. The daemon of issue 25 chowned and
    chmodded its socket by path after bind and rebound every second: a root 0600 file became 0660
    ops. So that a lost race cannot hide such a bug, every bind(2) returns 0.2 s late here
    (strace's fault injection): whatever the daemon does by name after binding, the operator gets
    there first."""
    ops, ops_gid = accounts["ops"]
    _, operator_uid, operator_gid = accounts["operator"]
    with reachable_directory("qrcheckin-race-") as work:
        victim = work / "victim"
        victim.write_text("root's own\n")
        victim.chmod(0o600)
        victim_dir = work / "victim-dir"
        victim_dir.mkdir(mode=0o755)
        out = work / "out"
        out.mkdir()
        os.chown(out, 0, ops_gid)
        out.chmod(0o775)
        attacker = work / "attacker.py"
        attacker.write_text(ATTACKER)
        slow_bind = ["strace", "-qq", "-o", "/dev/null", "-e", "trace=bind", "-e", f"inject=bind:delay_exit={BIND_DELAY_US}"]
        daemon = Daemon(work, period=1, args=["--ops-group", ops], prefix=slow_bind, popen={"group": ops_gid, "extra_groups": []})
        daemon.start(wait=False)  # the process is strace's: the daemon's pid is in current.json
        wait_until(lambda: out.joinpath("control.sock").is_socket() and daemon.state_now(), message="the daemon's first code")
        pid = daemon.state_now()["pid"]
        try:
            assert out.joinpath("control.sock").lstat().st_gid == ops_gid
            # The daemon's own state directory changes with every code (its record is saved
            # before each is published); everything else must stay as it is.
            before = snapshot(work, skip={out, daemon.log_path, daemon.state})
            # Two spinning on the socket's name, one at everything else.
            attackers = [subprocess.Popen([SYSTEM_PYTHON, str(attacker), role, str(out), str(victim), str(victim_dir), str(RACE_SECONDS)],
                                          user=operator_uid, group=operator_gid, extra_groups=[ops_gid],
                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                         for role in ("socket", "socket", "side")]
            results = [process.communicate(timeout=RACE_SECONDS + 60) for process in attackers]
            assert all(process.returncode == 0 for process in attackers), results
            counts = [int(output) for output, _ in results]
            swaps, side = counts[0] + counts[1], counts[2]
            assert swaps >= 1 and side >= 1, f"the attack never got going: {results}"
            assert snapshot(work, skip={out, daemon.log_path, daemon.state}) == before, daemon.logs()
            assert victim.read_text() == "root's own\n" and victim.stat().st_mode & 0o7777 == 0o600
            assert victim.stat().st_gid == 0 and list(victim_dir.iterdir()) == []
            # Rebinds back off: a few a minute, not one a second.
            rebinds = daemon.logs().count("recreated the control socket")
            assert 1 <= rebinds <= 12, daemon.logs()
            assert daemon.process.poll() is None
            # The operator's leftovers cleaned up, the daemon serves again (within its longest pause).
            if out.joinpath("control.sock").is_symlink():
                out.joinpath("control.sock").unlink()
            wait_until(lambda: out.joinpath("control.sock").is_socket() and daemon.request("get")["ok"], timeout=45,
                       message="the socket to come back")
            state = daemon.state_now()
            assert state["state"] == "running" and state["health"] == "ok"
        finally:
            os.kill(pid, signal.SIGTERM)
            assert daemon.stop() == 0


FAKE_DAEMON = r"""
import json, os, socket, sys
path = sys.argv[1]
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(path)
os.chmod(path, 0o666)
server.listen(8)
print("listening", flush=True)
while True:
    client, _ = server.accept()
    client.recv(4096)
    client.sendall(b'{"ok":true,"message":"refresh paused","shake":"on","refresh":"paused"}\n')
    client.close()
"""


def test_a_planted_tmp_directory_or_a_foreign_socket_is_refused_naming_its_owner(accounts, tmp_path):
    """With XDG_RUNTIME_DIR unset a user's clients look in /tmp/qrcheckin-UID. Another user made it
    first, with a running current.json showing their URL and a socket answering "refresh paused"
    (`show` is refused before it needs a terminal).
    /tmp is a private copy here (a bind mount in a mount namespace), so nothing lands in /tmp."""
    user, user_uid, user_gid = accounts["user"]
    planter, planter_uid, planter_gid = accounts["planter"]
    with reachable_directory("qrcheckin-planted-") as work:
        fake_tmp = work / "tmp"
        fake_tmp.mkdir()
        fake_tmp.chmod(0o1777)
        # What the scenario uses must be in the copy of /tmp: the real one is hidden there.
        tools = fake_tmp / "tools"
        tools.mkdir(mode=0o755)
        shutil.copy(BIN, tools / "qrcheckin")
        (tools / "qrcheckin").chmod(0o755)
        (tools / "fake_daemon.py").write_text(FAKE_DAEMON)
        now = int(time.time())
        window = now // 600
        document = {"version": 1, "state": "running", "venue": "DEMO", "url": "HTTPS://EVIL.EXAMPLE/C/DEMO/X", "token": "X",
                    "safeNumber": "12현34규", "window": window, "seq": 0, "issuedAt": window * 600,
                    "expiresAt": window * 600 + 600, "period": 600, "shake": "on", "refresh": "auto", "health": "ok",
                    "reason": None, "updatedAt": now, "pid": 1, "clock": {"synchronized": True, "maxErrorSeconds": 0}}
        (tools / "current.json").write_text(json.dumps(document))
        (tools / "current.json").chmod(0o644)
        scenario = work / "scenario.py"
        scenario.write_text(SCENARIO)
        result = subprocess.run(["unshare", "-m", "--propagation", "private", SYSTEM_PYTHON, str(scenario), str(work),
                                 json.dumps([user_uid, user_gid, planter_uid, planter_gid])],
                                capture_output=True, text=True, timeout=180)
        assert result.returncode == 0, result.stderr
        runs = json.loads(result.stdout)
    owner = f"uid {planter_uid} ({planter})"
    planted = f"/tmp/qrcheckin-{user_uid}"
    for command in ("status", "status --json", "ctl refresh pause", "shake", "show"):
        code, out, err = runs[command]
        assert code == 77, (command, runs)
        assert f"refusing to use {planted}: it belongs to {owner}, not to you or root" in err, (command, err)
        assert "EVIL" not in out + err and "refresh paused" not in out + err, (command, runs)
    # Every venue on its own line: that one is not running, and why; nothing of its files is shown.
    code, out, err = runs["status --all"]
    assert code == 3 and f"refusing to use {planted}: it belongs to {owner}" in out and "EVIL" not in out + err, runs
    code, out, err = runs["ctl get (socket of another user)"]
    assert code == 77 and f"the process listening there runs as {owner}" in err, runs
    assert "refresh paused" not in out


SCENARIO = r"""
import json, os, subprocess, sys, time
work = sys.argv[1]
user_uid, user_gid, planter_uid, planter_gid = json.loads(sys.argv[2])
subprocess.run(["mount", "--bind", work + "/tmp", "/tmp"], check=True)
tools = "/tmp/tools"
binary = tools + "/qrcheckin"
env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "LANG": "C.UTF-8"}

def planter(*command, **kwargs):
    return subprocess.Popen(list(command), user=planter_uid, group=planter_gid, extra_groups=[user_gid], env=env,
                            stdout=subprocess.PIPE, text=True, **kwargs)

def user(*args):
    done = subprocess.run([binary, *args], user=user_uid, group=user_gid, extra_groups=[], env=env,
                          capture_output=True, text=True, timeout=30)
    return [done.returncode, done.stdout, done.stderr]

planted = f"/tmp/qrcheckin-{user_uid}"
assert planter("sh", "-c", f"mkdir -m 0755 {planted} && cp {tools}/current.json {planted}/").wait() == 0
fake = planter(sys.executable, tools + "/fake_daemon.py", planted + "/control.sock")
assert fake.stdout.readline().strip() == "listening"
# The user's own directory, writable by the user's own group, of which the planter is a member.
shared = f"/tmp/shared-{user_uid}"
os.mkdir(shared)
os.chown(shared, user_uid, user_gid)
os.chmod(shared, 0o770)
foreign = planter(sys.executable, tools + "/fake_daemon.py", shared + "/ctl.sock")
assert foreign.stdout.readline().strip() == "listening"
runs = {"status": user("status"), "status --json": user("status", "--json"),
        "ctl refresh pause": user("ctl", "refresh", "pause"), "shake": user("shake"), "show": user("show"),
        "status --all": user("status", "--all"),
        "ctl get (socket of another user)": user("ctl", "--output-dir", shared, "--socket", shared + "/ctl.sock", "get")}
for process in (fake, foreign):
    process.kill()
    process.wait()
print(json.dumps(runs))
"""


def read_document(path):
    try:
        return path.read_bytes()
    except OSError:
        return None


@pytest.fixture
def notify(tmp_path):
    """A NOTIFY_SOCKET listener: `.statuses()` are the STATUS= lines received so far."""
    path = tmp_path / "notify.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(path))
    listener.setblocking(False)
    lines = []

    class Notify:
        env = {"NOTIFY_SOCKET": str(path)}

        @staticmethod
        def statuses():
            while True:
                try:
                    message = listener.recv(65536).decode()
                except BlockingIOError:
                    return [line for line in lines if line.startswith("STATUS=")]
                lines.extend(message.splitlines())

    yield Notify
    listener.close()


def test_a_loosened_output_directory_stops_publishing_and_says_why_then_resumes(notify, daemons):
    daemon = daemons("d", period=1, env=notify.env)
    out = daemon.out
    out.chmod(0o777)
    reason = f"refusing to publish in {out}: anyone may write to it (mode 0777)"
    wait_until(lambda: f"degraded: {reason}" in daemon.logs(), message="the daemon to say why it stopped publishing")
    wait_until(lambda: any(f"degraded: {reason}" in line for line in notify.statuses()), message="STATUS= to say why")
    unchanged_for(3, lambda: read_document(out / "current.json"), "a code was published in a directory anyone may write to")
    status = daemon.cli("status", "--output-dir", str(out))
    assert status.returncode == 77, status
    assert f"refusing to use {out}: anyone may write to it (mode 0777)" in status.stderr.decode()
    out.chmod(0o755)
    wait_until(lambda: (daemon.state_now() or {}).get("health") == "ok" and "healthy again" in daemon.logs(),
               message="publishing to resume")
    wait_until(lambda: daemon.cli("ctl", "--output-dir", str(out), "get").returncode == 0, timeout=45,
               message="the socket to come back")
    assert daemon.cli("status", "--output-dir", str(out)).returncode == 0


@pytest.mark.parametrize("planted", ["link", "directory"])
def test_an_output_directory_swapped_for_what_another_user_planted_stops_publishing_and_says_why(planted):
    """The output directory in a shared sticky directory (like /tmp/qrcheckin-UID): another user
    won the race to its name with a link to a victim directory, or a directory of their own."""
    with reachable_directory("qrcheckin-swap-") as work:
        swapped_while_running(work, planted)


def swapped_while_running(tmp_path, planted):
    shared = tmp_path / "shared"
    daemon = Daemon(shared, period=1).start()
    shared.chmod(0o1777)  # after start: the daemon's helper makes its base 0755
    out = daemon.out
    victim = tmp_path / "victim"
    victim.mkdir(mode=0o755)
    bait = shared / ".bait"
    command = f"ln -s {victim} {bait}" if planted == "link" else f"mkdir -m 0755 {bait}"
    assert as_user(NOBODY, NOBODY, "sh", "-c", command).returncode == 0
    try:
        exchange(out, bait)  # `bait` is now the daemon's real directory, moved aside
        what = "is a symbolic link made by" if planted == "link" else "belongs to"
        reason = f"{out}: it {what} uid {NOBODY}"
        wait_until(lambda: f"degraded: refusing to publish in {reason}" in daemon.logs(), message="the daemon to say why")
        unchanged_for(3, lambda: (sorted(os.listdir(victim)), read_document(bait / "current.json"), sorted(os.listdir(out))),
                      "a file was published in the planted directory or the moved one")
        assert list(victim.iterdir()) == []
        status = daemon.cli("status", "--output-dir", str(out))
        assert status.returncode == 77 and f"refusing to use {reason}" in status.stderr.decode(), status
        # The planted thing removed: the daemon makes its directory again and publishes there.
        subprocess.run(["rm", "-rf", str(out)], check=True)
        wait_until(lambda: (daemon.state_now() or {}).get("health") == "ok", message="publishing to resume")
        assert out.stat().st_uid == 0 and not out.is_symlink()
        wait_until(lambda: daemon.cli("ctl", "--output-dir", str(out), "get").returncode == 0, timeout=45,
                   message="the socket to come back")
    finally:
        daemon.stop()


def systemd_state_directory(lib, owner):
    """What systemd makes for StateDirectory=qrcheckin with DynamicUser=yes: /var/lib/private (root,
    0700; a service sees it through its own mounts) holding qrcheckin (the service's user, 0700),
    and /var/lib/qrcheckin a link to private/qrcheckin."""
    lib.mkdir(mode=0o755)
    (lib / "private").mkdir(mode=0o700)
    (lib / "private" / "qrcheckin").mkdir(mode=0o700)
    os.chown(lib / "private" / "qrcheckin", owner, owner)
    (lib / "qrcheckin").symlink_to("private/qrcheckin")
    return lib / "qrcheckin"


def test_a_state_directory_link_into_private_as_systemd_makes_it_is_accepted(tmp_path, daemons):
    state = systemd_state_directory(tmp_path / "lib", 0)
    daemon = daemons("d", period=5, env={"STATE_DIRECTORY": str(state), "RUNTIME_DIRECTORY": str(tmp_path / "d" / "out")},
                     start=False)
    daemon.command = lambda: [BIN, "run", "--period", "5"]
    daemon.start()
    assert (tmp_path / "lib" / "private" / "qrcheckin" / "secret").stat().st_mode & 0o777 == 0o600
    assert daemon.request("get")["ok"]
    assert daemon.stop() == 0


def test_a_state_directory_link_for_a_dynamic_user_is_accepted(accounts):
    """The same as the service's own user (not root): the private directory is reachable from inside
    the service (systemd mounts it there); here it is 0755 so the user can reach it at all."""
    _, uid, gid = accounts["user"]
    with reachable_directory("qrcheckin-dynamic-") as work:
        state = systemd_state_directory(work / "lib", uid)
        (work / "lib" / "private").chmod(0o755)
        out = work / "run"
        out.mkdir(mode=0o755)
        os.chown(out, uid, gid)
        shutil.copy(BIN, work / "qrcheckin")
        (work / "qrcheckin").chmod(0o755)
        daemon = Daemon(work, period=5, env={"STATE_DIRECTORY": str(state), "RUNTIME_DIRECTORY": str(out)},
                        popen={"user": uid, "group": gid, "extra_groups": []})
        daemon.out = out
        daemon.command = lambda: [str(work / "qrcheckin"), "run", "--period", "5"]
        daemon.start()
        try:
            assert (work / "lib" / "private" / "qrcheckin" / "secret").stat().st_uid == uid
        finally:
            assert daemon.stop() == 0


def test_a_state_directory_link_another_user_could_plant_is_refused_before_anything_is_written():
    with reachable_directory("qrcheckin-planted-state-") as tmp_path:
        planted_state_directory(tmp_path)


def planted_state_directory(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    target = tmp_path / "target"
    target.mkdir(mode=0o700)
    assert as_user(NOBODY, NOBODY, "ln", "-s", str(target), str(shared / "state")).returncode == 0
    result = subprocess.run([BIN, "run", "--output-dir", str(tmp_path / "out"), "--state-dir", str(shared / "state")],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 73, result.stderr
    assert f"refusing to use {shared / 'state'}: it is a symbolic link made by uid {NOBODY}" in result.stderr
    assert list(target.iterdir()) == [], "a secret was written through the link before the check"


def test_the_socket_is_not_chowned_when_its_group_is_already_right(accounts, daemons):
    """Under SystemCallFilter=~@privileged (here: a seccomp filter denying the chown calls) the
    packaged unit's daemon runs with the operators' group as its own: it must start."""
    ops, ops_gid = accounts["ops"]
    deny = [sys.executable, str(HERE / "deny_syscalls.py"), "chown"]
    daemon = daemons("d", period=5, args=["--ops-group", ops], prefix=deny, popen={"group": ops_gid, "extra_groups": []})
    info = daemon.socket.stat()
    assert info.st_gid == ops_gid and info.st_mode & 0o777 == 0o660
    assert daemon.request("get")["ok"]
    assert daemon.stop() == 0
    # Another group than its own does need a chown: refused with the reason, nothing left behind.
    other = daemons("e", period=5, args=["--ops-group", ops], prefix=deny, wait=False)
    assert other.process.wait(30) == 73
    assert "cannot set the group of" in other.logs() and "Operation not permitted" in other.logs(), other.logs()
    assert not other.socket.exists() and [p.name for p in other.out.iterdir() if p.name.endswith(".bind")] == []
