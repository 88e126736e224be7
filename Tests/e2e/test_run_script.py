"""`make run` (scripts/run) on a terminal, in tmux as a user would see it (issue 10): it says
where it writes before the kiosk starts, refuses to show another daemon's code, and leaves no
log files behind."""

import pytest

from conftest import BIN, ROOT
from daemonutil import Daemon, wait_until
from kiosk_screen import Tmux, shell_command


@pytest.fixture
def panes():
    started = []
    yield started
    for pane in started:
        pane.kill()


def start_run_script(panes, tmp_path, out, state):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {"QRCHECKIN_BIN": BIN, "QRCHECKIN_OUTPUT_DIR": str(out), "QRCHECKIN_STATE_DIR": str(state),
           "QRCHECKIN_PERIOD": "5", "TMPDIR": str(temporary), "LANG": "C.UTF-8"}
    pane = Tmux(f"run{len(panes)}", shell_command(str(ROOT / "scripts" / "run"), env=env), cols=100, rows=40)
    panes.append(pane)
    return pane, temporary


def test_run_refuses_when_a_daemon_already_serves_its_output_directory(tmp_path, panes, daemons):
    """`make run` used to show the other daemon's code and exit 0."""
    other = daemons("other", period=3)
    pane, temporary = start_run_script(panes, tmp_path, other.out, tmp_path / "state")
    text = pane.wait_for(lambda t: "EXIT=" in t, timeout=20)
    assert "already running" in text and "did not start" in text, text
    status = int(text.split("EXIT=")[1].split()[0])
    assert status != 0, text
    assert list(temporary.iterdir()) == [], "a log file was left behind"
    assert other.process.poll() is None, "the other daemon must be left alone"


def test_run_says_where_it_writes_then_shows_the_kiosk_and_cleans_up(tmp_path, panes):
    out, state = tmp_path / "out", tmp_path / "state"
    pane, temporary = start_run_script(panes, tmp_path, out, state)
    pane.wait_for(lambda t: t.count("█") > 100 or "Time left" in t, timeout=30)
    pane.keys("q")
    text = pane.wait_for(lambda t: "EXIT=" in t, timeout=20).replace("\n", "")  # long lines wrap
    # After the kiosk leaves the alternate screen, what the script said first is still there.
    assert f"writing {out}/{{current.png," in text, text
    assert text.index("writing") < text.index("starting the kiosk"), text
    assert "EXIT=0" in text, text
    assert list(temporary.iterdir()) == [], "a log file was left behind"
    wait_until(lambda: not (out / "control.sock").exists(), message="the daemon to stop")
