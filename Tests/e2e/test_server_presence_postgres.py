"""Capacity across servers (issue 32): two qrcheckin-server processes on one PostgreSQL,
capacity 50, 200 phones entering and leaving (by the exit kiosk) at once for 10 s, one server
kill -9'ed midway. Inside never exceeds 50, and at the end the roll (`inside`) equals entries
minus exits in the export, exactly: the database decides, not the servers."""
import csv
import http.client
import io
import json
import random
import re
import threading
import time

import pytest

from pgcluster import PostgresCluster
from serverutil import server_run
from test_server_postgres import PERIOD, PostgresServer, code_path

CAPACITY = 50
PHONES = 200
SECONDS = 10


@pytest.fixture(scope="module")
def postgres():
    cluster = PostgresCluster(fsync=False)
    try:
        yield cluster
    finally:
        cluster.close()


class Phone(threading.Thread):
    """One phone from its own loopback address: scans in, stays a moment, scans the exit kiosk's
    code, again and again, at whichever server answers."""

    def __init__(self, index, servers, paths, stop, tally):
        super().__init__(daemon=True)
        self.source = f"127.0.{1 + index // 250}.{1 + index % 250}"
        self.servers, self.paths, self.stop_at, self.tally = servers, paths, stop, tally
        self.cookie = None
        self.random = random.Random(index)

    def request(self, kind):
        for attempt in range(2):
            server = self.servers[self.random.randrange(len(self.servers))]
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=(self.source, 0))
            try:
                headers = {"Cookie": f"qrcheckin_device={self.cookie}"} if self.cookie else {}
                connection.request("GET", self.paths[server.port][kind] + "?lang=en", headers=headers)
                response = connection.getresponse()
                body = response.read().decode()
                cookie = re.search(r"qrcheckin_device=([^;]*)", response.getheader("Set-Cookie") or "")
                if cookie:
                    self.cookie = cookie.group(1)
                return response.status, body
            except OSError:
                continue  # that server is gone: try one (perhaps the other)
            finally:
                connection.close()
        return None, ""

    def run(self):
        while time.monotonic() < self.stop_at:
            status, _ = self.request("in")
            self.tally(f"in {status}")
            if status != 303:
                time.sleep(self.random.uniform(0.01, 0.1))
                continue
            time.sleep(self.random.uniform(0.0, 0.3))
            status, body = self.request("out")
            self.tally("out " + ("checked-out" if status == 200 and "Checked out at" in body else str(status)))


def test_two_servers_never_admit_more_than_the_capacity_and_the_roll_is_exact(tmp_path, secret, postgres):
    uri = postgres.createdb("presence")
    config = tmp_path / "server.conf"
    config.write_text(f"capacity.HALL-1 = {CAPACITY}\nexit.HALL-1-OUT = HALL-1\n")
    servers = [PostgresServer(tmp_path / f"server-{index}", secret, uri, args=["-c", str(config)]) for index in range(2)]
    for server in servers:
        server.start(wait=False)
    for server in servers:
        server.wait_ready()
    try:
        paths = {server.port: {"in": code_path(secret, "HALL-1", server.port), "out": code_path(secret, "HALL-1-OUT", server.port)}
                 for server in servers}
        counts, lock = {}, threading.Lock()

        def tally(what):
            with lock:
                counts[what] = counts.get(what, 0) + 1

        peak, samples = 0, 0
        stop = time.monotonic() + SECONDS
        phones = [Phone(index, servers, paths, stop, tally) for index in range(PHONES)]
        for phone in phones:
            phone.start()
        killed = False
        while any(phone.is_alive() for phone in phones):
            inside = int(postgres.sql("presence", "SELECT count(*) FROM checkins WHERE venue = 'HALL-1' AND exit_ms IS NULL")[0][0])
            peak, samples = max(peak, inside), samples + 1
            assert inside <= CAPACITY, f"{inside} inside a venue of {CAPACITY}"
            if not killed and time.monotonic() > stop - SECONDS / 2:
                servers[0].kill()  # kill -9 midway: its transactions in flight roll back
                phones_servers = [servers[1]]
                for phone in phones:
                    phone.servers = phones_servers
                killed = True
            time.sleep(0.02)
        for phone in phones:
            phone.join(timeout=30)
        print(f"{samples} samples, peak {peak} inside; {dict(sorted(counts.items()))}")
        assert counts.get("in 503", 0) > 0, "the venue was full at times (the test must push the capacity)"
        assert counts.get("out checked-out", 0) > 0
        assert peak >= CAPACITY // 2, "the sampled occupancy came near the capacity"

        base = ["-c", str(config), "--database", uri]
        listed = server_run("checkins", "--database", uri, "--venue", "HALL-1", "--format", "csv", timeout=120)
        rows = list(csv.DictReader(io.StringIO(listed.stdout)))
        entries, exits = len(rows), sum(1 for row in rows if row["exit"])
        roll = server_run("inside", *base, "--venue", "HALL-1", "--format", "json", timeout=120)
        assert roll.returncode == 0, roll.stderr
        assert len(json.loads(roll.stdout)) == entries - exits <= CAPACITY, (len(json.loads(roll.stdout)), entries, exits)
        status, _, body = servers[1].get("/C/HALL-1/occupancy")
        assert status == 200 and json.loads(body)["inside"] == entries - exits
    finally:
        for server in servers:
            server.stop()
