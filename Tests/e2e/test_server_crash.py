"""kill -9 of the check-in server under a load of check-ins: every check-in that got its 303 is
in the database, the database opens clean, and a restarted server goes on."""
import http.client
import re
import sqlite3
import subprocess
import threading
import time

import pytest

from conftest import BIN
from daemonutil import wait_until
from serverutil import LOAD_ARGS, code


@pytest.mark.parametrize("durability", ["full", "normal"])
def test_kill_9_loses_no_acknowledged_check_in(servers, tmp_path, durability):
    secret = tmp_path / "secret"
    assert subprocess.run([BIN, "keygen", "-o", str(secret)], capture_output=True, timeout=30).returncode == 0
    server = servers(secret, tmp_path, args=["--durability", durability, *LOAD_ARGS])
    venues = [f"GATE-{index}" for index in range(8)]
    paths = ["/" + code(secret, venue, server.port)["url"].split("/", 3)[3] for venue in venues]
    acknowledged, errors = [], []
    lock = threading.Lock()
    stop = threading.Event()

    def load(worker):
        # Each request is a new device (no cookie): every 303 is a new row.
        connection = None
        while not stop.is_set():
            try:
                if connection is None:
                    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
                connection.request("GET", paths[worker % len(paths)])
                response = connection.getresponse()
                response.read()
                if response.status == 303:
                    match = re.fullmatch(r"/C/GATE-\d/receipt/(\d+)", response.getheader("Location"))
                    with lock:
                        acknowledged.append(int(match.group(1)))
                elif response.status != 303:
                    with lock:
                        errors.append(response.status)
            except (OSError, http.client.HTTPException):
                connection = None  # the server is gone, or going
                if stop.is_set():
                    break
                time.sleep(0.01)

    threads = [threading.Thread(target=load, args=(worker,)) for worker in range(16)]
    for thread in threads:
        thread.start()
    wait_until(lambda: len(acknowledged) >= 300, timeout=60, interval=0.01, message="300 check-ins under load")
    server.kill()  # SIGKILL in the middle of the load
    stop.set()
    for thread in threads:
        thread.join(10)
    assert not errors, f"non-303 answers under load: {set(errors)}"

    database = sqlite3.connect(tmp_path / "checkins.db")
    assert database.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    database.close()
    # The ids receipts show (a keyed permutation of the row ids), as the export lists them.
    stored = {int(line.split(",", 1)[0]) for line in server.checkins("--format", "csv").splitlines()[1:]}
    lost = set(acknowledged) - stored
    assert not lost, f"{len(lost)} check-ins got their 303 but are not in the database"
    assert len(set(acknowledged)) == len(acknowledged), "two receipts named one check-in"

    # A restarted server opens the same file and goes on.
    again = servers(secret, tmp_path, port=server.port, args=LOAD_ARGS)
    try:
        status, headers, _ = again.get(paths[0])
        assert status == 303
        new_id = int(headers["location"].rsplit("/", 1)[1])
        assert new_id not in stored
    finally:
        assert again.stop() == 0
    listed = again.checkins("--format", "csv").splitlines()
    assert len(listed) == len(stored) + 2  # the header, and the new one
