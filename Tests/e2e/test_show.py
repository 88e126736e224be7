"""`qrcheckin show` black-box: the kiosk runs in tmux; what tmux shows is read back into QR
modules and decoded with zbarimg, as a phone at the door would."""
import math
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from conftest import BIN, run, zbar
from daemonutil import REMOVALS, wait_until
from kiosk_screen import Tmux, decode_screen, shell_command, write_state

MODES = ["ansi", "utf8", "utf8i", "ascii"]
# ascii takes two columns and one row per module: the default code needs 82x44 with its full
# quiet zone (74x40 with the fallback quiet zone of 2), so it gets a bigger terminal.
SIZES = {"ansi": (80, 24), "utf8": (80, 24), "utf8i": (80, 24), "ascii": (90, 46)}
BLOCKS = set("█▀▄#")


@pytest.fixture
def kiosk(tmp_path):
    """Starts `qrcheckin show ARGS` in a private tmux; every pane is killed afterwards."""
    started = []

    def start(*args, cols=80, rows=24, env=None, before="", after=""):
        # Korean words unless a test says otherwise, as a Korean venue's kiosk is set up: the
        # language follows the locale (LC_MESSAGES here; LANG stays C.UTF-8 for the charset).
        env = {"LC_MESSAGES": "ko_KR.UTF-8", **(env or {})}
        pane = Tmux(f"{len(started)}", shell_command(BIN, "show", *args, env=env, before=before, after=after),
                    cols=cols, rows=rows)
        started.append(pane)
        return pane

    yield start
    for pane in started:
        pane.kill()


def verify(daemon, url, at=None):
    """Checks `url` now, or as at `at` (Unix seconds), the moment it was read off the screen:
    a 2 s code is checked as a phone at the door would, however slowly the check runs.
    Returns (exit status, output)."""
    when = ["--at", str(int(at))] if at is not None else []
    result = run("verify", "--secret-file", str(daemon.secret), "--period", str(daemon.period), *when, url)
    return result.returncode, result.stdout.decode()


@pytest.fixture
def daemon(daemons):
    """The daemon the kiosk shows: a 2 s period, venue DEMO."""
    return daemons("daemon", period=2, args=["--venue", "DEMO"])


def has_qr(text):
    return sum(ch in "█▀▄" for ch in text) > 100 or text.count("##") > 100


def decoded(pane, mode, tmp_path, timeout=15.0):
    """Decodes the pane (`pane.captured_at` says when it was read); a capture can land between
    two frames, so it captures again until one decodes or the deadline passes."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return decode_screen(pane.capture(), mode, tmp_path, zbar)
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def seconds_left(text):
    """The countdown on screen, or None when the screen (or the part drawn so far) has none."""
    match = re.search(r"남은 시간 (\d+)초|Time left (\d+)s", text)
    return int(match.group(1) or match.group(2)) if match else None


@pytest.mark.parametrize("mode", MODES)
def test_each_mode_shows_a_code_verify_accepts_and_follows_rotation(mode, daemon, kiosk, tmp_path, tools):
    cols, rows = SIZES[mode]
    pane = kiosk("--output-dir", str(daemon.out), "--mode", mode, cols=cols, rows=rows)
    pane.wait_for(has_qr)
    first = decoded(pane, mode, tmp_path)
    assert first.startswith("HTTPS://CHECKIN.EXAMPLE.ORG/C/DEMO/")
    status, output = verify(daemon, first, at=pane.captured_at)
    assert status == 0 and output.startswith("valid"), output

    # The daemon rotates every 2 s; the kiosk follows without being told.
    deadline = time.monotonic() + 20
    second = first
    while second == first:
        assert time.monotonic() < deadline, "the kiosk never showed the next code"
        time.sleep(0.2)
        second = decoded(pane, mode, tmp_path)
    status, output = verify(daemon, second, at=pane.captured_at)
    assert status == 0 and output.startswith("valid"), output
    assert "안심번호" in pane.text() and "개인안심번호" not in pane.text()  # the same word status uses


@pytest.mark.parametrize("env, korean", [
    ({"LANG": "ko_KR.UTF-8"}, True),
    ({"LANG": "C.UTF-8", "LC_MESSAGES": "ko_KR.UTF-8"}, True),
    ({"LANG": "C.UTF-8", "LC_MESSAGES": ""}, False),
    ({"LANG": "ko_KR.UTF-8", "LC_ALL": "C.UTF-8"}, False),
    ({"LANG": "ko_KR.UTF-8", "LC_MESSAGES": "en_US.UTF-8"}, False),
])
def test_language_follows_the_locale_with_the_words_status_uses(tmp_path, kiosk, env, korean):
    """The kiosk used to default to Korean and status to English, whatever the locale, and
    the kiosk said 안심번호 where status said 개인안심번호."""
    out = tmp_path / "out"
    write_state(out, expiresAt=int(time.time()) + 20)
    pane = kiosk("--output-dir", str(out), env=env)
    words = ["안심번호  1 2 현 3 4 규", "흔들기 켜짐 | 자동 새로고침"] if korean else \
        ["Safe number  1 2 현 3 4 규", "shake on | auto refresh"]
    text = pane.wait_for(lambda t: ("남은 시간" in t or "Time left" in t) and all(w in t for w in words))
    status = run("status", "--output-dir", str(out), env={"LC_ALL": "", "LC_MESSAGES": "", **env}).stdout.decode()
    if korean:
        assert "안심번호  1 2 현 3 4 규" in text and "개인안심번호" not in text and "흔들기 켜짐 | 자동 새로고침" in text
        assert "안심번호" in status and "개인안심번호" not in status and "남은 시간" in status and "흔들기 켜짐 | 자동 새로고침" in status
    else:
        assert "Safe number  1 2 현 3 4 규" in text and "shake on | auto refresh" in text
        assert "Safe number" in status and "Time left" in status and "shake on | auto refresh" in status


def test_ansi_is_black_on_white(daemon, kiosk):
    pane = kiosk("--output-dir", str(daemon.out), "--mode", "ansi")
    pane.wait_for(has_qr)
    rows = [line for line in pane.capture(escapes=True) if "▀" in line or "▄" in line]
    assert rows
    # tmux re-renders the attributes it holds: black (30) on bright white (107).
    assert all("30" in line and "107" in line for line in rows), rows[0]


def test_default_code_fits_80x24_and_resize_relays_out(daemon, kiosk, tmp_path, tools):
    pane = kiosk("--output-dir", str(daemon.out))
    pane.wait_for(has_qr)
    assert decoded(pane, "ansi", tmp_path).startswith("HTTPS://")
    assert pane.display("#{window_width}x#{window_height}") == "80x24"

    pane.resize(60, 20)
    text = pane.wait_for(lambda t: "터미널이 너무 작습니다" in t and "필요 41x24, 현재 60x20" in t and not has_qr(t))
    assert "필요 41x24, 현재 60x20" in text
    assert not has_qr(text)

    pane.resize(80, 24)
    pane.wait_for(has_qr)
    url = decoded(pane, "ansi", tmp_path)
    assert verify(daemon, url, at=pane.captured_at)[0] == 0


def test_countdown_decreases(tmp_path, kiosk):
    out = tmp_path / "out"
    written = time.time()
    expires = int(written) + 20
    write_state(out, expiresAt=expires)
    pane = kiosk("--output-dir", str(out))
    first = seconds_left(pane.wait_for(lambda t: seconds_left(t) is not None))
    read = pane.captured_by  # the kiosk drew it before this
    # Time passing is what counts it down: wait for the next two values.
    second = seconds_left(pane.wait_for(lambda t: (n := seconds_left(t)) is not None and n < first))
    third = seconds_left(pane.wait_for(lambda t: (n := seconds_left(t)) is not None and n < second))
    assert first > second > third, (first, second, third)
    # It counts to the code's expiry: the seconds left at some moment between writing and reading.
    assert math.ceil(expires - read) <= first <= math.ceil(expires - written), (written, first, read)


def test_english_countdown_and_red_seconds(tmp_path, kiosk):
    out = tmp_path / "out"
    write_state(out, expiresAt=int(time.time()) + 20)
    pane = kiosk("--output-dir", str(out), "--lang", "en")
    text = pane.wait_for(lambda t: "Time left" in t and "Safe number  1 2 현 3 4 규" in t and "shake on | auto refresh" in t)
    assert "Safe number  1 2 현 3 4 규" in text
    assert "shake on | auto refresh" in text
    countdown = next(line for line in pane.capture(escapes=True) if "Time left" in line)
    assert re.search(r"\x1b\[[0-9;]*31[0-9;]*m\d+s", countdown), repr(countdown)


def test_new_code_is_shown_at_once(tmp_path, kiosk):
    out = tmp_path / "out"
    expires = int(time.time()) + 600
    write_state(out, expiresAt=expires)
    pane = kiosk("--output-dir", str(out))
    shown = pane.wait_for(lambda t: "1 2 현 3 4 규" in t and seconds_left(t) is not None)
    for number in ("34가56나", "78다90라", "11마22바"):
        spaced = " ".join(number)
        # Right after the countdown moves on (the kiosk's once-a-second wake-up), write the new
        # code: it is on screen before the countdown moves again, so it came with the inotify
        # event, not with the next wake-up (however long tmux and the kiosk take to draw).
        before = seconds_left(shown)
        ticked = seconds_left(pane.wait_for(lambda t: (n := seconds_left(t)) is not None and n < before,
                                                    interval=0.005))
        write_state(out, safeNumber=number, expiresAt=expires)
        shown = pane.wait_for(lambda t: spaced in t and seconds_left(t) is not None, interval=0.005)
        assert seconds_left(shown) == ticked, f"{number} appeared only at the next second's redraw"


def test_paused_screen_has_no_code(tmp_path, kiosk):
    out = tmp_path / "out"
    write_state(out, state="paused", url=None, token=None, safeNumber=None, window=None, seq=None,
                issuedAt=None, expiresAt=None, refresh="paused")
    pane = kiosk("--output-dir", str(out))
    text = pane.wait_for(lambda t: "체크인 일시 중지" in t and "흔들기 켜짐 | 새로고침 일시 중지" in t and not BLOCKS & set(t))
    # The modes in the order of every other screen (status, status --all, the running kiosk, the web page).
    assert "흔들기 켜짐 | 새로고침 일시 중지" in text
    status = run("status", "--output-dir", str(out), "--lang", "ko").stdout.decode()
    assert "흔들기 켜짐 | 새로고침 일시 중지" in status, status
    assert not BLOCKS & set(text)


def test_stale_code_is_taken_down(tmp_path, kiosk):
    out = tmp_path / "out"
    now = int(time.time())
    write_state(out, issuedAt=now - 20, expiresAt=now - 6, updatedAt=now - 20)
    pane = kiosk("--output-dir", str(out), "--lang", "en")
    text = pane.wait_for(lambda t: "Check-in code out of date" in t and "The daemon stopped renewing it" in t
                         and not BLOCKS & set(t))
    assert "The daemon stopped renewing it" in text
    assert not BLOCKS & set(text)


def test_code_goes_stale_while_shown(tmp_path, kiosk):
    out = tmp_path / "out"
    pane = None
    for attempt in range(5):
        # Expired 3 s ago: shown for the 2 s left of its grace, then taken down with nothing
        # written. A kiosk that came up only after those 2 s proves nothing: write it again.
        write_state(out, expiresAt=int(time.time()) - 3)
        pane = pane or kiosk("--output-dir", str(out))
        if has_qr(pane.wait_for(lambda t: has_qr(t) or "최신이 아닙니다" in t)):
            break
    else:
        pytest.fail("the kiosk never showed the code within its grace")
    text = pane.wait_for(lambda t: "최신이 아닙니다" in t and not BLOCKS & set(t))
    assert not BLOCKS & set(text)


def test_dead_daemon_pid_is_stale(tmp_path, kiosk):
    gone = subprocess.run(["true"]).args and subprocess.Popen(["true"])
    gone.wait()
    out = tmp_path / "out"
    write_state(out, pid=gone.pid)
    pane = kiosk("--output-dir", str(out), "--lang", "en")
    text = pane.wait_for(lambda t: f"The daemon (pid {gone.pid}) is not running" in t and not BLOCKS & set(t))
    assert not BLOCKS & set(text)


def test_degraded_shows_the_code_and_a_warning(tmp_path, kiosk, tools):
    out = tmp_path / "out"
    document = write_state(out, health="degraded", reason="cannot write current.png: No space left on device")
    pane = kiosk("--output-dir", str(out))
    text = pane.wait_for(lambda t: "경고: cannot write current.png: No space" in t)
    assert "경고: cannot write current.png: No space" in text
    assert decoded(pane, "ansi", tmp_path) == document["url"]


def test_not_running_then_running(tmp_path, kiosk, tools):
    out = tmp_path / "never-made"
    pane = kiosk("--output-dir", str(out), "--lang", "en")
    where = "..." + f"{out}/current.json"[-77:]
    text = pane.wait_for(lambda t: "Check-in is not running" in t and "Waiting for\n" in t and where in t)
    assert "Waiting for\n" in text
    assert where in text
    # The directory appears later: the slow timer finds it, then inotify takes over.
    document = write_state(out)
    pane.wait_for(has_qr)
    assert decoded(pane, "ansi", tmp_path) == document["url"]


def test_daemon_stop_and_crash_screens(daemon, kiosk):
    pane = kiosk("--output-dir", str(daemon.out), "--lang", "en")
    pane.wait_for(has_qr)
    daemon.stop(signal.SIGTERM)
    text = pane.wait_for(lambda t: "Check-in is not running" in t and "The daemon stopped at" in t and not BLOCKS & set(t))
    assert "The daemon stopped at" in text and not BLOCKS & set(text)


def test_daemon_paused_and_resumed_by_an_operator(daemon, kiosk, tmp_path, tools):
    pane = kiosk("--output-dir", str(daemon.out))
    pane.wait_for(has_qr)
    assert run("ctl", "--output-dir", str(daemon.out), "shake", "off").returncode == 0
    pane.wait_for(lambda t: "흔들기 꺼짐" in t)
    assert run("ctl", "--output-dir", str(daemon.out), "refresh", "pause").returncode == 0
    text = pane.wait_for(lambda t: "체크인 일시 중지" in t and "흔들기 꺼짐 | 새로고침 일시 중지" in t and not BLOCKS & set(t))
    assert "흔들기 꺼짐 | 새로고침 일시 중지" in text and not BLOCKS & set(text)
    assert run("ctl", "--output-dir", str(daemon.out), "refresh", "auto").returncode == 0
    pane.wait_for(has_qr)
    url = decoded(pane, "ansi", tmp_path)
    assert verify(daemon, url, at=pane.captured_at)[0] == 0


def test_daemon_killed_is_stale(daemon, kiosk):
    pane = kiosk("--output-dir", str(daemon.out), "--lang", "en")
    pane.wait_for(has_qr)
    pid = daemon.process.pid
    daemon.stop(signal.SIGKILL)
    text = pane.wait_for(lambda t: "Check-in code out of date" in t and f"pid {pid}" in t and not BLOCKS & set(t))
    assert f"pid {pid}" in text and not BLOCKS & set(text)


def child_pid(pane):
    shell = pane.display("#{pane_pid}")
    children = Path(f"/proc/{shell}/task/{shell}/children").read_text().split()
    assert len(children) == 1, children
    return int(children[0])


QUITS = ["q", "C-c", "SIGTERM", "SIGHUP", "SIGINT"]


@pytest.mark.parametrize("how", QUITS)
def test_quit_restores_the_terminal(how, tmp_path, kiosk):
    out = tmp_path / "out"
    write_state(out)
    before = tmp_path / "before"
    after = tmp_path / "after"
    pane = kiosk("--output-dir", str(out), before=f"stty -g > {before}; echo MAIN-SCREEN;",
                 after=f"stty -g > {after};")
    pane.wait_for(has_qr)
    assert pane.display("#{alternate_on} #{cursor_flag}") == "1 0"
    if how.startswith("SIG"):
        os.kill(child_pid(pane), getattr(signal, how))
    else:
        pane.keys(how)
    text = pane.wait_for(lambda t: "EXIT=" in t)
    assert "EXIT=0" in text
    assert "MAIN-SCREEN" in text and not has_qr(text)
    pane.wait_for(lambda t: after.exists())
    assert pane.display("#{alternate_on} #{cursor_flag}") == "0 1"
    assert before.read_text() == after.read_text(), "line mode not restored"


def test_crash_restores_the_terminal(tmp_path, kiosk):
    out = tmp_path / "out"
    write_state(out)
    before, after = tmp_path / "before", tmp_path / "after"
    # The Swift backtracer runs after the kiosk's handler (it chains); keep it non-interactive.
    pane = kiosk("--output-dir", str(out), env={"SWIFT_BACKTRACE": "interactive=no"},
                 before=f"stty -g > {before};", after=f"stty -g > {after};")
    pane.wait_for(has_qr)
    os.kill(child_pid(pane), signal.SIGSEGV)
    text = pane.wait_for(lambda t: "EXIT=" in t)
    assert "EXIT=139" in text and not has_qr(text)
    pane.wait_for(lambda t: after.exists())
    assert pane.display("#{alternate_on} #{cursor_flag}") == "0 1"
    assert before.read_text() == after.read_text(), "line mode not restored"


def test_output_directory_disappearing(tmp_path, kiosk, tools):
    out = tmp_path / "out"
    document = write_state(out)
    after = tmp_path / "after"
    pane = kiosk("--output-dir", str(out), "--lang", "en", after=f"stty -g > {after};")
    pane.wait_for(has_qr)
    for entry in out.iterdir():
        entry.unlink()
    out.rmdir()
    text = pane.wait_for(lambda t: "Check-in is not running" in t and not BLOCKS & set(t))
    assert not BLOCKS & set(text)
    write_state(out)
    pane.wait_for(has_qr)
    assert decoded(pane, "ansi", tmp_path) == document["url"]
    pane.keys("q")
    text = pane.wait_for(lambda t: "EXIT=0" in t)
    assert pane.display("#{alternate_on} #{cursor_flag}") == "0 1"


@pytest.mark.parametrize("removal", REMOVALS)
def test_removed_outputs_are_shown_again_with_the_same_code(removal, daemons, kiosk, tmp_path, tools):
    """The daemon puts removed outputs back within a second (test_daemon_faults.py); the kiosk
    follows them back, whether the directory went (and with it the kiosk's watch) or the files."""
    daemon = daemons("daemon", period=30)
    pane = kiosk("--output-dir", str(daemon.out), "--lang", "en")
    pane.wait_for(has_qr)
    before = wait_until(lambda: (d := daemon.state_now()) and d["expiresAt"] - time.time() >= 10 and d, 60,
                        message="a window with 10 s left")
    release = REMOVALS[removal](daemon.out)
    try:
        wait_until(lambda: (d := daemon.state_now()) and d["url"] == before["url"] and (daemon.out / "current.png").exists(),
                   5, interval=0.005, message="the daemon to put its files back")
        # A screen drawn a second or more after that (its countdown has moved on) shows the code.
        moved_on = math.ceil(before["expiresAt"] - time.time()) - 1
        pane.wait_for(lambda t: has_qr(t) and (n := seconds_left(t)) is not None and n <= moved_on)
        assert decoded(pane, "ansi", tmp_path) == before["url"]
        assert "not running" not in pane.text()
    finally:
        release()


def cpu_seconds(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# One poll(2) call as `strace -ttt -T` writes it once it has returned: when it was entered
# (Unix seconds), what it returned and how long it took.
POLL_CALL = re.compile(r"^(\d+\.\d+) p?poll\(.*\) += (.+?) <(\d+\.\d+)>$", re.MULTILINE)


def kiosk_wakeups(pid, count, trace):
    """Traces the kiosk's loop (strace attached to its main thread) until `count` of its
    poll(2) calls have returned: each return is one wake-up. Returns [(Unix time of the
    return, result)] and the CPU seconds the kiosk used from the attach to the last return."""
    tracer = subprocess.Popen(["strace", "-ttt", "-T", "-e", "trace=poll,ppoll", "-o", str(trace), "-p", str(pid)],
                              stderr=subprocess.PIPE, text=True)
    try:
        attached = tracer.stderr.readline()  # strace says so at once, or why it cannot
        assert "attached" in attached, attached
        before = cpu_seconds(pid)

        def returned():
            calls = POLL_CALL.findall(trace.read_text()) if trace.exists() else []
            return calls[:count] if len(calls) >= count else None

        calls = wait_until(returned, timeout=30.0, message=f"{count} wake-ups of the kiosk")
        used = cpu_seconds(pid) - before
    finally:
        tracer.send_signal(signal.SIGINT)  # detaches; the kiosk runs on untraced
        tracer.wait(timeout=30)
    return [(float(entered) + float(took), result) for entered, result, took in calls], used


def test_output_directory_replaced_by_a_new_one_is_followed_without_spinning(tmp_path, kiosk, tools):
    out = tmp_path / "out"
    write_state(out)
    pane = kiosk("--output-dir", str(out), "--lang", "en")
    pane.wait_for(has_qr)
    out.rename(tmp_path / "old")
    document = write_state(out)
    pane.wait_for(has_qr)
    assert decoded(pane, "ansi", tmp_path) == document["url"]
    # Idle is what is asserted, over the kiosk's next three wake-ups rather than a stretch of
    # wall time (which a loaded machine stretches or squeezes): each is its timer's, at most
    # one a second (it sleeps until just after the next whole second, the countdown's), and
    # they cost next to no CPU. A stale watch event that kept its descriptor readable would
    # wake it at once, over and over.
    wakeups, used = kiosk_wakeups(child_pid(pane), 3, tmp_path / "poll.trace")
    assert [result for _, result in wakeups] == ["0 (Timeout)"] * 3, \
        f"the kiosk must sleep between seconds, not spin on stale watch events: {wakeups}"
    seconds = [int(returned) for returned, _ in wakeups]
    assert seconds == sorted(set(seconds)), f"more than one wake-up in a second: {wakeups}"
    assert used < 0.2, f"{used}s of CPU over three idle wake-ups"


def test_non_utf8_locale_falls_back_to_ascii_and_english(tmp_path, kiosk, tools):
    out = tmp_path / "out"
    document = write_state(out)
    small = kiosk("--output-dir", str(out), env={"LANG": "C", "LC_ALL": ""})
    text = small.wait_for(lambda t: "Terminal too small" in t and "needs 74x40, is 80x24" in t)
    assert "needs 74x40, is 80x24" in text
    big = kiosk("--output-dir", str(out), cols=90, rows=46, env={"LANG": "C", "LC_ALL": ""})
    text = big.wait_for(lambda t: has_qr(t) and "Safe number  1 2 hyeon 3 4 gyu" in t)
    assert "Safe number  1 2 hyeon 3 4 gyu" in text
    assert decoded(big, "ascii", tmp_path) == document["url"]


def test_no_color_uses_utf8_without_colour(tmp_path, kiosk, tools):
    out = tmp_path / "out"
    document = write_state(out)
    pane = kiosk("--output-dir", str(out), env={"NO_COLOR": "1"})
    pane.wait_for(has_qr)
    assert decoded(pane, "utf8", tmp_path) == document["url"]
    assert not any(re.search(r"\x1b\[[0-9;]*(3[0-7]|9[0-7]|10[0-7])m", line) for line in pane.capture(escapes=True))


def test_linux_console_romanizes_the_safe_number(tmp_path, kiosk):
    out = tmp_path / "out"
    write_state(out)
    pane = kiosk("--output-dir", str(out), env={"TERM": "linux"})
    text = pane.wait_for(lambda t: "Safe number" in t and "1 2 hyeon 3 4 gyu" in t)
    assert "1 2 hyeon 3 4 gyu" in text


def test_command_line_errors():
    assert run("show", "--help").returncode == 0
    assert b"--mode" in run("show", "--help").stdout
    bad = run("show", "--mode", "sixel")
    assert bad.returncode == 64 and b"--mode must be one of" in bad.stderr
    assert run("show", "--lang", "fr").returncode == 64
    not_a_terminal = run("show", "--output-dir", "/nonexistent")
    assert not_a_terminal.returncode == 64 and b"needs a terminal" in not_a_terminal.stderr
