"""The .deb under a real systemd 252: a minimal Debian 12 booted in systemd-nspawn (booted.py),
the package installed as an image builder installs it (apt-get in a chroot, with /proc and once
without), and the units exercised as an operator uses them: start, codes that decode and verify,
reload, restart, SIGKILL and Restart=, operators and outsiders, the kiosk on a console, venue
instances and the move to them, the journal's priorities, upgrade, remove and purge."""
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from booted import KIOSK_ON_CONSOLE, built_deb, container, package_root
from conftest import zbar
from daemonutil import wait_until
from kiosk_screen import decode_screen

CONFIG = "/etc/qrcheckin/qrcheckin.conf"
# How long a wait for something the container's systemd or daemon does may take before the test
# fails: generous, as a deadline only ends a wait that already failed and a container under a
# loaded host is slow (a 2 s watchdog's three pings, a restart, a reload).
DEADLINE = 90


@pytest.fixture(scope="module")
def deb():
    return built_deb()


@pytest.fixture(scope="module")
def image(deb):
    return package_root()


def install(machine, deb, proc=True):
    """apt-get installs the .deb in the chroot, as an image builder does; returns the result."""
    machine.copy_in(deb, "/root/" + deb.name)
    return machine.chroot(f"apt-get install -y -q --no-install-recommends /root/{deb.name}", proc=proc, check=False)


def add_users(machine):
    """alice operates (group qrcheckin), bob is anyone else."""
    machine.chroot("useradd -m -G qrcheckin alice && useradd -m bob")


@pytest.fixture(scope="module")
def host(image, deb):
    """The package installed with /proc mounted, booted; the same machine for the whole module."""
    with container(image, "qrcheckin-host") as machine:
        result = install(machine, deb)
        assert result.returncode == 0, result.stdout + result.stderr
        add_users(machine)
        machine.boot()
        yield machine


def start(machine, unit, enable=False):
    """`systemctl [enable --now|start] UNIT`, then active or a failure with its status and log."""
    verb = "enable --now" if enable else "start"
    result = machine.run(f"systemctl {verb} {shlex.quote(unit)}", check=False)
    machine.wait_active(unit, timeout=DEADLINE if result.returncode == 0 else 1)
    return result


def state(machine, directory="/run/qrcheckin"):
    return json.loads(machine.read(f"{directory}/current.json"))


def decoded_png(machine, directory, tmp_path):
    """What a phone reads off the PNG the container's daemon wrote."""
    path = tmp_path / f"{directory.strip('/').replace('/', '-')}.png"
    path.write_bytes(machine.read(f"{directory}/current.png"))
    return zbar(path).decode()


def consistent_code(machine, directory, tmp_path):
    """current.json and current.png of one rotation (read JSON, PNG, JSON; retried on a rotation)."""
    def attempt():
        before = state(machine, directory)
        url = decoded_png(machine, directory, tmp_path)
        after = state(machine, directory)
        return before["url"] == after["url"] == url and before
    return wait_until(attempt, timeout=DEADLINE, interval=0.1, message=f"one code in {directory}")


def cursor(machine):
    """The journal's position now, as its entry count: later reads see only what came after.
    (The entries are told apart by __CURSOR; journalctl's --after-cursor with -u and -p showed
    nothing on systemd 252.)"""
    return int(machine.run("journalctl -q --no-pager -o json | wc -l").stdout)


def journal(machine, unit, since, priority=None):
    """The messages `unit` logged after `since`, optionally only at `priority` or more urgent
    (read with `journalctl -u UNIT -p PRIORITY`, as README's reader does)."""
    flags = f"-p {priority}" if priority else ""
    entries = [json.loads(line) for line in
               machine.run(f"journalctl -q --no-pager -o json -u {shlex.quote(unit)} {flags}").stdout.splitlines()]
    everything = machine.run("journalctl -q --no-pager -o json").stdout.splitlines()
    later = {json.loads(line)["__CURSOR"] for line in everything[since:]}
    return "".join(f"{entry['MESSAGE']}\n" for entry in entries if entry["__CURSOR"] in later)


@pytest.fixture
def service(host):
    """qrcheckin.service running on the shipped configuration; put back afterwards."""
    original = host.read(CONFIG)
    start(host, "qrcheckin", enable=True)
    yield host
    host.run(f"cat > {CONFIG}", input=original.decode())
    host.run("systemctl reset-failed qrcheckin; systemctl restart qrcheckin", check=False)


def test_the_service_starts_and_its_codes_decode_and_verify(service, tmp_path):
    code = consistent_code(service, "/run/qrcheckin", tmp_path)
    assert code["state"] == "running" and code["venue"] == "DEMO" and code["health"] == "ok"
    check = service.run(f"qrcheckin verify --secret-file /etc/qrcheckin/secret --venue DEMO {code['url']}")
    assert check.stdout.startswith("valid"), check.stdout
    # The program needs only Debian's libraries: this root never had a Swift toolchain.
    ldd = service.run("ldd /usr/bin/qrcheckin").stdout
    assert "not found" not in ldd and "swift" not in ldd.lower(), ldd
    # The daemon's user is a dynamic one; its group is the operators' group.
    # -L: current.png is a link into the current set; readers get the file's mode.
    mode = service.run("stat -L -c '%a %G' /run/qrcheckin/control.sock /run/qrcheckin/current.png").stdout.split("\n")
    assert mode[0] == "660 qrcheckin" and mode[1].startswith("644 "), mode


def test_the_status_line_and_the_watchdog(service):
    """Type=notify for real: STATUS= names the code's expiry; WATCHDOG=1 keeps a short
    WatchdogSec= satisfied (systemd records each ping), so nothing restarts."""
    code = state(service)
    assert re.match(rf"DEMO {code['safeNumber']} seq \d+, expires at 20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ$",
                    service.unit("qrcheckin", "StatusText")), service.unit("qrcheckin", "StatusText")
    service.run("mkdir -p /etc/systemd/system/qrcheckin.service.d && "
                "printf '[Service]\\nWatchdogSec=2s\\n' > /etc/systemd/system/qrcheckin.service.d/watchdog.conf && "
                "systemctl daemon-reload && systemctl restart qrcheckin")
    try:
        restarts = service.unit("qrcheckin", "NRestarts")
        pings = set()
        wait_until(lambda: pings.add(service.unit("qrcheckin", "WatchdogTimestampMonotonic")) or len(pings - {"0"}) >= 3,
                   timeout=DEADLINE, interval=0.2, message="three watchdog pings")
        assert service.unit("qrcheckin", "NRestarts") == restarts
        assert service.run("systemctl is-active qrcheckin").stdout.strip() == "active"
    finally:
        service.run("rm -r /etc/systemd/system/qrcheckin.service.d && systemctl daemon-reload && systemctl restart qrcheckin")


def test_under_protect_clock_the_timesyncd_flag_stands_in_and_nothing_is_guessed(service):
    """ProtectClock=yes denies even a read-only adjtimex: systemd-timesyncd's flag file tells the
    daemon the clock is synchronised; without it the state is unknown (no warning), and
    require-clock-sync = yes waits (fails closed), then shows codes once the flag appears."""
    since = cursor(service)
    service.run("rm -f /run/systemd/timesync/synchronized && systemctl restart qrcheckin")
    assert state(service)["clock"] == {"synchronized": None, "maxErrorSeconds": None}
    assert "cannot tell whether the clock is synchronised" in journal(service, "qrcheckin", since)
    assert "Warning" not in service.run("qrcheckin status").stdout
    service.run(f"echo 'require-clock-sync = yes' >> {CONFIG} && systemctl restart qrcheckin")
    assert state(service)["state"] == "waiting" and service.run("qrcheckin status", check=False).returncode == 1
    service.run("mkdir -p /run/systemd/timesync && touch /run/systemd/timesync/synchronized")
    code = wait_until(lambda: (s := state(service))["state"] == "running" and s, timeout=DEADLINE, message="the first code")
    assert code["clock"] == {"synchronized": True, "maxErrorSeconds": None}
    service.run("rm /run/systemd/timesync/synchronized")


def test_code_and_verify_as_root_agree_with_the_running_service(service):
    """README, Verify codes: no option needed on the host the package configured."""
    def same_window():
        code = service.run("qrcheckin code --json", check=False)
        current = state(service)
        return code.returncode == 0 and json.loads(code.stdout)["url"] == current["url"] and current
    wait_until(same_window, timeout=DEADLINE, interval=0.2, message="`qrcheckin code` showing the service's code")
    check = service.run('qrcheckin verify "$(jq -r .url /run/qrcheckin/current.json)"', check=False)
    assert check.returncode == 0 and check.stdout.startswith("valid"), check.stdout + check.stderr


def test_reload_applies_a_new_period_without_a_restart(service):
    pid = service.unit("qrcheckin", "MainPID")
    service.run(f"echo 'period = 5' >> {CONFIG}")
    result = service.run("systemctl reload qrcheckin", check=False)
    assert result.returncode == 0, result.stderr + service.run(
        "systemctl status --no-pager qrcheckin", check=False).stdout
    wait_until(lambda: state(service)["period"] == 5, timeout=DEADLINE, message="period 5 in current.json")
    assert service.unit("qrcheckin", "MainPID") == pid


def test_a_bad_config_line_is_an_error_in_the_journal(service):
    since = cursor(service)
    service.run(f"echo 'period = 0' >> {CONFIG}")
    # A reload keeps the running configuration and says why at priority err.
    service.run("systemctl reload qrcheckin", check=False)
    try:
        wait_until(lambda: "period" in journal(service, "qrcheckin", since, "err"), timeout=DEADLINE)
    except AssertionError:
        pytest.fail("no refusal in journalctl -p err; the unit logged:\n" + journal(service, "qrcheckin", since)
                    + service.run("journalctl -o verbose -n 12 -u qrcheckin | grep -E 'PRIORITY|MESSAGE'").stdout)
    assert service.run("systemctl is-active qrcheckin", check=False).stdout.strip() == "active"
    # A start refuses it: exit 78, the file, line and key in `journalctl -u qrcheckin -p err`.
    since = cursor(service)
    assert service.run("systemctl restart qrcheckin", check=False).returncode != 0
    wait_until(lambda: service.unit("qrcheckin", "ExecMainStatus") == "78", timeout=DEADLINE, message="exit 78")
    errors = journal(service, "qrcheckin", since, "err")
    assert re.search(r"qrcheckin\.conf:\d+: period: must be", errors), journal(service, "qrcheckin", since)
    # Routine lines are not errors: `serving venue` is a notice.
    service.run(f"sed -i '$d' {CONFIG}; systemctl reset-failed qrcheckin")
    since = cursor(service)
    start(service, "qrcheckin")
    assert "serving venue DEMO" in journal(service, "qrcheckin", since, "notice")
    assert "serving venue" not in journal(service, "qrcheckin", since, "warning")


def test_sigkill_brings_it_back_with_its_saved_modes(service):
    service.run("qrcheckin ctl shake off")
    pid = service.unit("qrcheckin", "MainPID")
    restarts = int(service.unit("qrcheckin", "NRestarts"))
    service.run("systemctl kill -s KILL qrcheckin")
    wait_until(lambda: int(service.unit("qrcheckin", "NRestarts")) > restarts, timeout=DEADLINE, message="Restart=")
    service.wait_active("qrcheckin")
    assert service.unit("qrcheckin", "MainPID") != pid
    wait_until(lambda: (s := state(service))["pid"] != int(pid) and s["state"] == "running", timeout=DEADLINE,
               message="the new daemon's code")
    assert state(service)["shake"] == "off"
    service.run("qrcheckin ctl shake on")


def test_a_member_of_qrcheckin_steers_and_anyone_else_gets_77(service):
    member = service.run("qrcheckin ctl refresh pause", user="alice", check=False)
    assert member.returncode == 0, member.stdout + member.stderr
    wait_until(lambda: state(service)["state"] == "paused", timeout=DEADLINE, message="paused")
    outsider = service.run("qrcheckin ctl refresh auto", user="bob", check=False)
    assert outsider.returncode == 77 and "permission denied" in outsider.stderr, outsider.stderr
    # Anyone may read the state.
    status = service.run("qrcheckin status", user="bob", check=False)
    assert status.returncode == 0 and "paused" in status.stdout.lower(), status.stdout
    assert service.run("qrcheckin ctl refresh auto", user="alice", check=False).returncode == 0
    wait_until(lambda: state(service)["state"] == "running", timeout=DEADLINE, message="running again")


def test_restart_and_a_clean_stop(service):
    pid = service.unit("qrcheckin", "MainPID")
    service.run("systemctl restart qrcheckin")
    assert service.unit("qrcheckin", "MainPID") != pid and state(service)["state"] == "running"
    since = cursor(service)
    service.run("systemctl stop qrcheckin")
    assert service.unit("qrcheckin", "Result") == "success"
    assert service.unit("qrcheckin", "ExecMainStatus") == "0"
    # RuntimeDirectory= goes with the service; nothing it logged on the way out is an error.
    assert service.run("test -e /run/qrcheckin", check=False).returncode != 0
    assert journal(service, "qrcheckin", since, "warning") == ""


def test_the_kiosk_unit_shows_the_code_on_the_console(service, tmp_path):
    service.run("mkdir -p /etc/systemd/system/qrcheckin-kiosk.service.d && "
                "cat > /etc/systemd/system/qrcheckin-kiosk.service.d/console.conf && systemctl daemon-reload",
                input=KIOSK_ON_CONSOLE)
    try:
        start(service, "qrcheckin-kiosk")

        def screen_code():
            text = service.pane.text()
            if sum(ch in "█▀▄" for ch in text) < 100:
                return None
            try:
                url = decode_screen(service.pane.capture(), "ansi", tmp_path, zbar)
            except AssertionError:
                return None  # captured between two frames
            return url == state(service)["url"] and text
        text = wait_until(screen_code, timeout=DEADLINE, interval=0.2, message="the kiosk's QR on the console")
        # TERM=linux: English words, the safe number romanised (the console has no Hangul font).
        assert "Safe number" in text
    finally:
        service.run("systemctl stop qrcheckin-kiosk; rm -r /etc/systemd/system/qrcheckin-kiosk.service.d; "
                    "systemctl daemon-reload")


def test_the_reporter_unit_reports_and_applies_a_console_steer_beside_the_offline_daemon(service, tmp_path):
    """qrcheckin-report under systemd (issue 39): the package made its report key; the unit,
    its own dynamic user in the operators' group with the network the daemon has not, reports to
    a receiver (reportutil, in the container's network namespace) that verifies every signature;
    a signed steer pauses the daemon through its control socket and `status` names who; the
    daemon never maps libcurl; a receiver gone is `status`'s error, and both units stay active."""
    key_file = service.root / "etc/qrcheckin/report-key"
    assert key_file.read_text().startswith("QRCHECKIN-REPORT-KEY-1 DEMO "), "postinst made the configured venue's report key"
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"
    port = 18000 + os.getpid() % 1000
    log, steer = tmp_path / "reports.jsonl", tmp_path / "steer.json"
    receiver = subprocess.Popen(["nsenter", "-t", str(service.leader), "-n", "--", sys.executable,
                                 str(Path(__file__).resolve().parent / "report_receiver.py"), str(key_file), str(port), str(log),
                                 str(steer)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                env=dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent)))
    original = service.read(CONFIG)
    try:
        assert receiver.stdout.readline().startswith(b"listening"), "the receiver runs"
        service.run(f"echo 'report-to = http://127.0.0.1:{port}/C' >> {CONFIG} && echo 'kiosk-name = door-1' >> {CONFIG}")
        start(service, "qrcheckin-report", enable=True)
        assert service.run("systemctl is-active qrcheckin qrcheckin-report").stdout.split() == ["active", "active"]

        def reports():
            return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
        first = wait_until(lambda: next((r for r in reports() if "body" in r), None), timeout=DEADLINE, message="a report")
        assert first["body"]["venue"] == "DEMO" and first["body"]["kiosk"] == "door-1" and first["body"]["state"] == "running"
        assert not [r for r in reports() if "refused" in r], reports()
        # A steer from "the console": the daemon pauses, saying who, and the kiosk acknowledges it.
        wait_until(lambda: len([r for r in reports() if "body" in r]) >= 1, timeout=DEADLINE)
        steer.write_text(json.dumps({"refresh": "paused", "by": "mina"}))
        wait_until(lambda: state(service)["state"] == "paused", timeout=DEADLINE, message="paused by the console's steer")
        assert state(service)["modeSource"] == "console" and state(service)["modeChangedBy"] == "mina"
        status = service.run("qrcheckin status", check=False).stdout
        assert re.search(r"paused from the console by mina at \d\d:\d\d", status), status
        wait_until(lambda: any((r.get("body", {}).get("applied") or {}).get("outcome") == "ok" for r in reports()),
                   timeout=DEADLINE, message="the steer acknowledged")
        assert re.search(r"Reporting\s+to http://127\.0\.0\.1:\d+/C: last ok \d+s ago", service.run("qrcheckin status").stdout)
        # Only the reporter maps libcurl and OpenSSL; the daemon stays as it was.
        daemon_pid, reporter_pid = service.unit("qrcheckin", "MainPID"), service.unit("qrcheckin-report", "MainPID")
        assert "libcurl" not in service.read(f"/proc/{daemon_pid}/maps").decode()
        assert "libcurl" in service.read(f"/proc/{reporter_pid}/maps").decode()
        # report.json is the reporter's own (its dynamic user), in its own runtime directory.
        owner = service.run("stat -c %u /run/qrcheckin-report/report.json").stdout.strip()
        reporter_uid = next(line.split()[1] for line in service.read(f"/proc/{reporter_pid}/status").decode().splitlines()
                            if line.startswith("Uid:"))
        assert owner == reporter_uid != service.run(f"stat -c %u /proc/{daemon_pid}").stdout.strip()
        # The server gone: reporting fails, said so; both units stay active, the daemon unmoved.
        receiver.terminate()
        receiver.wait(10)
        wait_until(lambda: "failing" in service.run("qrcheckin status").stdout, timeout=DEADLINE,
                   message="status saying reporting fails")
        assert service.run("systemctl is-active qrcheckin qrcheckin-report").stdout.split() == ["active", "active"]
        assert service.unit("qrcheckin", "MainPID") == daemon_pid
    finally:
        if receiver.poll() is None:
            receiver.kill()
        service.run("systemctl disable --now qrcheckin-report; systemctl reset-failed qrcheckin-report", check=False)
        service.run(f"cat > {CONFIG}", input=original.decode())
        service.run("qrcheckin ctl refresh auto", check=False)


def test_upgrade_restarts_the_daemon_and_keeps_secret_config_and_modes(service, deb):
    service.run("qrcheckin ctl shake off")
    secret = service.read("/etc/qrcheckin/secret")
    service.run(f"echo 'base-url = HTTPS://GATES.EXAMPLE.ORG/C' >> {CONFIG}")
    pid = service.unit("qrcheckin", "MainPID")
    service.copy_in(deb, "/root/" + deb.name)
    service.run(f"dpkg -i /root/{deb.name}", timeout=120)  # the upgrade path: postinst configure OLD
    service.wait_active("qrcheckin")
    assert service.unit("qrcheckin", "MainPID") != pid, "the upgrade should restart the daemon on the new binary"
    assert service.read("/etc/qrcheckin/secret") == secret
    code = wait_until(lambda: (s := state(service))["state"] == "running" and s, timeout=DEADLINE, message="running")
    assert code["url"].startswith("HTTPS://GATES.EXAMPLE.ORG/C/") and code["shake"] == "off"
    service.run("qrcheckin ctl shake on")


def test_an_upgrade_from_0_1_0_moves_its_state_beside_the_instances(service, deb):
    """0.1.0's StateDirectory=qrcheckin made /var/lib/qrcheckin a link to private/qrcheckin, where
    every instance failed (238); the postinst moves its saved modes to /var/lib/qrcheckin/default."""
    service.run("qrcheckin ctl shake off")
    saved = service.read("/var/lib/qrcheckin/default/settings")
    service.run("systemctl stop qrcheckin && rm /var/lib/qrcheckin/default && rmdir /var/lib/qrcheckin && "
                "mv /var/lib/private/qrcheckin/default/settings /var/lib/private/qrcheckin/settings && "
                "rmdir /var/lib/private/qrcheckin/default && ln -s private/qrcheckin /var/lib/qrcheckin")
    service.run(f"dpkg -i /root/{deb.name}", timeout=120)
    assert service.read("/var/lib/private/qrcheckin/default/settings") == saved
    start(service, "qrcheckin")
    service.run("test -d /var/lib/qrcheckin && test ! -L /var/lib/qrcheckin && test -L /var/lib/qrcheckin/default")
    assert state(service)["shake"] == "off"
    service.run("qrcheckin ctl shake on")


def venue_key(machine, venue):
    machine.run(f"qrcheckin keygen --venue {venue} --from /etc/qrcheckin/secret -o /etc/qrcheckin/secrets/{venue}")


def test_two_venue_instances_after_the_single_unit(host, tmp_path):
    """README, Many venues: disable the single unit, a key per venue, an instance per venue."""
    start(host, "qrcheckin", enable=True)
    host.run("qrcheckin ctl shake off")
    host.run("systemctl disable --now qrcheckin")
    try:
        for venue in ("GATE-1", "GATE-2"):
            venue_key(host, venue)
            start(host, f"qrcheckin@{venue}", enable=True)
        host.run("echo 'period = 7' > /etc/qrcheckin/GATE-2.conf && systemctl reload qrcheckin@GATE-2")
        wait_until(lambda: state(host, "/run/qrcheckin/GATE-2")["period"] == 7, timeout=DEADLINE, message="GATE-2 period 7")
        for venue in ("GATE-1", "GATE-2"):
            code = consistent_code(host, f"/run/qrcheckin/{venue}", tmp_path)
            assert code["venue"] == venue and code["url"].split("/")[-2] == venue
            # The check-in server verifies with the master secret.
            host.run(f"qrcheckin verify --secret-file /etc/qrcheckin/secret --venue {venue} {code['url']}")
        listing = host.run("qrcheckin status --all", user="bob", check=False)
        assert listing.returncode == 0 and "GATE-1" in listing.stdout and "GATE-2" in listing.stdout, listing.stdout
        assert host.run("qrcheckin ctl --venue GATE-1 refresh pause", user="alice", check=False).returncode == 0
        wait_until(lambda: state(host, "/run/qrcheckin/GATE-1")["state"] == "paused", timeout=DEADLINE, message="paused")
        assert state(host, "/run/qrcheckin/GATE-2")["state"] == "running"
        host.run("systemctl kill -s KILL qrcheckin@GATE-1")
        wait_until(lambda: int(host.unit("qrcheckin@GATE-1", "NRestarts")) >= 1, timeout=DEADLINE, message="Restart=")
        host.wait_active("qrcheckin@GATE-1")
        wait_until(lambda: state(host, "/run/qrcheckin/GATE-1")["state"] == "paused", timeout=DEADLINE,
                   message="GATE-1 back, still paused")
        host.run("qrcheckin ctl --venue GATE-1 refresh auto")
    finally:
        host.run("systemctl disable --now qrcheckin@GATE-1 qrcheckin@GATE-2; rm -f /etc/qrcheckin/GATE-2.conf",
                 check=False)
    # And back to the single unit: its saved modes were kept.
    start(host, "qrcheckin", enable=True)
    assert state(host)["shake"] == "off"
    host.run("qrcheckin ctl shake on")


def test_an_instance_name_must_be_a_venue_id(host):
    """Lower case is not a venue id: without a key systemd refuses the credential (243), with one
    the daemon refuses the name (78)."""
    host.run("systemctl stop qrcheckin")
    try:
        assert host.run("systemctl start qrcheckin@gate-1", check=False).returncode != 0
        assert host.unit("qrcheckin@gate-1", "ExecMainStatus") == "243"
        assert host.unit("qrcheckin@gate-1", "Result") == "exit-code"
        host.run("install -m 0600 /etc/qrcheckin/secret /etc/qrcheckin/secrets/gate-1")
        since = cursor(host)
        assert host.run("systemctl start qrcheckin@gate-1", check=False).returncode != 0
        wait_until(lambda: host.unit("qrcheckin@gate-1", "ExecMainStatus") == "78", timeout=DEADLINE, message="exit 78")
        assert "upper case" in journal(host, "qrcheckin@gate-1", since, "err")
    finally:
        host.run("systemctl reset-failed 'qrcheckin@*'; rm -f /etc/qrcheckin/secrets/gate-1", check=False)


def test_without_proc_the_package_installs_and_remove_and_purge_leave_what_readme_promises(image, deb):
    with container(image, "qrcheckin-noproc") as machine:
        result = install(machine, deb, proc=False)
        assert result.returncode == 0, result.stdout + result.stderr
        machine.chroot("qrcheckin --version && test -s /etc/qrcheckin/secret", proc=False)
        # Should the program not run at all in an image builder's chroot, the postinst still makes a
        # secret (the documented format, from /dev/urandom) that the service then accepts.
        machine.chroot("rm /etc/qrcheckin/secret && mkdir /tmp/broken && "
                       "printf '#!/bin/sh\\nkill -ILL $$\\n' > /tmp/broken/qrcheckin && chmod +x /tmp/broken/qrcheckin && "
                       "PATH=/tmp/broken:$PATH /var/lib/dpkg/info/qrcheckin.postinst configure && "
                       "test \"$(stat -c '%a %U %s' /etc/qrcheckin/secret)\" = '600 root 65'", proc=False)
        machine.boot()
        start(machine, "qrcheckin", enable=True)
        machine.run("qrcheckin ctl shake off")
        machine.run("apt-get remove -y -q qrcheckin", timeout=120)
        # Removed: stopped, the program and units gone; config, secret and saved modes kept.
        assert machine.run("systemctl is-active qrcheckin", check=False).stdout.strip() in ("inactive", "unknown")
        assert machine.run("test -e /usr/bin/qrcheckin", check=False).returncode != 0
        kept = machine.run("ls /etc/qrcheckin; ls /var/lib/private/qrcheckin").stdout
        assert "secret" in kept and "qrcheckin.conf" in kept
        machine.run("apt-get purge -y -q qrcheckin", timeout=120)
        for path in ("/etc/qrcheckin", "/var/lib/qrcheckin", "/var/lib/private/qrcheckin", "/run/qrcheckin",
                     "/usr/share/doc/qrcheckin", "/usr/share/qrcheckin", "/usr/lib/systemd/system/qrcheckin.service",
                     "/etc/systemd/system/multi-user.target.wants/qrcheckin.service"):
            assert machine.run(f"test -e {path} || test -L {path}", check=False).returncode != 0, f"{path} left"
        assert machine.unit("qrcheckin.service", "LoadState") == "not-found"
        # The group stays, as Debian leaves system groups (README, Remove).
        assert machine.run("getent group qrcheckin", check=False).returncode == 0
