"""Sign-in through the organisation's proxy (issue 41), behind a REAL nginx running the packaged
example site with its PROXY SIGN-IN lines uncommented: `auth_request` to a small identity service
written here (202 with X-Auth-Request-User/-Groups for a test cookie, 401 otherwise). A steward
reaches the dashboard and gets 403 on the export; an admin reads the audit log, which shows the
proxy sign-in; a change of groups changes the role at the next sign-in; another user mid-session
ends the session; groups that give no role get a page that says why. The same headers straight
to the console's listener from 127.0.0.2 (no trusted proxy) sign nobody in and are audited once
a minute per address. `trusted-proxies = *` is refused at start (78). Headless chromium through
nginx shows it, axe-clean, saved at 390 and 1280 px in Korean and English."""
import http.client
import json
import os
import re
import shutil
import ssl
import subprocess
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from conftest import BIN, ROOT
from daemonutil import wait_until
from serverutil import Server, server_run
from webutil import browser, free_port, resize

EXAMPLE = ROOT / "server" / "nginx" / "qrcheckin-server.conf"
ROLES = ["--proxy-role.steward", "door", "--proxy-role.supervisor", "leads", "--proxy-role.admin", "it"]


class Identity:
    """An oauth2-proxy-style sign-in service: the `idp` cookie names a known user → 202 with
    the user and its groups; anything else → 401. The test changes `users` as it goes."""

    def __init__(self):
        self.users = {}
        identity = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                match = re.search(r"(?:^|;\s*)idp=([\w.-]+)", self.headers.get("Cookie", ""))
                known = match and identity.users.get(match.group(1))
                self.send_response(202 if known else 401)
                if known:
                    self.send_header("X-Auth-Request-User", match.group(1))
                    self.send_header("X-Auth-Request-Groups", known)
                body = b"" if known else b"<!doctype html><title>Sign in</title><h1>Sign in at your organisation</h1>"
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def substitute(text, pattern, replacement, count):
    new, found = re.subn(pattern, replacement, text, flags=re.MULTILINE)
    assert found == count, f"{EXAMPLE}: expected {count} lines matching {pattern!r}, found {found}"
    return new


@pytest.fixture
def stack():
    base = Path(tempfile.mkdtemp(prefix="qrcheckin-proxy-signin."))
    base.chmod(0o755)
    secret = base / "secret"
    assert subprocess.run([BIN, "keygen", "-o", str(secret)], capture_output=True, timeout=30).returncode == 0
    # trusted-proxies is left at its default: loopback, where this nginx is.
    server = Server(base / "server", secret, args=["--admin-auth", "proxy", *ROLES, "--max-connections-per-client", "0"]).start()
    identity = Identity()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=checkin.example.org",
                    "-keyout", str(base / "key.pem"), "-out", str(base / "cert.pem")], check=True, capture_output=True, timeout=60)
    http_port, https_port = free_port(), free_port()
    site = EXAMPLE.read_text()
    site = substitute(site, r"server 127\.0\.0\.1:8080;", f"server 127.0.0.1:{server.port};", 1)
    site = substitute(site, r"proxy_pass http://127\.0\.0\.1:8081;", f"proxy_pass http://127.0.0.1:{server.admin_port};", 1)
    site = substitute(site, r"^(\s*)listen 80;", rf"\1listen 127.0.0.1:{http_port};", 1)
    site = substitute(site, r"^(\s*)listen 443 ssl http2;", rf"\1listen 127.0.0.1:{https_port} ssl http2;", 1)
    site = substitute(site, r"^\s*listen \[::\]:.*$", "", 2)
    site = substitute(site, r"ssl_certificate /\S+;", f"ssl_certificate {base}/cert.pem;", 1)
    site = substitute(site, r"ssl_certificate_key /\S+;", f"ssl_certificate_key {base}/key.pem;", 1)
    # PROXY SIGN-IN: the sign-in service's locations and the console's auth_request, uncommented;
    # the stripped headers filled from the service's answer instead.
    site = substitute(site, r"^(\s*)#(\s*)(location|proxy_pass|proxy_set_header|internal|proxy_pass_request_body|\}|auth_request|error_page)",
                      r"\1\2\3", 18)
    site = substitute(site, r"127\.0\.0\.1:4180", f"127.0.0.1:{identity.port}", 2)
    site = substitute(site, r'proxy_set_header X-Auth-Request-User "";', "proxy_set_header X-Auth-Request-User $auth_user;", 1)
    site = substitute(site, r'proxy_set_header X-Auth-Request-Groups "";', "proxy_set_header X-Auth-Request-Groups $auth_groups;", 1)
    (base / "site.conf").write_text(site)
    (base / "temp").mkdir()
    (base / "nginx.conf").write_text(f"""daemon off;
user root root;
worker_processes 1;
pid {base}/nginx.pid;
error_log {base}/error.log warn;
events {{ worker_connections 128; }}
http {{
    access_log off;
    client_body_temp_path {base}/temp/body;
    proxy_temp_path {base}/temp/proxy;
    fastcgi_temp_path {base}/temp/fastcgi;
    uwsgi_temp_path {base}/temp/uwsgi;
    scgi_temp_path {base}/temp/scgi;
    include {base}/site.conf;
}}
""")
    check = subprocess.run(["nginx", "-t", "-q", "-p", str(base), "-c", str(base / "nginx.conf"), "-e", "stderr"],
                           capture_output=True, text=True, timeout=30)
    assert check.returncode == 0, check.stderr + site
    nginx = subprocess.Popen(["nginx", "-p", str(base), "-c", str(base / "nginx.conf"), "-e", str(base / "error.log")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def up():
        try:
            http.client.HTTPConnection("127.0.0.1", http_port, timeout=1).request("GET", "/")
            return True
        except OSError:
            return nginx.poll() is not None
    wait_until(up, timeout=20, message="nginx")
    assert nginx.poll() is None, (base / "error.log").read_text()
    yield {"server": server, "identity": identity, "https": https_port, "base": base}
    nginx.terminate()
    nginx.wait(10)
    identity.stop()
    server.stop()
    shutil.rmtree(base, ignore_errors=True)


def https(port, path, cookies=None, headers=None):
    """One request through nginx's TLS site: (status, headers lower-case, body text)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    connection = http.client.HTTPSConnection("127.0.0.1", port, timeout=15, context=context)
    cookie = "; ".join(f"{name}={value}" for name, value in (cookies or {}).items())
    connection.request("GET", path, headers={"Host": "checkin.example.org", "Accept-Language": "en",
                                             **({"Cookie": cookie} if cookie else {}), **(headers or {})})
    response = connection.getresponse()
    body = response.read().decode(errors="replace")
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


def console_cookie(headers):
    match = re.search(r"qrcheckin_console=([0-9a-f]{64})", headers.get("set-cookie", ""))
    return match.group(1) if match else None


def audit(server):
    result = server_run("audit", "--database", f"sqlite:{server.database}", "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_stewards_admins_role_changes_and_another_user_through_nginx(stack):
    port, users = stack["https"], stack["identity"].users
    # Nobody the service knows: nginx answers 401, the console is never reached.
    assert https(port, "/admin/")[0] == 401
    users["minji"] = "door"
    status, headers, body = https(port, "/admin/", {"idp": "minji"})
    assert status == 200, body
    minji = console_cookie(headers)
    assert minji and "; Secure" in headers["set-cookie"]
    assert https(port, "/admin/", {"idp": "minji", "qrcheckin_console": minji})[0] == 200
    assert https(port, "/admin/export?format=csv", {"idp": "minji", "qrcheckin_console": minji})[0] == 403
    # A client's own headers never reach the server: nginx sets them from the service's answer.
    status, _, _ = https(port, "/admin/audit", {"idp": "minji", "qrcheckin_console": minji},
                         headers={"X-Auth-Request-User": "root", "X-Auth-Request-Groups": "it"})
    assert status == 403
    users["root"] = "staff it"
    status, headers, body = https(port, "/admin/audit", {"idp": "root"})
    assert status == 200 and "proxy-sign-in" in body and "minji" in body and "proxy-account-add" in body
    # Another user on minji's session: hers ends, root signs in anew.
    status, headers, _ = https(port, "/admin/", {"idp": "root", "qrcheckin_console": minji})
    assert status == 200 and console_cookie(headers) not in (None, minji)
    assert any(e["action"] == "sign-out" and e["actor"] == "minji" and e["detail"] == "the proxy names another user" for e in audit(stack["server"]))
    # minji's groups change: her next sign-in makes her an admin.
    users["minji"] = "it"
    status, _, body = https(port, "/admin/audit", {"idp": "minji"})
    assert status == 200 and "proxy-role-change" in body
    entries = audit(stack["server"])
    change = [e for e in entries if e["action"] == "proxy-role-change"]
    assert len(change) == 1 and change[0]["actor"] == "minji" and change[0]["detail"] == "role admin, was steward"
    assert change[0]["source"].startswith("proxy ")
    # Groups that give no role: refused with a page that says why.
    users["guest"] = "visitors"
    status, _, body = https(port, "/admin/", {"idp": "guest"})
    assert status == 403 and "visitors" in body and "proxy-role" in body
    # A proxy-managed account has no password to give.
    result = server_run("user", "passwd", "minji", "--database", f"sqlite:{stack['server'].database}", input="a-new-password\n")
    assert result.returncode != 0 and "cannot be given one" in result.stderr


def test_the_headers_from_an_untrusted_address_sign_nobody_in_and_are_audited_once_a_minute(stack):
    server = stack["server"]
    for _ in range(5):
        connection = http.client.HTTPConnection("127.0.0.1", server.admin_port, timeout=15, source_address=("127.0.0.2", 0))
        connection.request("GET", "/admin/audit", headers={"X-Auth-Request-User": "root", "X-Auth-Request-Groups": "it"})
        response = connection.getresponse()
        response.read()
        connection.close()
        assert response.status == 303 and response.getheader("Location").endswith("/admin/login")
        assert "qrcheckin_console=" not in (response.getheader("Set-Cookie") or "")
    spoofs = [e for e in audit(server) if e["action"] == "proxy-spoof"]
    assert len(spoofs) == 1, spoofs
    assert spoofs[0]["source"] == "console 127.0.0.2" and spoofs[0]["rows"] == 1
    assert not [e for e in audit(server) if e["action"] in ("proxy-sign-in", "sign-in")]


@pytest.mark.parametrize("trust", ["*", "10.0.0.5, 0.0.0.0/0", "::/0"])
def test_a_trust_list_that_trusts_anyone_is_refused_at_start(tmp_path, trust):
    config = tmp_path / "server.conf"
    config.write_text(f"admin-auth = proxy\ntrusted-proxies = {trust}\n")
    result = server_run("serve", "-c", str(config), "--listen", "127.0.0.1:0", "--admin-listen", "127.0.0.1:0")
    assert result.returncode == 78, result.stderr
    assert f"{config}:2: trusted-proxies" in result.stderr and "would trust every address" in result.stderr


def test_the_old_spelling_is_read_with_a_warning(tmp_path, secret, servers):
    server = servers(secret, tmp_path, args=["--trusted-proxy", "192.0.2.254"])
    wait_until(lambda: "trusted-proxy is now spelt trusted-proxies" in server.logs() or None, timeout=20, message="the warning")
    # The old list is the trust list: loopback is no longer trusted, its X-Forwarded-Proto ignored.
    connection = http.client.HTTPConnection("127.0.0.1", server.admin_port, timeout=15)
    connection.request("GET", "/admin/login", headers={"X-Forwarded-Proto": "https"})
    response = connection.getresponse()
    response.read()
    connection.close()
    assert response.status == 200 and "qrcheckin_console_login=" in response.getheader("Set-Cookie")
    assert "Secure" not in response.getheader("Set-Cookie")


def test_chromium_through_nginx_axe_clean_and_looked_at(stack, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium_axe_python import Axe

    port, users = stack["https"], stack["identity"].users
    users["root"] = "it"
    users["guest"] = "visitors"
    shots = Path(os.environ.get("QRCHECKIN_SCREENSHOTS", ROOT / "build" / "screenshots")) / "proxy-signin"
    shots.mkdir(parents=True, exist_ok=True)
    driver = browser(1280, 900, tmp_path / "profile")
    try:
        driver.execute_cdp_cmd("Security.setIgnoreCertificateErrors", {"ignore": True})
        base = f"https://127.0.0.1:{port}"
        driver.get(base + "/oauth2/sign_in")
        axe = Axe(driver)
        for user, pages in (("root", {"dashboard": "/admin/", "audit": "/admin/audit", "signed-out": None}),
                            ("guest", {"refused": "/admin/"})):
            driver.delete_all_cookies()
            driver.get(base + "/oauth2/sign_in")
            driver.add_cookie({"name": "idp", "value": user, "path": "/"})
            for width, height in ((390, 844), (1280, 900)):
                resize(driver, width, height)
                for language in ("ko", "en"):
                    for name, path in pages.items():
                        if path is None:
                            # Sign out: the sign-in page says to sign in through the organisation,
                            # offers no password, and does not sign in again by itself.
                            driver.get(f"{base}/admin/?lang={language}")
                            driver.find_element(By.CSS_SELECTOR, "form[action*='logout'] button").click()
                            wait_until(lambda: "out=1" in driver.current_url or None, timeout=20, message="the sign-out")
                            path = "/admin/login?out=1"
                        else:
                            driver.get(f"{base}{path}{'&' if '?' in path else '?'}lang={language}")
                        wait_until(lambda: driver.find_elements(By.TAG_NAME, "h1") or None, timeout=20, message=path)
                        if name == "signed-out":
                            assert not driver.find_elements(By.CSS_SELECTOR, "input[type=password]")
                            assert ("organisation" if language == "en" else "조직") in driver.page_source
                        if name == "audit":
                            assert "proxy-sign-in" in driver.page_source
                        if name == "refused":
                            assert "visitors" in driver.page_source
                        axe.inject()
                        results = axe.run()
                        assert results["violations"] == [], f"{path} {language} {width}: " + axe.report(results["violations"])
                        driver.save_screenshot(str(shots / f"{name}-{language}-{width}.png"))
    finally:
        driver.quit()
