"""Every command README shows, run as README's reader would: on a freshly booted minimal Debian 12
with systemd (booted.py), as a user who may use sudo, one command after another, section by
section; after each, what README says should have happened is checked."""
import json
import re
from pathlib import Path

import pytest

import readme
from booted import KIOSK_ON_CONSOLE, built_deb, container, package_root
from conftest import zbar
from daemonutil import wait_until
from kiosk_screen import decode_screen

USER = "alice"
# sudoedit's editor: what the reader types into qrcheckin.conf (README's comment says what).
EDITOR = "#!/bin/sh\nprintf 'venue = HALL-1\\nbase-url = HTTPS://CHECKIN.EXAMPLE.ORG/C\\n' >> \"$1\"\n"
# Run elsewhere: `make run` is scripts/run after the build (test_run_script.py); `make test` is this suite.
ELSEWHERE = {
    "Quick start (Debian 12 with the Swift 6 toolchain)": ["make run", "make test"],
    # The whole loop on one machine, verbatim with the default ports and directories, as an
    # unprivileged user with a fresh home, with the web kiosk and a phone: test_readme_loop.py.
    "Record check-ins: the server": ["qrcheckin keygen", "qrcheckin run --base-url HTTP://127.0.0.1:8080/C &",
                                     "qrcheckin-server serve &", "qrcheckin-server checkins"],
    # The console's accounts and sign-in: test_server_console.py (user add --role --password-file,
    # then the browser's way in test_server_console_web.py), with free ports instead of 8081.
    # The server half of kiosk reports with a real daemon, reporter and server:
    # test_server_kiosks.py (kiosks, --format json, set --refresh pause, set --refresh auto --new-code).
    "See and steer your kiosks on the server": [
        "qrcheckin-server kiosks", "sudo qrcheckin-server kiosks set HALL-1 K1 --refresh pause",
        "sudo qrcheckin-server kiosks set HALL-1 K1 --refresh auto --new-code",
        "qrcheckin-server kiosks --format json | jq '.[] | select(.state != \"ok\")'"],
    "Give your staff a console": ["sudo qrcheckin-server user add mina --role admin",
                                  "sudo qrcheckin-server user add door1 --role steward --password-file door1.txt",
                                  "xdg-open http://127.0.0.1:8081/admin/",
                                  # test_server_second_factor.py: user totp enable, its URI, QR and codes.
                                  "sudo qrcheckin-server user totp enable mina"],
    # The API's token and a call: test_server_api.py (token add prints the token alone on
    # standard output; the bearer call on the console's port), with free ports instead of 8081.
    # The webhooks' add and deliveries: test_server_webhooks.py, against its own receiver.
    "Tell your other systems": ["sudo qrcheckin-server webhook add crm https://crm.example.org/hooks/checkin",
                                "sudo qrcheckin-server webhook deliveries crm",
                                "TOKEN=$(sudo qrcheckin-server token add door-counter --scope read --venue HALL-1)",
                                'curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8081/api/v1/venues'],
}


@pytest.fixture(scope="module")
def box():
    deb = built_deb()
    with container(package_root(), "qrcheckin-readme") as machine:
        machine.chroot(f"useradd -m -s /bin/sh -G sudo {USER} && "
                       f"echo '{USER} ALL=(ALL) NOPASSWD: ALL' > /etc/sudoers.d/{USER} && "
                       "mkdir -p /etc/systemd/system/qrcheckin-kiosk.service.d")
        (machine.root / "usr/local/bin/readme-editor").write_text(EDITOR)
        (machine.root / "usr/local/bin/readme-editor").chmod(0o755)
        (machine.root / "etc/systemd/system/qrcheckin-kiosk.service.d/console.conf").write_text(KIOSK_ON_CONSOLE)
        machine.copy_in(deb, f"/home/{USER}/{deb.name}")
        machine.boot()
        yield machine


def run_section(box, heading, checks=None, expect=None):
    """Runs README's commands under `heading` in order as USER from her home directory, answering
    y to a question; `checks` maps a command's first words to a function called with its result
    right after it ran; `expect` maps them to an exit status other than 0. Returns the results."""
    results = []
    for command in readme.commands(heading):
        result = box.run(f"cd && {command}", user=USER, check=False, input="y\n", timeout=180,
                         env={"SUDO_EDITOR": "/usr/local/bin/readme-editor"})
        wanted = next((status for start, status in (expect or {}).items() if command.startswith(start)), 0)
        assert result.returncode == wanted, \
            f"README, {heading}: `{command}` exited {result.returncode}\n{result.stdout}\n{result.stderr}"
        for start, check in (checks or {}).items():
            if command.startswith(start):
                check(result)
        results.append(result)
    return results


def state(box, directory="/run/qrcheckin"):
    return json.loads(box.read(f"{directory}/current.json"))


def test_every_command_readme_shows_is_run_by_a_test():
    run_here = set(re.findall(r'run_section\(box, "([^"]+)"', Path(__file__).read_text()))
    for heading, commands in readme.sections().items():
        if heading in ELSEWHERE:
            assert [c.split("#")[0].strip() for c in commands] == ELSEWHERE[heading], commands
        else:
            assert heading in run_here, f"README's '## {heading}' shows commands no test runs"


def test_install_on_a_kiosk(box, tmp_path):
    def paused(_):
        wait_until(lambda: state(box)["state"] == "paused", timeout=5, message="paused")

    def kiosk_shows_the_code(_):
        def shown():
            capture = box.pane.capture()
            if sum(line.count("█") + line.count("▀") + line.count("▄") for line in capture) < 100:
                return None
            try:
                return decode_screen(capture, "ansi", tmp_path, zbar) == state(box)["url"]
            except AssertionError:
                return None
        wait_until(shown, timeout=20, interval=0.2, message="the kiosk's code on the screen")

    results = run_section(box, "Install on a kiosk", checks={
        "sudo systemctl enable --now": kiosk_shows_the_code,
        "qrcheckin status": lambda r: ("HALL-1" in r.stdout and "running" in r.stdout) or pytest.fail(r.stdout),
        "qrcheckin ctl refresh pause": paused,
        "qrcheckin ctl refresh auto": lambda _: wait_until(lambda: state(box)["state"] == "running", timeout=5),
    })
    assert results[0].returncode == 0
    code = state(box)
    assert code["venue"] == "HALL-1" and code["url"].startswith("HTTPS://CHECKIN.EXAMPLE.ORG/C/HALL-1/")
    assert code["shake"] == "off"
    # Shake mode off: a shake is ignored (exit 1), as README's comment says.
    assert box.run("qrcheckin shake", user=USER, check=False).returncode == 1
    assert box.run("man -w qrcheckin >/dev/null || test -e /usr/share/man/man1/qrcheckin.1.gz").returncode == 0


def test_show_it_in_a_browser(box):
    run_section(box, "Show it in a browser")
    status, body = box.fetch("http://127.0.0.1:8070/")
    assert status == 200 and b'id="kiosk"' in body
    status, body = box.fetch("http://127.0.0.1:8070/current.json")
    assert status == 200 and json.loads(body)["venue"] == "HALL-1"
    # A screen pointed at a venue that does not run: no error-log line per poll.
    for _ in range(3):
        assert box.fetch("http://127.0.0.1:8070/GATE-9/current.json")[0] == 404
    assert "open()" not in box.read("/var/log/nginx/error.log").decode()


def test_verify_codes(box):
    def agree():
        code = run_section(box, "Verify codes")[0].stdout
        return f"url: {state(box)['url']}" in code
    wait_until(agree, timeout=30, interval=0.5, message="`qrcheckin code` showing the service's code")
    for result in run_section(box, "Verify codes")[1:]:
        assert result.stdout.startswith("valid"), result.stdout


def test_troubleshoot(box):
    box.run("echo 'period = 0' >> /etc/qrcheckin/qrcheckin.conf")
    assert box.run("systemctl restart qrcheckin", check=False).returncode != 0
    try:
        status, journal, report = run_section(box, "Troubleshoot", expect={"systemctl status": 3, "qrcheckin status": 3})
        assert "status=78)" in status.stdout, status.stdout
        assert re.search(r"qrcheckin\.conf:\d+: period: must be", journal.stdout), journal.stdout
        assert json.loads(report.stdout)["status"] in ("stopped", "not-running"), report.stdout
    finally:
        box.run("sed -i '$d' /etc/qrcheckin/qrcheckin.conf && systemctl restart qrcheckin")


def test_see_and_steer_your_kiosks(box):
    """The kiosk half (issue 39): the reporter's unit beside the daemon, its key remade for the
    venue README's reader configured (HALL-1). This box has no network, so the server README names
    is unreachable: `status` says reporting fails and why, and the daemon goes on as before."""
    def reporting_fails(result):
        row = next((line for line in result.stdout.splitlines() if line.strip().startswith("Reporting")), "")
        assert "to HTTPS://CHECKIN.EXAMPLE.ORG/C: " in row, result.stdout
    try:
        run_section(box, "See and steer your kiosks", checks={"qrcheckin status": lambda r: None})
        assert box.read("/etc/qrcheckin/report-key").decode().startswith("QRCHECKIN-REPORT-KEY-1 HALL-1 ")
        box.wait_active("qrcheckin-report")
        wait_until(lambda: "failing" in box.run("qrcheckin status", user=USER).stdout, timeout=60, interval=0.5,
                   message="status saying reporting fails (no network here)")
        reporting_fails(box.run("qrcheckin status", user=USER))
        assert state(box)["state"] == "running" and state(box)["venue"] == "HALL-1"
    finally:
        box.run("systemctl disable --now qrcheckin-report", check=False)


def test_install_many_venues_on_one_host(box):
    run_section(box, "Install many venues on one host", checks={
        "qrcheckin status --all": lambda r: "GATE-1" in r.stdout or pytest.fail(r.stdout),
    })
    box.wait_active("qrcheckin@GATE-1")
    assert box.run("systemctl is-active qrcheckin", check=False).stdout.strip() == "inactive"
    code = state(box, "/run/qrcheckin/GATE-1")
    assert code["venue"] == "GATE-1" and code["shake"] == "off"
    box.run(f"qrcheckin verify --secret-file /etc/qrcheckin/secret --venue GATE-1 {code['url']}")


def test_remove(box):
    def removed(_):
        assert box.run("systemctl is-active qrcheckin@GATE-1 qrcheckin-kiosk", check=False).stdout.split() \
            == ["inactive", "inactive"]
        box.run("test ! -e /usr/bin/qrcheckin && test -e /etc/qrcheckin/secret && test -e /etc/qrcheckin/qrcheckin.conf")
        box.run("test -d /var/lib/private/qrcheckin/GATE-1")  # the saved modes
        # The site is disabled; nginx, reloaded without it, still runs.
        box.run("test ! -e /etc/nginx/sites-enabled/qrcheckin && systemctl is-active nginx && nginx -t")

    def purged(_):
        for path in ("/etc/qrcheckin", "/var/lib/qrcheckin", "/var/lib/private/qrcheckin", "/run/qrcheckin",
                     "/etc/nginx/sites-available/qrcheckin", "/usr/share/qrcheckin"):
            assert box.run(f"test -e {path}", check=False).returncode != 0, f"{path} left after purge"
        box.run("getent group qrcheckin")  # as README says, the group stays

    run_section(box, "Remove", checks={"sudo apt-get remove": removed, "sudo apt-get purge": purged})


def anchor(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_in_readme_and_docs_leads_somewhere():
    from conftest import ROOT
    # docs/SERVER.md comes with the check-in server (README, Record check-ins: the server).
    pending = {ROOT / "docs" / "SERVER.md"}
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
            if re.match(r"[a-z]+:", target):
                continue  # an absolute URL
            path, _, fragment = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if file in pending:
                continue
            assert file.exists(), f"{page.name}: {target} leads nowhere"
            if fragment and file.suffix == ".md":
                headings = {anchor(h) for h in re.findall(r"^#+ (.*)$", file.read_text(), re.M)}
                assert fragment in headings, f"{page.name}: no heading #{fragment} in {file.name}"
