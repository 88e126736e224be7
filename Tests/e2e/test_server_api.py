"""The API (issue 40) on the console's listener: bearer tokens made by `qrcheckin-server token`,
401 without one, 403 without the scope or the venue, 429 with Retry-After past a token's rate,
every call audited as the token (source `api ADDRESS`), problem details, the exports' JSON
members, the OpenAPI document served with docs/openapi.json's bytes and valid, schemathesis
finding no 5xx and no answer the document does not describe, and a read token paging through
100,000 check-ins by cursor with none missed or repeated (docs/SERVER.md, "The API")."""
import http.client
import json
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from openapi_spec_validator import validate
from serverutil import Server, server_run

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "docs" / "openapi.json"
DEVICE = "0193f2a1c0de" + "ab" * 16


def add_token(database, name, scope, *venues):
    args = ["token", "add", name, "--scope", scope, "--database", f"sqlite:{database}"]
    for venue in venues:
        args += ["--venue", venue]
    result = server_run(*args)
    assert result.returncode == 0, result.stderr
    secret = result.stdout.strip()
    assert secret.startswith("qrc_") and len(secret) == 68 and "\n" not in secret
    assert secret not in result.stderr
    return secret


def call(server, method, path, token=None, body=None, headers=None):
    """One API request on the console's port; (status, headers lower-case, parsed JSON or bytes)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.admin_port, timeout=30)
    sent = dict(headers or {})
    if token:
        sent["Authorization"] = f"Bearer {token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent.setdefault("Content-Type", "application/json")
    try:
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        raw = response.read()
        answer = {k.lower(): v for k, v in response.getheaders()}
    finally:
        connection.close()
    kind = answer.get("content-type", "")
    return response.status, answer, json.loads(raw) if "json" in kind and raw else raw


def audit(database):
    result = server_run("audit", "--database", f"sqlite:{database}", "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def start(servers, secret, tmp_path, *args):
    """A server whose ledger exists (a token was added first, as an operator would)."""
    server = servers(secret, tmp_path / "api", start=False, args=list(args))
    return server


def test_tokens_scopes_venues_problems_and_the_audit(servers, tmp_path, secret):
    server = start(servers, secret, tmp_path, "--capacity", "1")
    reader = add_token(server.database, "crm", "read")
    door = add_token(server.database, "door-counter", "checkin", "HALL-1")
    server.start()

    # The document, with no token: docs/openapi.json's bytes, a valid OpenAPI 3.1 document.
    status, headers, document = call(server, "GET", "/api/v1/openapi.json")
    assert status == 200 and headers["content-type"] == "application/json"
    assert document == json.loads(DOCUMENT.read_text())
    connection = http.client.HTTPConnection("127.0.0.1", server.admin_port, timeout=30)
    connection.request("GET", "/api/v1/openapi.json")
    assert connection.getresponse().read() == DOCUMENT.read_bytes(), "the same bytes"
    connection.close()
    validate(document)

    # No token, a malformed one, an unknown one: 401, problem details, nothing audited.
    before = audit(server.database)
    for token in (None, "qrc_" + "0" * 63, "qrc_" + "0" * 64):
        status, headers, problem = call(server, "GET", "/api/v1/checkins", token=token)
        assert status == 401, (token, problem)
        assert headers["content-type"] == "application/problem+json" and headers["www-authenticate"].startswith("Bearer")
        assert problem["status"] == 401 and problem["title"] == "Unauthorized" and problem["type"] == "about:blank"
    assert audit(server.database) == before
    # Never the visitors' listener.
    assert server.get("/api/v1/checkins", headers={"Authorization": f"Bearer {reader}"})[0] == 404

    # A read token may not check in: 403, nothing recorded.
    status, _, problem = call(server, "POST", "/api/v1/checkins", reader, {"venue": "HALL-1"})
    assert status == 403 and "checkin" in problem["detail"], problem
    # A checkin token of HALL-1: 201 with the exports' members; the capacity holds (409); another venue 403.
    status, _, made = call(server, "POST", "/api/v1/checkins", door, {"venue": "HALL-1", "name": "김민지", "phone": "010-1234-5678"})
    assert status == 201, made
    exported = json.loads(server.checkins("--format", "jsonl").splitlines()[0])
    assert set(made) == set(exported) and made["id"] == exported["id"] and made["method"] == "staff" and made["operator"] == "door-counter"
    assert made["phone"] == "01012345678"
    status, _, problem = call(server, "POST", "/api/v1/checkins", door, {"venue": "HALL-1"})
    assert status == 409 and problem["status"] == 409, problem
    assert call(server, "POST", "/api/v1/checkins", door, {"venue": "GATE-2"})[0] == 403
    assert call(server, "GET", "/api/v1/venues/GATE-2/inside", door)[0] == 403
    status, _, problem = call(server, "POST", "/api/v1/checkins", door, body=None, headers={"Content-Type": "text/plain"})
    assert status == 415, problem
    status, _, problem = call(server, "POST", "/api/v1/checkins", door, {"venue": "HALL-1", "colour": "red"})
    assert status == 400 and problem["detail"].startswith("colour"), problem

    # The venues' counts and who is inside, as the read token sees them.
    status, _, venues = call(server, "GET", "/api/v1/venues", reader)
    assert status == 200 and venues == {"venues": [{"venue": "HALL-1", "name": "HALL-1", "inside": 1, "capacity": 1, "today": 1}]}, venues
    status, _, roll = call(server, "GET", "/api/v1/venues/HALL-1/inside", reader)
    assert status == 200 and [visit["id"] for visit in roll["inside"]] == [made["id"]] and roll["venue"] == "HALL-1"

    # Check-out (checkin scope): the visit with its exit; unknown: 404; a read token: 403.
    assert call(server, "POST", f"/api/v1/checkins/{made['id']}/checkout", reader)[0] == 403
    status, _, ended = call(server, "POST", f"/api/v1/checkins/{made['id']}/checkout", door)
    assert status == 200 and ended["exit_kind"] == "staff" and ended["exit"] is not None, ended
    assert call(server, "POST", "/api/v1/checkins/12345/checkout", door)[0] == 404
    assert call(server, "GET", "/api/v1/checkins?vneue=HALL-1", reader)[0] == 400
    assert call(server, "GET", "/api/v1/checkins?after=0.0", reader)[0] == 400
    assert call(server, "DELETE", "/api/v1/checkins", reader)[0] == 405

    # Every call as its token, from the API.
    entries = [entry for entry in audit(server.database) if entry["source"].startswith("api ")]
    assert {(entry["actor"], entry["action"]) for entry in entries} == {
        ("door-counter", "staff-check-in"), ("door-counter", "staff-check-out"), ("crm", "api-read"), ("crm", "inside")}, entries
    assert all(entry["source"] == "api 127.0.0.1" for entry in entries)

    # Removed: refused at once, by the running server.
    assert server_run("token", "remove", "crm", "--database", f"sqlite:{server.database}").returncode == 0
    assert call(server, "GET", "/api/v1/venues", reader)[0] == 401

    # Past its rate (100 at once, then 20 a second): 429 with Retry-After, for that token alone.
    # Eight clients at once outrun the refill however slow the machine; until the first 429.
    limited, stop = [], threading.Event()

    def hammer():
        while not stop.is_set():
            status, headers, _ = call(server, "GET", "/api/v1/venues", door)
            if status == 429:
                limited.append(headers)
                stop.set()
            else:
                assert status == 200, status

    workers = [threading.Thread(target=hammer, daemon=True) for _ in range(8)]
    for worker in workers:
        worker.start()
    stop.wait(timeout=60)
    stop.set()
    for worker in workers:
        worker.join(timeout=30)
    assert limited and int(limited[0]["retry-after"]) >= 1, "a 429 with Retry-After within a minute"
    other = add_token(server.database, "other", "read")
    assert call(server, "GET", "/api/v1/venues", other)[0] == 200


def test_a_read_token_pages_through_100000_check_ins_by_cursor(servers, tmp_path, secret):
    server = start(servers, secret, tmp_path)
    token = add_token(server.database, "warehouse", "read")
    # 100,000 check-ins written straight into the ledger (the server's own SQL is not the
    # subject here); groups of seven share a millisecond, so pages end inside a group.
    total = 100_000
    with sqlite3.connect(server.database) as db:
        db.executemany("INSERT INTO checkins (venue, at_ms, method, window_age, device) VALUES (?, ?, 'qr', 0, ?)",
                       (("HALL-1" if index % 3 else "GATE-2", 1_796_029_200_000 + index // 7, DEVICE) for index in range(total)))
    db.close()
    server.start()
    seen, pages, after, began = [], 0, None, time.monotonic()
    while True:
        path = "/api/v1/checkins?limit=1000" + (f"&after={after}" if after else "")
        status, headers, page = call(server, "GET", path, token)
        if status == 429:  # a client honours Retry-After
            time.sleep(int(headers["retry-after"]))
            continue
        assert status == 200, page
        pages += 1
        seen += [(row["time"], row["id"]) for row in page["checkins"]]
        after = page["next"]
        if after is None:
            break
    print(f"{total:,} check-ins in {pages} pages, {time.monotonic() - began:.1f} s")
    ids = [checkin_id for _, checkin_id in seen]
    assert len(ids) == total and len(set(ids)) == total, "none missed, none repeated"
    assert [moment for moment, _ in seen] == sorted(moment for moment, _ in seen), "oldest first, newest last"
    # A venue's pages, and a bounded window.
    status, _, page = call(server, "GET", "/api/v1/checkins?venue=GATE-2&limit=5&from=2026-11-30T00:00:00Z", token)
    assert status == 200 and len(page["checkins"]) == 5 and {row["venue"] for row in page["checkins"]} == {"GATE-2"}
    exports = [entry for entry in audit(server.database) if entry["action"] == "export"]
    assert len(exports) >= pages and all(entry["actor"] == "warehouse" for entry in exports)


def test_schemathesis_finds_no_server_error_and_no_answer_the_document_does_not_describe(servers, tmp_path, secret):
    server = start(servers, secret, tmp_path)
    token = add_token(server.database, "fuzz", "checkin")
    assert server_run("checkin", "--database", f"sqlite:{server.database}", "--venue", "HALL-1", "--new-venue", "--name", "Kim").returncode == 0
    server.start()
    result = subprocess.run(
        [sys.executable, "-m", "schemathesis.cli", "run", f"http://127.0.0.1:{server.admin_port}/api/v1/openapi.json",
         "-H", f"Authorization: Bearer {token}", "--max-examples", "25", "--generation-deterministic",
         "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
         "--phases", "examples,coverage,fuzzing"],
        capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
