"""Venue keys and secret rotation against a live daemon, verified the way a check-in server does:
one `verify --stdin` co-process checking every code the daemon shows."""
import json
import os
import select
import signal
import subprocess
import time


from conftest import BIN, zbar
from daemonutil import read_state, wait_until

SKEW = 4  # generous: this test is about secrets, not about how late a scan may arrive


class Verifier:
    """`qrcheckin verify --stdin` kept open: one line in, one JSON answer out."""

    def __init__(self, *secret_files, skew=SKEW, period=1):
        self.options = ["--period", str(period), "--skew", str(skew)]
        for path in secret_files:
            self.options += ["--secret-file", str(path)]
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("QRCHECKIN_")}
        self.process = subprocess.Popen([BIN, "verify", "--stdin", *self.options], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, env=self.env)

    def check(self, url, shown_at=None):
        """The answer for `url` now. A code the kiosk showed at `shown_at` (Unix seconds) that is
        expired by the time the answer comes (a loaded machine stalled a process past the skew)
        is judged again as at that moment, as the phone that scanned it then would have it."""
        self.process.stdin.write(url.encode() + b"\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], 20)
        assert ready, "the verifier did not answer"
        answer = json.loads(self.process.stdout.readline())
        if shown_at is not None and answer["reason"] == "expired":
            return self.check_at(url, shown_at)
        return answer

    def check_at(self, url, at):
        """The answer for `url` as at `at` (Unix seconds), from a one-shot `verify --at`."""
        result = subprocess.run([BIN, "verify", "--json", "--at", str(int(at)), *self.options, url],
                                capture_output=True, env=self.env, timeout=30)
        return json.loads(result.stdout)

    def close(self):
        self.process.stdin.close()
        assert self.process.wait(10) == 0


def keygen(tmp_path, name, *args):
    path = tmp_path / name
    result = subprocess.run([BIN, "keygen", "-o", str(path), *args], capture_output=True)
    assert result.returncode == 0, result.stderr
    return path


def test_a_kiosk_with_only_a_venue_key_serves_codes_the_master_verifies(daemons, tmp_path, tools):
    master = keygen(tmp_path, "master")
    key = keygen(tmp_path, "hall-1.key", "--venue", "HALL-1", "--from", str(master))
    daemon = daemons("kiosk", args=["--secret-file", str(key), "--venue", "HALL-1"], period=1)
    assert "venue key of HALL-1" in daemon.logs()
    verifier = Verifier(master)
    windows = set()
    while len(windows) < 3:
        state = wait_until(lambda: (s := daemon.state_now()) and s["window"] not in windows and s,
                           message="a new window")
        windows.add(state["window"])
        answer = verifier.check(state["url"], time.time())
        assert answer["valid"] and answer["venue"] == "HALL-1" and answer["secretFile"] == str(master), answer
        shown_at = time.time()
        scanned = verifier.check(zbar(daemon.out / "current.png").decode(), shown_at)  # what a phone reads off the kiosk
        assert scanned["valid"] and scanned["venue"] == "HALL-1", scanned
    verifier.close()
    # The same key refuses to start a daemon for another venue, before creating anything.
    other = daemons("other", period=1, args=["--secret-file", str(key), "--venue", "HALL-2"], wait=False)
    assert other.process.wait(20) == 78
    assert "serves venue HALL-1 only, not HALL-2" in other.logs()
    assert not (other.base / "out").exists()


def test_a_reload_to_a_venue_the_key_does_not_serve_keeps_the_running_venue(daemons, tmp_path):
    master = keygen(tmp_path, "master")
    key = keygen(tmp_path, "hall-1.key", "--venue", "HALL-1", "--from", str(master))
    config = tmp_path / "kiosk.conf"
    config.write_text("venue = HALL-1\n")
    daemon = daemons("kiosk", args=["--secret-file", str(key), "--config", str(config)], period=1)
    config.write_text("venue = HALL-2\n")
    daemon.signal(signal.SIGHUP)
    wait_until(lambda: "reload failed" in daemon.logs(), message="the refused reload")
    assert "serves venue HALL-1 only" in daemon.logs()
    assert daemon.process.poll() is None and daemon.state_now()["venue"] == "HALL-1"


def test_rotation_end_to_end_rejects_no_valid_code_and_accepts_no_old_one(daemons, tmp_path):
    """The procedure of docs/TOKEN.md: new secret to the verifiers, switch the kiosk, drop the
    old secret after the skew. 'Switch the kiosk' is: replace its secret file, SIGHUP (the
    daemon re-reads the secret and shows a code of the new one at once, with no gap)."""
    old = keygen(tmp_path, "old.secret")
    new = keygen(tmp_path, "new.secret")
    kiosk_secret = tmp_path / "kiosk.secret"
    kiosk_secret.write_bytes(old.read_bytes())
    kiosk_secret.chmod(0o600)
    args = ["--secret-file", str(kiosk_secret), "--venue", "HALL-1"]
    daemon = daemons("kiosk", args=args, period=1)
    checked, rejected, old_codes, matched = 0, [], set(), []

    def hammer(verifier, until, timeout=60):
        """Verifies whatever the kiosk shows, as fast as the co-process answers, until `until()`."""
        nonlocal checked
        deadline = time.monotonic() + timeout
        while not until():
            assert time.monotonic() < deadline, f"no progress in {timeout}s; rejected so far: {rejected[:2]}"
            shown_at = time.time()
            state = read_state(daemon.out)
            if not state or state["state"] != "running":
                time.sleep(0.01)  # a stopped kiosk shows no code; poll again
                continue
            answer = verifier.check(state["url"], shown_at)
            checked += 1
            if not answer["valid"]:
                rejected.append((state["url"], answer))
            else:
                matched.append(answer["secretFile"])
                if answer["secretFile"] == str(old):
                    old_codes.add(state["url"])

    def window():
        state = read_state(daemon.out)
        return state["window"] if state else -2**63

    # 1. Before: the verifiers hold the old secret only.
    before = Verifier(old)
    first_window = window()
    hammer(before, lambda: window() >= first_window + 2 and checked >= 70)
    before.close()
    # 2. The verifiers get the new secret too, then the kiosk switches.
    both = Verifier(new, old)
    matched.clear()
    hammer(both, lambda: matched.count(str(old)) >= 20)
    last_scanned = read_state(daemon.out)["url"]  # scanned now, reaches the server after the switch
    pid = daemon.process.pid
    kiosk_secret.write_bytes(new.read_bytes())
    matched.clear()
    daemon.signal(signal.SIGHUP)  # the same process reads its secret again
    switched = [None]
    switched_at = [None]

    def new_code_seen():
        # The window when the verifiers first matched the new secret: no old code after it.
        if switched[0] is None and str(new) in matched:
            switched[0], switched_at[0] = window(), time.time()
        return switched[0] is not None and window() >= switched[0] + 2 and matched.count(str(new)) >= 20

    hammer(both, new_code_seen)
    assert matched.count(str(new)) >= 20, "the kiosk never showed a code of the new secret"
    assert read_state(daemon.out)["pid"] == pid, "the switch needed no restart"
    # The code scanned before the switch, reaching the server when the kiosk already shows the
    # new secret's codes (judged as at that moment, however long the hammering since took).
    late = both.check_at(last_scanned, switched_at[0])
    assert late["valid"] and late["secretFile"] == str(old), late
    both.close()
    # 3. Drop the old secret once its skew has passed for the last old code.
    last_old_window = switched[0]
    wait_until(lambda: window() >= last_old_window + SKEW + 1, timeout=30, message="the old secret's skew to pass")
    after = Verifier(new)
    final_window = window()
    hammer(after, lambda: window() >= final_window + 2)
    accepted_old = [url for url in old_codes if after.check(url)["valid"]]
    after.close()
    # The old secret's codes are now refused also by a verifier that still holds it (expired).
    still_both = Verifier(new, old)
    accepted_old += [url for url in old_codes if still_both.check(url)["valid"]]
    still_both.close()

    assert checked > 100
    assert rejected == [], rejected[:3]
    assert old_codes, "no code of the old secret was seen"
    assert accepted_old == []
