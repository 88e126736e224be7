"""Presence in a real browser (issue 32): headless Debian chromium at a phone's viewport, in
Korean and English: scan → receipt → "check out" → the checked-out page, and the exit kiosk's
code → checked out with the stay shown."""
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

from conftest import BIN
from daemonutil import wait_until
from serverutil import Server, code
from webutil import browser, png_size

PHONE = (390, 844)


@pytest.fixture(scope="module", autouse=True)
def web_tools():
    for tool in ("/usr/bin/chromium", "/usr/bin/chromedriver"):
        assert os.access(tool, os.X_OK), f"{tool} missing: run scripts/install-deps --test"


@pytest.fixture(scope="module")
def loop():
    base = Path(tempfile.mkdtemp(prefix="qrcheckin-presence-web."))
    base.chmod(0o755)
    secret = base / "secret"
    assert subprocess.run([BIN, "keygen", "-o", str(secret)], capture_output=True, timeout=30).returncode == 0
    config = base / "server.conf"
    config.write_text("name.HALL-1 = 대강당\ncapacity.HALL-1 = 40\nexit.HALL-1-OUT = HALL-1\n")
    server = Server(base / "server", secret, args=["-c", str(config)]).start()
    driver = browser(*PHONE, base / "profile")
    yield {"base": base, "server": server, "secret": secret, "driver": driver}
    driver.quit()
    server.stop()
    shutil.rmtree(base, ignore_errors=True)


def text(driver):
    try:
        return driver.find_element("tag name", "main").text
    except (NoSuchElementException, StaleElementReferenceException):
        return ""


def scan(loop, venue, lang):
    loop["driver"].get(code(loop["secret"], venue, loop["server"].port)["url"] + f"?lang={lang}")


def shot(driver, path):
    driver.save_screenshot(str(path))
    assert png_size(path.read_bytes()) == PHONE


@pytest.mark.parametrize("lang, checked_in, button, checked_out, stayed", [
    ("ko", "체크인 완료", "퇴장", "에 퇴장했습니다", "머문 시간"),
    ("en", "Checked in", "Check out", "Checked out at", "You stayed"),
])
def test_the_receipts_button_checks_out(loop, tmp_path, lang, checked_in, button, checked_out, stayed):
    driver = loop["driver"]
    driver.delete_all_cookies()
    scan(loop, "HALL-1", lang)
    wait_until(lambda: "/receipt/" in driver.current_url, timeout=15, message="the receipt")
    assert checked_in in text(driver) and "대강당" in text(driver)
    submit = driver.find_element("css selector", "form.checkout button[type=submit]")
    assert button in submit.text and submit.is_displayed()
    shot(driver, tmp_path / f"receipt-{lang}.png")
    submit.click()
    wait_until(lambda: checked_out in text(driver), timeout=15, message="the checked-out page")
    assert stayed in text(driver) and "대강당" in text(driver)
    shot(driver, tmp_path / f"checked-out-{lang}.png")
    # The receipt itself now says the visit is over, and offers no second check-out.
    driver.back()
    driver.refresh()
    wait_until(lambda: "already checked out" in text(driver).lower() or "이미" in text(driver) and "퇴장했습니다" in text(driver),
               timeout=15, message="the receipt after")
    assert not driver.find_elements("css selector", "form.checkout")


@pytest.mark.parametrize("lang, checked_out, stayed", [
    ("ko", "에 퇴장했습니다", r"머문 시간: \d+분"),
    ("en", "Checked out at", r"You stayed \d+ min"),
])
def test_the_exit_kiosks_code_checks_out_with_the_stay(loop, tmp_path, lang, checked_out, stayed):
    driver = loop["driver"]
    driver.delete_all_cookies()
    scan(loop, "HALL-1", lang)
    wait_until(lambda: "/receipt/" in driver.current_url, timeout=15, message="the receipt")
    scan(loop, "HALL-1-OUT", lang)
    wait_until(lambda: checked_out in text(driver), timeout=15, message="the exit page")
    assert re.search(stayed, text(driver)), text(driver)
    shot(driver, tmp_path / f"exit-{lang}.png")
    rows = loop["server"].checkins("--format", "csv").splitlines()
    assert any(row.endswith(",kiosk,0") or ",kiosk," in row for row in rows[1:])
