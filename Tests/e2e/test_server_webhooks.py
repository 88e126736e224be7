"""Issue 40's webhooks against the real server: every delivery verified by the `standardwebhooks`
package (a receiver nobody here wrote), retries with the same webhook-id, 410 disables, and a
server killed with SIGKILL mid-delivery delivers after its restart."""
import json
import sqlite3
import time
import re
import signal
import threading

import pytest

from processutil import wait_until
from serverutil import LOAD_ARGS, code, server_run
from webhookutil import WebhookReceiver
from standardwebhooks.webhooks import Webhook, WebhookVerificationError


def add_webhook(server, url, *args):
    result = server_run("webhook", "add", "crm", url, "--database", f"sqlite:{server.database}", *args)
    assert result.returncode == 0, result.stderr
    return re.search(r"(whsec_\S+)", result.stdout).group(1)


def webhook(server, *args):
    result = server_run("webhook", *args, "--database", f"sqlite:{server.database}")
    assert result.returncode == 0, result.stderr
    return result.stdout


def scan_path(secret, server, venue="HALL-1"):
    return "/" + code(secret, venue, server.port)["url"].split("/", 3)[3]


def check_in(server, path, count):
    """`count` new phones check in at once (8 threads); every one admitted."""
    statuses, lock = [], threading.Lock()

    def work(share):
        for _ in range(share):
            status, _, _ = server.get(path)
            with lock:
                statuses.append(status)

    threads = [threading.Thread(target=work, args=(count // 8 + (1 if index < count % 8 else 0),)) for index in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert statuses.count(303) == count, statuses


def test_every_event_arrives_signed_once_despite_500s_and_a_tampered_copy_is_refused(servers, tmp_path, secret):
    server = servers(secret, tmp_path / "s", start=False, args=LOAD_ARGS)
    # The receiver's secret is known once the endpoint exists: a placeholder until then.
    receiver = WebhookReceiver("whsec_" + "A" * 32, answer=lambda n: 500 if n < 5 else 200)
    try:
        server.base.mkdir(parents=True, exist_ok=True)
        secret_text = add_webhook(server, receiver.url, "--events", "checkin,checkout")
        receiver.webhook = Webhook(secret_text)
        server.start()
        check_in(server, scan_path(secret, server), 100)
        result = server_run("checkout", "--venue", "HALL-1", "--all", "--database", f"sqlite:{server.database}")
        assert result.returncode == 0, result.stderr
        # 100 check-ins and their 100 exits; the first 5 attempts answered 500 come again after 5 s.
        receiver.wait_for(lambda ds: len({d.id for d in ds if d.verified and d.status == 200}) >= 200, 90, "200 events")
        successes = receiver.successes()
        ids = [d.id for d in successes]
        assert len(ids) == len(set(ids)) == 200, "each webhook-id once among the successes"
        assert all(d.verified for d in receiver.deliveries), "every delivery verifies"
        failed_ids = {d.id for d in receiver.deliveries[:5]}
        assert failed_ids <= set(ids), "a retry carries the same webhook-id"
        types = sorted(d.payload["type"] for d in successes)
        assert types.count("checkin") == 100 and types.count("checkout") == 100
        for delivery in successes:
            data = delivery.payload["data"]
            assert data["venue"] == "HALL-1" and "name" not in data and "phone" not in data and "device" not in data
            assert isinstance(data["id"], int) and data["occupancy"] >= 0
            if delivery.payload["type"] == "checkout":
                assert data["exit_kind"] == "staff" and data["stay_seconds"] >= 0
        # A tampered copy of a real delivery is refused by the same library.
        sample = successes[0]
        with pytest.raises(WebhookVerificationError):
            Webhook(secret_text).verify(sample.body.replace(b"HALL-1", b"HALL-2"), sample.headers)
        listed = webhook(server, "list")
        assert "0 pending, 200 delivered, 0 failed" in listed, listed
        log = webhook(server, "deliveries", "crm", "--limit", "500")
        statuses = [line.split("\t")[2] for line in log.splitlines()[1:]]
        assert statuses.count("500") == 5 and statuses.count("200") == 200, log
    finally:
        receiver.close()


def test_a_410_disables_the_endpoint(servers, tmp_path, secret):
    server = servers(secret, tmp_path / "s", start=False)
    receiver = WebhookReceiver("whsec_" + "A" * 32, answer=lambda n: 410)
    try:
        server.base.mkdir(parents=True, exist_ok=True)
        receiver.webhook = Webhook(add_webhook(server, receiver.url))
        server.start()
        assert "queued test event" in webhook(server, "test", "crm")
        receiver.wait_for(lambda ds: len(ds) >= 1, 30, "the test event")
        assert receiver.deliveries[0].verified and receiver.deliveries[0].payload["type"] == "test"
        wait_until(lambda: "410 Gone" in webhook(server, "list"), timeout=30, message="the endpoint disabled")
        assert "0 pending, 0 delivered, 1 failed" in webhook(server, "list")
        audit = server_run("audit", "--database", f"sqlite:{server.database}", "--format", "csv").stdout
        assert "webhook-add" in audit and "webhook-test" in audit
    finally:
        receiver.close()


def test_a_server_killed_mid_delivery_delivers_after_its_restart(servers, tmp_path, secret):
    server = servers(secret, tmp_path / "s", start=False, args=LOAD_ARGS)
    # The first attempt is held 20 s (the server is killed meanwhile); the rest answer at once.
    receiver = WebhookReceiver("whsec_" + "A" * 32)
    try:
        server.base.mkdir(parents=True, exist_ok=True)
        receiver.webhook = Webhook(add_webhook(server, receiver.url))
        receiver.hold = 20
        server.start()
        check_in(server, scan_path(secret, server), 1)
        receiver.wait_for(lambda ds: len(ds) >= 1, 30, "the first attempt")
        server.kill()
        receiver.hold = 0
        server.start()
        # The killed server's claim holds its lease (30 s), then the restarted server delivers.
        receiver.wait_for(lambda ds: len(ds) >= 2, 90, "the delivery after the restart")
        assert receiver.deliveries[0].id == receiver.deliveries[1].id and receiver.deliveries[1].verified
    finally:
        receiver.close()


def test_the_console_shows_the_endpoints_a_410_and_the_deliveries(servers, tmp_path, secret):
    """An admin adds an endpoint in the console (its secret shown once), sends a test, and the
    page says a 410 disabled it, in Korean and English."""
    from consoleutil import Console, add_user
    server = servers(secret, tmp_path / "s")
    add_user(server, "admin", "admin", tmp=tmp_path)
    admin = Console(server.admin_port)
    assert admin.sign_in("admin", "password-admin")[0] == 303
    receiver = WebhookReceiver("whsec_" + "A" * 32, answer=lambda n: 410)
    try:
        status, _, body = admin.post_form("/admin/webhooks", {"action": "add", "name": "door", "url": receiver.url, "event-checkin": "on"},
                                          page_path="/admin/webhooks")
        text = body.decode()
        assert status == 200 and "whsec_" in text, text
        receiver.webhook = Webhook(re.search(r"(whsec_[A-Za-z0-9+/=]+)", text).group(1))
        status, _, _ = admin.post_form("/admin/webhooks", {"action": "test", "name": "door"}, page_path="/admin/webhooks")
        assert status == 303
        receiver.wait_for(lambda ds: len(ds) >= 1, 30, "the console's test event")
        assert receiver.deliveries[0].verified
        wait_until(lambda: "410 Gone" in admin.get("/admin/webhooks?lang=en")[2].decode(), timeout=30, message="the page says 410")
        page = admin.get("/admin/webhooks?lang=ko")[2].decode()
        assert "410 Gone" in page and "whsec_" not in page, "the secret is never shown again"
        audit = server_run("audit", "--database", f"sqlite:{server.database}", "--format", "csv").stdout
        assert "webhook-add" in audit and "webhook-test" in audit and ",admin," in audit
    finally:
        receiver.close()


def test_an_endpoint_added_by_another_process_hears_every_check_in_after_it(servers, tmp_path, secret):
    """A check-in runs the outbox's statement only when its own insert saw an endpoint (issue 40:
    with none, a check-in costs what it did). Nothing is cached: an endpoint that `webhook add`
    (another process) commits while check-ins flow is heard by every check-in made after it."""
    server = servers(secret, tmp_path / "s", args=LOAD_ARGS)
    path = scan_path(secret, server)
    stop, made, lock, failures = threading.Event(), [0], threading.Lock(), []

    def flow():
        while not stop.is_set():
            status, _, _ = server.get(path)
            with lock:
                made[0] += 1
                if status != 303:
                    failures.append(status)

    threads = [threading.Thread(target=flow) for _ in range(4)]
    for thread in threads:
        thread.start()
    try:
        wait_until(lambda: made[0] >= 100, timeout=60, message="100 check-ins without an endpoint")
        before = time.time_ns() // 1_000_000
        add_webhook(server, "http://127.0.0.1:9/", "--events", "checkin")
        added = time.time_ns() // 1_000_000
        seen = made[0]
        wait_until(lambda: made[0] >= seen + 100, timeout=60, message="100 check-ins after the endpoint")
    finally:
        stop.set()
        for thread in threads:
            thread.join(30)
    assert not failures, failures
    server.stop(timeout=10)
    with sqlite3.connect(server.database) as db:
        rows = db.execute("SELECT id, at_ms FROM checkins").fetchall()
        heard = {checkin for (checkin,) in db.execute("SELECT checkin FROM webhook_events WHERE type = 'checkin'")}
    after = [row for row, at in rows if at > added]
    # Row ids go up in commit order (one writer): the first 100 were acknowledged before the add began.
    untold = sorted(row for row, _ in rows)[:100]
    assert len(after) >= 100 and all(at < before for row, at in rows if row in set(untold)), len(after)
    assert set(after) <= heard, f"{len(set(after) - heard)} check-ins after the endpoint's commit were not told"
    assert not heard & set(untold), "check-ins committed before the endpoint existed are told of nothing"
