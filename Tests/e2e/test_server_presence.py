"""Presence (issue 32): capacity, the full page, the exit kiosk, the receipt's check-out, the
evacuation roll (`inside`), the public occupancy, and overlaps, through the real server."""
import csv
import io
import json
import re
import urllib.parse

from serverutil import FORM_HEADERS, LOAD_ARGS, code, hidden_inputs, server_run


def token_path(secret, venue, port):
    return "/" + code(secret, venue, port)["url"].split("/", 3)[3]


def device_cookie(headers):
    match = re.search(r"qrcheckin_device=([^;]*)", headers.get("set-cookie", ""))
    return match.group(1) if match else None


class Phone:
    """One phone: remembers the device cookie the server gives it."""

    def __init__(self, server):
        self.server = server
        self.cookie = None

    def get(self, path, method="GET", body=None, extra=None):
        headers = dict(extra or {})
        if self.cookie:
            headers["Cookie"] = f"qrcheckin_device={self.cookie}"
        status, headers_in, data = self.server.get(path, method=method, body=body, headers=headers)
        self.cookie = device_cookie(headers_in) or self.cookie
        return status, headers_in, data.decode()

    def scan(self, secret, venue):
        return self.get(token_path(secret, venue, self.server.port) + "?lang=en")


def roll(config, server, venue="HALL-1"):
    result = server_run("inside", "-c", str(config), "--database", f"sqlite:{server.database}", "--venue", venue, "--format", "json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def occupancy(server, venue="HALL-1", origin=None):
    status, headers, body = server.get(f"/C/{venue}/occupancy", headers={"Origin": origin} if origin else None)
    assert status == 200 and headers["content-type"] == "application/json" and headers["cache-control"] == "max-age=1"
    return json.loads(body), headers


def agree(config, server, expected):
    """`inside --format json` and the occupancy endpoint agree, and say `expected`."""
    visits = roll(config, server)
    count, _ = occupancy(server)
    assert len(visits) == count["inside"] == expected, (visits, count)
    assert count["capacity"] == 2 and count["venue"] == "HALL-1"
    return visits


def test_capacity_exit_kiosk_receipt_check_out_roll_and_overlaps(servers, tmp_path, secret):
    config = tmp_path / "server.conf"
    config.write_text("capacity.HALL-1 = 2\nexit.HALL-1-OUT = HALL-1\noccupancy-origins = http://door.example\n")
    server = servers(secret, args=["-c", str(config), *LOAD_ARGS])
    first, second, third = Phone(server), Phone(server), Phone(server)
    agree(config, server, 0)

    status, headers, _ = first.scan(secret, "HALL-1")
    assert status == 303 and first.cookie
    first_receipt = headers["location"]
    agree(config, server, 1)
    status, headers, _ = second.scan(secret, "HALL-1")
    assert status == 303
    second_receipt = headers["location"]
    visits = agree(config, server, 2)
    assert {visit["id"] for visit in visits} == {int(first_receipt.split("/")[-1].split("?")[0]), int(second_receipt.split("/")[-1].split("?")[0])}
    assert all(isinstance(visit["minutes_inside"], int) and visit["staff"] is False for visit in visits)

    # The third is turned away: nothing recorded, the full page, a status to retry.
    status, headers, body = third.scan(secret, "HALL-1")
    assert status == 503 and headers["retry-after"] == "30" and "Full — 2 of 2 inside" in body and "is full" in body
    assert third.cookie is None
    agree(config, server, 2)
    metrics = server.get("/metrics")[2].decode()
    assert 'qrcheckin_server_refusals_total{reason="full"} 1' in metrics
    assert 'qrcheckin_server_inside{venue="HALL-1"} 2' in metrics and 'qrcheckin_server_capacity{venue="HALL-1"} 2' in metrics

    # The first leaves by the exit kiosk: checked out, with the stay.
    status, _, body = first.scan(secret, "HALL-1-OUT")
    assert status == 200 and "Checked out at" in body and "You stayed 0 min" in body
    status, _, body = first.scan(secret, "HALL-1-OUT")
    assert status == 200 and "Already checked out at" in body
    agree(config, server, 1)

    # Now the third gets in.
    status, headers, _ = third.scan(secret, "HALL-1")
    assert status == 303
    agree(config, server, 2)

    # The second checks out on the receipt: the form, its token, the device's cookie.
    status, _, receipt = second.get(second_receipt)
    assert status == 200 and '<form method="post"' in receipt and "Check out" in receipt
    action = re.search(r'<form method="post" action="([^"]+)"', receipt).group(1).replace("&amp;", "&")
    fields = urllib.parse.urlencode(hidden_inputs(receipt.encode())).encode()
    # Another device's post with the same fields ends nothing.
    status, _, _ = third.get(action, method="POST", body=fields, extra=FORM_HEADERS)
    assert status in (400, 404)
    agree(config, server, 2)
    status, _, body = second.get(action, method="POST", body=fields, extra=FORM_HEADERS)
    assert status == 200 and "Checked out at" in body
    status, _, body = second.get(action, method="POST", body=fields, extra=FORM_HEADERS)
    assert status == 200 and "Already checked out" in body
    agree(config, server, 1)

    # The export carries the exits; overlaps finds who was there with the first visitor.
    rows = list(csv.DictReader(io.StringIO(server.checkins("--format", "csv"))))
    kinds = sorted(row["exit_kind"] for row in rows)
    assert kinds == ["", "kiosk", "receipt"], rows
    first_id = first_receipt.split("/")[-1].split("?")[0]
    result = server_run("overlaps", "-c", str(config), "--database", f"sqlite:{server.database}", "--checkin", first_id, "--format", "json")
    assert result.returncode == 0, result.stderr
    met = {visit["id"] for visit in json.loads(result.stdout)}
    assert met == {int(second_receipt.split("/")[-1].split("?")[0])}, result.stdout
    audit = server_run("audit", "--database", f"sqlite:{server.database}", "--format", "csv")
    assert audit.returncode == 0 and "overlaps" in audit.stdout, audit

    # CORS for the configured kiosk origin only; no personal data in the answer.
    count, headers = occupancy(server, origin="http://door.example")
    assert headers.get("access-control-allow-origin") == "http://door.example" and set(count) == {"venue", "inside", "capacity", "at"}
    _, headers = occupancy(server, origin="http://elsewhere.example")
    assert "access-control-allow-origin" not in headers


def test_staff_check_out_and_over_capacity(servers, tmp_path, secret):
    config = tmp_path / "server.conf"
    config.write_text("capacity.HALL-1 = 1\n")
    server = servers(secret, args=["-c", str(config), *LOAD_ARGS])
    database = ["-c", str(config), "--database", f"sqlite:{server.database}"]
    assert server_run("checkin", *database, "--venue", "HALL-1").returncode == 0
    full = server_run("checkin", *database, "--venue", "HALL-1")
    assert full.returncode == 75 and "full" in full.stderr
    over = server_run("checkin", *database, "--venue", "HALL-1", "--over-capacity")
    assert over.returncode == 0, over.stderr
    assert len(roll(config, server)) == 2
    done = server_run("checkout", *database, "--venue", "HALL-1", "--all")
    assert done.returncode == 0 and "checked out 2 visits" in done.stdout, done
    assert roll(config, server) == []
    audit = server_run("audit", "--database", f"sqlite:{server.database}", "--format", "csv").stdout
    assert "over-capacity" in audit and "staff-check-out" in audit
    missing = server_run("checkout", *database, "--checkin", "12345")
    assert missing.returncode == 65


def test_the_roll_answers_on_a_full_disk(tmp_path, tmpfs):
    """An evacuation is not the time for an error: `inside` reads a ledger on a full disk (where
    SQLite cannot even make its write-ahead log's files) and lists everyone."""
    database = tmp_path / "checkins.db"
    for name in ("Kim", "Lee"):
        assert server_run("checkin", "--database", f"sqlite:{database}", "--venue", "HALL-1", "--new-venue", "--name", name).returncode == 0
    # The file alone is copied: whole first (a command that just ended may have left its last
    # commit in the write-ahead log, for the next opener to fold back).
    import sqlite3
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0] == 0
    db.close()
    full = tmpfs / "checkins.db"
    full.write_bytes(database.read_bytes())
    filler = tmpfs / "filler"
    try:
        with open(filler, "wb") as out:
            while True:
                out.write(b"\0" * 1024)
                out.flush()
    except OSError:
        pass
    result = server_run("inside", "--database", f"sqlite:{full}", "--format", "json")
    assert result.returncode == 0, result.stderr
    assert sorted(visit["name"] for visit in json.loads(result.stdout)) == ["Kim", "Lee"]
    assert "read-only" in result.stderr


def test_checkins_count_peak_is_the_most_visits_open_at_once(servers, tmp_path, secret):
    """`checkins --count --by day,venue --peak`: three visits, two overlapping, give a peak of 2."""
    config = tmp_path / "server.conf"
    config.write_text("exit.HALL-1-OUT = HALL-1\n")
    server = servers(secret, args=["-c", str(config), *LOAD_ARGS])
    first, second, third = Phone(server), Phone(server), Phone(server)
    assert first.scan(secret, "HALL-1")[0] == 303
    assert second.scan(secret, "HALL-1")[0] == 303
    assert first.scan(secret, "HALL-1-OUT")[0] == 200
    assert second.scan(secret, "HALL-1-OUT")[0] == 200
    assert third.scan(secret, "HALL-1")[0] == 303
    result = server_run("checkins", "-c", str(config), "--database", f"sqlite:{server.database}", "--count", "--by", "venue,day",
                        "--peak", "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(row["venue"], row["peak"]) for row in rows] == [("HALL-1", 2)], rows
    usage = server_run("checkins", "--database", f"sqlite:{server.database}", "--count", "--peak")
    assert usage.returncode == 64 and "--peak goes with --by" in usage.stderr


def serve_until_exit_or_listening(args, deadline=30):
    """Starts `serve` with `args`; returns (returncode, stderr) once it exits, or (None, stderr)
    as soon as it says it is listening (then stopped): a start that should have been refused."""
    import select
    import subprocess
    import time
    from serverutil import SERVER_BIN, clean_env
    process = subprocess.Popen([SERVER_BIN, "serve", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=clean_env())
    seen = b""
    end = time.monotonic() + deadline
    try:
        while time.monotonic() < end:
            ready, _, _ = select.select([process.stderr], [], [], max(0.0, end - time.monotonic()))
            if not ready:
                break
            chunk = process.stderr.read1(4096)
            if not chunk:
                return process.wait(timeout=10), seen.decode()
            seen += chunk
            if b"listening on" in seen:
                return None, seen.decode()
        raise AssertionError(f"serve neither exited nor listened within {deadline} s: {seen!r}")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_exits_in_a_circle_or_a_chain_are_refused_at_start(tmp_path, secret):
    """An exit kiosk's codes end visits at a venue that checks visitors in: `exit.A = A`, a circle
    (`exit.A = B`, `exit.B = A`; three round) or an exit of an exit ends nothing, so `serve`
    refuses to start (78) naming the file, the line and the key, as for any bad setting."""
    cases = {
        "self": (["exit.HALL-1 = HALL-1"], 1, "exit.HALL-1", "its own exit"),
        "two": (["exit.A-OUT = B-OUT", "exit.B-OUT = A-OUT"], 1, "exit.A-OUT", "A-OUT → B-OUT → A-OUT"),
        "three": (["name.HALL-1 = Hall", "exit.A = B", "exit.B = C", "exit.C = A"], 2, "exit.A", "A → B → C → A"),
        "chain": (["exit.HALL-1-OUT = HALL-1", "exit.DOOR = HALL-1-OUT"], 2, "exit.DOOR", "HALL-1-OUT is itself an exit"),
    }
    for name, (lines, line, key, words) in cases.items():
        config = tmp_path / f"{name}.conf"
        config.write_text("\n".join(lines) + "\n")
        returncode, stderr = serve_until_exit_or_listening(
            ["-c", str(config), "--secret-file", str(secret), "--listen", "127.0.0.1:0", "--admin-listen", "none",
             "--database", f"sqlite:{tmp_path / (name + '.db')}"])
        assert returncode == 78, (name, returncode, stderr)
        assert f"{config}:{line}: {key}: " in stderr and words in stderr, (name, stderr)
    fine = tmp_path / "fine.conf"
    fine.write_text("exit.HALL-1-OUT = HALL-1\nexit.HALL-1-BACK = HALL-1\n")
    returncode, stderr = serve_until_exit_or_listening(
        ["-c", str(fine), "--secret-file", str(secret), "--listen", "127.0.0.1:0", "--admin-listen", "none",
         "--database", f"sqlite:{tmp_path / 'fine.db'}"])
    assert returncode is None, ("two exits of one venue start", stderr)


def five_views(config, server, console, venue="HALL-1"):
    """Who is inside `venue` as each of the five places says it: the console's dashboard ("inside
    now", "3 / 10" with the capacity, and the venue's card: its number and its curve's last
    point), the console's roll, `inside`, the occupancy endpoint and `status --json`."""
    status, _, page = console.get("/admin/?lang=en")
    assert status == 200, page
    page = page.decode()
    row = re.search(rf'<tr><th scope="row">{venue}</th>(.*?)</tr>', page, re.S)
    assert row, page
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", row.group(1))
    dashboard, _, capacity = cells[0].partition(" / ")
    dashboard = int(dashboard)
    # The venue's card (issue 39): its big number and the curve's last point are the same count.
    card = re.search(rf'<section class="venue[^"]*" data-venue="{venue}"(.*?)</section>', page, re.S)
    assert card, page
    card_now = int(re.search(r'<strong class="now">(\d+)</strong>', card.group(1)).group(1))
    curve_now = int(re.search(r'data-now="(\d+)"', card.group(1)).group(1))
    status, _, roll_page = console.get("/admin/inside?lang=en")
    assert status == 200, roll_page
    section = re.search(rf"<h2>{venue} — (\d+)</h2>(.*?)</section>", roll_page.decode(), re.S)
    console_roll = 0 if section is None else int(section.group(1))
    if section:
        assert section.group(2).count("<tr>") - 1 == console_roll, section.group(2)
    count, _ = occupancy(server, venue)
    result = server_run("status", "-c", str(config), "--database", f"sqlite:{server.database}", "--json")
    assert result.returncode == 0, result.stderr
    status_inside = {row["venue"]: row for row in json.loads(result.stdout)["inside"]}
    views = {"dashboard": dashboard, "dashboard card": card_now, "card's curve": curve_now, "console roll": console_roll, "inside": len(roll(config, server, venue)),
             "occupancy": count["inside"], "status": status_inside.get(venue, {"inside": 0})["inside"]}
    return views, capacity, count["capacity"]


def test_the_dashboard_the_roll_inside_occupancy_and_status_agree_at_every_step(servers, tmp_path, secret):
    """Issue 37: the dashboard's "inside now" counted check-ins within duplicate-time, so after
    check-outs it still said 4 where the other four said 0. After each check-in and each kind
    of check-out (exit kiosk, receipt, staff by id, staff for the whole venue) all five agree,
    and the dashboard shows the capacity the occupancy endpoint and `status` show."""
    from consoleutil import Console, add_user
    config = tmp_path / "server.conf"
    config.write_text("capacity.HALL-1 = 10\nexit.HALL-1-OUT = HALL-1\n")
    server = servers(secret, args=["-c", str(config), *LOAD_ARGS])
    add_user(server, "door", "steward", tmp=tmp_path)
    console = Console(server.admin_port)
    assert console.sign_in("door", "password-door")[0] == 303
    database = ["-c", str(config), "--database", f"sqlite:{server.database}"]
    expected = 0

    def agree(step):
        views, shown, capacity = five_views(config, server, console)
        assert set(views.values()) == {expected}, (step, views)
        assert capacity == 10 and shown == "10", (step, shown, "the dashboard shows the capacity the occupancy endpoint says")

    agree("empty")
    phones, receipts = [Phone(server) for _ in range(4)], []
    for index, phone in enumerate(phones):
        status, headers, _ = phone.scan(secret, "HALL-1")
        assert status == 303, headers
        receipts.append(headers["location"])
        expected += 1
        agree(f"scan {index + 1}")
    status, headers, _ = console.post_form("/admin/checkin", {"venue": "HALL-1", "name": "Park"})
    assert status == 303, headers
    expected += 1
    agree("staff check-in")

    assert "Checked out at" in phones[0].scan(secret, "HALL-1-OUT")[2]
    expected -= 1
    agree("exit kiosk")

    status, _, receipt = phones[1].get(receipts[1])
    action = re.search(r'<form method="post" action="([^"]+)"', receipt).group(1).replace("&amp;", "&")
    fields = urllib.parse.urlencode(hidden_inputs(receipt.encode())).encode()
    status, _, body = phones[1].get(action, method="POST", body=fields, extra=FORM_HEADERS)
    assert status == 200 and "Checked out at" in body
    expected -= 1
    agree("receipt")
    # The roll no longer says that no exits are recorded: they are.
    note = console.get("/admin/inside?lang=en")[2].decode()
    assert "no exits are recorded" not in note and "duplicate time" not in note, note

    third = receipts[2].split("/")[-1].split("?")[0]
    done = server_run("checkout", *database, "--checkin", third)
    assert done.returncode == 0, done.stderr
    expected -= 1
    agree("staff check-out")

    # Issue 41: the console's staff check-out, one visit by its receipt number…
    fourth = receipts[3].split("/")[-1].split("?")[0]
    status, headers, _ = console.post_form("/admin/checkout?lang=en", {"checkin": fourth})
    assert status == 303 and headers["location"] == f"/admin/checkout?checkin={fourth}&done=1&lang=en", (status, headers)
    assert f"Checked out (receipt {fourth})" in console.get(headers["location"])[2].decode()
    expected -= 1
    agree("console check-out of one visit")
    # …and every visit at the venue, after a confirmation that names how many.
    status, _, page = console.get("/admin/checkout?venue=HALL-1&lang=en")
    assert status == 200 and "Check out all 1 visit inside HALL-1 now?" in page.decode(), page
    status, headers, _ = console.post_form("/admin/checkout?lang=en", {"venue": "HALL-1", "all": "yes"})
    assert status == 303 and headers["location"] == "/admin/checkout?venue=HALL-1&done=1&lang=en", (status, headers)
    expected = 0
    agree("console check-out of the venue")
    audit = [row for row in csv.DictReader(io.StringIO(
        server_run("audit", "--database", f"sqlite:{server.database}", "--format", "csv").stdout)) if row["action"] == "staff-check-out"]
    assert [(row["actor"], row["source"].split(" ")[0], row["subject"], row["rows"]) for row in audit[:2]] == [
        ("door", "console", "venue HALL-1", "1"), ("door", "console", f"check-in {fourth}", "1")], audit
    # The shell's check-out of the venue finds nobody left.
    done = server_run("checkout", *database, "--venue", "HALL-1", "--all")
    assert done.returncode == 0 and "checked out 0 visits" in done.stdout, done
    agree("staff check-out of the venue")

    # A phone that left comes back: a new visit, counted once by all five.
    assert phones[0].scan(secret, "HALL-1")[0] == 303
    expected = 1
    agree("back again")
