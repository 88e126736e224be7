"""`qrcheckin-server backup` (issue 40): a live copy of the SQLite ledger with SQLite's online
backup API, taken while wrk checks new devices in as fast as the server takes them (thousands a
second): the copy passes `PRAGMA integrity_check`, holds every check-in whose receipt (303) the
load had before the backup began, and the server starts on it once restored (stop, copy,
start: docs/SERVER.md, "Backup and restore"). The file is 0600, never written over without
--force (never over a non-regular file at all), and PostgreSQL is refused with pg_dump's name."""
import json
import os
import re
import shutil
import sqlite3
import stat
import subprocess
import time
from pathlib import Path

from serverutil import LOAD_ARGS, Server, server_run
from daemonutil import BIN
from processutil import wait_until

LOAD_SCRIPT = Path(__file__).with_name("checkin_load.lua")
RECEIPT = re.compile(r"/C/([A-Z0-9.-]+)/receipt/(\d+)(\?.*)?")
PERIOD = "300"


def code_path(secret, venue, port):
    fields = subprocess.run([BIN, "code", "--secret-file", str(secret), "--venue", venue, "--period", PERIOD,
                             "--base-url", f"HTTP://127.0.0.1:{port}/C"], capture_output=True, text=True, timeout=30)
    assert fields.returncode == 0, fields.stderr
    url = dict(line.split(": ", 1) for line in fields.stdout.splitlines())["url"]
    return "/" + url.split("/", 3)[3]


def receipts(out):
    """(receipt id, …) of every 303 wrk has written so far (its lines are written one by one)."""
    ids = []
    for file in sorted(out.glob("responses-*")):
        for line in file.read_text().splitlines():
            if line.startswith("303 "):
                match = RECEIPT.fullmatch(line[4:])
                if match:  # a line being written has no newline yet: splitlines keeps it, the match may fail
                    ids.append(int(match.group(2)))
    return ids


def listed_ids(database):
    listed = server_run("checkins", "--database", f"sqlite:{database}", "--format", "csv", timeout=120)
    assert listed.returncode == 0, listed.stderr
    return {int(line.split(",", 1)[0]) for line in listed.stdout.splitlines()[1:]}


def test_a_backup_under_load_holds_every_acknowledged_check_in_and_restores(servers, tmp_path, secret):
    server = servers(secret, tmp_path / "live", args=["--period", PERIOD, *LOAD_ARGS])
    path = code_path(secret, "GATE-1", server.port)
    out = tmp_path / "wrk"
    out.mkdir()
    load = subprocess.Popen(["wrk", "-t2", "-c16", "-d8s", "--timeout", "5s", "-s", str(LOAD_SCRIPT),
                             f"http://127.0.0.1:{server.port}{path}", "--", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    backup = tmp_path / "backups" / "checkins-backup.db"
    backup.parent.mkdir()
    try:
        wait_until(lambda: len(receipts(out)) >= 2000, timeout=60, message="the load to be under way")
        time.sleep(1)  # a second of load for its rate
        before_count, before_time = len(receipts(out)), time.monotonic()
        time.sleep(1)
        # Acknowledged before the backup began: every receipt the load holds now.
        acknowledged = set(receipts(out))
        began = time.monotonic()
        result = server_run("backup", "--database", f"sqlite:{server.database}", "--to", str(backup), timeout=120)
        ended = time.monotonic()
        after_count = len(receipts(out))
        assert result.returncode == 0, result.stderr
        assert re.fullmatch(r"backed up to .*: integrity ok, schema version \d+, \d+ check-ins \(newest .*\), .* MB\n", result.stdout), result.stdout
        output, _ = load.communicate(timeout=60)
        assert load.returncode == 0, output
    finally:
        if load.poll() is None:
            load.kill()
            load.wait()
    rate = (after_count - before_count) / (ended - before_time)
    print(f"backup took {ended - began:.2f} s during {rate:,.0f} check-ins/s; {len(acknowledged):,} acknowledged before it")
    assert after_count > len(acknowledged), "check-ins went on while the backup ran"

    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    assert not Path(str(backup) + "-wal").exists(), "the backup is one file"
    assert list(backup.parent.iterdir()) == [backup], "no partial file is left beside it"
    with sqlite3.connect(f"file:{backup}?mode=ro", uri=True) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    verified = server_run("backup", "--verify", str(backup))
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.startswith(f"checked {backup}: integrity ok")

    # Before anything reads the copy (a listing is an export, audited in it): the backup is
    # audited, and the copy holds its own entry (committed before the copy began).
    entries = [json.loads(line) for line in server_run("audit", "--database", f"sqlite:{backup}", "--format", "jsonl").stdout.splitlines()]
    assert [entry["action"] for entry in entries][:1] == ["backup"], entries[:3]
    assert entries[0]["subject"] == f"file {backup}" and entries[0]["source"] == "cli"

    in_backup = listed_ids(backup)
    missing = acknowledged - in_backup
    assert not missing, f"{len(missing)} acknowledged check-ins are not in the backup, e.g. {sorted(missing)[:5]}"

    # Restore: stop, copy over the database (no stale -wal or -shm), start on it.
    server.stop()
    for suffix in ("-wal", "-shm"):
        Path(str(server.database) + suffix).unlink(missing_ok=True)
    shutil.copyfile(backup, server.database)
    os.chmod(server.database, 0o600)
    restored = servers(secret, tmp_path / "live", args=["--period", PERIOD, *LOAD_ARGS])
    assert restored.database == server.database
    assert listed_ids(restored.database) == in_backup
    status, headers, _ = restored.get(code_path(secret, "GATE-1", restored.port))
    assert status == 303, "the restored server records check-ins"
    assert len(listed_ids(restored.database)) == len(in_backup) + 1


def test_a_backup_is_never_written_over_a_file_without_force(tmp_path):
    database = tmp_path / "checkins.db"
    assert server_run("checkin", "--database", f"sqlite:{database}", "--venue", "HALL-1", "--new-venue", "--name", "Kim").returncode == 0
    target = tmp_path / "copy.db"
    target.write_text("an operator's file\n")
    result = server_run("backup", "--database", f"sqlite:{database}", "--to", str(target))
    assert result.returncode == 73 and "exists" in result.stderr, result
    assert target.read_text() == "an operator's file\n"
    assert not [p.name for p in tmp_path.iterdir() if ".partial-" in p.name], "nothing is left of a refused backup"
    audit = server_run("audit", "--database", f"sqlite:{database}", "--format", "jsonl").stdout
    assert '"backup"' not in audit, "a refused backup copied nothing and is not audited"

    os.umask(0o022)
    result = server_run("backup", "--database", f"sqlite:{database}", "--to", str(target), "--force")
    assert result.returncode == 0, result.stderr
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    with sqlite3.connect(target) as db:
        assert db.execute("SELECT count(*) FROM checkins").fetchone() == (1,)

    (tmp_path / "dir").mkdir()
    result = server_run("backup", "--database", f"sqlite:{database}", "--to", str(tmp_path / "dir"), "--force")
    assert result.returncode == 73 and "not a regular file" in result.stderr, result


def test_verify_refuses_a_damaged_or_foreign_file(tmp_path):
    database = tmp_path / "checkins.db"
    assert server_run("checkin", "--database", f"sqlite:{database}", "--venue", "HALL-1", "--new-venue", "--name", "Kim").returncode == 0
    backup = tmp_path / "copy.db"
    assert server_run("backup", "--database", f"sqlite:{database}", "--to", str(backup)).returncode == 0
    # An index that no longer agrees with its table: what integrity_check finds and quick reads do not.
    with sqlite3.connect(backup) as db:
        db.execute("PRAGMA writable_schema = ON")
        root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'checkins_at'").fetchone()[0]
    page_size = 1024
    data = bytearray(backup.read_bytes())
    offset = (root - 1) * page_size
    data[offset + 8:offset + page_size] = bytes(page_size - 8)
    backup.write_bytes(bytes(data))
    result = server_run("backup", "--verify", str(backup))
    assert result.returncode == 65 and "integrity check failed" in result.stderr, result

    foreign = tmp_path / "other.db"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE t (x)")
    result = server_run("backup", "--verify", str(foreign))
    assert result.returncode == 65 and "not a qrcheckin-server ledger" in result.stderr, result
    assert server_run("backup", "--verify", str(tmp_path / "none.db")).returncode == 66


def test_postgresql_is_refused_with_the_way_that_works_there(tmp_path):
    result = server_run("backup", "--database", "postgresql://checkin@db.example/checkins", "--to", str(tmp_path / "x.db"))
    assert result.returncode == 69, result
    assert "pg_dump" in result.stderr and "point-in-time" in result.stderr
    assert not (tmp_path / "x.db").exists()
