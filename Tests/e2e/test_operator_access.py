"""Operators on a server: a user with no daemon of their own finds the system daemon in
/run/qrcheckin; anyone who can read it gets `status`; only members of the operators' group may
`ctl` (others: exit 77). Runs as root, with throwaway users and a group, in a mount namespace
whose /run is a private tmpfs, so the system directories are real paths but no other test
(or a real qrcheckin service) ever sees this daemon."""
import os
import secrets
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from conftest import BIN



@pytest.fixture
def accounts():
    """An operators' group, a member of it and an outsider; deleted afterwards."""
    if os.geteuid() != 0:
        pytest.fail("creates users: run as root (make test does)")
    tag = secrets.token_hex(3)
    group, member, outsider = f"qrtops{tag}", f"qrtm{tag}", f"qrto{tag}"
    made = []
    try:
        subprocess.run(["groupadd", "--system", group], check=True)
        made.append(("groupdel", group))
        for user, extra in ((member, ["-G", group]), (outsider, [])):
            subprocess.run(["useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent",
                            "--shell", "/usr/sbin/nologin", *extra, user], check=True)
            made.insert(0, ("userdel", user))
        yield group, member, outsider
    finally:
        for command, name in made:
            subprocess.run([command, name], capture_output=True)


def test_outsider_gets_status_but_not_ctl_and_a_member_may_ctl(accounts):
    """The daemon run by root by hand, the simplest system daemon, with --ops-group. The packaged
    unit (DynamicUser=, PrivateUsers=: an operator's uid reads as nobody and only SO_PEERGROUPS
    shows the membership) is tested under a booted systemd in test_systemd_boot.py."""
    group, member, outsider = accounts
    work = Path(tempfile.mkdtemp(prefix="qrcheckin-ops-", dir="/tmp"))
    try:
        work.chmod(0o755)
        # The other users run a copy in the reachable work directory: the checkout's own binary
        # may sit under a directory only root can enter (a clone in `mktemp -d`, say).
        binary = work / "qrcheckin"
        shutil.copy(BIN, binary)
        binary.chmod(0o755)
        script = work / "scenario.sh"
        script.write_text(f"""
set -uo pipefail
mount -t tmpfs -o size=1m,mode=0755 tmpfs /run || exit 90
as() {{  # as USER COMMAND...: a clean login-less environment, like a fresh ssh session
    local user=$1; shift
    setpriv --reuid "$user" --regid "$(id -g "$user")" --init-groups -- \\
        env -i PATH=/usr/bin:/bin HOME=/nonexistent LANG=C.UTF-8 "$@"
}}
env -u XDG_RUNTIME_DIR -u RUNTIME_DIRECTORY -u QRCHECKIN_OUTPUT_DIR {binary} run \\
    --output-dir /run/qrcheckin --state-dir {work}/state --ops-group {group} --period 5 2> {work}/daemon.log &
daemon=$!
for _ in $(seq 1 600); do  # 30 s: a deadline, not a speed
    [[ -S /run/qrcheckin/control.sock && -s /run/qrcheckin/current.json ]] && break
    kill -0 $daemon || exit 91; sleep 0.05
done
as {outsider} {binary} status > {work}/outsider-status.out 2>&1; echo "outsider-status=$?"
as {outsider} env QRCHECKIN_OPS_GROUP=nosuchgroup QRCHECKIN_PERIOD=0 {binary} status --json \\
    > {work}/outsider-status-env.out 2>&1; echo "outsider-status-env=$?"
as {outsider} {binary} ctl get > {work}/outsider-ctl.out 2>&1; echo "outsider-ctl=$?"
as {outsider} {binary} shake > {work}/outsider-shake.out 2>&1; echo "outsider-shake=$?"
as {member} {binary} ctl shake off > {work}/member-ctl.out 2>&1; echo "member-ctl=$?"
as {member} {binary} ctl get --json > {work}/member-get.out 2>&1; echo "member-get=$?"
as {member} {binary} status > {work}/member-status.out 2>&1; echo "member-status=$?"
kill -TERM $daemon; wait $daemon; echo "daemon=$?"
""")
        result = subprocess.run(["unshare", "-m", "--propagation", "private", "bash", str(script)],
                                capture_output=True, text=True, timeout=120)
        codes = dict(line.split("=") for line in result.stdout.split())
        out = {p.stem: p.read_text(errors="replace") for p in work.glob("*.out")}
        log = (work / "daemon.log").read_text(errors="replace") if (work / "daemon.log").exists() else ""
        context = f"{codes}\n{out}\n{result.stderr}\n{log}"
        assert codes.get("outsider-status") == "0", context
        assert "running" in out["outsider-status"] and "/run/qrcheckin/current.png" in out["outsider-status"], context
        # Daemon-only settings in a client's environment do not stop it (was exit 78).
        assert codes.get("outsider-status-env") == "0", context
        assert codes.get("outsider-ctl") == "77" and f"members of group '{group}'" in out["outsider-ctl"], context
        assert codes.get("outsider-shake") == "77", context
        assert codes.get("member-ctl") == "0", context
        assert codes.get("member-get") == "0" and '"shake"' in out["member-get"], context
        assert codes.get("member-status") == "0", context
        assert codes.get("daemon") == "0", context
    finally:
        subprocess.run(["rm", "-rf", str(work)])
