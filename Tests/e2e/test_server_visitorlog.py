"""The visitor log for operators (issue 22): a million-row export in constant memory, retention
that deletes on time (and for real), erasing one visitor, staff check-ins with the operator,
live counts that match the rows, and the commands' contract."""
import csv
import hashlib
import io
import json
import os
import pwd
import re
import sqlite3
import subprocess
import time
import urllib.parse
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from conftest import ROOT
from daemonutil import reachable_directory, wait_until
from serverutil import SERVER_BIN, Server, clean_env, code, post_safe_number, server_run
import visitorlogutil

GOLDEN = ROOT / "Tests" / "e2e" / "golden" / "help"
COLUMNS = visitorlogutil.COLUMNS
DAY_MS = 86_400_000
SEOUL = {"TZ": "Asia/Seoul"}


def run_server(*args, env=None, timeout=120):
    return server_run(*args, env={**SEOUL, **(env or {})}, timeout=timeout)


def new_ledger(path, venue="HALL-1", name="first"):
    """A ledger made the way an operator would (a staff check-in creates and migrates it);
    returns the id of that first check-in."""
    result = run_server("checkin", "--database", f"sqlite:{path}", "--venue", venue, "--new-venue", "--name", name)
    assert result.returncode == 0, result.stderr
    return int(re.search(r"check-in (\d+)", result.stdout).group(1))


def now_ms():
    return int(time.time() * 1000)


def insert(path, rows):
    """Rows of (venue, at_ms, method, window_age, device, name, phone, operator), in one transaction."""
    with sqlite3.connect(path) as db:
        db.executemany("INSERT INTO checkins (venue, at_ms, method, window_age, device, visitor_name, visitor_phone, operator)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    db.close()


def export(path, *args, env=None):
    result = run_server("checkins", "--database", f"sqlite:{path}", "--format", "csv", *args, env=env)
    assert result.returncode == 0, result.stderr
    return list(csv.DictReader(io.StringIO(result.stdout, newline="")))


def files_digest(path):
    """The bytes of the database and its WAL and shared-memory files, hashed."""
    digest = hashlib.sha256()
    for suffix in ("", "-wal", "-shm"):
        file = Path(f"{path}{suffix}")
        digest.update(file.read_bytes() if file.exists() else b"<none>")
    return digest.hexdigest()


def measured(args, stdout_path, env=None):
    """Runs qrcheckin-server with `args`, standard output to a file; returns (wall seconds, CPU
    seconds, peak RSS in KiB) as GNU time reports them. (The rusage of a child Python spawns
    starts with Python's own resident set, which the exec'd program inherits as its peak.)"""
    full_env = clean_env()
    full_env.update(SEOUL)
    full_env.update(env or {})
    report = Path(f"{stdout_path}.time")
    with open(stdout_path, "wb") as out:
        result = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", str(report), SERVER_BIN, *args],
                                stdout=out, stderr=subprocess.PIPE, env=full_env, timeout=300)
    assert result.returncode == 0, result.stderr.decode()
    wall, user, system, rss = report.read_text().split()
    return float(wall), float(user) + float(system), int(rss)


def test_a_million_check_ins_export_to_csv_in_constant_memory_and_read_back(tmp_path):
    database = tmp_path / "checkins.db"
    first = visitorlogutil.new_ledger(SERVER_BIN, database, {**clean_env(), **SEOUL})
    start = now_ms() - 10 * DAY_MS
    began = time.monotonic()
    visitorlogutil.generate(database, 999_999, start)
    print(f"\ngenerated 999,999 check-ins in {time.monotonic() - began:.1f} s")

    small = tmp_path / "small.csv"
    until = datetime.fromtimestamp((start + 10_001 * 250) / 1000, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    _, _, small_rss = measured(["checkins", "--database", f"sqlite:{database}", "--format", "csv", "--until", until], small)
    full = tmp_path / "full.csv"
    wall, cpu, full_rss = measured(["checkins", "--database", f"sqlite:{database}", "--format", "csv"], full)
    rows_per_cpu_second = 1_000_000 / cpu
    print(f"exported 1,000,000 rows ({full.stat().st_size / 1e6:.0f} MB of CSV): {wall:.2f} s wall ({1_000_000 / wall:,.0f} rows/s), "
          f"{cpu:.2f} s CPU ({rows_per_cpu_second:,.0f} rows/s); peak RSS {full_rss / 1024:.1f} MiB "
          f"(10,000 rows: {small_rss / 1024:.1f} MiB)")
    # Constant memory: a hundred times the rows, the same resident set within noise.
    assert full_rss - small_rss < 4 * 1024, f"peak RSS grew from {small_rss} to {full_rss} KiB"
    # Speed is make bench's (scripts/bench-visitorlog, medians beside a reference): even CPU
    # time per row varies by a third here with the neighbours' load, so it is printed, not asserted.

    with open(full, newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        assert next(reader) == COLUMNS
        count = 0
        previous = None
        for row in reader:
            count += 1
            assert len(row) == 13, row
            # Oldest first: the generated rows 2..1,000,000, then the first (now). The ids
            # shown are the keyed permutation's, not the row ids, and never a counter.
            i = count + 1
            assert previous is None or abs(int(row[0]) - previous) != 1, (previous, row[0])
            previous = int(row[0])
            if count == 1_000_000:
                assert int(row[0]) == first and row[1] == "HALL-0" and row[4] == "staff" and row[7] == "first"
                continue
            assert row[1:2] + row[4:10] == visitorlogutil.expected(i) and row[10:] == ["", "", ""], row
            if i % 100_003 == 0:
                moment = datetime.fromtimestamp((start + i * 250) / 1000, timezone.utc)
                assert row[2] == moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{(start + i * 250) % 1000:03d}Z"
                assert datetime.fromisoformat(row[3]) == moment.replace(microsecond=0)
                assert row[3].endswith("+09:00")
    assert count == 1_000_000
    total = run_server("checkins", "--database", f"sqlite:{database}", "--count")
    assert total.returncode == 0 and total.stdout == "1000000\n"
    by_venue = run_server("checkins", "--database", f"sqlite:{database}", "--count", "--by", "venue", "--format", "jsonl")
    counts = {line["venue"]: line["count"] for line in map(json.loads, by_venue.stdout.splitlines())}
    assert sum(counts.values()) == 1_000_000 and len(counts) == 7


def test_the_contract_commands(tmp_path, secret):
    database = tmp_path / "checkins.db"
    server = Server(tmp_path, secret).start()
    try:
        assert server.get("/" + code(secret, "HALL-1", server.port)["url"].split("/", 3)[3])[0] == 303
        number = code(secret, "CAFE", server.port)["safeNumber"]
        assert post_safe_number(server, number, venue="CAFE")[0] == 303
    finally:
        assert server.stop() == 0, server.logs()
    staff = server_run("checkin", "--database", f"sqlite:{database}", "--venue", "HALL-1", "--name", "Lee")
    assert staff.returncode == 0, staff.stderr
    rows = export(database)
    assert [(row["venue"], row["method"]) for row in rows] == [("HALL-1", "qr"), ("CAFE", "safe-number"), ("HALL-1", "staff")]
    lines = server_run("checkins", "--database", f"sqlite:{database}", "--format", "jsonl").stdout.splitlines()
    assert [json.loads(line)["venue"] for line in lines] == ["HALL-1", "CAFE", "HALL-1"]
    assert [json.loads(line)["method"] for line in lines] == ["qr", "safe-number", "staff"]
    assert server_run("checkins", "--database", f"sqlite:{database}", "--count").stdout == "3\n"
    assert server_run("checkins", "--database", f"sqlite:{database}", "--count", "--venue", "HALL-1").stdout == "2\n"
    dry = server_run("purge", "--database", f"sqlite:{database}", "--dry-run")
    assert dry.returncode == 0 and dry.stdout.startswith("would delete 0 check-ins"), dry


def test_retention_deletes_at_start_and_on_demand_and_a_dry_run_changes_nothing(tmp_path, secret):
    database = tmp_path / "checkins.db"
    new_ledger(database)
    now = now_ms()
    insert(database, [("HALL-1", now - 29 * DAY_MS, "qr", 0, "dev-old", "Old Visitor", "01000000029", None),
                      ("HALL-1", now - 27 * DAY_MS, "qr", 0, "dev-young", "Young Visitor", "01000000027", None)])
    with sqlite3.connect(database) as db:
        db.executemany("INSERT INTO refusals (venue, at_ms, reason, method) VALUES ('HALL-1', ?, 'expired', 'qr')",
                       [(now - 8 * DAY_MS,), (now - 6 * DAY_MS,)])
    db.close()

    before = files_digest(database)
    dry = run_server("purge", "--database", f"sqlite:{database}", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert re.match(r"would delete 1 check-in recorded before \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+09:00 \(retention 28 days\) "
                    r"and 1 refused scan before .* \(7 days\); their daily counts per venue would be kept$", dry.stdout.strip()), dry.stdout
    assert files_digest(database) == before, "a dry run changed the files"
    assert len(export(database)) == 3

    # The server purges at start: the 29-day-old check-in and the 8-day-old refusal go.
    server = Server(tmp_path, secret).start()
    try:
        wait_until(lambda: "retention: deleted 1 check-in" in server.logs(), timeout=20, message="the purge at start")
        assert "and 1 refused scan" in server.logs()
        assert "Old Visitor" not in server.logs() and "dev-old" not in server.logs(), "no personal data in the log"
        metrics = server.get("/metrics")[2].decode()
        assert 'qrcheckin_server_purged_total{what="checkins"} 1' in metrics
    finally:
        assert server.stop() == 0, server.logs()
    rows = export(database)
    assert [row["device"] for row in rows] == ["dev-young", ""], "the 27-day-old check-in and today's remain"
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT count(*) FROM refusals").fetchone() == (1,)
        assert db.execute("SELECT count(*) FROM checkins WHERE visitor_name = 'Old Visitor' OR device = 'dev-old'").fetchone() == (0,)
        assert db.execute("SELECT count(*) FROM presence WHERE device = 'dev-old'").fetchone() == (0,)
    db.close()
    assert b"Old Visitor" not in database.read_bytes(), "the purged name is overwritten, not merely unlinked"
    # Its day is kept as a count (keep-counts = yes by default), not as a row.
    kept = run_server("checkins", "--database", f"sqlite:{database}", "--count", "--kept")
    assert kept.stdout == "3\n"
    assert run_server("checkins", "--database", f"sqlite:{database}", "--count").stdout == "2\n"

    # On demand with a shorter retention (a flag, as any setting): the 27-day-old one goes too.
    purge = run_server("purge", "--database", f"sqlite:{database}", "--retention", "26d", "--keep-counts", "no")
    assert purge.returncode == 0 and purge.stdout.startswith("deleted 1 check-in recorded before"), purge
    assert "daily counts" not in purge.stdout
    assert [row["name"] for row in export(database)] == ["first"]


def test_a_purge_shrinks_the_file(tmp_path):
    database = tmp_path / "checkins.db"
    new_ledger(database)
    old = now_ms() - 40 * DAY_MS
    insert(database, [("HALL-1", old + i, "qr", 0, f"dev-{i}", f"VISITOR-{i:05d} " + "x" * 120, None, None) for i in range(20_000)])
    # A checkpoint by a reader's close leaves the rows in the main file, as days of serving would.
    with sqlite3.connect(database) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    size = database.stat().st_size
    assert size > 3_000_000 and b"VISITOR-12345" in database.read_bytes()
    purge = run_server("purge", "--database", f"sqlite:{database}")
    assert purge.returncode == 0 and purge.stdout.startswith("deleted 20000 check-ins"), purge
    shrunk = database.stat().st_size
    print(f"\nthe database shrank from {size:,} to {shrunk:,} bytes")
    assert shrunk < size / 10
    wal = Path(f"{database}-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    assert b"VISITOR-" not in database.read_bytes()
    assert [row["name"] for row in export(database)] == ["first"]


def erase(database, *args, input=""):
    """`erase` on `database`; standard input a pipe (not a terminal) unless told otherwise."""
    return server_run("erase", "--database", f"sqlite:{database}", *args, env=SEOUL, input=input)


def erase_on_a_terminal(database, answer, *args):
    """`erase` with standard input a terminal on which `answer` is typed; (exit, stdout, stderr)."""
    controller, terminal = os.openpty()
    try:
        env = clean_env()
        env.update(SEOUL)
        process = subprocess.Popen([SERVER_BIN, "erase", "--database", f"sqlite:{database}", *args], stdin=terminal,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        os.write(controller, answer.encode() + b"\n")
        stdout, stderr = process.communicate(timeout=60)
        return process.returncode, stdout, stderr
    finally:
        os.close(controller)
        os.close(terminal)


def test_erasing_one_device_removes_exactly_its_rows(tmp_path, secret):
    database = tmp_path / "checkins.db"
    server = Server(tmp_path, secret, args=["--duplicate-time", "0s"]).start()
    devices = {}
    receipts = {}
    try:
        for name, venue in [("a", "HALL-1"), ("b", "HALL-1"), ("a", "CAFE"), ("c", "CAFE"), ("a", "HALL-1"), ("b", "CAFE")]:
            jar = {"Cookie": f"qrcheckin_device={devices[name]}"} if name in devices else {}
            status, headers, _ = server.get("/" + code(secret, venue, server.port)["url"].split("/", 3)[3], headers=jar)
            assert status == 303
            cookie = re.search(r"qrcheckin_device=([^;]*)", headers.get("set-cookie", ""))
            devices.setdefault(name, cookie.group(1) if cookie else None)
            receipts.setdefault(name, int(headers["location"].rsplit("/", 1)[1]))
    finally:
        assert server.stop() == 0, server.logs()
    assert server_run("checkin", "--database", f"sqlite:{database}", "--venue", "CAFE", "--name", "Kim",
                      "--phone", "010-2222-3333").returncode == 0
    rows = export(database)
    assert len(rows) == 7
    device_of = {row["id"]: row["device"] for row in rows}
    device_a = device_of[str(receipts["a"])]
    assert device_a and list(device_of.values()).count(device_a) == 3
    today = datetime.now(timezone(timedelta(hours=9))).date().isoformat()

    # The table's DEVICE column is what --device takes: 16 characters, a prefix of one device.
    table = run_server("checkins", "--database", f"sqlite:{database}", "--format", "table").stdout.splitlines()
    shown = {line.split()[0]: line.split()[6] for line in table[1:]}  # LOCAL TIME is two words
    assert shown[str(receipts["a"])] == device_a[:16] and len(set(shown.values()) - {"-"}) == 3, table
    # A prefix several devices begin with (the issue time, made the same second) is refused, listed.
    common = os.path.commonprefix([device_of[str(receipts[name])] for name in "abc"])
    ambiguous = erase(database, "--device", common, "--yes")
    assert ambiguous.returncode == 65 and f"device {common} is ambiguous: it begins the ids of 3 devices" in ambiguous.stderr, ambiguous
    assert export(database) == rows
    unknown = erase(database, "--device", "0123456789abcdef", "--yes")
    assert unknown.returncode == 65 and "no such device" in unknown.stderr and unknown.stdout == "", unknown

    # Shown first, erased only when confirmed: without a terminal or --yes, nothing goes.
    device_a = shown[str(receipts["a"])]
    preview = f"3 check-ins of device {device_a}…:\n  {today}  CAFE    1\n  {today}  HALL-1  2\n"
    refused = erase(database, "--device", device_a)
    assert refused.returncode == 64 and refused.stdout == preview, refused
    assert "nothing erased: answer on a terminal, or add --yes" in refused.stderr
    dry = erase(database, "--device", device_a, "--dry-run")
    assert dry.returncode == 0 and dry.stdout == preview + "nothing erased (--dry-run)\n", dry
    status, stdout, stderr = erase_on_a_terminal(database, "n", "--device", device_a)
    assert status == 1 and stdout == preview + "nothing erased\n" and "Erase these 3 check-ins? [y/N] " in stderr, (stdout, stderr)
    assert export(database) == rows, "nothing changed"

    status, stdout, stderr = erase_on_a_terminal(database, "y", "--device", device_a)
    assert status == 0 and stdout == preview + "erased 3 check-ins of that device\n", (stdout, stderr)
    whole_a = device_of[str(receipts["a"])]
    assert whole_a not in stdout + stderr, "the id is never shown whole"
    after = export(database)
    assert after == [row for row in rows if row["device"] != whole_a], "exactly its rows went, the others are unchanged"

    # A visitor shows the receipt: its number finds the device.
    b = receipts["b"]
    by_receipt = erase(database, "--checkin", str(b), "--yes")
    assert by_receipt.returncode == 0, by_receipt
    assert by_receipt.stdout == (f"2 check-ins of the device of check-in {b} ({device_of[str(b)][:16]}…):\n"
                                 f"  {today}  CAFE    1\n  {today}  HALL-1  1\nerased 2 check-ins of that device\n"), by_receipt
    by_phone = erase(database, "--phone", "010 2222 3333", "-y")
    assert by_phone.stdout == f"1 check-in with the phone number …3333:\n  {today}  CAFE  1\nerased 1 check-in with that phone number\n", by_phone
    assert "01022223333" not in by_phone.stdout + by_phone.stderr
    assert [row["device"] for row in export(database)] == [device_of[str(receipts["c"])]]
    nothing = erase(database, "--phone", "010 2222 3333", "--yes")
    assert nothing.returncode == 65 and nothing.stdout == "", nothing
    assert "no check-ins with the phone number …3333 (never recorded, purged or erased already): nothing erased" in nothing.stderr

    # A number that names nothing: erased already, made up, or a counter's guess.
    for number in (receipts["a"], 1, 2, 281474976710656):
        missing = erase(database, "--checkin", str(number), "--yes")
        assert missing.returncode == 65 and f"no such check-in: {number}" in missing.stderr, missing
        assert missing.stdout == ""


def test_erasing_one_check_in_alone(tmp_path):
    database = tmp_path / "checkins.db"
    first = new_ledger(database, name="typo")
    second = new_ledger(database, name="Lee")
    insert(database, [("HALL-1", now_ms() - 60_000, "qr", 0, "phone-1", None, None, None),
                      ("HALL-1", now_ms() - 30_000, "qr", 0, "phone-1", None, None, None)])
    rows = export(database)
    phone_rows = [row["id"] for row in rows if row["device"] == "phone-1"]
    today = datetime.now(timezone(timedelta(hours=9))).date().isoformat()
    # A staff entry names no device and no phone: --checkin erases it alone (formerly exit 65).
    alone = erase(database, "--checkin", str(first), "--yes")
    assert alone.returncode == 0 and alone.stdout.startswith(f"check-in {first}, which names no device and no phone number"), alone
    assert alone.stdout.endswith(f"  {today}  HALL-1  1\nerased 1 check-in\n")
    # --only: one of a device's check-ins, not the other.
    only = erase(database, "--checkin", phone_rows[0], "--only", "--yes")
    assert only.returncode == 0 and only.stdout == f"check-in {phone_rows[0]} alone:\n  {today}  HALL-1  1\nerased 1 check-in\n", only
    assert [row["id"] for row in export(database)] == [phone_rows[1], str(second)]


@pytest.mark.parametrize("fmt", ["table", "csv", "jsonl"])
def test_no_output_carries_a_control_character_raw(tmp_path, fmt):
    database = tmp_path / "checkins.db"
    new_ledger(database)
    names = ["\x1b[2J\x1b]0;owned\x07", "nul\x00byte", "bell\x07", "over\rwrite", "\u202egnp.exe", "csi\x9b31m", "=cmd|' /C calc'!A0"]
    insert(database, [("HALL-1", now_ms() - 60_000 + i, "qr", 0, f"d{i}", name, None, name) for i, name in enumerate(names)])
    result = subprocess.run([SERVER_BIN, "checkins", "--database", f"sqlite:{database}", "--format", fmt],
                            capture_output=True, env={**clean_env(), **SEOUL}, timeout=60)
    assert result.returncode == 0, result.stderr
    text = result.stdout.decode()
    line_end = "\r\n" if fmt == "csv" else "\n"
    for line in text.split(line_end)[:-1]:
        bad = [c for c in line if ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 or 0x202A <= ord(c) <= 0x202E or 0x2066 <= ord(c) <= 0x2069]
        assert not bad, f"{fmt}: {line!r}"
    if fmt == "jsonl":
        assert [json.loads(line)["name"] for line in text.splitlines()][:-1] == names, "JSON keeps the exact text, escaped"
    elif fmt == "csv":
        got = [row["name"] for row in csv.DictReader(io.StringIO(text, newline=""))][:-1]
        assert got[:2] == ["\\u{001B}[2J\\u{001B}]0;owned\\u{0007}", "nul\\u{0000}byte"] and got[4] == "\\u{202E}gnp.exe", got
        assert got[6] == "'=cmd|' /C calc'!A0", "a formula is defused"
    else:
        assert "\\u{001B}[2J" in text and "\\u{202E}gnp.exe" in text


def test_a_staff_check_in_shows_the_operator_in_the_export(tmp_path):
    database = tmp_path / "checkins.db"
    me = pwd.getpwuid(os.getuid()).pw_name
    result = run_server("checkin", "--database", f"sqlite:{database}", "--venue", "HALL-1", "--new-venue", "--name", "김민지")
    assert result.returncode == 0, result.stderr
    assert re.fullmatch(rf"checked in at HALL-1 \(check-in \d+, \d{{4}}-\d\d-\d\d \d\d:\d\d:\d\d \+09:00, by {re.escape(me)}\)\n", result.stdout)
    row = export(database)[0]
    assert (row["method"], row["name"], row["operator"], row["device"], row["window_age"]) == ("staff", "김민지", me, "", "")
    line = json.loads(run_server("checkins", "--database", f"sqlite:{database}", "--format", "jsonl").stdout)
    assert line["operator"] == me and line["method"] == "staff" and line["device"] is None
    if os.getuid() == 0:
        # Through sudo, the user who ran sudo; a SUDO_USER that does not match SUDO_UID is not believed.
        nobody = pwd.getpwnam("nobody")
        sudo = {"SUDO_USER": "nobody", "SUDO_UID": str(nobody.pw_uid)}
        assert run_server("checkin", "--database", f"sqlite:{database}", "--venue", "HALL-1", env=sudo).returncode == 0
        assert run_server("checkin", "--database", f"sqlite:{database}", "--venue", "HALL-1",
                          env={"SUDO_USER": "nobody", "SUDO_UID": "4242"}).returncode == 0
        assert [row["operator"] for row in export(database)] == [me, "nobody", me]


def test_staff_names_are_checked_like_the_visitor_form(tmp_path):
    """A name staff type is kept as a visitor's name is: trimmed, 1-64 characters, no control or
    format character (a bidi override U+202E, an isolate U+2066, a zero-width space U+200B), by
    the one rule the visitor form uses. Account names (`user add`) are plain ASCII already."""
    database = tmp_path / "checkins.db"
    for name in ("\u202egnp.exe", "a\u2066b\u2069", "zero\u200bwidth", "\u200b", "tab\there", " ", "x" * 65):
        result = run_server("checkin", "--database", f"sqlite:{database}", "--venue", "HALL-1", "--new-venue", "--name", name)
        assert result.returncode == 64 and "--name" in result.stderr, (name, result)
    assert not database.exists() or export(database) == [], "nothing was recorded"
    for typed in (" Kim", "Kim ", "\u3000Kim", "\tKim"):
        result = run_server("checkin", "--database", f"sqlite:{database}", "--venue", "HALL-1", "--new-venue", "--name", typed)
        assert result.returncode == 0, (typed, result)
    assert [row["name"] for row in export(database)] == ["Kim"] * 4, "kept trimmed, as the form keeps it"
    password = tmp_path / "password"
    password.write_text("long enough password\n")
    for name in ("\u202eadmin", " mina", "mi\u200bna"):
        added = run_server("user", "add", name, "--role", "steward", "--database", f"sqlite:{database}", "--password-file", str(password))
        assert added.returncode == 64, (name, added)


def test_the_excel_csv_keeps_hangul_and_the_leading_zero_of_phone_numbers(tmp_path):
    database = tmp_path / "checkins.db"
    assert run_server("checkin", "--database", f"sqlite:{database}", "--venue", "HALL-1", "--new-venue",
                      "--name", "김민지", "--phone", "010-2222-3333").returncode == 0
    result = subprocess.run([SERVER_BIN, "checkins", "--database", f"sqlite:{database}", "--format", "csv", "--excel"],
                            capture_output=True, env={**clean_env(), **SEOUL}, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("\ufeffid,venue,".encode()), "a byte order mark: Excel reads the file as UTF-8"
    row = next(csv.DictReader(io.StringIO(result.stdout.decode("utf-8-sig"), newline="")))
    assert (row["name"], row["phone"]) == ("김민지", '="01022223333"'), "a formula of text: Excel keeps the 0"
    plain = export(database)[0]
    assert plain["phone"] == "01022223333", "without --excel the CSV is plain RFC 4180"
    misuse = run_server("checkins", "--database", f"sqlite:{database}", "--format", "jsonl", "--excel")
    assert misuse.returncode == 64 and "--excel shapes CSV for Excel" in misuse.stderr


def test_a_staff_check_in_at_a_venue_nobody_named_is_refused_as_a_typo(tmp_path):
    """A master secret signs every venue: `checkin --venue HALL-7` (a typo of HALL-1) must not start a
    phantom venue. Known is named by a setting or holding check-ins; --new-venue says it is new."""
    database = tmp_path / "checkins.db"
    typo = run_server("checkin", "--database", f"sqlite:{database}", "--venue", "HALL-7", "--name", "Kim")
    assert typo.returncode == 65 and "unknown venue HALL-7" in typo.stderr and "--new-venue" in typo.stderr, typo.stderr
    first = run_server("checkin", "--database", f"sqlite:{database}", "--venue", "HALL-1", "--new-venue", "--name", "Kim")
    assert first.returncode == 0, first.stderr
    again = run_server("checkin", "--database", f"sqlite:{database}", "--venue", "HALL-1", "--name", "Lee")
    assert again.returncode == 0, "a venue with check-ins is known"
    config = tmp_path / "server.conf"
    config.write_text("name.CAFE = 카페\n")
    named = run_server("checkin", "-c", str(config), "--database", f"sqlite:{database}", "--venue", "CAFE")
    assert named.returncode == 0, named.stderr
    assert [row["venue"] for row in export(database)] == ["HALL-1", "HALL-1", "CAFE"], "the typo recorded nothing"


def test_the_audit_log_names_who_checked_in_and_who_exported_what(tmp_path):
    database = tmp_path / "checkins.db"
    me = pwd.getpwuid(os.getuid()).pw_name
    assert run_server("checkin", "--database", f"sqlite:{database}", "--venue", "HALL-1", "--new-venue", "--name", "김민지").returncode == 0
    assert run_server("checkins", "--database", f"sqlite:{database}", "--venue", "HALL-1", "--format", "csv").returncode == 0
    result = run_server("audit", "--database", f"sqlite:{database}", "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    entries = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(e["action"], e["actor"], e["rows"], e["source"]) for e in entries] == [("export", me, 1, "cli"), ("staff-check-in", me, 1, "cli")]
    assert entries[0]["detail"] == "venue=HALL-1 format=csv" and entries[1]["subject"].startswith("check-in ")
    assert "김민지" not in result.stdout, "the audit log names what was done, not the visitor"
    # Listing the audit log is not itself an entry; the newest come first and --limit cuts.
    again = run_server("audit", "--database", f"sqlite:{database}", "--format", "csv", "--limit", "1").stdout.splitlines()
    assert again[0].startswith("id,time,local_time,actor,action") and len(again) == 2 and ",export," in again[1]


def test_an_unprivileged_user_cannot_pose_as_another_operator():
    if os.getuid() != 0:
        pytest.fail("this test needs root (to run the command as nobody)")
    with reachable_directory("qrcheckin-visitorlog-") as directory:
        nobody = pwd.getpwnam("nobody")
        os.chown(directory, nobody.pw_uid, nobody.pw_gid)
        env = clean_env()
        env.update(SEOUL)
        env.update({"SUDO_USER": "root", "SUDO_UID": "0", "HOME": str(directory)})
        result = subprocess.run(["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups", SERVER_BIN,
                                 "checkin", "--database", f"sqlite:{directory}/c.db", "--venue", "HALL-1", "--new-venue", "--name", "x"],
                                capture_output=True, text=True, env=env, timeout=60)
        assert result.returncode == 0, result.stderr
        assert result.stdout.endswith("by nobody)\n"), result.stdout
        assert oct(os.stat(f"{directory}/c.db").st_mode & 0o777) == "0o600"


def test_status_counts_match_the_rows(tmp_path, secret):
    database = tmp_path / "checkins.db"
    new_ledger(database, venue="CAFE")
    now = now_ms()
    insert(database, [("HALL-1", now - 10_000, "qr", 0, "d1", None, None, None),
                      ("HALL-1", now - 1_800_000, "safe-number", 1, "d2", None, None, None),
                      ("CAFE", now - 2_400_000, "qr", 0, "d3", None, None, None),
                      ("HALL-1", now - 7_200_000, "qr", 0, "d4", None, None, None),
                      ("HALL-2", now - 5 * 3_600_000, "qr", -1, "d5", None, None, None),
                      ("HALL-1", now - 20 * 3_600_000, "qr", 0, "d6", None, None, None),
                      ("CAFE", now - 30 * 3_600_000, "qr", 0, "d7", None, None, None)])
    result = run_server("status", "--database", f"sqlite:{database}", "--json")
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout)

    def moment(text):
        return datetime.fromisoformat(text.replace("Z", "+00:00"))

    at, day_start = moment(status["at"]), moment(status["day_start"])
    local_midnight = at.astimezone(timezone(timedelta(hours=9))).replace(hour=0, minute=0, second=0, microsecond=0)
    assert day_start == local_midnight, "today starts at midnight in the host's zone (TZ)"
    rows = export(database)
    times = [(row["venue"], moment(row["time"])) for row in rows]
    today = [venue for venue, when in times if when >= day_start]
    last_hour = [venue for venue, when in times if when >= at - timedelta(hours=1)]
    assert status["today"] == len(today) and status["last_hour"] == len(last_hour) == 4
    assert status["total"] == len(rows) == 8
    assert {v["venue"]: (v["today"], v["last_hour"]) for v in status["venues"]} == {
        venue: (today.count(venue), last_hour.count(venue)) for venue in set(today) | set(last_hour)}
    assert status["oldest"] == rows[0]["time"] and status["retention_seconds"] == 28 * 86_400
    text = run_server("status", "--database", f"sqlite:{database}").stdout
    assert f"check-ins today: {len(today)} (since " in text and "in the last hour: 4\n" in text
    assert re.search(r"^HALL-1\s+\d+\s+2$", text, re.M), text

    # The running server's gauges are the same numbers.
    server = Server(tmp_path, secret).start()
    try:
        metrics = server.get("/metrics")[2].decode()
    finally:
        server.stop()
    gauges = dict(re.findall(r'^qrcheckin_server_checkins_last_hour\{venue="([^"]+)"\} (\d+)$', metrics, re.M))
    assert {venue: int(count) for venue, count in gauges.items()} == {venue: last_hour.count(venue) for venue in set(today) | set(last_hour)}
    today_gauges = dict(re.findall(r'^qrcheckin_server_checkins_today\{venue="([^"]+)"\} (\d+)$', metrics, re.M))
    assert sum(map(int, today_gauges.values())) == len(today)
    assert re.search(r"^qrcheckin_server_checkins_stored 8$", metrics, re.M)


def test_counts_by_day_hour_and_venue_follow_the_local_zone(tmp_path):
    database = tmp_path / "checkins.db"
    new_ledger(database)
    # 2025-11-30 14:59:59Z and 15:00:00Z: two days in Seoul, one in UTC (long before the
    # ledger's own first check-in, which is now).
    base = int(datetime(2025, 11, 30, 14, 59, 59, tzinfo=timezone.utc).timestamp() * 1000)
    insert(database, [("HALL-1", base, "qr", 0, "a", None, None, None), ("HALL-1", base + 1000, "qr", 0, "b", None, None, None),
                      ("CAFE", base + 1000, "qr", 0, "c", None, None, None)])
    window = ["--from", "2025-11-30T00:00:00Z", "--until", "2025-12-02T00:00:00Z"]
    days = run_server("checkins", "--database", f"sqlite:{database}", "--by", "day,venue", *window)
    # (server_run reads text: CSV's CRLF arrives as \n.)
    assert days.stdout == "day,venue,count\n2025-11-30,HALL-1,1\n2025-12-01,CAFE,1\n2025-12-01,HALL-1,1\n", days
    utc = run_server("checkins", "--database", f"sqlite:{database}", "--by", "day", *window, env={"TZ": "UTC"})
    assert utc.stdout == "day,count\n2025-11-30,3\n"
    hours = run_server("checkins", "--database", f"sqlite:{database}", "--by", "hour", "--format", "jsonl", *window)
    assert [json.loads(line) for line in hours.stdout.splitlines()] == [
        {"hour": "2025-11-30T23:00+09:00", "count": 1}, {"hour": "2025-12-01T00:00+09:00", "count": 2}]
    between = export(database, "--venue", "HALL-1", "--from", "2025-12-01T00:00:00+09:00", "--until", "2025-12-01T00:00:01+09:00")
    assert [row["device"] for row in between] == ["b"], "--from is inclusive, --until exclusive, in any zone's spelling"
    assert [row["device"] for row in export(database, "--device", "a")] == ["a"]


def test_help_texts_of_the_operator_commands_match_their_golden_files():
    for command in ("checkin", "status", "purge", "erase", "checkins", "checkout", "inside", "overlaps"):
        result = server_run(command, "--help")
        assert result.returncode == 0
        assert result.stdout == (GOLDEN / f"qrcheckin-server-{command}.txt").read_text(), f"{command}: run 'make golden'"
    listed = server_run("--help").stdout
    for command in ("checkin", "status", "purge", "erase", "checkout", "inside", "overlaps"):
        assert re.search(rf"^  {command} ", listed, re.M), command


@pytest.mark.parametrize("args, env, status, message", [
    (["checkin"], {}, 64, "--venue is required"),
    (["checkin", "--venue", "hall"], {}, 64, "--venue: invalid venue id 'hall': use upper case"),
    (["checkin", "--venue", "HALL-1", "--name", "a\nb"], {}, 64, "--name must be 1-64 characters without control or format characters"),
    (["checkin", "--venue", "HALL-1", "--phone", "12"], {}, 64, "--phone must be a phone number"),
    (["checkin", "--venue", "CAFE"], {"QRCHECKIN_SERVER_VENUES": "HALL-1"}, 64, "CAFE is not a venue this server serves"),
    (["erase"], {}, 64, "give exactly one of --checkin ID, --device ID and --phone NUMBER"),
    (["erase", "--device", "a b"], {}, 64, "--device must be a device id"),
    (["erase", "--device", "ab", "--only"], {}, 64, "--only goes with --checkin ID"),
    (["erase", "--checkin", "12", "--dry-run", "--yes"], {}, 64, "give one of them"),
    (["checkins", "--by", "week"], {}, 64, "--by must be venue, day or hour"),
    (["checkins", "--by", "day,day"], {}, 64, "--by must be venue, day or hour"),
    (["checkins", "--kept"], {}, 64, "--kept adds kept counts to --count"),
    (["checkins", "--count", "--limit", "3"], {}, 64, "--limit lists rows"),
    (["checkins", "--by", "hour", "--kept"], {}, 64, "kept counts are per venue and day"),
    (["checkins", "--from", "yesterday"], {}, 64, "--from must be Unix seconds"),
    (["purge", "--retention", "0d"], {}, 64, "--retention: must be a period of 1 hour to 3650 days"),
    (["purge", "--retention", "2d", "--refusal-retention", "3d"], {}, 64, "--refusal-retention: must not be longer than retention (2 days)"),
    (["purge"], {"QRCHECKIN_SERVER_RETENTION": "a month"}, 78, "$QRCHECKIN_SERVER_RETENTION: must be a period"),
    (["purge", "--keep-counts", "maybe"], {}, 64, "--keep-counts: must be yes or no"),
])
def test_operator_command_mistakes_are_named(tmp_path, args, env, status, message):
    result = server_run(*args, "--database", f"sqlite:{tmp_path}/none.db", env=env)
    assert result.returncode == status, result.stderr
    assert message in result.stderr, result.stderr
    assert not (tmp_path / "none.db").exists(), "a refused command creates nothing"


def test_reading_commands_on_a_missing_database_say_so(tmp_path):
    for command in (["purge", "--dry-run"], ["purge"], ["status"], ["erase", "--phone", "01012345678"], ["checkins", "--count"]):
        result = server_run(*command, "--database", f"sqlite:{tmp_path}/none.db")
        assert result.returncode == 66, (command, result.stderr)
        assert "does not exist" in result.stderr
    assert not (tmp_path / "none.db").exists()


def test_the_time_zone_setting_names_the_receipts_clock_and_every_local_time(tmp_path, secret):
    """time-zone = America/New_York: the receipt says UTC-05:00 (in December) and the export's
    local times are New York's, whatever the host's TZ; a zone the tz database lacks is 78."""
    server = Server(tmp_path, secret, args=["--time-zone", "America/New_York"]).start()
    try:
        status, headers, _ = server.get("/" + code(secret, "HALL-1", server.port)["url"].split("/", 3)[3])
        assert status == 303
        device = re.search(r"qrcheckin_device=([^;]*)", headers["set-cookie"]).group(1)
        _, _, receipt = server.get(headers["location"], headers={"Cookie": f"qrcheckin_device={device}"})
        offset = "-04:00" if time.localtime().tm_mon in range(4, 11) else "-05:00"
        assert f'<span class="zone">UTC{offset}</span>' in receipt.decode(), receipt.decode()
    finally:
        assert server.stop() == 0, server.logs()
    rows = export(server.database, env={"QRCHECKIN_SERVER_TIME_ZONE": "America/New_York"})
    assert rows[0]["local_time"].endswith(offset), rows[0]
    assert export(server.database)[0]["local_time"].endswith("+09:00"), "unset: the host's (TZ, Seoul here)"
    bad = run_server("checkins", "--database", f"sqlite:{server.database}", env={"QRCHECKIN_SERVER_TIME_ZONE": "Mars/Olympus"})
    assert bad.returncode == 78 and "must be a time zone of the tz database" in bad.stderr, bad.stderr
