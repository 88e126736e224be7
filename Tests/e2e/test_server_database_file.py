"""The visitor log's file as the operator's commands and `serve` find it (issue 37): through the
symbolic link systemd makes for a DynamicUser= state directory, which the directory-trust rule
accepts; a link anywhere else refused with what SQLite refused named; and a read-only file —
by its mode, an immutable flag or a read-only mount — refused at once with its own message and
exit 77, never 73 "cannot be created", nor a server that starts and then fails every check-in."""
import sqlite3
import subprocess

import pytest

from conftest import needs_root
from daemonutil import require_runnable_by
from serverutil import SERVER_BIN, server_run

NOBODY = 65534
# What every read-only case says, before the reason.
READ_ONLY = "is read-only ("


def systemd_state_directory(lib, owner):
    """What systemd makes for StateDirectory=qrcheckin-server with DynamicUser=yes: lib/private
    (root, 0700) holding qrcheckin-server (the service's user, 0700), and lib/qrcheckin-server a
    link to private/qrcheckin-server (as test_directory_trust.py lays out the kiosk's)."""
    lib.mkdir(mode=0o755)
    (lib / "private").mkdir(mode=0o700)
    (lib / "private" / "qrcheckin-server").mkdir(mode=0o700)
    subprocess.run(["chown", f"{owner}:{owner}", str(lib / "private" / "qrcheckin-server")], check=True)
    (lib / "qrcheckin-server").symlink_to("private/qrcheckin-server")
    return lib / "qrcheckin-server"


@needs_root("lays out a state directory for another user as systemd does")
def test_the_state_directory_systemd_links_for_a_dynamic_user_holds_the_log(base, secret):
    """$STATE_DIRECTORY a link to private/…: serve's default database is made there (it exited 73
    "unable to open database file" before), and root's commands use it through the same link."""
    state = systemd_state_directory(base / "lib", 0)
    env = {"STATE_DIRECTORY": str(state)}
    recorded = server_run("checkin", "--venue", "HALL-1", "--new-venue", "--name", "Kim", env=env)
    assert recorded.returncode == 0, recorded.stderr
    assert (base / "lib" / "private" / "qrcheckin-server" / "checkins.db").stat().st_mode & 0o777 == 0o600
    listed = server_run("checkins", "--format", "csv", "--database", f"sqlite:{state}/checkins.db")
    assert listed.returncode == 0 and ",HALL-1," in listed.stdout and "Kim" in listed.stdout, listed.stderr


@needs_root("plants a link as another user")
def test_a_link_another_user_could_plant_is_refused_and_a_linked_file_says_what_sqlite_refused(base):
    """The directory-trust rule decides which links count: one made by another user in a shared
    directory does not (73, naming them); the database file itself a link is refused by SQLite,
    and the message names SQLITE_CANTOPEN_SYMLINK instead of only "unable to open database file"."""
    shared = base / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    target = base / "target"
    target.mkdir(mode=0o700)
    subprocess.run(["runuser", "-u", "nobody", "--", "ln", "-s", str(target), str(shared / "log")], check=True)
    planted = server_run("checkin", "--venue", "HALL-1", "--new-venue", "--database", f"sqlite:{shared}/log/checkins.db")
    assert planted.returncode == 73, planted.stderr
    assert f"refusing to use {shared}/log: it is a symbolic link made by uid {NOBODY}" in planted.stderr, planted.stderr
    assert list(target.iterdir()) == [], "a visitor log was made through the planted link"

    assert server_run("checkin", "--venue", "HALL-1", "--new-venue", "--database", f"sqlite:{target}/checkins.db").returncode == 0
    (base / "link.db").symlink_to(target / "checkins.db")
    linked = server_run("checkins", "--database", f"sqlite:{base}/link.db")
    assert linked.returncode == 73, linked.stderr
    assert f"cannot open database {base}/link.db: unable to open database file " \
           "(SQLITE_CANTOPEN_SYMLINK: a symbolic link in the path)" in linked.stderr, linked.stderr


@pytest.fixture
def read_only(base):
    """Makes a ledger with one check-in read-only `how`: returns (database path, the user to run
    the commands as (None: root), what the message says why). Undone afterwards, also on failure."""
    undo = []

    def make(how):
        directory = base / how
        directory.mkdir(mode=0o755)
        if how == "mount":
            subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m,mode=0755", "tmpfs", str(directory)], check=True)
            undo.append(["umount", "-l", str(directory)])
        database = directory / "checkins.db"
        made = server_run("checkin", "--venue", "HALL-1", "--new-venue", "--name", "Kim", "--database", f"sqlite:{database}")
        assert made.returncode == 0, made.stderr
        # The last connection's close copies the write-ahead log into the file and removes it:
        # what a read-only file holds is then all there is.
        connection = sqlite3.connect(database)
        connection.execute("SELECT count(*) FROM sqlite_schema").fetchall()
        connection.close()
        assert not (directory / "checkins.db-wal").exists()
        if how == "mode":
            # Root writes whatever the mode says: the file's own user, who may not write it now.
            require_runnable_by("nobody", SERVER_BIN)
            subprocess.run(["chown", "-R", f"{NOBODY}:{NOBODY}", str(directory)], check=True)
            database.chmod(0o444)
            return database, "nobody", "mode 0444, owner uid 65534: uid 65534 may not write it"
        if how == "immutable":
            if subprocess.run(["chattr", "+i", str(database)], capture_output=True).returncode != 0:
                pytest.skip(f"{base}'s file system has no immutable flag")
            undo.append(["chattr", "-i", str(database)])
            return database, None, "the file is immutable (chattr +i)"
        subprocess.run(["mount", "-o", "remount,ro", str(directory)], check=True)
        return database, None, "its file system is mounted read-only"

    yield make
    for command in reversed(undo):
        subprocess.run(command, check=True)


@needs_root("makes files other users', immutable and read-only mounts")
@pytest.mark.parametrize("how", ["mode", "immutable", "mount"])
def test_a_read_only_ledger_is_refused_at_once_with_exit_77_and_says_why(base, secret, read_only, how):
    """Every command that writes the ledger (serve, checkin, checkins, which audits its export,
    user add) exits 77 with "database … is read-only (why)" before doing anything: before, a
    read-only mount was 73 "unable to open database file", and a file the server may not write
    let `serve` start and fail each check-in. The evacuation roll still reads it."""
    database, user, why = read_only(how)
    as_user = ["runuser", "-u", user, "--"] if user else []
    password = base / "password"
    password.write_text("correct horse battery\n")
    password.chmod(0o644)
    keys = base / "keys"
    keys.write_bytes(secret.read_bytes())
    keys.chmod(0o600)
    if user:
        subprocess.run(["chown", user, str(keys)], check=True)
    commands = [["serve", "--secret-file", str(keys), "--listen", "127.0.0.1:0", "--admin-listen", "none"],
                ["checkin", "--venue", "HALL-1"], ["checkins"],
                ["user", "add", "mina", "--role", "admin", "--password-file", str(password)]]
    for command in commands:
        result = subprocess.run([*as_user, SERVER_BIN, *command, "--database", f"sqlite:{database}"],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 77, (command, result.stderr)
        assert f"database {database} {READ_ONLY}{why}): " in result.stderr, (command, result.stderr)
    roll = subprocess.run([*as_user, SERVER_BIN, "inside", "--format", "csv", "--database", f"sqlite:{database}"],
                          capture_output=True, text=True, timeout=60)
    assert roll.returncode == 0 and "Kim" in roll.stdout, roll.stderr
