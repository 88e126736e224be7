"""README's whole loop on one machine, run verbatim with the defaults (issue 34): the kiosk
daemon, the server and the web kiosk on their default ports and directories, a phone in headless
Chromium scanning the code the web kiosk shows, and `qrcheckin-server checkins` listing it. It runs
as an unprivileged user in a fresh home (README's reader; root's defaults are the machine's own
/run and /var/lib), so it catches a port clash or a secret the server looks for elsewhere."""
import json
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

import readme
from conftest import BIN, ROOT
from daemonutil import require_runnable_by, wait_until
from serverutil import SERVER_BIN
from webutil import browser

HEADING = "Record check-ins: the server"
SERVER_PORT, WEB_KIOSK_PORT = 8080, 8070  # the defaults README's commands rely on


def listening(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture
def reader():
    """An unprivileged user (nobody) with a fresh home and runtime directory, and PATH leading to
    this build's qrcheckin and qrcheckin-server."""
    if os.getuid() != 0:
        pytest.fail("this test needs root (to run README's commands as an unprivileged user)")
    for port in (SERVER_PORT, WEB_KIOSK_PORT):
        if listening(port):
            pytest.fail(f"127.0.0.1:{port} is taken by something else on this machine: README's loop needs it")
    nobody = pwd.getpwnam("nobody")
    require_runnable_by("nobody", BIN, SERVER_BIN)
    base = Path(tempfile.mkdtemp(prefix="qrcheckin-readme-loop."))
    base.chmod(0o755)
    home, runtime, bin_dir = base / "home", base / "run", base / "bin"
    for directory in (home, runtime, bin_dir):
        directory.mkdir()
    os.chown(home, nobody.pw_uid, nobody.pw_gid)
    os.chown(runtime, nobody.pw_uid, nobody.pw_gid)
    runtime.chmod(0o700)
    for tool in (BIN, SERVER_BIN):
        (bin_dir / Path(tool).name).symlink_to(tool)
    env = {"HOME": str(home), "XDG_RUNTIME_DIR": str(runtime), "PATH": f"{bin_dir}:/usr/sbin:/usr/bin:/sbin:/bin",
           "LANG": "C.UTF-8", "TZ": "Asia/Seoul"}
    yield {"base": base, "home": home, "runtime": runtime, "env": env, "user": nobody}
    shutil.rmtree(base, ignore_errors=True)


def as_reader(reader, command, **popen):
    """`command` (a shell line) as README's reader, from her home directory."""
    user = reader["user"]
    return subprocess.Popen(["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups",
                             "bash", "-c", command], cwd=reader["home"], env=reader["env"], start_new_session=True, **popen)


def stop(process):
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_readmes_loop_runs_as_written_on_one_machine(reader):
    commands = [command.split("#")[0].strip() for command in readme.commands(HEADING)]
    *first, last = commands
    assert sum(command.endswith("&") for command in first) == 2 and not last.endswith("&"), f"README's loop changed shape: {commands}"
    logs = reader["base"]
    processes = []
    try:
        # In README's order: commands in the foreground must succeed, `&` ones keep running; the
        # last (the visitor log) runs once a phone has checked in.
        for index, command in enumerate(first):
            if command.endswith("&"):
                processes.append(as_reader(reader, f"exec {command.removesuffix('&').strip()}", stdout=open(logs / f"bg{index}.log", "wb"),
                                           stderr=subprocess.STDOUT))
            else:
                ran = as_reader(reader, command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                output = ran.communicate(timeout=60)
                assert ran.returncode == 0, f"README's `{command}` exited {ran.returncode}: {output}"
        # The web kiosk beside them, as README's "Show it in a browser" points to it (its default port).
        processes.append(as_reader(reader, f"exec {ROOT}/scripts/web-kiosk", stdout=open(logs / "web-kiosk.log", "wb"),
                                   stderr=subprocess.STDOUT))

        def log_text():
            return "\n".join(f"--- {path.name}\n{path.read_text(errors='replace')}" for path in sorted(logs.glob("*.log")))

        def up():
            for process in processes:
                assert process.poll() is None, f"a command of README's loop exited {process.returncode}:\n{log_text()}"
            return listening(SERVER_PORT) and listening(WEB_KIOSK_PORT) and (reader["runtime"] / "qrcheckin" / "current.json").exists()

        wait_until(up, timeout=60, message="the kiosk, the server and the web kiosk")
        state = json.loads((reader["runtime"] / "qrcheckin" / "current.json").read_text())
        assert state["url"].startswith(f"HTTP://127.0.0.1:{SERVER_PORT}/C/"), state["url"]

        phone = browser(390, 844, reader["base"] / "profile")
        try:
            # What the web kiosk shows is the code the phone scans.
            phone.get(f"http://127.0.0.1:{WEB_KIOSK_PORT}/current.json")
            shown = json.loads(phone.find_element("tag name", "body").text)
            phone.get(shown["url"])
            wait_until(lambda: "/receipt/" in phone.current_url, timeout=30, message=f"a receipt (at {phone.current_url})")
            receipt = phone.current_url.rsplit("/", 1)[1]
            assert "403" not in phone.title and phone.find_elements("tag name", "main"), phone.page_source[:500]
        finally:
            phone.quit()

        listed = as_reader(reader, last, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        stdout, stderr = listed.communicate(timeout=60)
        assert listed.returncode == 0, stderr
        assert re.search(rf"^{receipt},", stdout, re.M), f"the visitor log lists the phone's check-in {receipt}:\n{stdout}"
    finally:
        for process in processes:
            stop(process)


@pytest.mark.parametrize("how", ["flag", "variable"])
def test_serve_finds_the_secret_where_run_put_it(daemons, servers, tmp_path, how):
    """`qrcheckin run --state-dir D` makes the secret in D; `serve --state-dir D`, or serve with
    the kiosk's own $QRCHECKIN_STATE_DIR, verifies its codes with it (before, serve looked in its
    default place and told the operator to keygen a different secret: every scan then 403)."""
    daemon = daemons(tmp_path / "kiosk", period=15, args=["--venue", "HALL-1"])
    state = daemon.state
    assert (state / "secret").exists()
    env = {"HOME": str(tmp_path)}  # not the kiosk's: its default state directory is elsewhere
    if how == "variable":
        env["QRCHECKIN_STATE_DIR"] = str(state)
    server = servers(None, "server", args=["--state-dir", str(state)] if how == "flag" else [], env=env)
    try:
        url = json.loads((daemon.out / "current.json").read_text())["url"]
        status, headers, _ = server.get("/" + url.split("/", 3)[3])
        assert status == 303 and "/receipt/" in headers["location"], (status, server.logs())
    finally:
        assert server.stop() == 0, server.logs()


def test_the_servers_help_names_the_paths_and_sections_its_docs_have():
    """`serve --help` and `qrcheckin-server --help` name files SERVER.md documents (not
    /etc/qrcheckin/server.conf where the package has /etc/qrcheckin-server/…) and refer to no
    section the help does not have (it said "see SETTINGS")."""
    docs = (ROOT / "docs" / "SERVER.md").read_text()
    for command in (["serve", "--help"], ["--help"]):
        text = subprocess.run([SERVER_BIN, *command], capture_output=True, text=True, timeout=30).stdout
        for path in set(re.findall(r"(/(?:etc|var/lib|run)/[\w./-]*\w)", text)):
            assert path in docs, f"`qrcheckin-server {' '.join(command)}` names {path}, which docs/SERVER.md does not"
        sections = set(re.findall(r"^([A-Z][A-Z ]+[A-Z]):", text, re.M))
        for named in re.findall(r"\bsee ([A-Z]{3,}(?: [A-Z]{2,})*)\b", text):
            assert named in sections, f"`qrcheckin-server {' '.join(command)}` refers to a section {named} it does not have"


def test_the_default_ports_do_not_collide():
    """README's loop runs the server, the web kiosk and (issue 33) the console on one machine."""
    serve = subprocess.run([SERVER_BIN, "serve", "--help"], capture_output=True, text=True, timeout=30).stdout
    server = re.search(r"HOST:PORT to listen on, numeric \(default 127\.0\.0\.1:(\d+)\)", serve)
    site = (ROOT / "web" / "nginx" / "qrcheckin.conf").read_text()
    web = re.search(r"^\s*listen 127\.0\.0\.1:(\d+);", site, re.M)
    script = re.search(r"^port=(\d+)$", (ROOT / "scripts" / "web-kiosk").read_text(), re.M)
    assert server and web and script
    assert web.group(1) == script.group(1), "the nginx site and scripts/web-kiosk serve the page on one port"
    assert server.group(1) != web.group(1), f"the server and the web kiosk both default to port {server.group(1)}"
    assert {int(server.group(1)), int(web.group(1))} == {SERVER_PORT, WEB_KIOSK_PORT}
