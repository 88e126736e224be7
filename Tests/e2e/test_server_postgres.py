"""Many servers, one PostgreSQL (issue 21): two qrcheckin-server processes on different ports
share one database under a wrk load split between them. The same device at both at once is one
row; kill -9 of one server loses no check-in that got its 303; a PostgreSQL restart answers only
503s meanwhile (never a receipt without a row) and both servers recover by themselves at the
database's return, without being restarted. The cluster is the tests' own (pgcluster)."""
import re
import subprocess
import threading
import time
from pathlib import Path

import pytest

from conftest import BIN
from daemonutil import wait_until
from pgcluster import PostgresCluster
from serverutil import LOAD_ARGS, Server, server_run

LOAD_SCRIPT = Path(__file__).with_name("checkin_load.lua")
# A receipt: `?again=1` when it is the device's earlier check-in ("already checked in").
RECEIPT = re.compile(r"/C/([A-Z0-9.-]+)/receipt/(\d+)(\?again=1(?:&seen=\d+\.[0-9a-f]+)?)?")
# Long windows: a code taken before the load is still good when it ends.
PERIOD = "300"


@pytest.fixture(scope="module")
def postgres():
    cluster = PostgresCluster(fsync=False)
    try:
        yield cluster
    finally:
        cluster.close()


_databases = iter(range(1, 10_000))


@pytest.fixture()
def database(postgres):
    """A new empty database; its URI."""
    return postgres.createdb(f"checkins_{next(_databases)}")


class PostgresServer(Server):
    """A `qrcheckin-server serve` whose ledger is the PostgreSQL database `uri`."""

    def __init__(self, base, secret, uri, args=()):
        super().__init__(base, secret, args=["--period", PERIOD, *LOAD_ARGS, *args])
        self.uri = uri

    def command(self):
        command = super().command()
        command[command.index("--database") + 1] = self.uri
        return command


def code_path(secret, venue, port):
    fields = subprocess.run([BIN, "code", "--secret-file", str(secret), "--venue", venue, "--period", PERIOD,
                             "--base-url", f"HTTP://127.0.0.1:{port}/C"], capture_output=True, text=True, timeout=30)
    assert fields.returncode == 0, fields.stderr
    url = dict(line.split(": ", 1) for line in fields.stdout.splitlines())["url"]
    return "/" + url.split("/", 3)[3]


class Load:
    """wrk against each server (new devices: every 303 a new check-in), each response recorded."""

    def __init__(self, tmp_path, servers, secret, seconds, connections=8):
        self.outputs, self.processes = [], []
        for index, server in enumerate(servers):
            out = tmp_path / f"wrk-{index}"
            out.mkdir()
            path = code_path(secret, f"GATE-{index}", server.port)
            self.outputs.append(out)
            self.processes.append(subprocess.Popen(
                ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s", "-s", str(LOAD_SCRIPT),
                 f"http://127.0.0.1:{server.port}{path}", "--", str(out)],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))

    def lines(self, index=None):
        outs = self.outputs if index is None else [self.outputs[index]]
        return [line for out in outs for file in sorted(out.glob("responses-*")) for line in file.read_text().splitlines()]

    def statuses(self, index=None):
        return [line.split(" ", 1)[0] for line in self.lines(index)]

    def receipts(self, index=None):
        """The check-in ids of every 303 the load generator saw."""
        ids = []
        for line in self.lines(index):
            if line.startswith("303 "):
                match = RECEIPT.fullmatch(line[4:])
                assert match, f"a 303 to {line[4:]!r}"
                ids.append(int(match.group(2)))
        return ids

    def wait(self, timeout=120):
        for process in self.processes:
            output, _ = process.communicate(timeout=timeout)
            assert process.returncode == 0, output

    def stop(self):
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait()


def stored_ids(postgres, uri):
    """The ids receipts show for the check-ins in `uri` (a keyed permutation of the row ids), as
    `checkins` lists them."""
    listed = server_run("checkins", "--database", uri, "--format", "csv", timeout=120)
    assert listed.returncode == 0, listed.stderr
    return {int(line.split(",", 1)[0]) for line in listed.stdout.splitlines()[1:]}


def check_in_new_device(server, path):
    """One check-in of a new device; (status, receipt id or None)."""
    status, headers, _ = server.get(path)
    match = RECEIPT.fullmatch(headers.get("location", "")) if status == 303 else None
    return status, int(match.group(2)) if match else None


def start_servers(tmp_path, secret, uri, count=2):
    servers = []
    for index in range(count):
        servers.append(PostgresServer(tmp_path / f"server-{index}", secret, uri))
    # Started together: both migrate at once (an advisory lock makes one apply the schema).
    for server in servers:
        server.start(wait=False)
    for server in servers:
        server.wait_ready()
    return servers


def test_the_same_device_at_both_servers_at_once_is_one_row(tmp_path, secret, postgres, database):
    servers = start_servers(tmp_path, secret, database)
    load = Load(tmp_path, servers, secret, seconds=6)
    try:
        wait_until(lambda: len(load.receipts()) >= 100, timeout=60, message="the load to be under way")
        hall = [code_path(secret, "HALL-1", server.port) for server in servers]
        for round in range(5):
            # A phone the servers issued a cookie to (either server's is good at both).
            _, issued, _ = servers[round % 2].get(code_path(secret, "CAFE", servers[round % 2].port), source="127.0.0.3")
            cookie = re.search(r"qrcheckin_device=([0-9a-f]+)", issued["set-cookie"]).group(1)
            barrier = threading.Barrier(32)
            answers, lock = [], threading.Lock()

            def scan(index):
                server = servers[index % 2]
                barrier.wait()
                status, headers, _ = server.get(hall[index % 2], headers={"Cookie": f"qrcheckin_device={cookie}"})
                with lock:
                    answers.append((status, headers.get("location")))

            threads = [threading.Thread(target=scan, args=(index,)) for index in range(32)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(30)
            assert {status for status, _ in answers} == {303}, answers
            receipts = [RECEIPT.fullmatch(location) for _, location in answers]
            assert len({receipt.group(2) for receipt in receipts}) == 1, f"the answers name several check-ins: {set(answers)}"
            checked_in = [receipt for receipt in receipts if not receipt.group(3)]
            assert len(checked_in) == 1, "one answer is 'checked in', the other 31 'already checked in'"
        load.wait()
    finally:
        load.stop()
        for server in servers:
            server.stop()
    name = database.split("///", 1)[1].split("?", 1)[0]
    rows = postgres.sql(name, "SELECT count(*), count(DISTINCT device) FROM checkins WHERE venue = 'HALL-1'")
    assert rows == [["5", "5"]], "five devices, each sent to both servers 32 times at once: five check-ins"
    assert set(load.statuses()) == {"303"}
    assert set(load.receipts()) <= stored_ids(postgres, database)


def test_kill_9_of_one_server_loses_no_acknowledged_check_in(tmp_path, secret, postgres, database):
    servers = start_servers(tmp_path, secret, database)
    load = Load(tmp_path, servers, secret, seconds=8)
    try:
        wait_until(lambda: len(load.receipts(0)) >= 300, timeout=60, message="300 check-ins at the first server")
        servers[0].kill()  # SIGKILL in the middle of the load
        killed_at = len(load.receipts(1))
        wait_until(lambda: len(load.receipts(1)) >= killed_at + 100, timeout=30,
                   message="the other server to go on checking in")
        load.wait()
    finally:
        load.stop()
        servers[0].stop()  # killed already, unless the test failed before: then it must not outlive it
        stopped = [server.stop() for server in servers[1:]]
    assert stopped == [0], "the other server stops cleanly"
    acknowledged = load.receipts()
    assert set(load.statuses()) == {"303"}, "only 303s (the killed server's connections fail, they are not answered)"
    assert len(set(acknowledged)) == len(acknowledged), "two receipts named one check-in"
    lost = set(acknowledged) - stored_ids(postgres, database)
    assert not lost, f"{len(lost)} of {len(acknowledged)} check-ins got their 303 but are not in the database"


def test_a_database_restart_answers_503_meanwhile_and_the_servers_recover(tmp_path, secret, postgres, database):
    servers = start_servers(tmp_path, secret, database)
    probes = [code_path(secret, "PROBE", server.port) for server in servers]
    load = Load(tmp_path, servers, secret, seconds=14)
    recovery = []
    try:
        wait_until(lambda: len(load.receipts()) >= 300, timeout=60, message="300 check-ins under load")
        postgres.stop("fast")
        wait_until(lambda: all("503" in load.statuses(index) for index in range(2)), timeout=30,
                   message="both servers to answer 503 while the database is down")
        postgres.start()
        back = time.monotonic()
        for server, probe in zip(servers, probes):
            # The pool reconnects at the next call, with no timer: the wait is for that event (the
            # measured time is printed); the deadline only ends a wait that failed.
            wait_until(lambda: check_in_new_device(server, probe)[0] == 303, timeout=60, interval=0.05,
                       message=f"the server on port {server.port} to check in again after the database's return")
            recovery.append(time.monotonic() - back)
        load.wait()
    finally:
        load.stop()
        for server in servers:
            server.stop()
    statuses = load.statuses()
    assert set(statuses) == {"303", "503"}, f"answers other than 303 and 503: {set(statuses) - {'303', '503'}}"
    after = stored_ids(postgres, database)
    lost = set(load.receipts()) - after
    assert not lost, f"{len(lost)} receipts for check-ins that are not in the database"
    for server in servers:
        logs = server.logs()
        assert logs.count("the ledger is unavailable") == 1, logs
        assert logs.count("the ledger answers again") == 1, logs
    print(f"recovered {['%.2f s' % seconds for seconds in recovery]} after the database's return; "
          f"{statuses.count('503')} answers 503, {statuses.count('303')} 303")


def test_metrics_count_ledger_failures_during_an_outage(tmp_path, secret, postgres, database):
    server = start_servers(tmp_path, secret, database, count=1)[0]
    try:
        path = code_path(secret, "HALL-1", server.port)
        assert check_in_new_device(server, path)[0] == 303
        postgres.stop("fast")
        try:
            status, headers, body = server.get(path)
            assert status == 503
            assert headers["retry-after"] == "5"
            assert "try again" in body.decode().lower()
        finally:
            postgres.start()
        _, _, metrics = server.get("/metrics")
        assert re.search(r'qrcheckin_server_ledger_failures_total\{kind="unavailable"\} [1-9]', metrics.decode()), metrics.decode()
    finally:
        server.stop()


def test_serve_refuses_to_start_while_the_database_is_unreachable(tmp_path, secret):
    result = server_run("serve", "--listen", "127.0.0.1:0", "--secret-file", str(secret),
                        "--database", f"postgresql:///checkins?host={tmp_path}&user=postgres&password=hunter2")
    assert result.returncode == 69, result.stderr
    assert "cannot connect to PostgreSQL" in result.stderr
    assert "hunter2" not in result.stderr


def test_migrate_then_checkins_on_postgresql(postgres, database):
    first = server_run("migrate", "--database", database)
    assert first.returncode == 0, first.stderr
    latest = re.search(r"schema version 0 → (\d+)$", first.stdout.strip())
    assert latest, first.stdout
    again = server_run("migrate", "--database", database)
    assert again.returncode == 0 and f"at schema version {latest.group(1)}, nothing to do" in again.stdout, again.stdout
    listed = server_run("checkins", "--database", database, "--format", "csv")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines() == ["id,venue,time,local_time,method,window_age,device,name,phone,operator,exit,exit_kind,stay_seconds"]


def test_import_of_sqlite_history_twice_gives_the_sources_count(tmp_path, secret, postgres, database):
    # A venue's history on one host: a SQLite server that took 40 check-ins at two venues.
    sqlite_server = Server(tmp_path / "sqlite", secret, args=["--period", PERIOD]).start()
    try:
        for venue, count in (("HALL-1", 30), ("CAFE", 10)):
            path = code_path(secret, venue, sqlite_server.port)
            for _ in range(count):
                assert check_in_new_device(sqlite_server, path)[0] == 303
    finally:
        assert sqlite_server.stop() == 0
    source = f"sqlite:{sqlite_server.database}"
    name = database.split("///", 1)[1].split("?", 1)[0]
    for run in range(2):
        result = server_run("import", "--from", source, "--venue", "HALL-1", "--database", database)
        assert result.returncode == 0, result.stderr
        expected = "copied 30, already there 0" if run == 0 else "copied 0, already there 30"
        assert f"source 30, {expected}; PostgreSQL now holds 30" in result.stdout, result.stdout
        assert postgres.sql(name, "SELECT count(*) FROM checkins") == [["30"]]
    everything = server_run("import", "--from", source, "--database", database)
    assert everything.returncode == 0 and "source 40, copied 10, already there 30" in everything.stdout, everything.stdout
    exported = server_run("checkins", "--database", database, "--format", "csv").stdout.splitlines()
    original = sqlite_server.checkins("--format", "csv").splitlines()
    # Every column, the ids too: a receipt from the old host opens and erases its check-in here.
    assert sorted(exported[1:]) == sorted(original[1:])
    assert postgres.sql(name, "SELECT count(*) FROM (SELECT DISTINCT venue, at_ms, device FROM checkins) AS d") == [["40"]]
    receipt = original[1].split(",", 1)[0]
    erased = server_run("erase", "--database", database, "--checkin", receipt, "--only", "--yes")
    assert erased.returncode == 0 and erased.stdout.endswith("erased 1 check-in\n"), erased
    assert postgres.sql(name, "SELECT count(*) FROM checkins") == [["39"]]


def test_import_refuses_what_is_not_sqlite_into_postgresql(tmp_path, database):
    into_sqlite = server_run("import", "--from", f"sqlite:{tmp_path}/a.db", "--database", f"sqlite:{tmp_path}/b.db")
    assert into_sqlite.returncode == 64 and "--database postgresql://" in into_sqlite.stderr
    missing = server_run("import", "--from", f"sqlite:{tmp_path}/none.db", "--database", database)
    assert missing.returncode == 66, missing.stderr
    assert not (tmp_path / "none.db").exists()


@pytest.mark.parametrize("setting", ["mysql://user:hunter2@db/checkins", "postgresql://user:hunter2@db/checkins?sslmode=%zz",
                                     "postgresql:host=db password=hunter2 sslmode"])
def test_a_bad_database_setting_never_repeats_a_password(tmp_path, secret, setting):
    result = server_run("serve", "--listen", "127.0.0.1:0", "--secret-file", str(secret), "--database", setting)
    assert result.returncode == 64, result.stderr
    assert "--database: " in result.stderr
    assert "hunter2" not in result.stderr


def test_sigterm_under_load_stops_cleanly_after_answering_what_it_took(tmp_path, secret, postgres, database):
    # Check-ins waiting for their commit hold suspended connections; stopping must let them answer.
    server = start_servers(tmp_path, secret, database, count=1)[0]
    load = Load(tmp_path, [server], secret, seconds=10, connections=16)
    try:
        wait_until(lambda: len(load.receipts()) >= 300, timeout=60, message="300 check-ins under load")
        status = server.stop()
    finally:
        load.stop()
        server.stop()
    assert status == 0, server.logs()[-2000:]
    lost = set(load.receipts()) - stored_ids(postgres, database)
    assert not lost, f"{len(lost)} receipts for check-ins that are not in the database"


def test_two_servers_share_console_sessions(tmp_path, secret, database):
    """Issue 33: the console's accounts and sessions are in the database: signed in on one
    server, the session works on the other; signed out on one, it is over on both."""
    from consoleutil import Console
    one, two = start_servers(tmp_path, secret, database)
    try:
        password = tmp_path / "password"
        password.write_text("password-admin\n")
        result = server_run("user", "add", "admin", "--role", "admin", "--database", database, "--password-file", str(password))
        assert result.returncode == 0, result.stderr
        first = Console(one.admin_port)
        assert first.sign_in("admin", "password-admin")[0] == 303
        second = Console(two.admin_port)
        second.cookies = dict(first.cookies)
        assert second.get("/admin/users")[0] == 200, "the session begun on one works on the other"
        assert second.sign_out()[0] == 303
        assert first.get("/admin/users")[0] == 303, "signed out on the other: over here too"
        audit = server_run("audit", "--format", "csv", "--database", database).stdout
        assert ",admin,sign-in," in audit and ",admin,sign-out," in audit, audit
    finally:
        for server in (one, two):
            server.stop()


def test_every_operator_command_leaves_exactly_one_entry_on_postgresql(tmp_path, database):
    """test_server_audit.py's walk on PostgreSQL, `import` included: each action and its entry one
    transaction of the shared database, exactly one entry an action."""
    from test_server_audit import walk
    assert server_run("migrate", "--database", database).returncode == 0
    source = tmp_path / "source.db"
    assert server_run("checkin", "--database", f"sqlite:{source}", "--venue", "HALL-2", "--new-venue", "--name", "Lim").returncode == 0
    walk(database, tmp_path, postgres=True, source=f"sqlite:{source}")
