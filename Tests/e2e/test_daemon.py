"""The daemon as its users meet it: rotating files, status, control, signals, systemd, config."""
import os
import signal
import time

import pytest

from conftest import zbar
from daemonutil import read_state, shown_code, wait_until


def verify(daemon, url, at=None):
    """`qrcheckin verify` of `url`, now or at the moment `at` (Unix seconds) it was read off the
    kiosk: a 1 s code read at t is checked as at t, however long the checking process takes to run."""
    when = ["--at", str(int(at))] if at is not None else []
    return daemon.cli("verify", "--secret-file", str(daemon.secret), "--period", str(daemon.period), *when, url)


def test_outputs_rotate_and_every_png_decodes_to_a_url_verify_accepts(daemons):
    daemon = daemons(period=1)
    seen = []
    while len(seen) < 3:
        state = wait_until(lambda: (s := daemon.state_now()) and (not seen or s["window"] != seen[-1]["window"]) and s,
                           timeout=5, message="a rotation")
        url, _ = shown_code(daemon.out)  # the PNG shows the code current.json names
        read_at = time.time()
        assert url.startswith("HTTPS://CHECKIN.EXAMPLE.ORG/C/DEMO/")
        verdict = verify(daemon, url, at=read_at)
        assert verdict.returncode == 0, verdict.stdout
        seen.append(state)
    assert len({s["url"] for s in seen}) == 3
    assert all(s["expiresAt"] - s["issuedAt"] == 1 for s in seen)
    text = (daemon.out / "current.txt").read_text()
    assert "█" in text and "expires 20" in text


def test_a_fresh_default_run_uses_embedded_defaults_and_says_where_it_writes(daemons):
    daemon = daemons(period=15)
    state = daemon.state_now()
    assert state["venue"] == "DEMO" and state["period"] == 15
    assert state["shake"] == "on" and state["refresh"] == "auto" and state["health"] == "ok"
    assert oct(daemon.secret.stat().st_mode & 0o777) == "0o600"
    assert str(daemon.out) in daemon.logs()
    assert daemon.secret.read_text().strip() not in daemon.logs() + (daemon.out / "current.json").read_text()
    assert oct(daemon.socket.stat().st_mode & 0o777) == "0o660"


def test_status_json_counts_down_and_reports_the_code(daemons):
    import json
    daemon = daemons(period=4)

    def reading():
        result = daemon.cli("status", "--output-dir", str(daemon.out), "--json")
        assert result.returncode == 0, result
        return json.loads(result.stdout)

    readings = [reading()]
    a = readings[0]
    assert a["status"] == "running" and a["state"]["safeNumber"]

    def counted_down():
        # Time passing lowers secondsLeft within one window; a rotation between two readings
        # starts the count again from the new window's reading.
        b = reading()
        if b["state"]["window"] != readings[-1]["state"]["window"]:
            readings.append(b)
            return None
        return b["secondsLeft"] < readings[-1]["secondsLeft"]

    wait_until(counted_down, timeout=15, message=f"secondsLeft to count down from {readings[-1]}")
    human = daemon.cli("status", "--output-dir", str(daemon.out), "--lang", "ko")
    assert "남은 시간" in human.stdout.decode() and "초" in human.stdout.decode()


def test_ctl_changes_take_effect_and_survive_a_restart(daemons, tmp_path):
    daemon = daemons(period=2)
    d = ["--output-dir", str(daemon.out)]
    assert daemon.cli("ctl", *d, "shake", "off").returncode == 0
    assert daemon.cli("shake", *d).returncode == 1, "a shake is ignored while shake mode is off"
    assert "shake ignored" in daemon.logs()
    assert daemon.cli("ctl", *d, "refresh", "pause").returncode == 0
    state = daemon.state_now()
    assert state["state"] == "paused" and state["url"] is None and state["shake"] == "off"
    with pytest.raises(AssertionError):
        zbar(daemon.out / "current.png")  # no stale QR left on display
    assert "PAUSED" in (daemon.out / "current.txt").read_text()
    assert daemon.stop() == 0

    again = daemons(daemon.base, period=2, env=daemon.env, wait=False)
    wait_until(lambda: (s := read_state(again.out)) and s["pid"] == again.process.pid, message="restart")
    state = again.state_now()
    assert state["refresh"] == "paused" and state["shake"] == "off"
    assert again.cli("ctl", *d, "refresh", "auto").returncode == 0
    assert again.cli("ctl", *d, "shake", "on").returncode == 0
    before = again.state_now()
    result = again.cli("shake", *d)
    assert result.returncode == 0
    after = again.state_now()
    assert after["window"] != before["window"] or after["seq"] == before["seq"] + 1
    assert again.cli("ctl", *d, "refresh", "now").returncode == 0


def test_sigusr1_shakes_and_sighup_reloads_or_keeps_the_old_config(daemons, tmp_path):
    config = tmp_path / "qrcheckin.conf"
    config.write_text("# test\nvenue = HALL-A\n")
    daemon = daemons(period=30, args=["--config", str(config)])
    assert daemon.state_now()["venue"] == "HALL-A"
    before = daemon.state_now()
    daemon.signal(signal.SIGUSR1)
    # The shake's own log line (a window boundary right after it would reset seq before a poll
    # sees seq + 1), and a newer code on disk (the line is logged before the files are written).
    wait_until(lambda: "issued a fresh code (shake" in daemon.logs()
               and ((s := daemon.state_now())["seq"] > before["seq"] or s["window"] > before["window"]),
               message="a shake by SIGUSR1")

    config.write_text("venue = HALL-B\n")
    daemon.signal(signal.SIGHUP)
    wait_until(lambda: daemon.state_now()["venue"] == "HALL-B", message="the reloaded venue")
    assert "/HALL-B/" in zbar(daemon.out / "current.png").decode()

    config.write_text("venue = HALL-C\nperiod = soon\n")
    daemon.signal(signal.SIGHUP)
    wait_until(lambda: "reload failed" in daemon.logs(), message="the reload error")
    assert f"{config}:2: period" in daemon.logs()
    assert daemon.process.poll() is None
    assert daemon.state_now()["venue"] == "HALL-B"


def test_sigterm_marks_the_state_stopped_and_removes_the_socket(daemons):
    daemon = daemons(period=2)
    assert daemon.stop() == 0
    state = read_state(daemon.out)
    assert state["state"] == "stopped" and state["url"] is None
    assert not daemon.socket.exists()
    status = daemon.cli("status", "--output-dir", str(daemon.out))
    assert status.returncode == 3 and b"stopped" in status.stdout
    ctl = daemon.cli("ctl", "--output-dir", str(daemon.out), "get")
    assert ctl.returncode == 69 and b"not running" in ctl.stderr


def test_status_says_not_running_without_a_daemon(tmp_path, qrcheckin):
    result = qrcheckin("status", "--output-dir", str(tmp_path / "none"))
    assert result.returncode == 3 and b"not running" in result.stdout
    result = qrcheckin("status", "--output-dir", str(tmp_path / "none"), "--json")
    assert result.returncode == 3 and b'"status":"not-running"' in result.stdout


def test_a_flood_of_shakes_is_honoured_once_a_second(daemons):
    # Shakes had no limit: 400 a second, each rewriting four fsynced files and logging a line.
    daemon = daemons(period=3600)
    # A window with a minute left, so that no boundary resets seq among the shakes.
    wait_until(lambda: daemon.state_now()["expiresAt"] - time.time() >= 60, timeout=90, message="a minute of window left")
    first = daemon.state_now()["seq"]
    started = time.monotonic()
    replies = [daemon.request("shake") for _ in range(200)]
    elapsed = time.monotonic() - started
    assert all(reply["ok"] for reply in replies), "a coalesced shake is answered with the fresh code"
    issued = {reply["state"]["seq"] for reply in replies}
    assert 1 <= len(issued) <= int(elapsed) + 2, (len(issued), elapsed)
    assert daemon.state_now()["seq"] == max(issued) == first + len(issued)
    assert daemon.logs().count("issued a fresh code (shake") == len(issued)
    wait_until(lambda: "qrcheckin_coalesced_shakes_total{venue=\"DEMO\"} " + str(200 - len(issued))
               in (daemon.out / "metrics.prom").read_text(), message="the coalesced shakes counted")


def test_config_file_errors_name_file_line_and_key(tmp_path, qrcheckin):
    cases = {
        "venue = demo\n": (":1: venue", "upper case"),
        "\n# c\nperiod = 0\n": (":3: period", "1 to 3600"),
        "colour = red\n": (":1: unknown key 'colour'", ""),
        "just words\n": (":1: expected 'key = value'", ""),
        "level = X\n": (":1: level", "L, M, Q or H"),
        "ops-group = no-such-group-here\n": (":1: ops-group", "no such group"),
    }
    for text, (where, why) in cases.items():
        config = tmp_path / "bad.conf"
        config.write_text(text)
        result = qrcheckin("run", "--config", str(config), "--output-dir", str(tmp_path / "o"), "--state-dir", str(tmp_path / "s"))
        message = result.stderr.decode()
        assert result.returncode == 78, (text, message)
        assert f"{config}{where}" in message and why in message, message
        assert message.count("\n") == 1
        assert not (tmp_path / "o" / "current.json").exists()
    result = qrcheckin("run", "--config", str(tmp_path / "missing.conf"))
    assert result.returncode == 78 and b"missing.conf" in result.stderr


def test_flags_override_environment_which_overrides_the_config_file(daemons, tmp_path):
    config = tmp_path / "layers.conf"
    config.write_text("venue = FILE\nperiod = 7\nbase-url = HTTPS://FILE.EXAMPLE/C\n")
    daemon = daemons(period=9, args=["--config", str(config), "--venue", "FLAG"],
                     env={"QRCHECKIN_VENUE": "ENV", "QRCHECKIN_BASE_URL": "HTTPS://ENV.EXAMPLE/C"})
    state = daemon.state_now()
    assert state["venue"] == "FLAG" and state["period"] == 9
    assert state["url"].startswith("HTTPS://ENV.EXAMPLE/C/FLAG/")


def test_bad_flags_and_environment_are_refused_before_anything_runs(tmp_path, qrcheckin):
    result = qrcheckin("run", "--period", "0", "--output-dir", str(tmp_path / "o"))
    assert result.returncode == 64 and b"--period" in result.stderr
    result = qrcheckin("run", "--output-dir", str(tmp_path / "o"), env={"QRCHECKIN_PERIOD": "99999"})
    assert result.returncode == 78 and b"$QRCHECKIN_PERIOD" in result.stderr
    result = qrcheckin("ctl", "--output-dir", str(tmp_path / "o"), "shake", "sideways")
    assert result.returncode == 64 and b"expects on|off|toggle, got 'sideways'" in result.stderr
    assert not (tmp_path / "o").exists()


def test_help_for_every_daemon_command(qrcheckin):
    for command in ("run", "status", "ctl", "shake"):
        result = qrcheckin(command, "--help")
        assert result.returncode == 0
        text = result.stdout.decode()
        assert text.startswith(f"USAGE: qrcheckin {command}") and "EXIT STATUS" in text


def test_a_damaged_settings_file_starts_paused_and_is_not_overwritten(daemons):
    daemon = daemons(period=2, start=False)
    daemon.state.mkdir(parents=True)
    (daemon.state / "settings").write_text("shake = on\nrefresh = sometimes\n")
    daemon.start()
    state = daemon.state_now()
    assert state["state"] == "paused" and state["url"] is None
    assert "settings:2: refresh must be auto or paused" in daemon.logs()
    assert (daemon.state / "settings").read_text() == "shake = on\nrefresh = sometimes\n"
    assert daemon.cli("ctl", "--output-dir", str(daemon.out), "refresh", "auto").returncode == 0
    assert "refresh = auto" in (daemon.state / "settings").read_text()


def test_an_output_directory_anyone_may_write_to_is_refused(tmp_path, qrcheckin):
    out = tmp_path / "shared"
    out.mkdir()
    out.chmod(0o777)
    result = qrcheckin("run", "--output-dir", str(out), "--state-dir", str(tmp_path / "s"))
    assert result.returncode == 73
    assert f"refusing to use {out}: anyone may write to it (mode 0777)" in result.stderr.decode()
    assert not (out / "control.sock").exists()
    # A link is judged by what it leads to (and by who could have made it: tests of
    # test_directory_trust.py): here, to the same directory anyone may write to.
    (tmp_path / "link").symlink_to(out)
    result = qrcheckin("run", "--output-dir", str(tmp_path / "link"), "--state-dir", str(tmp_path / "s"))
    assert result.returncode == 73
    assert f"refusing to use {tmp_path / 'link'}: anyone may write to {out} (mode 0777)" in result.stderr.decode()
    assert list(out.iterdir()) == []


def test_duplicate_config_keys_are_refused(tmp_path, qrcheckin):
    config = tmp_path / "dup.conf"
    config.write_text("venue = A\nperiod = 5\nvenue = B\n")
    result = qrcheckin("run", "--config", str(config))
    assert result.returncode == 78
    assert f"{config}:3: venue is already set on line 1" in result.stderr.decode()


def test_shake_and_refresh_now_while_paused_are_refused(daemons):
    daemon = daemons(period=5)
    d = ["--output-dir", str(daemon.out)]
    assert daemon.cli("ctl", *d, "refresh", "pause").returncode == 0
    shake = daemon.cli("shake", *d)
    assert shake.returncode == 1 and b"paused" in shake.stderr
    now = daemon.cli("ctl", *d, "refresh", "now")
    assert now.returncode == 1 and b"paused" in now.stderr
    assert daemon.state_now()["state"] == "paused"


def test_a_deleted_control_socket_is_recreated_at_the_next_tick(daemons):
    daemon = daemons(period=1)
    daemon.socket.unlink()
    wait_until(daemon.socket.exists, message="the socket to come back")
    assert daemon.cli("ctl", "--output-dir", str(daemon.out), "get").returncode == 0
    assert "recreated the control socket" in daemon.logs()


def test_sighup_reads_a_replaced_secret_and_uses_it_at_once(daemons):
    daemon = daemons(period=30)
    old_secret = daemon.secret.read_text()
    before = daemon.state_now()
    assert verify(daemon, before["url"]).returncode == 0
    new_secret = os.urandom(32).hex() + "\n"
    replacement = daemon.secret.with_name("secret.new")
    replacement.write_text(new_secret)
    replacement.chmod(0o600)
    replacement.replace(daemon.secret)  # the way an operator rotates it: atomically
    daemon.signal(signal.SIGHUP)
    # A code the new secret signs (a window boundary before the reload would change the code
    # with the old secret still in use: not what is waited for).
    after = wait_until(lambda: (s := daemon.state_now())["url"] != before["url"]
                       and verify(daemon, s["url"]).returncode == 0 and s, message="a code from the new secret")
    assert after["window"] > before["window"] or after["seq"] > before["seq"], "codes only move forward"
    assert after["health"] == "ok"
    url, _ = shown_code(daemon.out)
    assert verify(daemon, url).returncode == 0, "the new secret signs the code on display"
    old = daemon.secret.with_name("secret.old")
    old.write_text(old_secret)
    old.chmod(0o600)
    result = daemon.cli("verify", "--secret-file", str(old), "--period", "30", url)
    assert result.returncode == 1, "the old secret no longer signs codes"

    # A secret file that cannot be read on reload keeps the running configuration.
    daemon.secret.write_text("not hex\n")
    daemon.signal(signal.SIGHUP)
    wait_until(lambda: "reload failed" in daemon.logs(), message="the reload error")
    assert "cannot read the secret" in daemon.logs()
    kept = daemon.secret.with_name("secret.kept")
    kept.write_text(new_secret)
    kept.chmod(0o600)
    running = daemon.state_now()
    result = daemon.cli("verify", "--secret-file", str(kept), "--period", "30", running["url"])
    assert result.returncode == 0 and running["venue"] == after["venue"], "still the secret read before"


def test_client_commands_build_only_the_settings_they_use(daemons, tmp_path, qrcheckin):
    daemon = daemons(period=15)
    d = ["--output-dir", str(daemon.out)]
    # status, ctl and shake never use ops-group, scale or period: a bad value there is not theirs.
    env = {"QRCHECKIN_OPS_GROUP": "nosuchgroup", "QRCHECKIN_SCALE": "0", "QRCHECKIN_PERIOD": "soon"}
    assert daemon.cli("status", *d, env=env).returncode == 0
    assert daemon.cli("ctl", *d, "get", env=env).returncode == 0
    assert daemon.cli("shake", *d, env=env).returncode == 0
    # ...while a bad value of a setting the command does use is still refused, naming it.
    config = tmp_path / "client.conf"
    config.write_text("venue = HALL\nsocket = \n")
    result = qrcheckin("status", "--config", str(config), *d)
    assert result.returncode == 78 and f"{config}:2: socket" in result.stderr.decode(), result.stderr
    # run still validates everything it builds.
    result = qrcheckin("run", *d, env={"QRCHECKIN_OPS_GROUP": "nosuchgroup"})
    assert result.returncode == 78 and b"$QRCHECKIN_OPS_GROUP: no such group 'nosuchgroup'" in result.stderr
