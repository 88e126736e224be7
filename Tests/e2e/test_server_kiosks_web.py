"""The console's Kiosks page in headless Debian chromium (issue 39), with real processes: a
`qrcheckin run` daemon and its `qrcheckin report` reporting to a real `qrcheckin-server serve`.
A supervisor's Pause button makes the daemon's current.json say paused within 5 s, and the
page then shows the steer applied; axe-core finds nothing at 390 and 1280 px in Korean and
English; screenshots of each go to build/screenshots/ ($QRCHECKIN_SCREENSHOTS)."""
import os
import time
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from conftest import ROOT
from consoleutil import add_user
from daemonutil import wait_until
from reportutil import Reporter
from webutil import browser, resize

SHOTS = Path(os.environ.get("QRCHECKIN_SCREENSHOTS", ROOT / "build" / "screenshots"))
PHONE = (390, 844)
DESKTOP = (1280, 900)


@pytest.fixture(scope="module", autouse=True)
def web_tools():
    for tool in ("/usr/bin/chromium", "/usr/bin/chromedriver"):
        assert os.access(tool, os.X_OK), f"{tool} missing: run scripts/install-deps --test"


@pytest.fixture
def kiosk_console(tmp_path, daemons, servers):
    tmp_path.chmod(0o755)
    daemon = daemons()
    server = servers(daemon.secret, tmp_path / "server", args=["--period", "2"])
    add_user(server, "mina", "supervisor", password="mina-password", tmp=tmp_path)
    reporter = Reporter(daemon, server.url("/C"), interval=5).start()
    yield daemon, server
    reporter.stop(timeout=10)


@pytest.fixture
def chrome(tmp_path):
    driver = browser(*DESKTOP, tmp_path / "profile")
    yield driver
    driver.quit()


def url(server, path):
    return f"http://127.0.0.1:{server.admin_port}{path}"


def test_a_supervisor_pauses_a_kiosk_from_the_console_and_the_page_passes_axe(kiosk_console, chrome):
    from selenium_axe_python import Axe

    daemon, server = kiosk_console
    chrome.get(url(server, "/admin/login?lang=en"))
    chrome.find_element(By.ID, "user").send_keys("mina")
    chrome.find_element(By.ID, "password").send_keys("mina-password")
    chrome.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait_until(lambda: "/admin/?lang=en" in chrome.current_url or None, timeout=20, message="signed in")

    def kiosks_page(language="en"):
        chrome.get(url(server, f"/admin/kiosks?lang={language}"))
        return chrome.find_element(By.TAG_NAME, "main").text

    wait_until(lambda: "door-1" in kiosks_page() or None, timeout=20, message="the kiosk on the page")
    button = chrome.find_element(By.XPATH, "//input[@value='pause']/following-sibling::button")
    clicked = time.monotonic()
    button.click()
    wait_until(lambda: "done=1" in chrome.current_url or None, timeout=10, message="the steer saved")
    wait_until(lambda: daemon.state_now()["refresh"] == "paused", timeout=5, message="current.json says paused")
    assert time.monotonic() - clicked < 5.5
    status = daemon.cli("status", "--output-dir", str(daemon.out), "--lang", "en").stdout.decode()
    assert "from the console by mina" in status, status
    wait_until(lambda: "applied" in kiosks_page() or None, timeout=20, message="the steer shown applied")
    assert "Resume" in kiosks_page()

    SHOTS.mkdir(parents=True, exist_ok=True)
    axe = Axe(chrome)
    for width, height in (PHONE, DESKTOP):
        resize(chrome, width, height)
        for language in ("ko", "en"):
            text = kiosks_page(language)
            assert ("적용됨" if language == "ko" else "applied") in text, text
            axe.inject()
            results = axe.run()
            assert results["violations"] == [], f"{language} {width}: " + axe.report(results["violations"])
            shot = SHOTS / f"kiosks-{language}-{width}.png"
            chrome.save_screenshot(str(shot))
            assert shot.stat().st_size > 1000
