"""The web kiosk as a user sees it: the shipped nginx config (via scripts/web-kiosk) serving a real
daemon's output directory, the page in headless Debian chromium, screenshots decoded by zbarimg and
checked by `qrcheckin verify`."""
import json
import math
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.parse
from pathlib import Path

import pytest
from selenium.common.exceptions import WebDriverException

from conftest import BIN, ROOT, zbar
from daemonutil import REMOVALS, Daemon, read_state, wait_until
from webutil import WebKiosk, browser, faketime_prefix, png_size, raw_get, resize

PORTRAIT = (1080, 1920)
LANDSCAPE = (1280, 800)


@pytest.fixture(scope="module", autouse=True)
def web_tools():
    for tool in ("/usr/sbin/nginx", "/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/bin/zbarimg"):
        assert os.access(tool, os.X_OK), f"{tool} missing: run scripts/install-deps --test"


@pytest.fixture(scope="module")
def site():
    """An output root readable by nginx's workers (nobody, when root runs the tests), one secret
    shared by every daemon and `verify`, and scripts/web-kiosk serving the root."""
    base = Path(tempfile.mkdtemp(prefix="qrcheckin-web-test."))
    base.chmod(0o755)
    (base / "out").mkdir(mode=0o755)
    secret = base / "secret"
    keygen = subprocess.run([BIN, "keygen", "-o", str(secret)], capture_output=True, timeout=30)
    assert keygen.returncode == 0, keygen.stderr
    kiosk = WebKiosk(base / "out", base).start()
    yield {"base": base, "out": base / "out", "secret": secret, "kiosk": kiosk}
    kiosk.stop()
    shutil.rmtree(base, ignore_errors=True)


def start_daemon(site, venue, period, root=False):
    """A daemon of `venue` writing to the output root (root=True) or to OUT/VENUE/."""
    base = site["base"] / f"daemon-{venue}"
    daemon = Daemon(base, period=period,
                    args=["--venue", venue, "--secret-file", str(site["secret"])])
    daemon.out = site["out"] if root else site["out"] / venue
    return daemon.start()


@pytest.fixture(scope="module")
def chrome(site):
    driver = browser(*PORTRAIT, site["base"] / "profile")
    yield driver
    driver.quit()


def dom(driver):
    """What the page shows, read from the DOM."""
    return driver.execute_script("""
        const main = document.getElementById('kiosk');
        const image = document.getElementById('qr');
        const countdown = document.getElementById('countdown');
        return {state: main.dataset.state, window: main.dataset.window, seq: main.dataset.seq,
                safeNumber: document.getElementById('safe-number').textContent,
                seconds: countdown.dataset.seconds === undefined ? null : Number(countdown.dataset.seconds),
                countdown: countdown.textContent,
                red: (countdown.querySelector('.seconds') || {}).textContent,
                redColor: countdown.querySelector('.seconds') ? getComputedStyle(countdown.querySelector('.seconds')).color : null,
                title: document.getElementById('message-title').textContent,
                body: document.getElementById('message-body').textContent,
                warning: document.getElementById('warning').textContent,
                imageHidden: image.hidden, alt: image.alt,
                modules: Number(image.dataset.modules || 0), modulePx: Number(image.dataset.modulePx || 0),
                imageWidth: image.getBoundingClientRect().width,
                clockOffsetMs: Number(main.dataset.clockOffsetMs),
                viewport: [innerWidth, innerHeight]};""")


def wait_state(driver, state, timeout=30):
    return wait_until(lambda: (d := dom(driver))["state"] == state and d, timeout=timeout, interval=0.05,
                      message=f"page state {state!r}, last {dom(driver)}")


def verify(site, venue, url, period, at=None):
    """`qrcheckin verify` with the daemon's secret, venue and period, as a check-in server would:
    now, or as at `at` (Unix seconds), the moment the screenshot was taken."""
    when = ["--at", str(int(at))] if at is not None else []
    return subprocess.run([BIN, "verify", "--secret-file", str(site["secret"]), "--venue", venue,
                           "--period", str(period), *when, url],
                          capture_output=True, timeout=30)


def live_snapshot(driver, out, shot, min_seconds=1):
    """A screenshot of a live code together with the DOM and current.json of that very code:
    the DOM shows the same window before and after the shot, and the file on disk is that code."""
    def attempt():
        before = dom(driver)
        if before["state"] != "live" or before["seconds"] < min_seconds:
            return None
        driver.save_screenshot(str(shot))
        after = dom(driver)
        state = read_state(out)
        same = (before["window"], before["seq"]) == (after["window"], after["seq"])
        if not same or state is None or (str(state["window"]), str(state["seq"])) != (before["window"], before["seq"]):
            return None
        return before, state
    return wait_until(attempt, timeout=30, interval=0.05, message="a live code to screenshot")


def test_rotation_screenshots_decode_to_verified_urls_at_both_sizes(site, chrome, tmp_path):
    daemon = start_daemon(site, "DEMO", period=3, root=True)
    try:
        chrome.get(site["kiosk"].url)
        report = []
        for width, height in (PORTRAIT, LANDSCAPE):
            resize(chrome, width, height)
            wait_state(chrome, "live")
            urls = []
            for turn in ("before", "after"):
                shot = tmp_path / f"{width}x{height}-{turn}.png"
                shown, state = live_snapshot(chrome, site["out"], shot)
                shot_at = time.time()  # just after the shot and the current.json read that matched it
                if urls:
                    assert shown["window"] != urls[-1][1], "the second shot must be after a rotation"
                assert png_size(shot.read_bytes()) == (width, height)
                url = zbar(shot).decode()
                assert url == state["url"], f"QR {url} is not current.json's {state['url']}"
                assert shown["safeNumber"] == state["safeNumber"], (shown, state)
                check = verify(site, "DEMO", url, 3, at=shot_at)
                assert check.returncode == 0, check.stdout + check.stderr
                assert shown["red"] == f"{shown['seconds']}초" and shown["countdown"] == f"남은 시간 {shown['seconds']}초"
                assert shown["redColor"] == "rgb(200, 16, 46)"
                assert shown["alt"] and state["safeNumber"] in shown["alt"]
                urls.append((url, shown["window"]))
                report.append(f"{width}x{height} {turn}: QR {shown['imageWidth']:.0f}px, "
                              f"{shown['modules']} modules × {shown['modulePx']}px, window {shown['window']}")
                if turn == "before":
                    wait_until(lambda: dom(chrome)["window"] not in (None, shown["window"]), timeout=30,
                               message="the page to swap in the next code")
            assert urls[0][0] != urls[1][0]
            # Scannable from 1 m: a module of at least 12 px (≥ 2 mm even on a dense 10" tablet).
            assert shown["modulePx"] >= 12, shown
        print("\n" + "\n".join(report))
    finally:
        daemon.stop()


def test_countdown_is_right_with_the_display_clock_ten_minutes_wrong(site, tmp_path):
    daemon = start_daemon(site, "CLOCK-1", period=20)
    driver = browser(*LANDSCAPE, tmp_path / "profile", renderer_prefix=faketime_prefix(tmp_path, -600))
    try:
        page_clock = driver.execute_script("return Date.now()") / 1000
        assert abs(page_clock - (time.time() - 600)) < 30, "libfaketime did not move the page's clock"
        driver.get(site["kiosk"].url + "?venue=CLOCK-1")
        wait_state(driver, "live")
        # Give the page a few Date-header samples; then read its countdown between two true clocks.
        wait_until(lambda: dom(driver)["seconds"] is not None, message="a countdown")

        def reading():
            state = read_state(daemon.out)
            before = time.time()
            shown = dom(driver)
            after = time.time()
            # Right after a rotation the page shows the old code until its next poll: read again.
            return str(state["window"]) == shown["window"] and (state, shown, before, after)

        state, shown, before, after = wait_until(reading, timeout=60, interval=0.1,
                                                 message="the page to show current.json's code")
        low = math.ceil(state["expiresAt"] - after) - 1
        high = math.ceil(state["expiresAt"] - before) + 1
        assert low <= shown["seconds"] <= high, (shown, state, before, after)
        assert abs(shown["clockOffsetMs"] - 600_000) < 3000, shown
        shot = tmp_path / "faketime.png"
        live_snapshot(driver, daemon.out, shot)
        assert verify(site, "CLOCK-1", zbar(shot).decode(), 20, at=time.time()).returncode == 0
    finally:
        driver.quit()
        daemon.stop()


def no_qr(shot):
    result = subprocess.run(["zbarimg", "--raw", "-q", "--nodbus", str(shot)], capture_output=True, timeout=30)
    return result.returncode != 0 and result.stdout == b""


def test_paused_stale_and_stopped_show_their_message_and_no_qr(site, chrome, tmp_path):
    daemon = start_daemon(site, "HALL.2", period=2)
    try:
        resize(chrome, *PORTRAIT)
        chrome.get(site["kiosk"].url + "?venue=HALL.2")
        wait_state(chrome, "live")

        assert daemon.request("refresh pause")["ok"] is True
        shown = wait_state(chrome, "paused")
        chrome.save_screenshot(str(tmp_path / "paused.png"))
        assert no_qr(tmp_path / "paused.png")
        assert shown["title"] == "체크인 일시 중지" and shown["imageHidden"] and shown["safeNumber"] == ""

        assert daemon.request("refresh auto")["ok"] is True
        wait_state(chrome, "live")

        daemon.signal(signal.SIGSTOP)  # a hung daemon: the file stays, its code runs out
        try:
            shown = wait_state(chrome, "stale")
            chrome.save_screenshot(str(tmp_path / "stale.png"))
            assert no_qr(tmp_path / "stale.png")
            assert shown["title"] == "체크인 코드가 최신이 아닙니다" and shown["imageHidden"]
            assert "데몬이 코드를 갱신하지 않습니다" in shown["body"]
        finally:
            daemon.signal(signal.SIGCONT)
        wait_state(chrome, "live")

        assert daemon.stop() == 0
        shown = wait_state(chrome, "stopped")
        chrome.save_screenshot(str(tmp_path / "stopped.png"))
        assert no_qr(tmp_path / "stopped.png")
        assert shown["title"] == "체크인이 실행 중이 아닙니다" and shown["imageHidden"]

        chrome.get(site["kiosk"].url + "?venue=HALL.2&lang=en")
        assert wait_state(chrome, "stopped")["title"] == "Check-in is not running"
    finally:
        daemon.stop()


@pytest.mark.parametrize("removal", REMOVALS)
def test_the_page_shows_the_same_code_again_after_the_outputs_are_removed(site, chrome, removal):
    """The daemon puts removed outputs back within a second (test_daemon_faults.py); the page,
    which may have found current.json missing meanwhile, shows the same code again."""
    venue = removal.upper()
    daemon = start_daemon(site, venue, period=30)
    try:
        resize(chrome, *PORTRAIT)
        chrome.get(site["kiosk"].url + f"?venue={venue}")
        before = wait_until(lambda: (d := read_state(daemon.out)) and d["expiresAt"] - time.time() >= 10 and d, 60,
                            message="a window with 10 s left")
        wait_until(lambda: (d := dom(chrome))["state"] == "live" and d["window"] == str(before["window"]), 30,
                   interval=0.05, message="the page to show the code")
        # Counts the page's requests as they end, to tell a page that has looked since the files
        # came back from one still showing what it saw before.
        chrome.execute_script("window.fetches = 0; const fetch = window.fetch;"
                              "window.fetch = (...request) => fetch(...request).finally(() => { window.fetches += 1; });")
        release = REMOVALS[removal](daemon.out)
        try:
            wait_until(lambda: (d := read_state(daemon.out)) and d["url"] == before["url"] and (daemon.out / "current.png").exists(),
                       5, interval=0.005, message="the daemon to put its files back")
            ended = chrome.execute_script("return window.fetches")
            # Two more ended: the second began after the first ended, after the files were back.
            shown = wait_until(lambda: chrome.execute_script("return window.fetches") >= ended + 2
                               and (d := dom(chrome))["state"] == "live" and d, 30, interval=0.05,
                               message=f"the page to show the code again, last {dom(chrome)}")
            assert (shown["window"], shown["seq"]) == (str(before["window"]), str(before["seq"]))
            assert shown["safeNumber"] == before["safeNumber"] and not shown["imageHidden"]
        finally:
            release()
    finally:
        daemon.stop()


def test_english_page_and_accessibility(site, chrome):
    from selenium_axe_python import Axe

    daemon = start_daemon(site, "A11Y", period=3)
    try:
        resize(chrome, *LANDSCAPE)
        chrome.get(site["kiosk"].url + "?venue=A11Y&lang=en")
        shown = wait_state(chrome, "live")
        assert shown["countdown"] == f"Time left {shown['seconds']}s" and shown["red"] == f"{shown['seconds']}s"
        assert chrome.execute_script("return document.documentElement.lang") == "en"
        # Live regions: count their changes over more than one period while the countdown ticks.
        chrome.execute_script("""
            window.__announcements = [];
            const regions = document.querySelectorAll('[aria-live="polite"],[aria-live="assertive"],[role=status],[role=alert]');
            const region = (node) => (node.nodeType === 1 ? node : node.parentElement).closest('[aria-live],[role=status],[role=alert]');
            const observer = new MutationObserver((records) => {
                for (const r of records) { const at = region(r.target); window.__announcements.push([at.id, at.textContent]); } });
            regions.forEach((r) => observer.observe(r, {childList: true, subtree: true, characterData: true}));""")
        first = dom(chrome)
        wait_until(lambda: dom(chrome)["window"] != first["window"], timeout=30, message="a rotation")
        # Then until the countdown has shown three values (it ticked twice): the observation ends
        # on events, not after a fixed time in which a slow browser might see another rotation.
        seen = {first["seconds"]}
        wait_until(lambda: seen.add(dom(chrome)["seconds"]) or len(seen) >= 3, timeout=30, interval=0.1,
                   message=f"the countdown to tick (seen {seen})")
        announcements = chrome.execute_script("return window.__announcements")
        # The code change speaks (the safe number, once per code); the countdown's ticks never
        # do: no live region ever holds its text, and the safe number's region changes only with
        # the code. A loaded machine may also make the page say the code is late and then live
        # again: state messages are announcements too, so they are not counted as ticks.
        assert len(seen) >= 3, "the countdown should have ticked"
        assert announcements, "the code change should have been announced"
        assert not [text for _, text in announcements if "Time left" in text], announcements
        safe_numbers = [text for where, text in announcements if where == "safe-number"]
        assert safe_numbers and len(safe_numbers) <= 2 * len(set(safe_numbers)), announcements
        timer = chrome.execute_script("""
            const c = document.getElementById('countdown');
            return [c.getAttribute('role'), c.getAttribute('aria-live'), !!c.closest('[aria-live]:not([aria-live=off])')];""")
        assert timer == ["timer", "off", False]

        # No request of any kind leaves the page's origin (the CSP would also refuse one).
        names = chrome.execute_script("return performance.getEntriesByType('resource').map((e) => e.name)")
        origin = site["kiosk"].url.rstrip("/")
        assert names and all(name.startswith(origin + "/") for name in names), names

        axe = Axe(chrome)
        axe.inject()
        for size in (LANDSCAPE, PORTRAIT):
            resize(chrome, *size)
            results = axe.run()
            assert results["violations"] == [], axe.report(results["violations"])
    finally:
        daemon.stop()


def test_server_serves_only_the_page_and_current_files_never_cached(site):
    daemon = start_daemon(site, "HTTP", period=5)
    try:
        port = site["kiosk"].port
        # Files a careless config would expose, planted beside the real ones.
        for name in ("secret", "settings", "current.json.tmp"):
            (site["out"] / "HTTP" / name).write_text("do not serve\n")
        for path, kind in (("/HTTP/current.json", "application/json; charset=utf-8"),
                           ("/HTTP/current.txt", "text/plain; charset=utf-8"),
                           ("/HTTP/current.png", "image/png")):
            status, headers, body = raw_get(port, path)
            assert status == 200, path
            assert headers["content-type"] == kind
            assert headers["cache-control"] == "no-store"
            assert body
        assert json.loads(raw_get(port, "/HTTP/current.json")[2])["venue"] == "HTTP"
        status, headers, body = raw_get(port, "/")
        assert status == 200 and b'id="kiosk"' in body and headers["content-type"] == "text/html; charset=utf-8"
        assert "default-src 'none'" in headers["content-security-policy"]
        for path in ("/kiosk.js", "/kiosk.css"):
            assert raw_get(port, path)[0] == 200
        # metrics.prom is for monitoring on the host (README, Metrics): never served.
        refused = ["/HTTP/control.sock", "/HTTP/metrics.prom", "/HTTP/secret", "/HTTP/settings", "/HTTP/current.json.tmp",
                   "/HTTP/", "/HTTP", "/index.html/", "/web/", "/nginx/",
                   "/../current.json", "/../../etc/passwd", "/HTTP/../HTTP/secret", "/%2e%2e/current.json",
                   "/HTTP/%2e%2e/%2e%2e/current.json", "/../HTTP/current.json", "/.../current.json",
                   "/../daemon-HTTP/state/settings", "/x/y/current.json", "/hall/current.json",
                   "/ABCDEFGHIJKLMNOPQ/current.json", "/HTTP/current.png/", "/current.json%00.png"]
        for path in refused:
            status = raw_get(port, path)[0]
            assert status in (400, 403, 404), f"{path} answered {status}"
        assert raw_get(port, "/HTTP/current.json", method="POST")[0] in (403, 405)
        assert raw_get(port, "/HTTP/current.json", method="HEAD")[0] == 200
    finally:
        daemon.stop()


def test_web_kiosk_script_usage():
    script = str(ROOT / "scripts" / "web-kiosk")
    help_run = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=30)
    assert help_run.returncode == 0 and "--output-dir" in help_run.stdout
    bad = subprocess.run([script, "--port", "http"], capture_output=True, text=True, timeout=30)
    assert bad.returncode == 64 and "--port" in bad.stderr
    unknown = subprocess.run([script, "--bogus"], capture_output=True, text=True, timeout=30)
    assert unknown.returncode == 64 and "unknown argument" in unknown.stderr


def write_state(directory, **fields):
    """A hand-made current.json (atomic rename, as the daemon does) for states a daemon rarely
    shows on demand."""
    document = {"version": 1, "state": "running", "venue": "FAKE", "url": None, "token": None,
                "safeNumber": None, "window": None, "seq": None, "issuedAt": None, "expiresAt": None,
                "period": 15, "shake": "on", "refresh": "auto", "health": "ok", "reason": None,
                "updatedAt": int(time.time()), "pid": 1}
    document.update(fields)
    temporary = Path(directory) / ".current.json.new"
    temporary.write_text(json.dumps(document, ensure_ascii=False))
    temporary.rename(Path(directory) / "current.json")


def test_degraded_unknown_keys_bad_version_and_unreachable_server(site, chrome, tmp_path):
    fake = site["out"] / "FAKE"
    fake.mkdir(mode=0o755)
    url = "HTTPS://CHECKIN.EXAMPLE.ORG/C/FAKE/NOT-A-REAL-TOKEN"
    encode = subprocess.run([BIN, "encode", "-o", str(fake / "current.png"), url], capture_output=True, timeout=30)
    assert encode.returncode == 0, encode.stderr
    (fake / "current.png").chmod(0o644)
    own = WebKiosk(site["out"], tmp_path).start()  # stopped below to make the server unreachable
    try:
        resize(chrome, *PORTRAIT)
        for attempt in range(5):
            # Degraded but within its window (6 s left): the code may show, with the warning. A
            # future `clock` object (and any unknown key) is ignored. A page that came up only
            # after those 6 s proves nothing: write a fresh one and load it again.
            expires = int(time.time()) + 6
            write_state(fake, url=url, token="NOT-A-REAL-TOKEN", safeNumber="12현34규", window=7 + attempt, seq=0,
                        issuedAt=expires - 15, expiresAt=expires, health="degraded",
                        reason="cannot write current.png: No space left on device",
                        clock={"synchronized": False, "warning": "clock not synchronized"}, futureKey=[1, 2])
            try:
                chrome.get(own.url + "?venue=FAKE&ops=1")
            except WebDriverException as error:  # refused once under a CPU hog: say what the kiosk was doing
                raise AssertionError(f"attempt {attempt}: {error.msg}; {own.alive()}") from error
            shown = wait_until(lambda: (d := dom(chrome))["state"] in ("live", "stale") and d, timeout=30,
                               interval=0.05, message=f"the page to show the degraded code, last {dom(chrome)}")
            if shown["state"] == "live":
                chrome.save_screenshot(str(tmp_path / "degraded.png"))
                if dom(chrome)["state"] == "live":
                    break  # the screenshot is of the live page
        else:
            pytest.fail("the page never showed the degraded code while it was valid")
        assert shown["safeNumber"] == "12현34규"
        assert shown["warning"] == "경고: cannot write current.png: No space left on device"
        assert zbar(tmp_path / "degraded.png").decode() == url

        own.stop()  # unreachable: the code stays only until it expires, then the page says so
        shown = wait_state(chrome, "stale", timeout=30)
        assert shown["title"] == "체크인 코드가 최신이 아닙니다" and shown["imageHidden"]
        assert shown["body"] == "서버에서 current.json을 받을 수 없습니다"
        chrome.save_screenshot(str(tmp_path / "unreachable.png"))
        assert no_qr(tmp_path / "unreachable.png")
    finally:
        own.stop()

    write_state(fake, version=2)
    chrome.get(site["kiosk"].url + "?venue=FAKE")
    assert wait_state(chrome, "unreadable")["title"] == "current.json을 읽을 수 없습니다"
    chrome.get(site["kiosk"].url + "?venue=NOPE")
    assert wait_state(chrome, "stopped")["title"] == "체크인이 실행 중이 아닙니다"
    chrome.get(site["kiosk"].url + "?venue=../x")
    assert wait_state(chrome, "unreadable")["title"] == "잘못된 장소 ID (venue)"


def test_clock_warning_and_waiting_for_the_clock(site, chrome, tmp_path):
    """This machine's kernel reports its clock unsynchronised (test_clock_trust.py probes it):
    the live page warns under the code; with require-clock-sync it shows the waiting message."""
    daemon = start_daemon(site, "CLOCK", period=5)
    waiting = None
    try:
        if read_state(daemon.out)["clock"]["synchronized"] is not False:
            pytest.skip("this kernel reports its clock synchronised")
        resize(chrome, *PORTRAIT)
        chrome.get(site["kiosk"].url + "?venue=CLOCK&ops=1")
        shown = wait_until(lambda: (d := dom(chrome))["state"] == "live" and d["warning"] and d, timeout=20,
                           message="the live page with its warning")
        assert shown["warning"].startswith("경고: 시계가 동기화되지 않음 (±"), shown
        chrome.get(site["kiosk"].url + "?venue=CLOCK&lang=en&ops=1")
        shown = wait_until(lambda: (d := dom(chrome))["state"] == "live" and d["warning"] and d, timeout=20,
                           message="the English warning")
        assert shown["warning"].startswith("Warning: clock not synchronised"), shown
        daemon.stop()

        base = site["base"] / "daemon-WAIT"
        waiting = Daemon(base, period=5, args=["--venue", "WAIT", "--secret-file", str(site["secret"]),
                                               "--require-clock-sync", "yes"])
        waiting.out = site["out"] / "WAIT"
        waiting.start()
        chrome.get(site["kiosk"].url + "?venue=WAIT")
        shown = wait_state(chrome, "paused")
        assert shown["title"] == "시계 동기화를 기다리는 중" and shown["imageHidden"], shown
        chrome.save_screenshot(str(tmp_path / "waiting.png"))
        assert no_qr(tmp_path / "waiting.png")
    finally:
        daemon.stop()
        if waiting:
            waiting.stop()


def test_a_missing_current_json_is_no_error_log_line_per_poll(site):
    """Each screen polls twice a second; a stopped daemon must not fill nginx's error log."""
    before = site["kiosk"].logs()
    for _ in range(5):
        assert raw_get(site["kiosk"].port, "/GONE-1/current.json")[0] == 404
        assert raw_get(site["kiosk"].port, "/GONE-1/current.png")[0] == 404
    # nginx writes its error log as it answers: the lines of these ten requests are there now.
    added = site["kiosk"].logs()[len(before):]
    assert "open()" not in added and "No such file" not in added, added


def hangul_breaks(driver, element_id):
    """Where the element's text wraps between two Hangul syllables (inside a Korean word)."""
    return driver.execute_script("""
        const element = document.getElementById(arguments[0]);
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        const range = document.createRange();
        const hangul = (c) => c >= '\\uAC00' && c <= '\\uD7A3';
        let previous = null, top = null, lines = 1;
        const bad = [];
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (let i = 0; i < node.data.length; i++) {
            range.setStart(node, i); range.setEnd(node, i + 1);
            const rects = range.getClientRects();
            if (!rects.length) continue;
            const here = rects[0].top, c = node.data[i];
            if (top !== null && here > top + 2) {
              lines++;
              if (hangul(previous) && hangul(c)) bad.push(previous + '|' + c);
            }
            top = here; previous = c;
          }
        }
        return {lines, bad};""", element_id)


def test_korean_wraps_between_words_never_inside_one(site, tmp_path):
    """A phone-width screen: the subtitle, the clock warning and a message wrap at spaces only."""
    fake = site["out"] / "WRAP-1"
    fake.mkdir(mode=0o755, exist_ok=True)
    url = "HTTPS://CHECKIN.EXAMPLE.ORG/C/WRAP-1/NOT-A-REAL-TOKEN"
    encode = subprocess.run([BIN, "encode", "-o", str(fake / "current.png"), url], capture_output=True, timeout=30)
    assert encode.returncode == 0, encode.stderr
    (fake / "current.png").chmod(0o644)
    now = int(time.time())
    write_state(fake, venue="WRAP-1", url=url, token="NOT-A-REAL-TOKEN", safeNumber="12현34규", window=now // 600,
                seq=0, issuedAt=now, expiresAt=now + 600, period=600,
                clock={"synchronized": False, "maxErrorSeconds": 16})
    driver = browser(360, 740, tmp_path / "profile")
    try:
        driver.get(site["kiosk"].url + "?venue=WRAP-1&ops=1")
        wait_until(lambda: (d := dom(driver))["state"] == "live" and d["warning"], timeout=20, message="the warning")
        for element in ("subtitle", "warning"):
            wrapped = hangul_breaks(driver, element)
            assert wrapped["lines"] > 1, f"{element} should wrap at 360 px"
            assert wrapped["bad"] == [], f"{element} breaks inside words: {wrapped['bad']}"
        write_state(fake, venue="WRAP-1", state="paused", refresh="paused")
        wait_state(driver, "paused")
        wrapped = hangul_breaks(driver, "message-body")
        assert wrapped["bad"] == [], f"the message breaks inside words: {wrapped['bad']}"
    finally:
        driver.quit()


def test_the_stop_time_is_local_time_and_lang_ignores_letter_case(site, chrome):
    from datetime import datetime, timezone
    from zoneinfo import ZoneInfo

    fake = site["out"] / "STOP-1"
    fake.mkdir(mode=0o755, exist_ok=True)
    stopped = 1700000000  # 2023-11-14T22:13:20Z, 07:13:20 the next morning in Seoul
    write_state(fake, venue="STOP-1", state="stopped", updatedAt=stopped)
    seoul = datetime.fromtimestamp(stopped, timezone.utc).astimezone(ZoneInfo("Asia/Seoul"))
    chrome.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Seoul"})
    try:
        chrome.get(site["kiosk"].url + "?venue=STOP-1&lang=EN")
        shown = wait_state(chrome, "stopped")
        assert shown["title"] == "Check-in is not running", shown
        assert chrome.execute_script("return document.documentElement.lang") == "en"
        assert shown["body"] == f"The daemon stopped at {seoul:%-d %b %Y}, {seoul:%H:%M:%S}", shown["body"]
        chrome.get(site["kiosk"].url + "?venue=STOP-1")
        shown = wait_state(chrome, "stopped")
        assert f"{seoul:%Y}. {seoul.month}. {seoul.day}." in shown["body"] and f"{seoul.hour}:{seoul:%M:%S}" in shown["body"], \
            shown["body"]
        assert "T22:13:20Z" not in shown["body"]
    finally:
        chrome.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})


def test_a_lower_case_venue_is_that_venue_and_a_bad_one_shows_no_other(site, chrome):
    fake = site["out"] / "LOWER-1"
    fake.mkdir(mode=0o755, exist_ok=True)
    write_state(fake, venue="LOWER-1", state="paused", refresh="paused", shake="off")
    # The output root's own daemon (here a stand-in) must not show under another venue's message.
    root_doc = site["out"] / "current.json"
    saved = root_doc.read_bytes() if root_doc.exists() else None
    write_state(site["out"], venue="ROOT-1", state="paused", refresh="paused")
    modes = lambda: chrome.find_element("id", "modes").text  # noqa: E731
    try:
        chrome.get(site["kiosk"].url + "?venue=lower-1&lang=en&ops=1")
        assert wait_state(chrome, "paused")["title"] == "Check-in paused"
        assert modes() == "LOWER-1 | shake off | refresh paused"
        chrome.get(site["kiosk"].url + "?venue=../x&lang=en&ops=1")
        shown = wait_state(chrome, "unreadable")
        assert shown["title"] == "Invalid venue id" and shown["body"] == "../x"
        assert modes() == "", modes()
    finally:
        if saved is None:
            root_doc.unlink()
        else:
            root_doc.write_bytes(saved)


def test_the_public_sees_no_operator_information_but_the_venue_and_where_to_type(site, chrome, tmp_path):
    """Issue 34: the clock warning and the modes footer are for operators (?ops=1); the public
    sees the venue's display name (?name=), the rotating number called 안심번호 (not the visitor's
    own 개인안심번호), and the address of the safe-number form for a phone that cannot scan."""
    from selenium_axe_python import Axe

    fake = site["out"] / "PUBLIC-1"
    fake.mkdir(mode=0o755, exist_ok=True)
    url = "HTTP://127.0.0.1:8081/C/PUBLIC-1/NOT-A-REAL-TOKEN"
    encode = subprocess.run([BIN, "encode", "-o", str(fake / "current.png"), url], capture_output=True, timeout=30)
    assert encode.returncode == 0, encode.stderr
    (fake / "current.png").chmod(0o644)
    now = int(time.time())
    write_state(fake, venue="PUBLIC-1", url=url, token="NOT-A-REAL-TOKEN", safeNumber="12현34규", window=now // 600,
                seq=0, issuedAt=now, expiresAt=now + 600, period=600, clock={"synchronized": False, "maxErrorSeconds": 16})
    def seen():
        return chrome.execute_script("""
        const text = (id) => { const e = document.getElementById(id); return e.hidden ? "" : e.innerText; };
        return {venue: text('venue-name'), form: text('form-line'), warning: text('warning'), modes: text('modes'),
                page: document.body.innerText, title: document.title};""")
    for size in (PORTRAIT, LANDSCAPE):
        resize(chrome, *size)
        chrome.get(site["kiosk"].url + "?venue=PUBLIC-1&name=" + urllib.parse.quote("대강당"))
        wait_state(chrome, "live")
        shown = wait_until(lambda: (s := seen())["form"] and s, message="the form line")
        chrome.save_screenshot(str(tmp_path / f"public-{size[0]}x{size[1]}.png"))
        assert shown["venue"] == "대강당" and shown["title"].startswith("대강당")
        assert shown["form"] == "안심번호 입력: http://127.0.0.1:8081/C/PUBLIC-1", shown
        assert shown["warning"] == "" and shown["modes"] == "", shown
        assert "시계" not in shown["page"] and "흔들기" not in shown["page"] and "PUBLIC-1 |" not in shown["page"]
        assert "개인안심번호" not in shown["page"] and "안심번호" in shown["page"]
        axe = Axe(chrome)
        axe.inject()
        results = axe.run()
        assert results["violations"] == [], axe.report(results["violations"])
    chrome.get(site["kiosk"].url + "?venue=PUBLIC-1&ops=1&lang=en")
    wait_state(chrome, "live")
    shown = wait_until(lambda: (s := seen())["warning"] and s, message="the operators' view")
    assert shown["warning"].startswith("Warning: clock not synchronised") and shown["modes"].startswith("PUBLIC-1 | ")
    assert shown["form"] == "Type it at http://127.0.0.1:8081/C/PUBLIC-1"


def test_the_page_shows_how_many_are_inside_through_the_site(site, chrome, tmp_path):
    """Issue 32: with ?occupancy=1 the page shows the check-in server's count ("현재 인원 1 / 40"),
    read from its own site (occupancy/VENUE, which the nginx site's CHANGE: line passes to the
    server: the page's CSP allows its own origin only); without a count it shows nothing."""
    from serverutil import Server, code

    config = tmp_path / "server.conf"
    config.write_text("capacity.INSIDE-1 = 40\n")
    server = Server(tmp_path / "server", site["secret"], args=["-c", str(config)]).start()
    kiosk = WebKiosk(site["out"], tmp_path, args=["--occupancy-from", f"http://127.0.0.1:{server.port}/C"]).start()
    daemon = start_daemon(site, "INSIDE-1", 15)
    try:
        def shown():
            return chrome.execute_script("const e = document.getElementById('occupancy'); return e.hidden ? '' : e.innerText;")
        resize(chrome, *PORTRAIT)
        chrome.get(kiosk.url + "?venue=INSIDE-1&occupancy=1")
        wait_state(chrome, "live")
        assert wait_until(lambda: shown() == "현재 인원 0 / 40" or None, timeout=30, message="the count")
        assert server.get("/" + code(site["secret"], "INSIDE-1", server.port)["url"].split("/", 3)[3])[0] == 303
        assert wait_until(lambda: shown() == "현재 인원 1 / 40" or None, timeout=30, message="the count after a check-in")
        chrome.save_screenshot(str(tmp_path / "occupancy.png"))
        # The shipped site passes nothing until its CHANGE: line is set: the page then shows no count.
        assert raw_get(site["kiosk"].port, "/occupancy/INSIDE-1")[0] == 404
    finally:
        daemon.stop()
        kiosk.stop()
        assert server.stop() == 0, server.logs()
