"""The shipped nginx TLS example in front of a real check-in server: a phone's HTTPS scan is
proxied, the server trusts nginx's forwarding headers (Secure cookie), the HTTP site redirects
to HTTPS, and nothing outside the base path (metrics) is reachable through nginx."""
import re
import shutil
import ssl
import subprocess
import http.client
import tempfile
from pathlib import Path

import pytest

from conftest import BIN, ROOT
from daemonutil import wait_until
from serverutil import Server, code
from webutil import free_port

EXAMPLE = ROOT / "server" / "nginx" / "qrcheckin-server.conf"


def substitute(text, pattern, replacement, count):
    new, found = re.subn(pattern, replacement, text, flags=re.MULTILINE)
    assert found == count, f"{EXAMPLE}: expected {count} lines matching {pattern!r}, found {found}"
    return new


@pytest.fixture
def stack():
    base = Path(tempfile.mkdtemp(prefix="qrcheckin-nginx."))
    base.chmod(0o755)
    secret = base / "secret"
    assert subprocess.run([BIN, "keygen", "-o", str(secret)], capture_output=True, timeout=30).returncode == 0
    server = Server(base / "server", secret, args=["--trusted-proxies", "127.0.0.1", "--max-connections-per-client", "0"]).start()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=checkin.example.org",
                    "-keyout", str(base / "key.pem"), "-out", str(base / "cert.pem")], check=True, capture_output=True, timeout=60)
    http_port, https_port = free_port(), free_port()
    site = EXAMPLE.read_text()
    site = substitute(site, r"server 127\.0\.0\.1:8080;", f"server 127.0.0.1:{server.port};", 1)
    site = substitute(site, r"^(\s*)listen 80;", rf"\1listen 127.0.0.1:{http_port};", 1)
    site = substitute(site, r"^(\s*)listen 443 ssl http2;", rf"\1listen 127.0.0.1:{https_port} ssl http2;", 1)
    site = substitute(site, r"^\s*listen \[::\]:.*$", "", 2)
    site = substitute(site, r"ssl_certificate /\S+;", f"ssl_certificate {base}/cert.pem;", 1)
    site = substitute(site, r"ssl_certificate_key /\S+;", f"ssl_certificate_key {base}/key.pem;", 1)
    # The redirect names the request's host; the test connects by address and port.
    site = substitute(site, r"return 308 https://\$host\$request_uri;", f"return 308 https://$host:{https_port}$request_uri;", 1)
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
    assert check.returncode == 0, check.stderr
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
    yield {"server": server, "secret": secret, "http": http_port, "https": https_port}
    nginx.terminate()
    nginx.wait(10)
    server.stop()
    shutil.rmtree(base, ignore_errors=True)


def https(port, path, headers=None):
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    connection = http.client.HTTPSConnection("127.0.0.1", port, timeout=15, context=context)
    connection.request("GET", path, headers={"Host": "checkin.example.org", **(headers or {})})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


def test_a_scan_through_the_nginx_tls_example(stack):
    path = "/" + code(stack["secret"], "HALL-1", stack["server"].port)["url"].split("/", 3)[3]
    status, headers, _ = https(stack["https"], path, headers={"X-Forwarded-For": "198.51.100.7"})
    assert status == 303 and re.fullmatch(r"/C/HALL-1/receipt/\d+", headers["location"])
    assert "; Secure" in headers["set-cookie"], "TLS at nginx must reach the server as X-Forwarded-Proto"
    assert headers["strict-transport-security"].startswith("max-age=")
    device = re.search(r"qrcheckin_device=([0-9a-f]+)", headers["set-cookie"]).group(1)
    status, _, body = https(stack["https"], headers["location"], headers={"Cookie": f"qrcheckin_device={device}"})
    assert status == 200 and b"HALL-1" in body
    # Plain HTTP is sent to the same path over TLS; the metrics are not reachable through nginx.
    connection = http.client.HTTPConnection("127.0.0.1", stack["http"], timeout=10)
    connection.request("GET", path, headers={"Host": "checkin.example.org"})
    response = connection.getresponse()
    assert response.status == 308 and response.getheader("Location").endswith(path)
    assert https(stack["https"], "/metrics")[0] == 404
