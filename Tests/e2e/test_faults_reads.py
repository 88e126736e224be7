"""No read can block, and start-up sweeps our own temporaries (issue 14, items 3 and 4).

Item 3: every file qrcheckin reads (config, settings, current.json, secret) is opened
non-blocking and checked to be a regular file first. A FIFO in place of the config file used to
hang `run`, `status`, `ctl` and `shake`, and a SIGHUP after the config was swapped for a FIFO
froze the running daemon (no rotation, SIGTERM unheard). Each check here gives the command a
deadline: before the fix it hung past it.

Item 4: a kill between writing and renaming leaves `.NAME.PID.RAND.tmp`; start-up removes ours
from the output, state and secret directories, and nothing else.
"""
import os
import signal
import subprocess
from pathlib import Path

import pytest

from conftest import BIN
from daemonutil import Daemon, read_state, wait_until

# A command that refuses a FIFO does so at once; one that opens it blocking never returns.
# Generous, because several helpers share two cores; a hang is forever.
PROMPT = 20


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("QRCHECKIN_") and k not in ("NOTIFY_SOCKET", "JOURNAL_STREAM", "WATCHDOG_USEC")}
    env.update(extra)
    return env


def qrcheckin(*args, env=None):
    """Runs a command with a deadline; a hang fails the test instead of blocking the run."""
    try:
        return subprocess.run([BIN, *args], capture_output=True, env=env or clean_env(), timeout=PROMPT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"qrcheckin {' '.join(args)} hung on a FIFO for {PROMPT}s")


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "qrcheckin.conf"
    os.mkfifo(path)
    return path


COMMANDS = [("run",), ("status",), ("ctl", "get"), ("shake",)]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_fifo_config_flag_is_refused_at_once_with_exit_78(tmp_path, fifo, command):
    out = tmp_path / "out"
    result = qrcheckin(*command, "--config", str(fifo), "--output-dir", str(out),
                       *(["--state-dir", str(tmp_path / "state")] if command == ("run",) else []))
    assert result.returncode == 78, result
    message = result.stderr.decode()
    assert str(fifo) in message and "FIFO" in message and "not a regular file" in message, message
    assert not out.exists(), "refused before doing anything"


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_fifo_config_from_environment_is_refused_at_once_with_exit_78(tmp_path, fifo, command):
    env = clean_env(QRCHECKIN_CONFIG=str(fifo), QRCHECKIN_OUTPUT_DIR=str(tmp_path / "out"),
                    QRCHECKIN_STATE_DIR=str(tmp_path / "state"))
    result = qrcheckin(*command, env=env)
    assert result.returncode == 78, result
    assert "FIFO" in result.stderr.decode(), result.stderr


def test_other_special_files_as_config_are_refused(tmp_path):
    for path, kind in [("/dev/null", "character device"), (str(tmp_path), "directory")]:
        result = qrcheckin("status", "--config", path, "--output-dir", str(tmp_path / "out"))
        assert result.returncode == 78, result
        assert kind in result.stderr.decode(), result.stderr
    # A symlink to a regular file is still a config file (as /etc often has).
    real = tmp_path / "real.conf"
    real.write_text("period = 7\n")
    link = tmp_path / "link.conf"
    link.symlink_to(real)
    result = qrcheckin("status", "--config", str(link), "--output-dir", str(tmp_path / "out"))
    assert result.returncode == 3, result  # read fine; no daemon there


def test_sighup_after_config_becomes_a_fifo_logs_and_keeps_running(tmp_path, daemons):
    config = tmp_path / "qrcheckin.conf"
    config.write_text("venue = FIFO-TEST\n")
    daemon = daemons("d", period=1, args=["--config", str(config)])
    # Replace the file by a FIFO the way an editor or a careless script might.
    staged = tmp_path / "staged"
    os.mkfifo(staged)
    os.replace(staged, config)
    daemon.signal(signal.SIGHUP)
    wait_until(lambda: "reload failed" in daemon.logs(), PROMPT, message="the reload error in the log")
    line = next(l for l in daemon.logs().splitlines() if "reload failed" in l)
    assert "FIFO" in line and str(config) in line, line
    # Rotation goes on: two more windows, written by the same process.
    window = read_state(daemon.out)["window"]
    wait_until(lambda: (read_state(daemon.out) or {}).get("window", 0) >= window + 2, PROMPT,
               message="two more rotations after the failed reload")
    assert read_state(daemon.out)["venue"] == "FIFO-TEST", "the running configuration is kept"
    # SIGTERM is heard.
    daemon.signal(signal.SIGTERM)
    assert daemon.process.wait(PROMPT) == 0
    assert read_state(daemon.out)["state"] == "stopped"


def test_fifo_settings_file_starts_paused_instead_of_hanging(daemons):
    daemon = daemons("d", period=1, start=False)
    daemon.state.mkdir(parents=True, mode=0o700)
    os.mkfifo(daemon.state / "settings")
    daemon.start()  # a daemon hung on the FIFO never gets ready: the wait fails, the fixture kills it
    assert read_state(daemon.out)["refresh"] == "paused", "fails closed, as for a damaged file"
    assert "FIFO" in daemon.logs(), daemon.logs()


def test_fifo_state_document_does_not_hang_status(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "current.json")
    result = qrcheckin("status", "--output-dir", str(out))
    assert result.returncode != 0, result
    assert "FIFO" in (result.stdout + result.stderr).decode(), result


# --------------------------------------------------------------------------- item 4: temporaries


def dead_pid():
    """A PID no process has now (a child that already exited)."""
    child = subprocess.Popen(["true"])
    child.wait()
    assert not Path(f"/proc/{child.pid}").exists()
    return child.pid


def test_startup_removes_exactly_our_stale_temporaries(tmp_path, daemons):
    base = tmp_path / "d"
    out, state, secrets = base / "out", base / "state", base / "secrets"
    for directory in (out, state, secrets):
        directory.mkdir(parents=True, mode=0o700)
    keygen = subprocess.run([BIN, "keygen", "-o", str(secrets / "venue.key")], capture_output=True)
    assert keygen.returncode == 0, keygen
    dead, alive = dead_pid(), os.getpid()
    ours = {
        out: [f".current.png.{dead}.1.tmp", f".current.json.{dead}.4294967295.tmp", f".current.txt.{dead}.0.tmp"],
        state: [f".settings.{dead}.123456.tmp", f".secret.{dead}.99.tmp"],
        secrets: [f".venue.key.{dead}.7.tmp"],
    }
    theirs = {
        out: [".current.png.tmp", f".current.png.{dead}.tmp", f".current.png.x.{dead}.tmp", f"current.png.{dead}.1.tmp",
              f".current.png.{dead}.1.tmp.bak", f".current.pngx.{dead}.1.tmp", f".other.{dead}.1.tmp",
              f".current.png.{alive}.2.tmp", "notes.txt"],  # a live writer's file in flight stays
        state: [".settings.tmp", f".settings.{dead}.tmp", f".settings.{dead}.12a.tmp", f"settings.{dead}.1.tmp",
                f".settings.{alive}.3.tmp", f".settingsx.{dead}.1.tmp", f".settings.-{dead}.1.tmp"],
        secrets: [f".secret.{dead}.7.tmp", f".venue.key.{alive}.1.tmp", "venue.key.bak"],  # not our secret's name
    }
    for directory, names in list(ours.items()) + list(theirs.items()):
        for name in names:
            (directory / name).write_bytes(b"planted")
    (out / f".current.txt.{dead}.5.tmp").mkdir()  # our shape, but a directory: not something we wrote
    daemon = daemons(base, period=1, args=["--secret-file", str(secrets / "venue.key")])
    for directory, names in ours.items():
        for name in names:
            assert not (directory / name).exists(), f"{directory.name}/{name} should have been swept"
    for directory, names in theirs.items():
        for name in names:
            assert (directory / name).read_bytes() == b"planted", f"{directory.name}/{name} must survive"
    assert (out / f".current.txt.{dead}.5.tmp").is_dir()
    assert "removed 6 temporary files" in daemon.logs(), daemon.logs()
