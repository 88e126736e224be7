"""An independent implementation of docs/TOKEN.md with Python's standard library only: what a
check-in server in another language would write. The e2e tests compare qrcheckin against it, and
`python3 Tests/e2e/token_reference.py --vectors` writes docs/token-vectors.json from it."""
import base64
import hashlib
import hmac
import json
import re
import struct
import sys
import unicodedata

SYLLABLES = "가거고구나너노누다더도두라러로루마머모무바버보부사서소수자저조주"
VERSION = b"1"
BASE_URL = "HTTPS://CHECKIN.EXAMPLE.ORG/C"
TIME_LIMIT = 10**15            # supported Unix times: -10**15 ... 10**15
VENUE_KEY_MAGIC = "QRCHECKIN-VENUE-KEY-1"
REASONS = ["malformed", "unknown-version", "no-venue", "wrong-venue", "bad-mac", "expired", "not-yet-valid"]


def hkdf_sha256(ikm, salt, info, length):
    """RFC 5869 extract and expand."""
    prk = hmac.new(salt or bytes(32), ikm, hashlib.sha256).digest()
    output, block, counter = b"", b"", 1
    while len(output) < length:
        block = hmac.new(prk, block + info + bytes([counter]), hashlib.sha256).digest()
        output += block
        counter += 1
    return output[:length]


def venue_key(secret, venue):
    return hkdf_sha256(secret, b"QRCHECKIN-V1", b"VENUE-KEY:" + venue.encode(), 32)


def venue_key_file(secret, venue):
    """The content `keygen --venue VENUE --from SECRET` writes."""
    return f"{VENUE_KEY_MAGIC} {venue} {venue_key(secret, venue).hex()}\n"


REPORT_KEY_MAGIC = "QRCHECKIN-REPORT-KEY-1"


def report_key(venue_key_bytes, venue):
    """docs/TOKEN.md, Kiosk reports: the venue key's report key."""
    return hkdf_sha256(venue_key_bytes, b"QRCHECKIN-V1", b"REPORT-KEY:" + venue.encode(), 32)


def report_key_file(secret, venue):
    """The content `keygen --report --venue VENUE --from SECRET` writes."""
    return f"{REPORT_KEY_MAGIC} {venue} {report_key(venue_key(secret, venue), venue).hex()}\n"


def _report_context(label, venue):
    return label + b"\x00" + VERSION + bytes([len(venue)]) + venue.encode()


def report_mac(key, venue, t, nonce, body):
    """HMAC over "QRCHECKIN-REPORT" context . t . n . body (t: decimal text, nonce: 32 hex digits)."""
    message = _report_context(b"QRCHECKIN-REPORT", venue) + b"." + str(t).encode() + b"." + nonce.encode() + b"." + body
    return hmac.new(key, message, hashlib.sha256).digest()


def report_header(key, venue, t, nonce, body):
    """The Qrcheckin-Report header's value."""
    return f"v1; t={t}; n={nonce}; mac={report_mac(key, venue, t, nonce, body).hex()}"


def answer_mac(key, venue, nonce, body):
    """HMAC over "QRCHECKIN-REPORT-ANSWER" context . n (the report's nonce) . body."""
    message = _report_context(b"QRCHECKIN-REPORT-ANSWER", venue) + b"." + nonce.encode() + b"." + body
    return hmac.new(key, message, hashlib.sha256).digest()


def answer_header(key, venue, nonce, body):
    """The Qrcheckin-Answer header's value."""
    return f"v1; mac={answer_mac(key, venue, nonce, body).hex()}"


def parse_report_header(value):
    """(t, nonce, mac bytes) of a Qrcheckin-Report header, or None when it is not of the format."""
    items = [item.strip(" \t") for item in value.split(";")]
    if not items or items[0] != "v1":
        return None
    fields = {}
    for item in items[1:]:
        name, sep, text = item.partition("=")
        if not sep or name not in ("t", "n", "mac") or name in fields:
            return None
        fields[name] = text
    if set(fields) != {"t", "n", "mac"}:
        return None
    t, nonce, mac = fields["t"], fields["n"], fields["mac"]
    if not re.fullmatch(r"0|[1-9][0-9]{0,15}", t) or not re.fullmatch(r"[0-9a-f]{32}", nonce) \
            or not re.fullmatch(r"[0-9a-fA-F]{64}", mac):
        return None
    return int(t), nonce, bytes.fromhex(mac)


def verify_report(key, venue, header, body):
    """Whether a report's header is the report key's signature over body (constant-time)."""
    parsed = parse_report_header(header or "")
    if parsed is None:
        return False
    t, nonce, mac = parsed
    return hmac.compare_digest(report_mac(key, venue, t, nonce, body), mac)


def _context(label, venue, period, window):
    return (label + b"\x00" + VERSION + bytes([len(venue)]) + venue.encode()
            + struct.pack(">Iq", period, window))


def window_of(unix_time, period):
    return unix_time // period  # Python's // already floors negative times


def _token_mac(key, venue, period, window, seq):
    message = _context(b"QRCHECKIN-TOKEN", venue, period, window) + struct.pack(">I", seq)
    return hmac.new(key, message, hashlib.sha256).digest()[:13]


def token_with_key(key, venue, period, window, seq):
    mac = _token_mac(key, venue, period, window, seq)
    return VERSION.decode() + base64.b32encode(struct.pack(">qI", window, seq) + mac).decode()


def token(secret, venue, period, window, seq):
    return token_with_key(venue_key(secret, venue), venue, period, window, seq)


def safe_number_with_key(key, venue, period, window):
    message = _context(b"QRCHECKIN-SAFE-NUMBER", venue, period, window)
    n = int.from_bytes(hmac.new(key, message, hashlib.sha256).digest()[:8], "big")
    first, n = n % 100, n // 100
    syllable1, n = SYLLABLES[n % 32], n // 32
    second, n = n % 100, n // 100
    syllable2 = SYLLABLES[n % 32]
    return f"{first:02d}{syllable1}{second:02d}{syllable2}"


def safe_number(secret, venue, period, window):
    return safe_number_with_key(venue_key(secret, venue), venue, period, window)


def url(secret, venue, period, unix_time, seq, base=BASE_URL):
    return f"{base}/{venue}/{token(secret, venue, period, window_of(unix_time, period), seq)}"


# --- verification, docs/TOKEN.md "Verification" --------------------------------------------

def is_venue(text):
    return (1 <= len(text) <= 16 and re.fullmatch(r"[0-9A-Z.\-]+", text) is not None
            and set(text) != {"."})


def _keys_for(keys, venue):
    """Per key source: the venue's key, or None where a venue key serves another venue.
    A key source is {"master": hex} or {"venue": VENUE, "key": hex}."""
    result = []
    for source in keys:
        if "master" in source:
            result.append(venue_key(bytes.fromhex(source["master"]), venue))
        else:
            result.append(bytes.fromhex(source["key"]) if source["venue"] == venue else None)
    return result


def _parse_token(text):
    """(window, seq, mac) or a reason."""
    if not text:
        return "malformed"
    if text[0] != "1":
        return "unknown-version" if re.fullmatch(r"[0-9A-Z]+", text) else "malformed"
    if len(text) != 41 or not re.fullmatch(r"[A-Z2-7]{40}", text[1:]):
        return "malformed"
    payload = base64.b32decode(text[1:])
    window, seq = struct.unpack(">qI", payload[:12])
    return window, seq, payload[12:]


def _result(reason, venue=None, window=None, seq=None, seconds_left=None, index=None, period=15):
    def bounded(value):
        return value if value is not None and -TIME_LIMIT <= value <= TIME_LIMIT else None
    return {"valid": reason is None, "reason": reason, "venue": venue, "window": window, "seq": seq,
            "issuedAt": bounded(window * period) if window is not None else None,
            "expiresAt": bounded((window + 1) * period) if window is not None else None,
            "secondsLeft": seconds_left, "secretIndex": index}


def _timing(window, venue, seq, index, period, skew, t):
    distance = window - window_of(t, period)
    if distance < -skew:
        return _result("expired", venue, window, seq, None, index, period)
    if distance > skew:
        return _result("not-yet-valid", venue, window, seq, None, index, period)
    return _result(None, venue, window, seq, (window + skew + 1) * period - t, index, period)


def _check_token(keys, text, venue, period, skew, t):
    parsed = _parse_token(text)
    if isinstance(parsed, str):
        return _result(parsed, venue)
    window, seq, mac = parsed
    candidates = _keys_for(keys, venue)
    if all(key is None for key in candidates):
        return _result("wrong-venue", venue)
    for index, key in enumerate(candidates):
        if key is not None and hmac.compare_digest(_token_mac(key, venue, period, window, seq), mac):
            return _timing(window, venue, seq, index, period, skew, t)
    return _result("bad-mac", venue)


def _check_safe_number(keys, text, venue, period, skew, t):
    text = unicodedata.normalize("NFC", text)
    if not re.fullmatch(f"[0-9]{{2}}[{SYLLABLES}][0-9]{{2}}[{SYLLABLES}]", text):
        return _result("malformed", venue)
    candidates = _keys_for(keys, venue)
    if all(key is None for key in candidates):
        return _result("wrong-venue", venue)
    now = window_of(t, period)
    for distance in range(0, skew + 5):
        for offset in ([0] if distance == 0 else [-distance, distance]):
            for index, key in enumerate(candidates):
                if key is not None and hmac.compare_digest(
                        safe_number_with_key(key, venue, period, now + offset).encode(), text.encode()):
                    return _timing(now + offset, venue, None, index, period, skew, t)
    return _result("bad-mac", venue)


def verify(keys, text, venue, period, skew, t):
    """The verification result of `text` (a URL, a bare token or a safe number) for the
    configured `venue` (or None) at Unix time `t`: the fields of `verify --json`, with
    secretIndex (the index of the matching key source) in place of the file name."""
    text = text.strip(" \t\r\n")
    if any(ord(character) < 0x20 or ord(character) == 0x7F for character in text):
        return _result("malformed")
    if "/" in text:
        path = re.split(r"[?#]", text, maxsplit=1)[0]
        parts = path.split("/")
        if len(parts) < 3 or not is_venue(parts[-2]):
            return _result("malformed")
        named, token_text = parts[-2], parts[-1]
        if venue is not None and venue != named:
            parsed = _parse_token(token_text)
            return _result(parsed if isinstance(parsed, str) else "wrong-venue", named)
        return _check_token(keys, token_text, named, period, skew, t)
    if any(ord(character) >= 0x80 for character in text):
        if venue is None:
            return _result("no-venue")
        return _check_safe_number(keys, text, venue, period, skew, t)
    if venue is None:
        parsed = _parse_token(text)
        return _result(parsed if isinstance(parsed, str) else "no-venue")
    return _check_token(keys, text, venue, period, skew, t)


def check_vector(case):
    """What this implementation computes for one case of docs/token-vectors.json."""
    if case["kind"] == "issue":
        secret = bytes.fromhex(case["secret"])
        venue, period, t, seq = case["venue"], case["period"], case["time"], case["seq"]
        window = window_of(t, period)
        return {"window": window, "token": token(secret, venue, period, window, seq),
                "url": url(secret, venue, period, t, seq), "safeNumber": safe_number(secret, venue, period, window),
                "issuedAt": window * period, "expiresAt": (window + 1) * period,
                "venueKey": venue_key(secret, venue).hex(), "venueKeyFile": venue_key_file(secret, venue),
                "reportKey": report_key(venue_key(secret, venue), venue).hex(), "reportKeyFile": report_key_file(secret, venue)}
    if case["kind"] == "report":
        key = report_key(venue_key(bytes.fromhex(case["secret"]), case["venue"]), case["venue"])
        body, answer = case["body"].encode(), case["answer"].encode()
        return {"reportKey": key.hex(),
                "reportHeader": report_header(key, case["venue"], case["time"], case["nonce"], body),
                "answerHeader": answer_header(key, case["venue"], case["nonce"], answer)}
    if case["kind"] == "venue-id":
        return {"valid": is_venue(case["text"])}
    return verify(case["keys"], case["input"], case["venue"], case["period"], case["skew"], case["time"])


if __name__ == "__main__" and sys.argv[1:] == ["--vectors"]:
    import token_vectors
    json.dump(token_vectors.document(), sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
elif __name__ == "__main__":
    # The first test vector of docs/TOKEN.md, step by step.
    secret, venue, period, t, seq = bytes(range(32)), "DEMO", 15, 1700000000, 0
    window = window_of(t, period)
    key = venue_key(secret, venue)
    message = _context(b"QRCHECKIN-TOKEN", venue, period, window) + struct.pack(">I", seq)
    mac = hmac.new(key, message, hashlib.sha256).digest()
    print("window       ", window)
    print("venue_key    ", key.hex())
    print("token message", message.hex())
    print("HMAC         ", mac.hex())
    print("token_mac    ", mac[:13].hex())
    print("payload      ", (struct.pack(">qI", window, seq) + mac[:13]).hex())
    print("token        ", token(secret, venue, period, window, seq))
    print("safe message ", _context(b"QRCHECKIN-SAFE-NUMBER", venue, period, window).hex())
    print("safe number  ", safe_number(secret, venue, period, window))
