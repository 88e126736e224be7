"""The operator console in headless Debian chromium (issue 33): an admin makes a steward and a
supervisor in the console (desktop); the steward, on a phone, sees who is inside, records a
staff check-in and gets 403 on the visitor log and exports; the supervisor exports CSV; the
admin sees both in the audit log. Screenshots of the dashboard and the evacuation roll go to
the test's directory; axe-core finds nothing on any console page, in Korean and English."""
import os

import pytest
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By

from consoleutil import add_user
from daemonutil import wait_until
from webutil import browser, resize

DESKTOP = (1280, 900)
PHONE = (360, 740)
PAGES = ["/admin/", "/admin/inside", "/admin/checkin", "/admin/log", "/admin/erase", "/admin/users", "/admin/audit",
         # A filter the console cannot read: the log page's form with the field marked, the export's 400.
         "/admin/log?from=2030-01-01", "/admin/export?format=csv&venue=HALL_2"]


@pytest.fixture(scope="module", autouse=True)
def web_tools():
    for tool in ("/usr/bin/chromium", "/usr/bin/chromedriver"):
        assert os.access(tool, os.X_OK), f"{tool} missing: run scripts/install-deps --test"


@pytest.fixture
def console(tmp_path, secret, servers):
    tmp_path.chmod(0o755)
    config = tmp_path / "server.conf"
    config.write_text("name.HALL-1 = 대강당\nname.CAFE = 카페\ncapacity.HALL-1 = 40\n")
    server = servers(secret, tmp_path / "server", args=["-c", str(config)])
    add_user(server, "root-admin", "admin", password="admin-password", tmp=tmp_path)
    return server


@pytest.fixture
def chrome(tmp_path):
    driver = browser(*DESKTOP, tmp_path / "profile")
    yield driver
    driver.quit()


def url(console, path):
    return f"http://127.0.0.1:{console.admin_port}{path}"


def text_of(driver, tag):
    """The text of the page's first `tag`, or "" while a page loads: a click's navigation can leave
    no such element yet, or the old page's gone under the lookup."""
    try:
        return driver.find_element(By.TAG_NAME, tag).text
    except (NoSuchElementException, StaleElementReferenceException):
        return ""


def heading(driver):
    return wait_until(lambda: text_of(driver, "h1") or None, timeout=20, message="a page")


def sign_in(driver, console, user, password):
    driver.delete_all_cookies()
    driver.get(url(console, "/admin/login?lang=en"))
    driver.find_element(By.ID, "user").send_keys(user)
    driver.find_element(By.ID, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait_until(lambda: driver.current_url.endswith("/admin/?lang=en") or None, timeout=20, message=f"{user} to be signed in")


def sign_out(driver):
    driver.find_element(By.CSS_SELECTOR, "form.signout button").click()
    wait_until(lambda: "/admin/login" in driver.current_url or None, timeout=20, message="the sign-in page")


def status_of(driver, path):
    """The HTTP status of a GET of `path` from the page (with its cookies)."""
    return driver.execute_async_script("const done = arguments[1]; fetch(arguments[0]).then((r) => done(r.status))", path)


def add_account(driver, console, name, role, password):
    driver.get(url(console, "/admin/users?lang=en"))
    driver.find_element(By.ID, "new-name").send_keys(name)
    driver.find_element(By.CSS_SELECTOR, f"#new-role option[value={role}]").click()
    driver.find_element(By.ID, "new-password").send_keys(password)
    driver.find_element(By.XPATH, "//input[@value='add']/following-sibling::button").click()
    wait_until(lambda: "done=1" in driver.current_url or None, timeout=20, message=f"{name} to be added")
    assert name in driver.find_element(By.TAG_NAME, "table").text


def test_admin_steward_supervisor_and_the_audit_log(console, chrome, tmp_path):
    sign_in(chrome, console, "root-admin", "admin-password")
    add_account(chrome, console, "door1", "steward", "steward-password")
    add_account(chrome, console, "lead1", "supervisor", "supervisor-password")
    sign_out(chrome)

    # The steward, on a phone.
    resize(chrome, *PHONE)
    sign_in(chrome, console, "door1", "steward-password")
    chrome.get(url(console, "/admin/checkin?lang=en"))
    chrome.find_element(By.CSS_SELECTOR, "#venue option[value='HALL-1']").click()
    chrome.find_element(By.ID, "name").send_keys("김민지")
    chrome.find_element(By.ID, "phone").send_keys("010-1234-5678")
    chrome.find_element(By.CSS_SELECTOR, "main form button").click()
    wait_until(lambda: "Checked in" in text_of(chrome, "main") or None, timeout=20, message="the check-in")
    chrome.get(url(console, "/admin/inside?lang=en"))
    assert heading(chrome).startswith("Who is inside — 1")
    assert "김민지" in chrome.find_element(By.TAG_NAME, "main").text and "대강당" in chrome.find_element(By.TAG_NAME, "main").text
    chrome.save_screenshot(str(tmp_path / "inside-phone.png"))
    chrome.get(url(console, "/admin/?lang=en"))
    assert heading(chrome) == "Dashboard"
    chrome.save_screenshot(str(tmp_path / "dashboard-phone.png"))
    nav = chrome.find_element(By.TAG_NAME, "nav").text
    assert "Visitor log" not in nav and "Export" not in nav and "Accounts" not in nav
    assert status_of(chrome, "/admin/log") == 403 and status_of(chrome, "/admin/export?format=csv") == 403
    sign_out(chrome)

    # The supervisor exports CSV.
    resize(chrome, *DESKTOP)
    sign_in(chrome, console, "lead1", "supervisor-password")
    chrome.get(url(console, "/admin/log?lang=en"))
    assert "김민지" in chrome.find_element(By.TAG_NAME, "table").text
    exported = chrome.execute_async_script(
        "const done = arguments[0]; fetch('/admin/export?format=csv').then((r) => r.text()).then(done)")
    assert exported.startswith("id,venue,time") and "김민지" in exported and "door1" in exported, exported
    sign_out(chrome)

    # The admin sees both.
    sign_in(chrome, console, "root-admin", "admin-password")
    chrome.save_screenshot(str(tmp_path / "dashboard-desktop.png"))
    chrome.get(url(console, "/admin/audit?lang=en"))
    log = chrome.find_element(By.TAG_NAME, "table").text
    assert "door1 staff-check-in" in log and "lead1 export" in log, log
    for name in ("inside-phone.png", "dashboard-phone.png", "dashboard-desktop.png"):
        assert (tmp_path / name).stat().st_size > 1000


def test_every_console_page_passes_axe_in_korean_and_english(console, chrome):
    from selenium_axe_python import Axe

    chrome.get(url(console, "/admin/login?lang=ko"))
    axe = Axe(chrome)
    for language in ("ko", "en"):
        chrome.delete_all_cookies()
        chrome.get(url(console, f"/admin/login?lang={language}"))
        axe.inject()
        results = axe.run()
        assert results["violations"] == [], axe.report(results["violations"])
    sign_in(chrome, console, "root-admin", "admin-password")
    for size in (DESKTOP, PHONE):
        resize(chrome, *size)
        for language in ("ko", "en"):
            for path in PAGES:
                chrome.get(url(console, f"{path}{'&' if '?' in path else '?'}lang={language}"))
                heading(chrome)
                axe.inject()
                results = axe.run()
                assert results["violations"] == [], f"{path} {language} {size}: " + axe.report(results["violations"])
