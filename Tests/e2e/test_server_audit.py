"""Every operator command that reads or changes personal data leaves exactly one audit entry, and
on a full disk refuses and hands out nothing (issue 37). The walk's table is checked against the
commands `qrcheckin-server --help` lists: a new command cannot be forgotten. docs/PRIVACY.md
("Who looked") lists the same actions; test_server_postgres.py walks the table on PostgreSQL,
and Tests/Server/ServerConsoleTests/ConsoleAuditTests.swift the console's routes."""
import json
import os
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path
from dataclasses import dataclass, field

from conftest import needs_root
from serverutil import SERVER_BIN, clean_env, server_run

HOOK = "http://127.0.0.1:9/hook"  # a webhook endpoint (nothing listens: serve's tries fail, harmlessly)
PHONE = "010-1111-2222"
PASSWORD = "long enough password"
SEOUL = {"TZ": "Asia/Seoul"}

# Commands that read or change no visitor's data, and why: they write no entry.
EXEMPT = {
    "serve": "the server itself: a visitor's own check-in is no operator action (its daily purge is audited as purge by server when it deletes)",
    "status": "counts per venue and the log's size: nobody's data",
    "migrate": "the schema's steps: no row is read or changed",
    "audit": "reads the audit log itself: an entry for every look would grow it at every look",
}


@dataclass
class Step:
    """One command of the walk: its arguments (a function of the walk's state), the entries it
    leaves in order, its exit status, and the answer typed on a terminal (None: no terminal)."""
    command: str
    args: object
    entries: list
    exit: int = 0
    terminal: str = None
    why: str = ""
    label: str = field(default="")

    def __post_init__(self):
        self.label = self.label or f"{self.command} {self.args if isinstance(self.args, list) else '…'}"

    def argv(self, state):
        return self.args(state) if callable(self.args) else self.args


def steps(postgres=False, source=None):
    """The walk, in order: every command `--help` lists that reads or changes personal data, in
    each of its forms; the others with the reason they write no entry."""
    walk = [
        Step("checkin", ["--venue", "HALL-1", "--new-venue", "--name", "Kim", "--phone", PHONE], ["staff-check-in"], label="checkin Kim"),
        Step("checkin", ["--venue", "HALL-1", "--name", "Lee"], ["staff-check-in"], label="checkin Lee"),
        Step("checkin", ["--venue", "CAFE", "--name", "Park"], ["staff-check-in"], label="checkin Park"),
        Step("checkin", ["--venue", "CAFE", "--name", "Choi"], [], exit=75, why="the venue is full: nothing recorded"),
        Step("checkin", ["--venue", "CAFE", "--name", "Choi", "--over-capacity"], ["over-capacity"]),
        Step("checkins", ["--format", "csv"], ["export"]),
        Step("checkins", ["--format", "jsonl", "--venue", "HALL-1", "--limit", "1"], ["export"]),
        Step("checkins", ["--count"], [], why="a number of nobody"),
        Step("checkins", ["--count", "--by", "venue,day", "--format", "csv"], [], why="numbers per venue and day: nobody's data"),
        Step("inside", ["--format", "csv"], ["inside"]),
        Step("inside", ["--venue", "CAFE", "--format", "json"], ["inside"]),
        Step("overlaps", lambda state: ["--checkin", state["Kim"], "--margin", "15m"], ["overlaps"]),
        Step("overlaps", ["--checkin", "12345"], [], exit=65, why="names no visit: nothing read"),
        Step("status", [], []),
        Step("erase", ["--phone", PHONE, "--dry-run"], ["erase-preview"]),
        Step("erase", ["--phone", "010-9999-9999", "--dry-run"], ["erase-preview"], exit=65, label="erase preview of nobody"),
        Step("erase", lambda state: ["--checkin", state["Lee"], "--only"], ["erase-preview"], exit=1, terminal="n", label="erase asked, no"),
        Step("erase", lambda state: ["--checkin", state["Lee"], "--only"], ["erase-preview", "erase"], terminal="y", label="erase asked, yes"),
        Step("erase", ["--phone", PHONE, "--yes"], ["erase"]),
        Step("erase", ["--checkin", "12345", "--yes"], [], exit=65, why="names no check-in: nothing read"),
        Step("checkout", lambda state: ["--checkin", state["Park"]], ["staff-check-out"], label="checkout Park"),
        Step("checkout", ["--venue", "CAFE", "--all"], ["staff-check-out"]),
        Step("checkout", ["--checkin", "12345"], [], exit=65, why="names no visit: nothing changed"),
        Step("user", lambda state: ["add", "mina", "--role", "admin", "--password-file", state["password"]], ["account-added"], label="user add"),
        Step("user", lambda state: ["add", "mina", "--role", "admin", "--password-file", state["password"]], [], exit=1,
             why="the name is taken: nothing changed", label="user add again"),
        Step("user", lambda state: ["passwd", "mina", "--role", "supervisor", "--password-file", state["password"]], ["account-changed"],
             label="user passwd"),
        Step("user", ["disable", "mina"], ["account-changed"]),
        Step("user", ["enable", "mina"], ["account-changed"]),
        Step("user", lambda state: ["totp", "enable", "mina", "--secret-file", state["secret"]], ["totp-enable"], label="user totp enable"),
        Step("user", ["totp", "disable", "mina"], ["totp-disable"], label="user totp disable"),
        Step("user", ["totp", "disable", "mina"], [], exit=1, why="no second factor: nothing changed", label="user totp disable again"),
        Step("user", ["list"], [], why="the accounts' names and roles: staff, no visitor"),
        Step("user", ["remove", "mina"], ["account-removed"]),
        Step("user", ["remove", "mina"], [], exit=1, why="no such account: nothing changed", label="user remove again"),
        Step("webhook", ["add", "crm", HOOK], ["webhook-add"], label="webhook add"),
        Step("webhook", ["add", "crm", HOOK], [], exit=1, why="the name is taken: nothing changed", label="webhook add again"),
        Step("webhook", ["list"], [], why="endpoints and event counts: no visitor"),
        Step("webhook", ["disable", "crm"], ["webhook-disable"]),
        Step("webhook", ["enable", "crm"], ["webhook-enable"]),
        Step("webhook", ["rotate-secret", "crm"], ["webhook-rotate-secret"]),
        Step("webhook", ["test", "crm"], ["webhook-test"]),
        Step("webhook", ["redeliver", "crm"], ["webhook-redeliver"]),
        Step("webhook", ["deliveries", "crm"], [], why="the delivery log: times, statuses, the receivers' answers; no visitor"),
        Step("webhook", ["remove", "crm"], ["webhook-remove"]),
        Step("webhook", ["remove", "crm"], [], exit=1, why="no such endpoint: nothing changed", label="webhook remove again"),
        Step("token", ["add", "ci", "--scope", "read", "--venue", "HALL-1"], ["token-add"], label="token add"),
        Step("token", ["add", "ci", "--scope", "checkin"], [], exit=1, why="the name is taken: nothing changed", label="token add again"),
        Step("token", ["list"], [], why="the tokens' names, scopes and venues: no visitor, no secret"),
        Step("token", ["remove", "ci"], ["token-remove"]),
        Step("token", ["remove", "ci"], [], exit=1, why="no such token: nothing changed", label="token remove again"),
        Step("purge", ["--dry-run"], [], why="counts what would go, changes nothing"),
        Step("purge", [], ["purge"]),
        Step("audit", ["--format", "csv"], []),
        Step("migrate", [], []),
    ]
    if postgres:
        walk.append(Step("import", ["--from", source], ["import"]))
        walk.append(Step("backup", lambda state: ["--to", state["backup"]], [], exit=69, why="copies SQLite only: refused (pg_dump's way)"))
    else:
        walk.append(Step("import", ["--from", "sqlite:/nonexistent.db"], [], exit=64, why="copies into PostgreSQL only: refused"))
        walk.append(Step("backup", lambda state: ["--to", state["backup"]], ["backup"]))
        walk.append(Step("backup", lambda state: ["--to", state["backup"]], [], exit=73, why="the file exists: nothing copied",
                         label="backup over a file"))
        walk.append(Step("backup", lambda state: ["--verify", state["backup"]], [], why="checks a copy's integrity: counts, nobody's data"))
    # Kiosks (issue 39): no kiosk reported on this ledger, so a steer and a forget change nothing
    # (test_server_kiosks.py checks the kiosk-steer entry of a real one).
    walk += [
        Step("kiosks", [], [], why="the kiosks' latest reports: no visitor's data"),
        Step("kiosks", ["set", "HALL-1", "door-1", "--refresh", "pause"], [], exit=1, why="no such kiosk has reported: nothing changed"),
        Step("kiosks", ["forget", "HALL-1", "door-1"], [], exit=1, why="no such kiosk: nothing changed"),
    ]
    return walk


def listed_commands():
    """The commands `qrcheckin-server --help` lists."""
    text = subprocess.run([SERVER_BIN, "--help"], capture_output=True, text=True, check=True).stdout
    section = text.split("COMMANDS:\n", 1)[1].split("\n\n", 1)[0]
    return {line.split()[0] for line in section.splitlines() if line.strip()}


def run(step, database, config, state):
    """Runs `step` on `database`; returns (exit, stdout, stderr)."""
    argv = [SERVER_BIN, step.command, "-c", str(config), "--database", database, *step.argv(state)]
    env = {**clean_env(), **SEOUL}
    if step.terminal is None:
        result = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120, stdin=subprocess.DEVNULL)
        return result.returncode, result.stdout, result.stderr
    controller, terminal = os.openpty()
    try:
        process = subprocess.Popen(argv, stdin=terminal, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        os.write(controller, step.terminal.encode() + b"\n")
        stdout, stderr = process.communicate(timeout=120)
        return process.returncode, stdout, stderr
    finally:
        os.close(controller)
        os.close(terminal)


def audit(database):
    """The audit log, oldest first (empty before the ledger exists)."""
    result = server_run("audit", "--database", database, "--format", "jsonl")
    if result.returncode == 66 and "does not exist" in result.stderr:
        return []
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in reversed(result.stdout.splitlines())]


def prepare(tmp_path):
    """The walk's config (CAFE holds one visit) and its state (a password file)."""
    config = tmp_path / "server.conf"
    config.write_text("capacity.CAFE = 1\nname.CAFE = Cafe\n")
    password = tmp_path / "password"
    password.write_text(PASSWORD + "\n")
    secret = tmp_path / "totp-secret"
    assert secret.exists() or subprocess.run([str(Path(SERVER_BIN).with_name("qrcheckin")), "keygen", "-o", str(secret)], capture_output=True, timeout=30).returncode == 0
    return config, {"password": str(password), "secret": str(secret), "backup": str(tmp_path / "backup.db")}


def walk(database, tmp_path, postgres=False, source=None):
    """Runs every step on `database` and checks that it left exactly its entries."""
    config, state = prepare(tmp_path)
    for step in steps(postgres, source):
        before = audit(database)
        status, stdout, stderr = run(step, database, config, state)
        assert status == step.exit, (step.label, status, stdout, stderr)
        if step.command == "checkin" and status == 0:
            state[step.label.split()[-1]] = re.search(r"check-in (\d+)", stdout).group(1)
        after = audit(database)
        assert after[:len(before)] == before, (step.label, "entries are only ever appended")
        added = after[len(before):]
        assert [entry["action"] for entry in added] == step.entries, (step.label, added)
        assert all(entry["source"] == "cli" and entry["actor"] for entry in added), (step.label, added)
        text = json.dumps(added, ensure_ascii=False)
        assert "01011112222" not in text and "Kim" not in text, ("the audit log names what was done, never the visitor", step.label, added)


def test_the_walk_names_every_command_the_program_lists():
    walked = {step.command for step in steps()}
    assert walked | set(EXEMPT) == listed_commands(), "a command --help lists is neither walked nor exempt with a reason"
    for step in steps():
        assert step.entries or step.why or step.command in EXEMPT, f"{step.label} writes no entry: say why"


def test_every_command_leaves_exactly_the_entries_of_its_action(tmp_path):
    walk(f"sqlite:{tmp_path / 'checkins.db'}", tmp_path)


def test_purge_leaves_its_own_entry_after_deleting_the_old_ones(tmp_path):
    """`purge --audit-retention 1h` deletes the entries older than an hour and leaves its own,
    written after them in the same transaction: the log never ends up empty of a purge's trace."""
    database = tmp_path / "checkins.db"
    for name in ("Kim", "Lee"):
        assert server_run("checkin", "--database", f"sqlite:{database}", "--venue", "HALL-1", "--new-venue", "--name", name).returncode == 0
    assert server_run("checkins", "--database", f"sqlite:{database}", "--format", "csv").returncode == 0
    with sqlite3.connect(database) as db:
        db.execute("UPDATE audit SET at_ms = at_ms - 2 * 3600 * 1000")
    db.close()
    result = server_run("purge", "--database", f"sqlite:{database}", "--audit-retention", "1h")
    assert result.returncode == 0 and "deleted 3 audit entries older than 1 hour" in result.stdout, result
    entries = audit(f"sqlite:{database}")
    assert [(entry["action"], entry["rows"]) for entry in entries] == [("purge", 0)], entries
    assert "audit entries 3 (1h)" in entries[0]["detail"], entries


def checkpoint(path):
    """Copies the write-ahead log into the database file, so the file alone is the ledger."""
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


@needs_root("a tmpfs mount")
def test_on_a_full_disk_every_audited_command_refuses_and_hands_out_nothing(tmp_path, tmpfs, servers, secret):
    """The ledger on a 64 KiB tmpfs beside its running server (which holds the write-ahead log and
    its index open), the rest of the disk filled: every command that would leave an entry exits
    74 with nothing on standard output and changes nothing; the evacuation roll alone lists all
    the same, saying on stderr that it could not be audited (docs/PRIVACY.md)."""
    # The ledger with every table (kiosks, webhooks, tokens, second factors) and the running
    # server's write-ahead log and index outgrow 64 KiB; the filler below fills whatever is left.
    subprocess.run(["mount", "-o", "remount,size=1m", str(tmpfs)], check=True)
    config, state = prepare(tmp_path)
    made = tmp_path / "made.db"
    for step in steps()[:3]:
        status, stdout, stderr = run(step, f"sqlite:{made}", config, state)
        assert status == 0, stderr
        state[step.label.split()[-1]] = re.search(r"check-in (\d+)", stdout).group(1)
    assert run(steps()[23], f"sqlite:{made}", config, state)[0] == 0, "user add"
    for label in ("webhook add", "token add"):
        step = next(step for step in steps() if step.label == label)
        assert run(step, f"sqlite:{made}", config, state)[0] == 0, label
    checkpoint(made)
    database = tmpfs / "checkins.db"
    shutil.copyfile(made, database)
    os.chmod(database, 0o600)
    server = servers(secret, tmp_path / "server", start=False, args=["-c", str(config)])
    server.database = database
    server.start()
    filler = tmpfs / "filler"
    try:
        with open(filler, "wb") as out:
            while True:
                out.write(b"\0" * 1024)
                out.flush()
    except OSError:
        pass
    ledger = f"sqlite:{database}"
    entries = audit(ledger)
    rows = server_run("checkins", "--database", ledger, "--count").stdout
    # mina exists on this ledger (for the account changes): a new account is nora.
    nora = Step("user", lambda state: ["add", "nora", "--role", "steward", "--password-file", state["password"]], ["account-added"], label="user add nora")
    door = Step("webhook", ["add", "door", HOOK], ["webhook-add"], label="webhook add door")
    ops = Step("token", ["add", "ops", "--scope", "read"], ["token-add"], label="token add ops")
    # `user totp disable` finds no second factor on this ledger (enable could not write one): nothing to refuse.
    walked = [step for step in steps() if step.entries and step.exit == 0 and step.command != "checkin"
              and step.label not in ("user add", "webhook add", "token add", "user totp disable")]
    walked += [steps()[0], nora, door, ops]
    assert {step.command for step in walked} == {step.command for step in steps() if step.entries}, "every audited command"
    for step in walked:
        status, stdout, stderr = run(step, ledger, config, state)
        if step.command == "inside":
            assert status == 0 and ("Kim" in stdout or "Park" in stdout) and "could not record the roll in the audit log" in stderr, (step.label, status, stdout, stderr)
        else:
            assert status == 74 and stdout == "", (step.label, status, stdout, stderr)
            assert "disk is full" in stderr, (step.label, stderr)
        assert audit(ledger) == entries, (step.label, "no entry")
        assert server_run("checkins", "--database", ledger, "--count").stdout == rows, (step.label, "no row changed")
    accounts = server_run("user", "list", "--database", ledger).stdout
    assert re.search(r"^mina\tadmin\tactive\t", accounts, re.M), accounts


def test_a_count_of_one_device_is_audited_a_count_of_venues_is_not(tmp_path):
    """`checkins --count --device D` tells when that visitor came (with --by day or hour): an
    export of that device's check-ins, audited; counts per venue or day are numbers of nobody."""
    database = tmp_path / "checkins.db"
    assert server_run("checkin", "--database", f"sqlite:{database}", "--venue", "HALL-1", "--new-venue").returncode == 0
    with sqlite3.connect(database) as db:
        db.executemany("INSERT INTO checkins (venue, at_ms, method, window_age, device) VALUES ('HALL-1', ?, 'qr', 0, ?)",
                       [(1_796_029_200_000 + index, "0193f2a1c0de" + "ab" * 16) for index in range(3)])
    db.close()
    ledger = f"sqlite:{database}"
    before = audit(ledger)
    for args in (["--count"], ["--count", "--by", "venue,day"]):
        assert server_run("checkins", "--database", ledger, *args).returncode == 0
    assert audit(ledger) == before
    counted = server_run("checkins", "--database", ledger, "--count", "--by", "day", "--device", "0193f2a1c0deabab", "--format", "csv")
    assert counted.returncode == 0, counted.stderr
    added = audit(ledger)[len(before):]
    assert [(entry["action"], entry["rows"], entry["detail"]) for entry in added] == [("export", 3, "device=… format=csv count")], added
