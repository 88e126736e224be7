"""The reference check-in server for `make bench` (scripts/bench-server): what most attendance
apps are, a Python web app with sqlite3, doing what qrcheckin-server does for a scan: verify the
token (HKDF venue key, HMAC-SHA256, the window within the skew), look for the device's recent
check-in, insert the new one, commit, and answer 303 to the receipt with a device cookie. A raw
ASGI app on uvicorn (uvloop and httptools when installed), one worker, Python's standard library
for the cryptography, the same SQLite durability as the server it is compared with
(REF_SYNC=FULL or NORMAL, WAL).

Environment: REF_SECRET (hex secret file), REF_DATABASE (SQLite path), REF_SYNC.
Run: python3 -m uvicorn server_reference:app --app-dir bench --lifespan off
"""
import base64
import hashlib
import hmac
import os
import secrets
import sqlite3
import struct
import time

PERIOD, SKEW, DUPLICATE_SECONDS = 15, 1, 3 * 3600
SECRET = bytes.fromhex(open(os.environ["REF_SECRET"]).read().strip())
DB = sqlite3.connect(os.environ["REF_DATABASE"], isolation_level=None, check_same_thread=False)
DB.execute("PRAGMA journal_mode=WAL")
DB.execute(f"PRAGMA synchronous={os.environ.get('REF_SYNC', 'FULL')}")
DB.execute("""CREATE TABLE IF NOT EXISTS checkins (id INTEGER PRIMARY KEY, venue TEXT NOT NULL, at_ms INTEGER NOT NULL,
              method TEXT NOT NULL, window_age INTEGER, device TEXT)""")
DB.execute("CREATE INDEX IF NOT EXISTS checkins_device ON checkins (venue, device, at_ms)")
KEYS = {}


def venue_key(venue):
    key = KEYS.get(venue)
    if key is None:
        prk = hmac.new(b"QRCHECKIN-V1", SECRET, hashlib.sha256).digest()
        key = KEYS[venue] = hmac.new(prk, b"VENUE-KEY:" + venue.encode() + b"\x01", hashlib.sha256).digest()
    return key


def verify(venue, token, now):
    """The token's window age when it is a live code of `venue`, else None."""
    if len(token) != 41 or token[0] != "1" or not (1 <= len(venue) <= 16):
        return None
    try:
        payload = base64.b32decode(token[1:])
    except ValueError:
        return None
    window, seq = struct.unpack(">qI", payload[:12])
    message = (b"QRCHECKIN-TOKEN\x001" + bytes([len(venue)]) + venue.encode() + struct.pack(">Iq", PERIOD, window)
               + struct.pack(">I", seq))
    if not hmac.compare_digest(hmac.new(venue_key(venue), message, hashlib.sha256).digest()[:13], payload[12:]):
        return None
    age = now // 1000 // PERIOD - window
    return age if -SKEW <= age <= SKEW else None


async def app(scope, receive, send):
    parts = scope["path"].split("/")
    now = int(time.time() * 1000)
    age = verify(parts[2], parts[3], now) if scope["method"] == "GET" and len(parts) == 4 and parts[1] == "C" else None
    if age is None:
        await send({"type": "http.response.start", "status": 403, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"refused"})
        return
    venue = parts[2]
    cookie = dict(headers for headers in scope["headers"]).get(b"cookie", b"").decode()
    device = cookie.partition("device=")[2][:32] or None
    headers = []
    if device is None:
        device = secrets.token_hex(16)
        headers.append((b"set-cookie", f"device={device}; Path=/C; HttpOnly; SameSite=Lax".encode()))
    DB.execute("BEGIN IMMEDIATE")
    row = DB.execute("SELECT id FROM checkins WHERE venue = ? AND device = ? AND at_ms > ? ORDER BY at_ms LIMIT 1",
                     (venue, device, now - DUPLICATE_SECONDS * 1000)).fetchone()
    if row is None:
        row = (DB.execute("INSERT INTO checkins (venue, at_ms, method, window_age, device) VALUES (?, ?, 'qr', ?, ?)",
                          (venue, now, age, device)).lastrowid,)
    DB.execute("COMMIT")
    headers.append((b"location", f"/C/{venue}/receipt/{row[0]}".encode()))
    await send({"type": "http.response.start", "status": 303, "headers": headers})
    await send({"type": "http.response.body", "body": b""})
