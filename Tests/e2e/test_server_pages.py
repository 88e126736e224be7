"""Every page a visitor can see, as a phone shows it (issue 34): headless Debian chromium at
390×844, 360×740 and 320×640, light and dark, Korean (by Accept-Language) and English. For each:
a screenshot into build/screenshots/pages/ ($QRCHECKIN_SCREENSHOTS), no Korean word split across
lines in its headings and labels, no text outside the viewport, and axe-core (best practices
included) finds nothing."""
import os
import subprocess
import tempfile
import shutil
import time
from pathlib import Path

import pytest

from conftest import BIN
from daemonutil import ROOT, wait_until
from serverutil import Server, code
from webutil import browser

SIZES = [(390, 844), (360, 740), (320, 640)]
SCREENSHOT_SIZES = {(390, 844), (320, 640), (360, 740)}
SCHEMES = ["light", "dark"]
SHOTS = Path(os.environ.get("QRCHECKIN_SCREENSHOTS", ROOT / "build" / "screenshots" / "pages"))
PAGES = ["receipt", "again", "aged", "expired", "not-yet-valid", "tampered", "other-venue", "malformed",
         "unknown-venue", "form", "too-many", "visitor"]
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


@pytest.fixture(scope="module", autouse=True)
def web_tools():
    for tool in ("/usr/bin/chromium", "/usr/bin/chromedriver"):
        assert os.access(tool, os.X_OK), f"{tool} missing: run scripts/install-deps --test"


@pytest.fixture(scope="module")
def site():
    """A server of two configured venues (a display name, an accent, a logo, a visitor form
    with its privacy notice) and a second one whose receipts age after a second."""
    base = Path(tempfile.mkdtemp(prefix="qrcheckin-server-pages."))
    base.chmod(0o755)
    secret = base / "secret"
    assert subprocess.run([BIN, "keygen", "-o", str(secret)], capture_output=True, timeout=30).returncode == 0
    logo = base / "cafe.svg"
    logo.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48"><rect width="48" height="48" rx="10" fill="#7c3aed"/>'
                    '<path d="M14 18h16v10a8 8 0 0 1-16 0zM30 20h4a4 4 0 0 1 0 8h-4" fill="none" stroke="#fff" stroke-width="3"/></svg>\n')
    config = base / "server.conf"
    config.write_text("venues = HALL-1,CAFE\n"
                      "name.HALL-1 = 대강당\n"
                      "accent.HALL-1 = #1d4ed8\n"
                      "name.CAFE = 서울시립미술관 카페테리아\n"
                      "accent.CAFE = #7c3aed\n"
                      f"logo.CAFE = {logo}\n"
                      "visitor-fields.CAFE = name,phone\n"
                      "controller = 대강당 운영사무국 (privacy@example.org)\n"
                      "safe-number-tries = 1\n")
    server = Server(base / "server", secret, args=["-c", str(config)]).start()
    aging = Server(base / "aging", secret, args=["-c", str(config), "--receipt-freshness", "1s"]).start()
    yield {"base": base, "secret": secret, "server": server, "aging": aging}
    server.stop()
    aging.stop()
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="module")
def phone(site):
    driver = browser(*SIZES[0], site["base"] / "profile")
    agent = driver.execute_script("return navigator.userAgent")
    # A Korean phone: Korean pages come from Accept-Language, English ones from ?lang=en.
    driver.execute_cdp_cmd("Emulation.setUserAgentOverride", {"userAgent": agent, "acceptLanguage": "ko-KR,ko;q=0.9,en;q=0.5"})
    yield driver
    driver.quit()


def emulate(driver, size, scheme):
    width, height = size
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


def url(server, path, lang):
    return server.url(path) + ("?lang=en" if lang == "en" else "")


def scan(site, venue, lang, at=None, server="server"):
    port = site[server].port
    return code(site["secret"], venue, port, at=at)["url"] + ("?lang=en" if lang == "en" else "")


def body_class(driver):
    return driver.execute_script("return document.body ? document.body.className : ''")


def type_safe_number(driver, number):
    field = wait_until(lambda: driver.find_elements("id", "safe-number"), message="the safe-number field")[0]
    field.send_keys(number)
    field.submit()


def open_page(driver, site, name, lang):
    """Brings the phone to page `name` in `lang` the way a visitor gets there."""
    server = site["server"]
    driver.delete_all_cookies()
    if name in ("receipt", "again", "too-many"):
        driver.get(scan(site, "HALL-1", lang))
        wait_until(lambda: "/receipt/" in driver.current_url, timeout=15, message="the receipt")
        if name == "again":
            driver.get(scan(site, "HALL-1", lang))
            wait_until(lambda: "again=1" in driver.current_url, timeout=15, message="the receipt said again")
        if name == "too-many":
            # One wrong try is allowed (safe-number-tries = 1): the next is 429.
            for _ in range(3):
                driver.get(url(server, "/C/HALL-1", lang))
                type_safe_number(driver, "00가00가")
                wait_until(lambda: "refusal" in body_class(driver) or "form" in body_class(driver), message="an answer")
                if "too-many" in body_class(driver):
                    break
    elif name == "aged":
        driver.get(scan(site, "HALL-1", lang, server="aging"))
        wait_until(lambda: "/receipt/" in driver.current_url, timeout=15, message="the receipt")
        wait_until(lambda: driver.refresh() or "tone-aged" in body_class(driver), timeout=15, interval=0.5, message="the receipt to age")
    elif name == "expired":
        driver.get(scan(site, "HALL-1", lang, at=int(time.time()) - 120))
    elif name == "not-yet-valid":
        driver.get(scan(site, "HALL-1", lang, at=int(time.time()) + 120))
    elif name == "tampered":
        driver.get(url(server, "/C/HALL-1/1" + "A" * 40, lang))
    elif name == "other-venue":
        driver.get(scan(site, "CAFE", lang).replace("/C/CAFE/", "/C/HALL-1/"))
    elif name == "malformed":
        driver.get(url(server, "/C/HALL-1/xyz", lang))
    elif name == "unknown-venue":
        driver.get(scan(site, "NOPE", lang))
    elif name == "form":
        driver.get(url(server, "/C/HALL-1", lang))
    elif name == "visitor":
        driver.get(scan(site, "CAFE", lang))
    expected = {"receipt": "receipt", "again": "again", "aged": "aged", "expired": "expired", "not-yet-valid": "not-yet-valid",
                "tampered": "bad-mac", "other-venue": "bad-mac", "malformed": "malformed", "unknown-venue": "unknown-venue",
                "form": "form", "too-many": "too-many", "visitor": "visitor"}[name]
    wait_until(lambda: expected in body_class(driver).split(), timeout=15, message=f"the {name} page ({body_class(driver)!r})")
    assert driver.execute_script("return document.documentElement.lang") == lang


# For each heading-like element (headings, the venue's name, labels, buttons, links) and each
# paragraph: the words (runs without spaces) whose rendered boxes lie on more than one line,
# and any text box outside the viewport or the page wider than the viewport.
LAYOUT = """
const width = document.documentElement.clientWidth;
const result = {split: [], splitText: [], overflow: [], scrollWidth: document.documentElement.scrollWidth, width};
const hangul = /[\\uac00-\\ud7a3]/;
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node; (node = walker.nextNode());) {
  const element = node.parentElement;
  if (!element || !element.getClientRects().length || element.closest('[hidden], script, style')) continue;
  const heading = !!element.closest('h1, h2, .venue-name, label, button, .button, dt, footer a');
  for (const match of node.textContent.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(node, match.index);
    range.setEnd(node, match.index + match[0].length);
    const boxes = [...range.getClientRects()].filter((r) => r.width > 0.5);
    const lines = new Set(boxes.map((r) => Math.round(r.top)));
    const word = match[0];
    if (hangul.test(word) && lines.size > 1) {
      // A word of Korean only (punctuation around it aside) must never break.
      if (heading) result.split.push(word);
      else if (/^[(\\[\\u201c"']*[\\uac00-\\ud7a3]+[)\\]\\u201d"'.,:;!?·]*$/.test(word)) result.splitText.push(word);
    }
    for (const r of boxes) if (r.left < -0.5 || r.right > width + 0.5) result.overflow.push(word);
  }
}
return result;
"""


@pytest.mark.parametrize("name", PAGES)
def test_every_visitor_page_fits_a_phone_keeps_korean_words_whole_and_passes_axe(site, phone, name):
    from selenium_axe_python import Axe

    SHOTS.mkdir(parents=True, exist_ok=True)
    for lang in ("ko", "en"):
        emulate(phone, SIZES[0], "light")
        open_page(phone, site, name, lang)
        problems = []
        for size in SIZES:
            for scheme in SCHEMES:
                emulate(phone, size, scheme)
                layout = phone.execute_script(LAYOUT)
                where = f"{name} {lang} {size[0]}×{size[1]} {scheme}"
                if layout["split"] or layout["splitText"]:
                    problems.append(f"{where}: Korean words split across lines: {layout['split'] + layout['splitText']}")
                if layout["overflow"] or layout["scrollWidth"] > layout["width"]:
                    problems.append(f"{where}: overflows ({layout['scrollWidth']} > {layout['width']}): {layout['overflow']}")
                if size in SCREENSHOT_SIZES:
                    phone.save_screenshot(str(SHOTS / f"{name}-{lang}-{size[0]}x{size[1]}-{scheme}.png"))
        # axe-core at the phone width, in each colour scheme (contrast differs).
        axe = Axe(phone)
        axe.inject()
        for scheme in SCHEMES:
            emulate(phone, (360, 740), scheme)
            results = axe.run(options={"runOnly": {"type": "tag", "values": AXE_TAGS}})
            if results["violations"]:
                problems.append(f"{name} {lang} {scheme}: axe: {axe.report(results['violations'])}")
        assert not problems, "\n".join(problems)


def test_the_429_page_counts_down_and_says_when_without_a_script(site, phone):
    open_page(phone, site, "too-many", "ko")
    advice = phone.find_element("css selector", ".advice").text
    assert "이후에 다시 시도하세요" in advice, advice
    countdown = phone.find_element("id", "countdown")
    first = wait_until(lambda: countdown.is_displayed() and countdown.text, message="the countdown")
    assert "남은 시간" in first
    wait_until(lambda: countdown.text != first, timeout=5, interval=0.1, message="the countdown to count")
    # Without the script the countdown stays hidden: the page says only what stays true.
    status, _, body = site["server"].get("/C/HALL-1", method="GET")
    assert status == 200


def test_an_open_fresh_receipt_turns_aged_by_itself(site, phone):
    phone.delete_all_cookies()
    phone.get(scan(site, "HALL-1", "ko", server="aging"))
    wait_until(lambda: "/receipt/" in phone.current_url, timeout=15, message="the receipt")
    # Fresh for a second at most, then the script turns it aged without a reload.
    wait_until(lambda: "tone-aged" in body_class(phone), timeout=10, interval=0.1, message="the receipt to turn aged")
    assert "전에 체크인했습니다" in phone.find_element("tag name", "h1").text
    assert phone.execute_script("return getComputedStyle(document.querySelector('.sweep')).display") == "none"


def test_the_split_check_sees_a_korean_word_broken_inside(site, phone):
    """The check above is not blind: with the pages' `word-break: keep-all` undone (as the pages
    were before issue 34), the same Korean text breaks inside words at 320 px and the check says so."""
    open_page(phone, site, "visitor", "ko")
    emulate(phone, (320, 640), "light")
    phone.execute_script("for (const e of document.querySelectorAll('*')) e.style.setProperty('word-break', 'normal');"
                         "document.documentElement.style.setProperty('word-break', 'normal');")
    layout = phone.execute_script(LAYOUT)
    assert layout["split"] or layout["splitText"], layout


def test_reduced_motion_keeps_the_sweep_in_place(site, phone):
    """With prefers-reduced-motion the receipt's sweep pulses where it is instead of moving
    across: still a sign of life, no motion."""
    open_page(phone, site, "receipt", "ko")
    animation = "return getComputedStyle(document.querySelector('.sweep')).animationName"
    assert phone.execute_script(animation) == "sweep"
    phone.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    try:
        assert phone.execute_script(animation) == "pulse"
    finally:
        phone.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
