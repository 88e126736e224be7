"""The check-in server's HTTP behaviour: strict headers, escaping, trusted proxies, the visitor
form, metrics, slowloris, and socket activation."""
import os
import re
import socket
import subprocess
import threading
import time
import urllib.parse

import pytest

from conftest import BIN
from daemonutil import wait_until
from serverutil import LOAD_ARGS, SERVER_BIN, clean_env, code, post_safe_number

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def token_path(secret, venue, port, **kwargs):
    return "/" + code(secret, venue, port, **kwargs)["url"].split("/", 3)[3]


def cookie_of(headers, name):
    match = re.search(rf"{name}=([^;]*)", headers.get("set-cookie", ""))
    return match.group(1) if match else None


def test_pages_carry_strict_headers_and_escape_what_they_show(servers, tmp_path, secret):
    config = tmp_path / "server.conf"
    config.write_text("name.HALL-1 = <script>alert(1)</script> & Co\n")
    server = servers(secret, tmp_path, args=["-c", str(config)])
    status, headers, _ = server.get(token_path(secret, "HALL-1", server.port))
    assert status == 303
    device = cookie_of(headers, "qrcheckin_device")
    # The time it was issued (Unix ms, 12 hex digits), then 128 random bits and a 64-bit MAC.
    assert re.fullmatch(r"[0-9a-f]{60}", device)
    assert abs(int(device[:12], 16) / 1000 - time.time()) < 3600
    assert "SameSite=Lax" in headers["set-cookie"] and "Secure" not in headers["set-cookie"]
    receipt = headers["location"]
    status, headers, body = server.get(receipt, headers={"Cookie": f"qrcheckin_device={device}"})
    assert status == 200
    assert headers["content-security-policy"].startswith("default-src 'none'")
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff" and headers["cache-control"] == "no-store"
    assert headers["referrer-policy"] == "no-referrer"
    assert b"<script>alert" not in body and b"&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co" in body
    assert b"<style" not in body and b"onclick" not in body and b"<script>" not in body
    # Another device (or none) does not see this receipt.
    assert server.get(receipt)[0] == 404
    status, headers, _ = server.get("/C/_/server.css")
    assert status == 200 and headers["content-type"].startswith("text/css") and headers["x-content-type-options"] == "nosniff"
    assert server.get(token_path(secret, "HALL-1", server.port), method="HEAD")[0] == 405  # HEAD never checks in


def test_forwarded_headers_count_only_from_trusted_proxies(servers, tmp_path, secret):
    # One wrong try a phone: a phone without a cookie counts against its network's ten.
    # trusted-proxies defaults to loopback (issue 41): a list without it makes this peer untrusted.
    plain = servers(secret, tmp_path / "plain", args=["--trusted-proxies", "192.0.2.254", "--safe-number-tries", "1"])
    status, headers, _ = plain.get(token_path(secret, "HALL-1", plain.port),
                                   headers={"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"})
    assert status == 303 and "Secure" not in headers["set-cookie"], "an untrusted peer cannot claim TLS"
    for index in range(10):
        assert post_safe_number(plain, "00가00가", headers={"X-Forwarded-For": f"198.51.100.{index}"})[0] == 403
    # The forged addresses did not spread the tries: the peer itself is limited.
    assert post_safe_number(plain, "00가00가")[0] == 429
    proxied = servers(secret, tmp_path / "proxied", args=["--trusted-proxies", "127.0.0.1/32, ::1", "--safe-number-tries", "1"])
    status, headers, _ = proxied.get(token_path(secret, "HALL-1", proxied.port),
                                     headers={"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"})
    assert status == 303 and "; Secure" in headers["set-cookie"]
    for _ in range(10):
        assert post_safe_number(proxied, "00가00가", headers={"X-Forwarded-For": "203.0.113.9"})[0] == 403
    assert post_safe_number(proxied, "00가00가", headers={"X-Forwarded-For": "203.0.113.9"})[0] == 429
    # Another visitor behind the same proxy is not limited; a spoofed left-most entry does not help.
    assert post_safe_number(proxied, "00가00가", headers={"X-Forwarded-For": "203.0.113.10"})[0] == 403
    assert post_safe_number(proxied, "00가00가", headers={"X-Forwarded-For": "192.0.2.1, 203.0.113.9"})[0] == 429
    # Metrics are for this host only: a forwarded outside client gets 404.
    assert proxied.get("/metrics", headers={"X-Forwarded-For": "203.0.113.9"})[0] == 404
    status, _, body = proxied.get("/metrics")
    assert status == 200
    text = body.decode()
    assert 'qrcheckin_server_checkins_total{venue="HALL-1",method="qr"} 1' in text
    assert "qrcheckin_server_rate_limited_total 2" in text
    assert 'qrcheckin_server_refusals_total{reason="bad-mac"} 11' in text
    assert re.search(r"qrcheckin_server_request_duration_seconds_count \d+", text)


def test_the_visitor_log_form_is_asked_once_per_device(servers, tmp_path, secret):
    server = servers(secret, tmp_path, args=["--visitor-fields", "name,phone"])
    path = token_path(secret, "HALL-1", server.port)
    status, headers, body = server.get(path, headers={"Accept-Language": "ko"})
    assert status == 200 and "이름".encode() in body and "전화번호".encode() in body
    device = cookie_of(headers, "qrcheckin_device")
    ticket = re.search(rb'name="ticket" value="([^"]+)"', body).group(1).decode()
    jar = {"Cookie": f"qrcheckin_device={device}", **FORM}
    bad = urllib.parse.urlencode({"ticket": ticket, "name": "김민지", "phone": "not a number"})
    assert server.get("/C/HALL-1/visitor", method="POST", body=bad, headers=jar)[0] == 400
    # The MAC's last byte changed (never to itself: a fixed "00" was the real ticket 1 run in 256).
    flipped = "11" if ticket[-2:] == "00" else "00"
    forged = urllib.parse.urlencode({"ticket": ticket[:-2] + flipped, "name": "김민지", "phone": "010-1234-5678"})
    assert server.get("/C/HALL-1/visitor", method="POST", body=forged, headers=jar)[0] == 400
    good = urllib.parse.urlencode({"ticket": ticket, "name": "김민지", "phone": "010-1234-5678"})
    status, headers, _ = server.get("/C/HALL-1/visitor", method="POST", body=good, headers=jar)
    assert status == 303, headers
    visitor = cookie_of(headers, "qrcheckin_visitor")
    assert visitor and "HttpOnly" in headers["set-cookie"]
    # Next visit (another venue): remembered, straight to the receipt.
    status, _, _ = server.get(token_path(secret, "CAFE", server.port),
                              headers={"Cookie": f"qrcheckin_device={device}; qrcheckin_visitor={visitor}"})
    assert status == 303
    rows = server.checkins("--format", "csv").splitlines()[1:]
    assert len(rows) == 2 and all(",김민지,01012345678," in row for row in rows)


def test_clients_that_half_close_after_a_check_in_still_get_their_303(servers, tmp_path, secret):
    """A client may shut down its sending side after its request (HTTP/1.0 tools do): under
    load, every one is answered after its commit. (The suspended connection's half-close at a
    chosen moment is driven deterministically by Tests/Server/ServerHTTPTests/
    SuspendedAnswerTests.swift, through the adapter's hooks.)"""
    from concurrent.futures import ThreadPoolExecutor
    server = servers(secret, tmp_path, args=LOAD_ARGS)
    path = token_path(secret, "HALL-1", server.port)
    request = f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode()

    def one(index):
        with socket.create_connection(("127.0.0.1", server.port), timeout=15) as connection:
            connection.sendall(request)
            connection.shutdown(socket.SHUT_WR)
            data = b""
            while chunk := connection.recv(4096):
                data += chunk
        return data[:12]
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(one, range(400)))
    assert answers.count(b"HTTP/1.1 303") == 400, {answer: answers.count(answer) for answer in set(answers)}


def still_open(connection):
    """True while the server keeps `connection` open without answering it (nothing to read yet)."""
    try:
        connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)  # an answer, or b"": closed
        return False
    except BlockingIOError:
        return True
    except OSError:
        return False


def test_a_slowloris_cannot_starve_other_clients(servers, tmp_path, secret):
    """One address opens 150 connections at once and trickles a byte into each now and then:
    the server keeps exactly 100 (its per-client limit) and still answers everyone else.

    Nothing but the limit closes a slow connection here (the trickle keeps each from idling
    out, the request deadline is 600 s), so the server has decided on all 150 once 50 are
    closed: a refusal comes only while the client holds its 100. A server that let 101 in
    closes 49 and the wait fails. (The race that let 101 in is played deterministically by
    Tests/Server/ServerHTTPTests/AdmissionRaceTests.swift.)"""
    server = servers(secret, tmp_path, args=["--max-connections", "300", "--max-connections-per-client", "100",
                                             "--request-timeout", "600"])
    slow, trickling = [], threading.Event()

    def trickle():  # a byte each second, as a slowloris does: libmicrohttpd's idle timeout (10 s) never comes
        while not trickling.wait(1):
            for connection in list(slow):
                try:
                    connection.send(b"X", socket.MSG_DONTWAIT)
                except OSError:
                    pass
    trickler = threading.Thread(target=trickle, daemon=True)
    try:
        for _ in range(150):
            connection = socket.socket()
            connection.bind(("127.0.0.3", 0))
            try:
                connection.connect(("127.0.0.1", server.port))
                connection.sendall(b"GET /C/HALL-1 HTTP/1.1\r\nHost: x\r\n")
            except OSError:
                pass
            slow.append(connection)
        trickler.start()
        wait_until(lambda: sum(not still_open(c) for c in slow) >= 50, message="the server to refuse 50 of the 150 slow connections")
        held = [c for c in slow if still_open(c)]
        assert len(held) == 100, f"the slow client holds {len(held)} connections"
        status, _, _ = server.get(token_path(secret, "HALL-1", server.port), source="127.0.0.2")
        assert status == 303
        # Not starved: answered while every slow connection is still held.
        assert all(still_open(c) for c in held), "a held connection was closed"
        assert server.process.poll() is None
    finally:
        trickling.set()
        if trickler.is_alive():
            trickler.join(10)
        for connection in slow:
            connection.close()
        server.stop()


def test_socket_activation_serves_the_socket_systemd_passes(tmp_path, secret):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    port = listener.getsockname()[1]
    log = open(tmp_path / "server.log", "wb")

    def as_fd_3():
        os.dup2(listener.fileno(), 3)

    env = clean_env()
    env.update({"LISTEN_FDS": "1", "TZ": "UTC"})
    # LISTEN_PID must be the server's own pid: the shell sets it, then becomes the server.
    process = subprocess.Popen(["sh", "-c", 'LISTEN_PID=$$ exec "$0" "$@"', SERVER_BIN, "serve", "--listen", "127.0.0.1:1",
                                "--admin-listen", "none", "--database", f"sqlite:{tmp_path}/c.db", "--secret-file", str(secret)],
                               stdout=log, stderr=subprocess.STDOUT, env=env, preexec_fn=as_fd_3, pass_fds=(3,))
    listener.close()
    try:
        wait_until(lambda: b"listening on" in (tmp_path / "server.log").read_bytes() or process.poll() is not None,
                   timeout=20, message="the server to start")
        assert f"listening on 127.0.0.1:{port}".encode() in (tmp_path / "server.log").read_bytes()
        connection = socket.create_connection(("127.0.0.1", port), timeout=10)
        path = token_path(secret, "HALL-1", port)
        connection.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        assert connection.recv(100).startswith(b"HTTP/1.1 303")
        connection.close()
    finally:
        process.terminate()
        assert process.wait(10) == 0
        log.close()
