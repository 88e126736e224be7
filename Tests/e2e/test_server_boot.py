"""The check-in server's package under a real systemd 252: both .debs installed in a fresh
minimal Debian 12 (booted.py) as an image builder installs them, systemd booted in
systemd-nspawn, and `qrcheckin-server` used as its operator uses it, on the packaged defaults:
the service and its socket active, a scan recorded and in `checkins`, the console answering and
signing in an account root added beside the running service, restart and reload keeping the
log, the hardening systemd measures, a read-only visitor log refused with its own status, and
a kiosk's daemon and reporter units reporting to it (issue 39).

With DynamicUser=yes systemd makes the state directory /var/lib/qrcheckin-server a symbolic link
to private/qrcheckin-server: what `systemd-analyze` alone never shows (issue 37)."""
import json
import re
import shlex

import pytest

from booted import built_deb, container, package_root
from conftest import needs_root
from daemonutil import wait_until

pytestmark = needs_root("boots systemd in a container (systemd-nspawn)")

SERVICE = "qrcheckin-server.service"
SOCKET = "qrcheckin-server.socket"
STATE = "/var/lib/private/qrcheckin-server"
SECRET = "/etc/qrcheckin-server/secret"
# The packaged defaults: listen and admin-listen as qrcheckin-server.conf leaves them.
SITE = "http://127.0.0.1:8080"
CONSOLE = "http://127.0.0.1:8081"
# A deadline for what the container's systemd or server does: it only ends a wait that already
# failed, and a container on a loaded machine is slow.
DEADLINE = 90

# One scan as a phone makes it, the redirect not followed: (status, Location). Runs in the
# container's network namespace (Container.python).
SCAN = """
import http.client, json, sys, urllib.parse
url = urllib.parse.urlsplit(sys.argv[1])
connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
connection.request("GET", url.path)
response = connection.getresponse()
response.read()
print(json.dumps([response.status, response.getheader("Location")]))
"""

# The console as a browser uses it: where /admin/ sends a stranger, the sign-in page, then the
# account's sign-in and the dashboard it lands on.
CONSOLE_VISIT = """
import json, sys
from consoleutil import Console
console = Console(8081)
first = console.get("/admin/")
login = console.get("/admin/login")
signed = console.sign_in(sys.argv[1], sys.argv[2])
dashboard = console.get("/admin/")
print(json.dumps({"first": [first[0], first[1].get("location")], "login": [login[0], login[2].decode()],
                  "signed": [signed[0], signed[1].get("location")], "dashboard": [dashboard[0], dashboard[2].decode()]}))
"""


@pytest.fixture(scope="module")
def host():
    """Both packages installed with apt-get in the chroot, then booted; one machine for the module
    (its tests run in order on one worker: conftest's SERIAL_GROUPS)."""
    debs = [built_deb(), built_deb("qrcheckin-server")]
    with container(package_root(), "qrcheckin-server-host") as machine:
        for deb in debs:
            machine.copy_in(deb, "/root/" + deb.name)
        names = " ".join(f"/root/{deb.name}" for deb in debs)
        installed = machine.chroot(f"apt-get install -y -q --no-install-recommends {names}", check=False)
        assert installed.returncode == 0, installed.stdout + installed.stderr
        machine.boot()
        yield machine


def scan(machine, venue="HALL-1"):
    """Scans the code `qrcheckin code` makes now with the server's master secret (a kiosk of
    `venue` shows the same): (status, Location) of the server's answer."""
    code = json.loads(machine.run(f"qrcheckin code --secret-file {SECRET} --venue {venue} "
                                  "--base-url HTTP://127.0.0.1:8080/C --json").stdout)
    return json.loads(machine.python(SCAN, code["url"]))


def recorded(machine, venue="HALL-1", status=303):
    """A scan answered 303 to its receipt; returns the receipt's check-in id."""
    answer = scan(machine, venue)
    assert answer[0] == status and re.fullmatch(rf"/C/{venue}/receipt/\d+", answer[1] or ""), \
        f"{answer}\n" + journal(machine)
    return answer[1].rsplit("/", 1)[1]


def checkins(machine):
    """`qrcheckin-server checkins --format csv` as root beside the service, by id."""
    lines = machine.run("qrcheckin-server checkins --format csv").stdout.splitlines()
    header = lines[0].split(",")
    return {row[0]: dict(zip(header, row)) for row in (line.split(",") for line in lines[1:])}


def journal(machine, lines=30):
    return machine.run(f"systemctl status --no-pager -l {SERVICE} {SOCKET}; journalctl --no-pager -n {lines} -u {SERVICE}",
                       check=False).stdout


def active(machine, unit):
    machine.wait_active(unit, timeout=DEADLINE)
    return machine.unit(unit, "MainPID") if unit == SERVICE else None


def test_the_service_starts_on_the_packaged_defaults_and_records_a_scan(host):
    """`systemctl enable --now qrcheckin-server` on a fresh install: active, its visitor log in
    the state directory systemd links to private/ for the dynamic user, a scan recorded (303 to
    its receipt) and listed by root's `checkins` while the service runs."""
    started = host.run(f"systemctl enable --now {SERVICE}", check=False)
    assert started.returncode == 0, started.stderr + journal(host)
    active(host, SERVICE)
    # The trap: the state directory is systemd's link for the dynamic user.
    assert host.run("readlink /var/lib/qrcheckin-server").stdout.strip() == "private/qrcheckin-server"
    directory_uid, _, database_uid, database_mode = host.run(f"stat -c '%u %a' {STATE} {STATE}/checkins.db").stdout.split()
    assert directory_uid == database_uid != "0" and database_mode == "600"
    receipt = recorded(host)
    rows = checkins(host)
    assert rows[receipt]["venue"] == "HALL-1" and rows[receipt]["method"] == "qr", rows


def test_the_console_answers_and_signs_in_an_account_root_added_beside_the_service(host):
    """`qrcheckin-server user add` as root while the service runs: the running console signs the
    account in; the service was not disturbed and its files stay its own user's."""
    pid = active(host, SERVICE)
    host.run("umask 077 && echo 'correct horse battery' > /root/mina.password && "
             "qrcheckin-server user add mina --role admin --password-file /root/mina.password")
    visit = json.loads(host.python(CONSOLE_VISIT, "mina", "correct horse battery"))
    assert visit["first"] == [303, "/admin/login"], visit["first"]
    assert visit["login"][0] == 200 and 'type="password"' in visit["login"][1], visit["login"]
    assert visit["signed"][0] == 303 and visit["dashboard"][0] == 200, visit
    assert host.unit(SERVICE, "MainPID") == pid
    # Root's writes left nothing the service's user could not open after its next start.
    strays = host.run(f"find {STATE} ! -user \"$(stat -c %u {STATE})\"").stdout
    assert strays == "", strays


def test_the_socket_starts_the_server_on_the_first_connection(host):
    """`systemctl enable --now qrcheckin-server.socket`: systemd owns 127.0.0.1:8080 and starts
    the server on the first scan, which is recorded in the same log."""
    before = checkins(host)
    host.run(f"systemctl stop {SERVICE} && systemctl enable --now {SOCKET}")
    active(host, SOCKET)
    assert host.run(f"systemctl is-active {SERVICE}", check=False).stdout.strip() == "inactive"
    receipt = recorded(host)
    active(host, SERVICE)
    assert host.unit(SERVICE, "TriggeredBy") == SOCKET
    after = checkins(host)
    assert set(after) == set(before) | {receipt}, (before, after)


def test_restart_and_reload_keep_the_log(host):
    """A restart starts a new server on the same log; `systemctl reload` is refused (the server
    re-reads its settings only when it starts: the conffile says to restart) and leaves it running;
    `reload-or-restart`, what an operator types after editing the settings, restarts it."""
    pid = active(host, SERVICE)
    before = checkins(host)
    host.run(f"systemctl restart {SERVICE}")
    restarted = active(host, SERVICE)
    assert restarted != pid and checkins(host) == before
    refused = host.run(f"systemctl reload {SERVICE}", check=False)
    assert refused.returncode != 0 and host.unit(SERVICE, "MainPID") == restarted, refused.stderr
    host.run(f"systemctl reload-or-restart {SERVICE}")
    assert active(host, SERVICE) != restarted
    receipt = recorded(host)
    assert set(checkins(host)) == set(before) | {receipt}


def test_systemd_measures_the_hardening_the_unit_file_promises(host):
    """`systemd-analyze security` of the loaded unit under the booted systemd: no worse than
    SERVER.md's 1.1 (test_server_units checks the unit file offline against the same bound)."""
    report = host.run(f"systemd-analyze security --no-pager {SERVICE}", check=False)
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", report.stdout + report.stderr)
    assert match and float(match.group(1)) <= 1.1, report.stdout + report.stderr
    print(f"systemd-analyze security {SERVICE} under systemd 252: {match.group(1)}")  # shown with -rP
    assert host.unit(SERVICE, "DynamicUser") == "yes" and host.unit(SERVICE, "ProtectSystem") == "strict"


def test_a_read_only_visitor_log_is_refused_with_its_own_status_and_message(host):
    """The database file made read-only for the service's user (mode 0400): the server does not
    start, exit 77 with "read-only" in its journal (not 73, "cannot be created"), and systemd
    does not restart it in a loop; writable again, it starts on the same log."""
    before = checkins(host)
    host.run(f"systemctl stop {SOCKET} {SERVICE} && chmod 0400 {STATE}/checkins.db")
    try:
        assert host.run(f"systemctl start {SERVICE}", check=False).returncode != 0
        wait_until(lambda: host.unit(SERVICE, "ExecMainStatus") == "77", timeout=DEADLINE,
                   message="exit 77\n" + journal(host))
        log = host.run(f"journalctl --no-pager -o cat -u {SERVICE} -n 20").stdout
        assert f"database /var/lib/qrcheckin-server/checkins.db is read-only" in log, log
        # Not retried: a restart cannot mend it (RestartPreventExitStatus), so it waits failed.
        assert host.unit(SERVICE, "ActiveState") == "failed" and host.unit(SERVICE, "NRestarts") == "0", journal(host)
    finally:
        host.run(f"systemctl stop {SERVICE}; chmod 0600 {STATE}/checkins.db; systemctl reset-failed {SERVICE}", check=False)
    host.run(f"systemctl start {SERVICE}")
    active(host, SERVICE)
    assert checkins(host) == before


def test_a_kiosk_and_its_reporter_report_to_the_server_under_systemd(host):
    """Both kiosk units active beside the server (issue 39): the daemon `qrcheckin.service`, its
    hardening unchanged (still no network), and the reporter `qrcheckin-report.service`
    reporting to the server's unit over loopback, configured as README says; the kiosk is
    listed ok by `qrcheckin-server kiosks`, `status` shows the reporting row, and systemd's
    exposure score of the reporter is measured (printed; bound in DAEMON.md)."""
    host.run(f"systemctl start {SERVICE}")
    active(host, SERVICE)
    # One venue's secret on both sides (the server verifies the venue's report key from it).
    host.run(f"install -m 0600 {SECRET} /etc/qrcheckin/secret && "
             "printf 'report-to = http://127.0.0.1:8080/C\\nkiosk-name = door-1\\n' >> /etc/qrcheckin/qrcheckin.conf && "
             "qrcheckin keygen --report --force -o /etc/qrcheckin/report-key && "
             "systemctl enable qrcheckin.service && systemctl restart qrcheckin.service && "
             "systemctl enable --now qrcheckin-report.service")
    host.wait_active("qrcheckin.service", timeout=DEADLINE)
    host.wait_active("qrcheckin-report.service", timeout=DEADLINE)

    def listed():
        out = host.run("qrcheckin-server kiosks --format json", check=False).stdout
        rows = json.loads(out) if out.strip().startswith("[") else []
        return next((row for row in rows if row["kiosk"] == "door-1" and row["state"] == "ok"), None)
    row = wait_until(listed, timeout=DEADLINE, message="door-1 listed ok\n" + host.run(
        "journalctl --no-pager -n 30 -u qrcheckin-report.service", check=False).stdout)
    venue = json.loads(host.read("/run/qrcheckin/current.json"))["venue"]
    assert row["venue"] == venue and abs(row["clockSkewSeconds"]) <= 2, row
    # The first report's answer is held up to 25 s (the long poll: a steer would come at once).
    wait_until(lambda: re.search(r"Reporting\s+to http://127\.0\.0\.1:8080/C: last ok",
                                 host.run("qrcheckin status --lang en", check=False).stdout),
               timeout=DEADLINE, message="status: reporting ok\n" + host.run("qrcheckin status --lang en", check=False).stdout)
    # The daemon keeps no network; the reporter has only what it needs.
    assert host.unit("qrcheckin.service", "PrivateNetwork") == "yes"
    assert host.unit("qrcheckin-report.service", "DynamicUser") == "yes"
    report = host.run("systemd-analyze security --no-pager qrcheckin-report.service", check=False)
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", report.stdout + report.stderr)
    assert match and float(match.group(1)) <= 1.1, report.stdout + report.stderr  # DAEMON.md's figure
    print(f"systemd-analyze security qrcheckin-report.service under systemd 252: {match.group(1)}")  # shown with -rP
    daemon = host.run("systemd-analyze security --no-pager qrcheckin.service", check=False)
    print("systemd-analyze security qrcheckin.service: "
          + re.search(r"Overall exposure level for \S+: (\d+\.\d+)", daemon.stdout + daemon.stderr).group(1))
