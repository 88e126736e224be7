"""Log priorities reach journald (issue 19): errors at 3, warnings 4, notices 5, info 6, as
`<N>` prefixes when standard error is the journal ($JOURNAL_STREAM names its device and inode,
as systemd sets it). Fatal start-up errors used to go out without a prefix, so journald filed
them at 6 and `journalctl -p err` showed nothing. A redirected child that inherits the variable
but not the stream writes plain `qrcheckin:` lines."""
import os
import signal
import subprocess

from conftest import BIN
from daemonutil import Daemon, wait_until


def run_logged(tmp_path, args, journal=True, stream=None):
    """Runs qrcheckin ARGS with standard error in a file; with `journal`, $JOURNAL_STREAM names
    that file (or `stream`, to name something else). Returns (returncode, log lines)."""
    log_path = tmp_path / f"stderr-{len(list(tmp_path.iterdir()))}.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("QRCHECKIN_") and k != "JOURNAL_STREAM"}
    with open(log_path, "wb") as log:
        status = os.fstat(log.fileno())
        if journal:
            env["JOURNAL_STREAM"] = stream or f"{status.st_dev}:{status.st_ino}"
        result = subprocess.run([BIN, *args], stdout=subprocess.DEVNULL, stderr=log, env=env, timeout=30)
    return result.returncode, log_path.read_text().splitlines()


def test_a_fatal_start_up_error_is_priority_3(tmp_path):
    config = tmp_path / "bad.conf"
    config.write_text("period = 0\n")
    code, lines = run_logged(tmp_path, ["run", "-c", str(config), "--output-dir", str(tmp_path / "o"),
                                        "--state-dir", str(tmp_path / "s")])
    assert code == 78
    assert lines == [f"<3>{config}:1: period: must be a whole number of seconds from 1 to 3600 (15, 15s or 1m), got '0'"]


def test_command_errors_and_their_usage_line_are_priority_3(tmp_path):
    code, lines = run_logged(tmp_path, ["code", "--bogus"])
    assert code == 64
    assert lines[0] == "<3>unknown option '--bogus' for 'code' (see qrcheckin code --help)"
    assert lines[1].startswith("<3>usage: qrcheckin code ")
    code, lines = run_logged(tmp_path, ["code", "--secret-file", str(tmp_path / "missing")])
    assert code == 66 and lines == [f"<3>secret file {tmp_path}/missing does not exist; "
                                    f"create one with: qrcheckin keygen -o {tmp_path}/missing"]


def test_a_redirected_child_writes_plain_lines(tmp_path):
    # $JOURNAL_STREAM set, but standard error is a file: no <N> goes into the file.
    code, lines = run_logged(tmp_path, ["code", "--bogus"], stream="8:1234")
    assert code == 64 and lines[0].startswith("qrcheckin: unknown option '--bogus'")
    code, lines = run_logged(tmp_path, ["code", "--bogus"], stream="not a stream")
    assert code == 64 and lines[0].startswith("qrcheckin: unknown option")
    code, lines = run_logged(tmp_path, ["code", "--bogus"], journal=False)
    assert code == 64 and lines[0].startswith("qrcheckin: unknown option")


def test_the_daemon_logs_each_level_at_its_priority(tmp_path, daemons):
    config = tmp_path / "qrcheckin.conf"
    config.write_text("period = 2\n")
    daemon = daemons("d", args=["-c", str(config)], journal=True)
    wait_until(lambda: "<5>serving venue DEMO" in daemon.logs(), message="the start notice")
    assert f"<6>using the secret in {daemon.secret}" in daemon.logs()
    # A restart-only setting changed: a warning; a bad line: an error. Each on SIGHUP.
    config.write_text(f"period = 2\nmetrics-dir = {tmp_path / 'metrics'}\n")
    daemon.signal(signal.SIGHUP)
    wait_until(lambda: "<4>reload: metrics-dir changes take effect at the next restart" in daemon.logs(),
               message="the reload warning")
    config.write_text("period = 0\n")
    daemon.signal(signal.SIGHUP)
    wait_until(lambda: "<3>reload failed, keeping the running configuration: " in daemon.logs(),
               message="the reload error")
    assert daemon.stop() == 0
    assert all(line[:3] in ("<3>", "<4>", "<5>", "<6>") for line in daemon.logs().splitlines()), daemon.logs()
