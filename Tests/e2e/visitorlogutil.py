"""Generated visitor logs for the export tests and scripts/bench-visitorlog."""
import re
import sqlite3
import subprocess

COLUMNS = ["id", "venue", "time", "local_time", "method", "window_age", "device", "name", "phone", "operator", "exit", "exit_kind", "stay_seconds"]


def new_ledger(server_bin, path, env, venue="HALL-0", name="first"):
    """A ledger made the way an operator would (a staff check-in creates and migrates it);
    returns the id of that first check-in."""
    result = subprocess.run([server_bin, "checkin", "--database", f"sqlite:{path}", "--venue", venue, "--new-venue", "--name", name],
                            capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    return int(re.search(r"check-in (\d+)", result.stdout).group(1))


def generate(path, count, start_ms, spacing_ms=250):
    """Check-ins 2..count+1 in one statement (SQLite makes them itself, in one transaction), a
    quarter of a second (`spacing_ms`) apart from `start_ms`: every method, 5,000 devices, visitor fields on a
    quarter of them with a comma, quotes and Hangul to quote. `expected(i)` says what each holds."""
    with sqlite3.connect(path) as db:
        db.execute("""
            WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
            INSERT INTO checkins (id, venue, at_ms, method, window_age, device, visitor_name, visitor_phone, operator)
            SELECT i, 'HALL-' || (i % 7), ? + i * ?,
                   CASE i % 3 WHEN 0 THEN 'qr' WHEN 1 THEN 'safe-number' ELSE 'staff' END,
                   CASE i % 3 WHEN 2 THEN NULL ELSE i % 3 END,
                   CASE i % 3 WHEN 2 THEN NULL ELSE 'dev-' || (i % 5000) END,
                   CASE WHEN i % 4 = 0 THEN '김민지, "' || i || '"' END,
                   CASE WHEN i % 4 = 0 THEN '010' || (10000000 + i) END,
                   CASE i % 3 WHEN 2 THEN 'door' END
            FROM n""", (count + 1, start_ms, spacing_ms))
    db.close()


def expected(i):
    """The CSV fields venue..operator (without id and times) of generated check-in `i`."""
    return [f"HALL-{i % 7}", ("qr", "safe-number", "staff")[i % 3], "" if i % 3 == 2 else str(i % 3),
            "" if i % 3 == 2 else f"dev-{i % 5000}", f'김민지, "{i}"' if i % 4 == 0 else "",
            f"010{10_000_000 + i}" if i % 4 == 0 else "", "door" if i % 3 == 2 else ""]
