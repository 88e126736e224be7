"""The console's dashboard at a glance (issue 39): a day of entries and exits generated straight
into the ledger (visits from the evening before, check-outs, visits left open past `max-stay`,
refusals), a real `serve`, and the dashboard read two ways. Without a browser: each venue's
occupancy curve (the SVG's numbers, every 5 minutes since local midnight) equals the curve this
test computes itself from the rows it wrote, and its "inside now" equals the occupancy endpoint.
In headless Chromium: the cards at 390 px (readable at 320: nothing wider than the screen) and
1280 px, in Korean and English, screenshots in build/screenshots/ (QRCHECKIN_SCREENSHOTS), the
page refreshes its numbers by itself (the console's script), and axe-core finds nothing."""
import os
import random
import re
import sqlite3
import time
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import json
import secrets

import pytest

import token_reference as ref
from reportutil import report_key_for

from consoleutil import Console, add_user
from daemonutil import wait_until
from serverutil import server_run

ROOT = Path(__file__).resolve().parent.parent.parent
SHOTS = Path(os.environ.get("QRCHECKIN_SCREENSHOTS", ROOT / "build" / "screenshots"))
ZONE = ZoneInfo("Asia/Seoul")  # serverutil's TZ
STAY_MS = 2 * 3_600_000
STEP_MS = 300_000
CONFIG = "name.HALL-1 = 대강당\ncapacity.HALL-1 = 40\nname.CAFE = 카페 (1층)\nmax-stay = 2h\n"


def midnight_ms(at_ms):
    local = datetime.fromtimestamp(at_ms / 1000, ZONE)
    return int(local.replace(hour=0, minute=0, second=0, microsecond=0).timestamp() * 1000)


def generate_day(database, seed=39):
    """Visits at HALL-1 and CAFE from 21:00 the evening before until a minute ago, written as
    rows (staff check-ins: no device), and a few refusals today; returns the visits as
    (venue, entry_ms, exit_ms or None)."""
    now = int(time.time() * 1000) - 60_000
    start = midnight_ms(now) - 3 * 3_600_000
    rng = random.Random(seed)
    visits = []
    for _ in range(900):
        venue = "CAFE" if rng.random() < 0.3 else "HALL-1"
        # Busier in the afternoon: two overlapping waves.
        entry = start + int(min(rng.random(), rng.random()) * (now - start)) if rng.random() < 0.5 else start + int(rng.random() * (now - start))
        # Stays up to half an hour past max-stay: a check-out the server's closer had not yet
        # pre-empted (its pass is a minute; the curve looks an hour past the longest stay).
        exit_ms = entry + rng.randint(60_000, STAY_MS + 1_800_000)
        if exit_ms > now or rng.random() < 0.15:
            exit_ms = None
            # An open visit never ends by max-stay within minutes of the test's requests.
            if abs(entry + STAY_MS - now) < 10 * 60_000:
                continue
        visits.append((venue, entry, exit_ms))
    with sqlite3.connect(database) as db:
        db.executemany("INSERT INTO checkins (venue, at_ms, method, operator, exit_ms, exit_kind) VALUES (?, ?, 'staff', 'gen', ?, ?)",
                       [(v, e, x, "kiosk" if x is not None else None) for v, e, x in visits])
        today = midnight_ms(now)
        db.executemany("INSERT INTO refusals (venue, at_ms, reason, method) VALUES (?, ?, ?, 'qr')",
                       [("HALL-1", today + i * 60_000, reason, ) for i, reason in enumerate(["expired"] * 5 + ["bad-mac"] * 2)]
                       + [("CAFE", today + 1000, "expired")] if now - today > 3_600_000 else [])
    db.close()
    return visits


def inside(visits, venue, t):
    """Who was inside `venue` at `t`: entered before `t` and not ended before it (a visit without
    an exit ends at its entry plus max-stay, as the server's closer records it)."""
    return sum(1 for v, entry, exit_ms in visits if v == venue and entry < t and (exit_ms if exit_ms is not None else entry + STAY_MS) >= t)


def card(page, venue):
    match = re.search(rf'<section class="venue[^"]*" data-venue="{venue}"(.*?)</section>', page, re.S)
    assert match, page
    return match.group(1)


@pytest.fixture
def dashboard(tmp_path, secret, servers):
    tmp_path.chmod(0o755)
    config = tmp_path / "server.conf"
    config.write_text(CONFIG)
    base = tmp_path / "server"
    base.mkdir()
    result = server_run("migrate", "--database", f"sqlite:{base / 'checkins.db'}")
    assert result.returncode == 0, result.stderr
    visits = generate_day(base / "checkins.db")
    server = servers(secret, base, args=["-c", str(config)])
    add_user(server, "door", "steward", password="door-password", tmp=tmp_path)
    # Two kiosks report at the hall (one paused), one at the café: signed as `qrcheckin report` signs.
    for venue, kiosk, refresh in (("HALL-1", "door-1", "auto"), ("HALL-1", "door-2", "paused"), ("CAFE", "counter", "auto")):
        report(server, secret, venue, kiosk, refresh)
    return server, visits


def report(server, secret, venue, kiosk, refresh):
    t = int(time.time() * 1000)
    body = json.dumps({"venue": venue, "kiosk": kiosk, "version": "0.1.0", "reportInterval": 30, "wallClock": t,
                       "lastRoundTripMs": 5, "uptimeSeconds": 3600, "status": "running", "summary": "running", "state": "running",
                       "window": t // 15_000 if refresh == "auto" else None, "seq": 1, "expiresAt": t // 1000 + 15, "period": 15,
                       "health": "ok", "reason": None, "shake": "on", "refresh": refresh, "modeSource": None, "modeChangedBy": None,
                       "modeChangedAt": None, "clock": {"synchronized": True, "maxErrorSeconds": 0},
                       "outputAgeSeconds": {"png": 1, "json": 1, "txt": 1}, "applied": None}).encode()
    header = ref.report_header(report_key_for(secret, venue), venue, t, secrets.token_hex(16), body)
    status, _, answer = server.get(f"/C/{venue}/kiosk", method="POST", body=body,
                                   headers={"Content-Type": "application/json", "Qrcheckin-Report": header})
    assert status == 200, (status, answer)


def test_the_curve_is_the_generated_days_entries_minus_exits_every_5_minutes(dashboard):
    server, visits = dashboard
    console = Console(server.admin_port)
    assert console.sign_in("door", "door-password")[0] == 303
    before = int(time.time() * 1000)
    status, headers, body = console.get("/admin/?lang=en")
    after = int(time.time() * 1000)
    assert status == 200, body
    assert "default-src 'none'" in headers["content-security-policy"], headers
    page = body.decode()
    midnight = midnight_ms(before)
    assert midnight == midnight_ms(after), "the day turned during the request: run again"
    for venue in ("HALL-1", "CAFE"):
        section = card(page, venue)
        assert 'data-step-minutes="5"' in section
        drawn = [int(n) for n in re.search(r'data-boundaries="([0-9 ]*)"', section).group(1).split()]
        assert (before - midnight) // STEP_MS + 1 <= len(drawn) <= (after - midnight) // STEP_MS + 1, (len(drawn), before, after)
        expected = [inside(visits, venue, midnight + j * STEP_MS) for j in range(len(drawn))]
        assert drawn == expected, (venue, [(j * 5, d, e) for j, (d, e) in enumerate(zip(drawn, expected)) if d != e][:10])
        # Now: the one count of who is inside, as the occupancy endpoint (and roll, status) say.
        now_drawn = int(re.search(r'data-now="(\d+)"', section).group(1))
        shown = int(re.search(r'<strong class="now">(\d+)</strong>', section).group(1))
        _, _, occupancy = server.get(f"/C/{venue}/occupancy")
        import json
        assert now_drawn == shown == json.loads(occupancy)["inside"] == inside(visits, venue, after), venue
    hall = card(page, "HALL-1")
    assert '<span class="of">/ 40</span>' in hall and "capacity 40</text>" in hall and 'class="capacity"' in hall
    assert "<title id=\"curve-HALL-1-title\">Inside today at 대강당</title>" in hall
    assert re.search(r"<desc id=\"curve-HALL-1-desc\">People inside every 5 minutes since midnight: at most \d+", hall)
    # Axes labelled: the hours every 3, the people at round steps.
    for hour in range(0, 25, 3):
        assert f'class="tick x">{hour}</text>' in hall
    assert 'class="tick y">0</text>' in hall and "hour of day</text>" in hall
    assert '<span class="light light-ok">● door-1</span> ok</li>' in hall, hall
    assert '● door-2</span>' in hall and '● counter</span> ok' in card(page, "CAFE")
    if "Refused today" in hall and re.search(r"<dt>Refused today</dt><dd>[1-9]", hall):
        assert "<code>expired</code> <strong>5</strong>" in hall and "<code>bad-mac</code> <strong>2</strong>" in hall


# Chromium: screenshots, widths, the refresh, axe.

@pytest.fixture(scope="module", autouse=False)
def web_tools():
    for tool in ("/usr/bin/chromium", "/usr/bin/chromedriver"):
        assert os.access(tool, os.X_OK), f"{tool} missing: run scripts/install-deps --test"


def full_page_screenshot(driver, width, path):
    from webutil import resize
    resize(driver, width, 900)
    height = driver.execute_script("return Math.ceil(document.documentElement.scrollHeight)")
    resize(driver, width, height)
    driver.save_screenshot(str(path))
    resize(driver, width, 900)


def test_the_cards_on_a_phone_and_a_desktop_in_korean_and_english(dashboard, tmp_path, web_tools):
    from selenium.webdriver.common.by import By
    from selenium_axe_python import Axe
    from webutil import browser, resize, png_size

    server, _ = dashboard
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver = browser(1280, 900, tmp_path / "profile")
    try:
        url = f"http://127.0.0.1:{server.admin_port}"
        driver.get(f"{url}/admin/login?lang=en")
        driver.find_element(By.ID, "user").send_keys("door")
        driver.find_element(By.ID, "password").send_keys("door-password")
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        wait_until(lambda: driver.current_url.endswith("/admin/?lang=en") or None, timeout=20, message="signed in")
        axe = Axe(driver)
        for language in ("ko", "en"):
            driver.get(f"{url}/admin/?lang={language}")
            wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "section.venue svg") or None, timeout=20, message="the cards")
            axe.inject()
            results = axe.run()
            assert results["violations"] == [], axe.report(results["violations"])
            for width in (320, 390, 1280):
                resize(driver, width, 900)
                overflow = driver.execute_script("return document.documentElement.scrollWidth")
                assert overflow <= width, (language, width, overflow, "wider than the screen")
                # Readable: the chart's smallest text is at least 9 CSS px as drawn.
                smallest = driver.execute_script(
                    "return Math.min(...[...document.querySelectorAll('section.venue svg text')].map(t => t.getBoundingClientRect().height))")
                assert smallest >= 9, (language, width, smallest)
                if width != 320:
                    shot = SHOTS / f"dashboard-{language}-{width}.png"
                    full_page_screenshot(driver, width, shot)
                    assert png_size(shot.read_bytes())[0] == width
            # Two cards side by side at 1280 px, one column on a phone.
            resize(driver, 1280, 900)
            tops = driver.execute_script("return [...document.querySelectorAll('section.venue')].map(s => s.getBoundingClientRect().top)")
            assert len(tops) >= 2 and tops[0] == tops[1], tops
            resize(driver, 390, 844)
            tops = driver.execute_script("return [...document.querySelectorAll('section.venue')].map(s => s.getBoundingClientRect().top)")
            assert tops[0] < tops[1], tops
        # It refreshes by itself: the script replaces the live part (its stamp) without a reload.
        driver.execute_script("document.getElementById('live').setAttribute('data-marker', 'old');"
                              "document.querySelector('#live .stamp').textContent = 'stale'")
        # A tab shown again refreshes at once (else every 30 s): the event, as the browser sends it.
        driver.execute_script("document.dispatchEvent(new Event('visibilitychange'))")
        wait_until(lambda: driver.execute_script("return document.querySelector('#live .stamp').textContent") != "stale" or None, timeout=60,
                   message="the dashboard to refresh itself")
        assert driver.find_element(By.ID, "live").get_attribute("data-marker") == "old", "refreshed in place, not reloaded"
    finally:
        driver.quit()
