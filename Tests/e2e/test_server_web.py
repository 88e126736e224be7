"""The visitor's way through the check-in server, in headless Debian chromium at a phone's
viewport (390×844): the URL of the code a real kiosk daemon shows, to the receipt (Korean and
English), again to "already checked in", an old code to the expired page, the safe-number form,
and 429 after too many wrong safe numbers."""
import csv
import io
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.parse
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

from conftest import BIN
from daemonutil import Daemon, read_state, wait_until
from serverutil import Server, post_safe_number
from webutil import browser, png_size

PHONE = (390, 844)
PERIOD = 2
SEOUL = timezone(timedelta(hours=9))


@pytest.fixture(scope="module", autouse=True)
def web_tools():
    for tool in ("/usr/bin/chromium", "/usr/bin/chromedriver"):
        assert os.access(tool, os.X_OK), f"{tool} missing: run scripts/install-deps --test"


@pytest.fixture(scope="module")
def loop():
    """A kiosk daemon of HALL-1 and the server its codes point at, sharing one secret."""
    base = Path(tempfile.mkdtemp(prefix="qrcheckin-server-web."))
    base.chmod(0o755)
    secret = base / "secret"
    assert subprocess.run([BIN, "keygen", "-o", str(secret)], capture_output=True, timeout=30).returncode == 0
    config = base / "server.conf"
    config.write_text("name.HALL-1 = 대강당\n")
    server = Server(base / "server", secret, args=["--period", str(PERIOD), "-c", str(config)]).start()
    daemon = Daemon(base / "kiosk", period=PERIOD, args=["--venue", "HALL-1", "--secret-file", str(secret),
                                                         "--base-url", f"HTTP://127.0.0.1:{server.port}/C"]).start()
    yield {"base": base, "server": server, "daemon": daemon}
    daemon.stop()
    server.stop()
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="module")
def phone(loop):
    driver = browser(*PHONE, loop["base"] / "profile")
    # A Korean phone: headless chromium sends no Accept-Language of its own.
    agent = driver.execute_script("return navigator.userAgent")
    driver.execute_cdp_cmd("Emulation.setUserAgentOverride", {"userAgent": agent, "acceptLanguage": "ko-KR,ko;q=0.9,en;q=0.5"})
    yield driver
    driver.quit()


def shown(loop):
    """The code the kiosk shows now (current.json)."""
    return wait_until(lambda: read_state(loop["daemon"].out), message="current.json")


def text(driver):
    """The page's <main> text, or "" while the next page is still loading (no <main> yet, or the
    old one gone): a wait on it polls through a navigation instead of failing in the middle."""
    try:
        return driver.find_element("tag name", "main").text
    except (NoSuchElementException, StaleElementReferenceException):
        return ""


def visible(driver, selector):
    """The element is displayed and lies inside the 390×844 viewport (so a screenshot shows it)."""
    element = driver.find_element("css selector", selector)
    rect = element.rect
    return element.is_displayed() and rect["y"] >= 0 and rect["y"] + rect["height"] <= PHONE[1] and rect["x"] + rect["width"] <= PHONE[0]


def new_device(driver):
    driver.delete_all_cookies()


def test_a_scanned_code_lands_on_a_receipt_with_venue_and_time_then_already_checked_in(loop, phone, tmp_path):
    new_device(phone)
    state = shown(loop)
    before = datetime.now(SEOUL)
    phone.get(state["url"])
    wait_until(lambda: "/receipt/" in phone.current_url, timeout=15, message="the receipt")
    assert re.search(r"/C/HALL-1/receipt/\d+$", phone.current_url), "the token must leave the address bar"
    page = text(phone)
    assert "체크인 완료" in page and "대강당" in page
    shown_time = phone.find_element("css selector", "time.checked").text
    minute = datetime.strptime(shown_time, "%Y-%m-%d %H:%M").replace(tzinfo=SEOUL)
    assert before.replace(second=0, microsecond=0) <= minute <= datetime.now(SEOUL), shown_time
    assert visible(phone, ".venue-name") and visible(phone, "time.checked") and visible(phone, ".live")
    shot = tmp_path / "receipt-ko.png"
    phone.save_screenshot(str(shot))
    assert png_size(shot.read_bytes()) == PHONE
    # The live clock moves (script) and its sweep is animated (CSS): a screenshot does neither.
    first = phone.find_element("id", "clock").text
    wait_until(lambda: phone.find_element("id", "clock").text != first, timeout=5, interval=0.1, message="the clock to tick")
    assert phone.execute_script("return getComputedStyle(document.querySelector('.sweep')).animationName") == "sweep"

    # The same phone scans again (the kiosk may show a newer code by now): the same check-in.
    phone.get(shown(loop)["url"])
    wait_until(lambda: "/receipt/" in phone.current_url, timeout=15, message="the second receipt")
    assert f"이미 {minute.strftime('%H:%M')}에 체크인했습니다" in text(phone)
    phone.save_screenshot(str(tmp_path / "again-ko.png"))
    rows = list(csv.DictReader(io.StringIO(loop["server"].checkins("--format", "csv", "--venue", "HALL-1"))))
    assert len([row for row in rows if row["method"] == "qr"]) >= 1


def test_the_receipt_in_english(loop, phone, tmp_path):
    new_device(phone)
    phone.get(shown(loop)["url"] + "?lang=en")
    wait_until(lambda: "/receipt/" in phone.current_url, timeout=15, message="the receipt")
    assert phone.current_url.endswith("?lang=en")
    page = text(phone)
    assert "Checked in" in page and "대강당" in page and "Checked in at" in page
    assert phone.find_element("tag name", "html").get_attribute("lang") == "en"
    assert visible(phone, ".venue-name") and visible(phone, "time.checked")
    shot = tmp_path / "receipt-en.png"
    phone.save_screenshot(str(shot))
    assert png_size(shot.read_bytes()) == PHONE


def test_a_code_two_windows_old_gets_the_expired_page(loop, phone, tmp_path):
    new_device(phone)
    old = shown(loop)
    wait_until(lambda: shown(loop)["window"] >= old["window"] + 2, timeout=4 * PERIOD + 5, interval=0.1,
               message="two rotations")
    phone.get(old["url"])
    assert "코드가 만료되었습니다" in text(phone) and "화면의 코드를 다시 스캔하세요" in text(phone)
    phone.save_screenshot(str(tmp_path / "expired-ko.png"))
    path = urllib.parse.urlsplit(old["url"]).path
    status, headers, _ = loop["server"].get(path, headers={"Accept-Language": "en-US,en;q=0.9"})
    assert status == 410 and headers["cache-control"] == "no-store"


def test_the_safe_number_form_checks_in(loop, phone, tmp_path):
    new_device(phone)
    phone.get(loop["server"].url("/C/HALL-1"))
    assert "안심번호" in text(phone)
    number = shown(loop)["safeNumber"]
    field = phone.find_element("id", "safe-number")
    field.send_keys(number)
    phone.save_screenshot(str(tmp_path / "form-ko.png"))
    field.submit()
    wait_until(lambda: "/receipt/" in phone.current_url, timeout=15, message="the receipt")
    assert "체크인 완료" in text(phone)
    rows = list(csv.DictReader(io.StringIO(loop["server"].checkins("--format", "csv"))))
    assert rows[-1]["method"] == "safe-number" and rows[-1]["venue"] == "HALL-1"


def test_repeated_wrong_safe_numbers_get_429(loop, phone, tmp_path):
    new_device(phone)
    # A phone the server knows (it checked in once, so it has its cookie) is limited by its own
    # tries: the form says "does not match", then "too many tries".
    phone.get(shown(loop)["url"])
    wait_until(lambda: "/receipt/" in phone.current_url, timeout=15, message="the receipt")
    wrong = "00가00가" if shown(loop)["safeNumber"] != "00가00가" else "11가11가"
    for attempt in range(5):
        phone.get(loop["server"].url("/C/HALL-1"))
        field = phone.find_element("id", "safe-number")
        field.send_keys(wrong)
        field.submit()
        wait_until(lambda: "맞지 않습니다" in text(phone), message=f"wrong try {attempt + 1}")
    phone.get(loop["server"].url("/C/HALL-1"))
    field = phone.find_element("id", "safe-number")
    field.send_keys(shown(loop)["safeNumber"])  # even the right number waits now
    field.submit()
    wait_until(lambda: "시도 횟수가 너무 많습니다" in text(phone), message="the 429 page")
    assert re.search(r"\d\d:\d\d:\d\d 이후에 다시 시도하세요", text(phone))
    phone.save_screenshot(str(tmp_path / "too-many-ko.png"))
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in phone.get_cookies())
    status, headers, _ = post_safe_number(loop["server"], wrong, headers={"Cookie": cookie})
    assert status == 429 and 0 < int(headers["retry-after"]) <= 60
    # Another phone, even behind the same address, is not affected.
    assert post_safe_number(loop["server"], wrong)[0] == 403
    assert post_safe_number(loop["server"], wrong, source="127.0.0.2")[0] == 403
