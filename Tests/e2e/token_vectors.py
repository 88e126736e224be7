"""The cases of docs/token-vectors.json: inputs chosen to pin down every rule of docs/TOKEN.md,
expected outputs computed by token_reference.py. Regenerate with
`python3 Tests/e2e/token_reference.py --vectors > docs/token-vectors.json`; the tests check that
the file, this reference and qrcheckin agree."""
import unicodedata

import token_reference as ref

S1 = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
S2 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
T = 1700000000
W = T // 15


def issue_cases():
    rows = [
        ("first vector", S1, "DEMO", 15, T, 0),
        ("sequence 3", S1, "ABCDEFGH", 15, 1700000014, 3),
        ("time 0, 16-byte secret", "42424242424242424242424242424242", "HALL-7.B", 30, 0, 0),
        ("largest sequence, period 3600", "ff" * 32, "CAFE", 3600, 2000000000, 4294967295),
        ("negative time floors", S1, "X", 1, -1, 1),
        ("16-character venue", S2, "SEOUL-01-HALL.B2", 15, 1767225599, 1),
        ("earliest supported time", S1, "DEMO", 7, -10**15, 0),
        ("latest supported time", S1, "DEMO", 3600, 10**15, 0),
    ]
    return [{"kind": "issue", "name": name, "secret": secret, "venue": venue, "period": period, "time": time, "seq": seq}
            for name, secret, venue, period, time, seq in rows]


def venue_cases():
    rows = [("HALL-1", "ordinary"), ("A", "one character"), ("ABCDEFGHIJKLMNOP", "16 characters"),
            ("ABCDEFGHIJKLMNOPQ", "17 characters"), ("", "empty"), (".", "a dot segment"), ("..", "a dot segment"),
            ("...", "only dots"), (".A.", "dots and a letter"), ("hall-1", "lower case"), ("HALL_1", "underscore"),
            ("HALL 1", "space"), ("홀", "Hangul")]
    return [{"kind": "venue-id", "name": f"venue id: {why}", "text": text} for text, why in rows]


def verify_cases():
    master1, master2 = {"master": S1}, {"master": S2}
    hall_key = {"venue": "HALL-1", "key": ref.venue_key(bytes.fromhex(S1), "HALL-1").hex()}
    s1 = bytes.fromhex(S1)
    url = ref.url(s1, "HALL-1", 15, T, 0)
    tok = url.rsplit("/", 1)[1]
    old_url = ref.url(s1, "HALL-1", 15, T, 5)
    safe = ref.safe_number(s1, "HALL-1", 15, W)
    flipped = tok[:-1] + ("B" if tok[-1] == "A" else "A")
    cases = []

    def case(name, input, venue="HALL-1", keys=(master1,), period=15, skew=1, time=T):
        cases.append({"kind": "verify", "name": name, "keys": list(keys), "venue": venue, "period": period,
                      "skew": skew, "time": time, "input": input})

    case("valid URL", url)
    case("valid URL, no venue configured", url, venue=None)
    case("valid bare token", tok)
    case("bare token without a venue", tok, venue=None)
    case("surrounding whitespace is ignored", " \t" + url + "\r\n")
    case("query ignored", url + "?utm=1")
    case("fragment ignored", url + "#x")
    case("query with a slash ignored", url + "?next=/A/B")
    case("trailing slash", url + "/")
    case("other scheme and host: the base URL is not signed", "http://localhost/x/HALL-1/" + tok)
    case("NUL in the base URL", url.replace("HTTPS://", "HTTPS://\0", 1))
    case("escape character in the base URL", url.replace("HTTPS://", "HTTPS://\x1b[2J", 1))
    case("tab inside the input", url.replace("HTTPS://", "HTTPS://\t", 1))
    case("DEL in the query", url + "?\x7f")
    case("C0 control inside a safe number", safe[:2] + "\x01" + safe[2:])
    case("path of two parts", "HALL-1/" + tok)
    case("path of three parts", "/HALL-1/" + tok)
    case("lower-case token", url.rsplit("/", 1)[0] + "/" + tok.lower())
    case("lower-case venue in URL", url.replace("/HALL-1/", "/hall-1/"))
    case("venue '.' in URL", url.replace("/HALL-1/", "/./"))
    case("venue '..' in URL", url.replace("/HALL-1/", "/../"))
    case("empty venue in URL", url.replace("/HALL-1/", "//"))
    case("empty input", "")
    case("whitespace only", "  ")
    case("token of version 2", "2" + tok[1:])
    case("token of version Z", "Z" + tok[1:])
    case("short future token", "2ABC")
    case("token starting with a lower-case letter", "a" + tok[1:])
    case("token starting with '-'", "-" + tok[1:])
    case("token starting with a non-ASCII letter is a safe-number attempt", "Ä" + tok[1:])
    case("version-1 token one character short", tok[:-1])
    case("version-1 token with '0' (not base32)", tok[:-1] + "0")
    case("wrong venue", url, venue="HALL-2")
    case("wrong venue, unreadable token", url.rsplit("/", 1)[0].replace("HALL-1", "HALL-2") + "/1XYZ", venue="HALL-1")
    case("wrong venue named in the URL, venue key of another venue", url.replace("/HALL-1/", "/HALL-2/"), venue=None, keys=(hall_key,))
    case("relabelled venue", url.replace("/HALL-1/", "/HALL-2/"), venue=None)
    case("last character flipped", url[:-1] + flipped[-1])
    case("another secret", url, keys=(master2,))
    case("another period", url, period=30)
    case("expires at the end of window + skew", url, time=(W + 2) * 15)
    case("last second of window + skew", url, time=(W + 2) * 15 - 1)
    case("skew 0, one window late", url, skew=0, time=(W + 1) * 15)
    case("skew 60, 60 windows late", url, skew=60, time=(W + 60) * 15)
    case("not yet valid: a kiosk clock running fast", url, time=(W - 1) * 15 - 1)
    case("first second accepted early", url, time=(W - 1) * 15)
    case("rotation: new then old secret, old code", old_url, keys=(master2, master1))
    case("rotation: old secret dropped", old_url, keys=(master2,))
    case("venue key verifies the master's code", url, keys=(hall_key,))
    case("venue key, bare token, venue from the configuration", tok, keys=(hall_key,))
    case("token of the earliest window", url.rsplit("/", 1)[0] + "/" + ref.token(s1, "HALL-1", 15, -2**63, 0))
    case("token of the latest window", url.rsplit("/", 1)[0] + "/" + ref.token(s1, "HALL-1", 15, 2**63 - 1, 4294967295))
    case("verifying at the earliest supported time", ref.url(s1, "HALL-1", 15, -10**15, 0), time=-10**15)
    case("verifying at the latest supported time", ref.url(s1, "HALL-1", 15, 10**15, 0), time=10**15)
    # Safe numbers.
    case("safe number", safe)
    case("safe number, whitespace around it", " " + safe + "\n")
    case("safe number typed decomposed (NFD)", unicodedata.normalize("NFD", safe))
    case("safe number typed as L+V jamo", "".join(
        unicodedata.normalize("NFD", c) if "가" <= c <= "힣" else c for c in safe))
    case("safe number without a venue", safe, venue=None)
    case("safe number, venue key's venue", safe, keys=(hall_key,))
    case("safe number, venue key of another venue", safe, venue="HALL-2", keys=(hall_key,))
    case("safe number of the previous window", ref.safe_number(s1, "HALL-1", 15, W - 1))
    case("safe number two windows old", ref.safe_number(s1, "HALL-1", 15, W - 2))
    case("safe number two windows ahead", ref.safe_number(s1, "HALL-1", 15, W + 2))
    case("safe number five windows old (beyond the look-around)", ref.safe_number(s1, "HALL-1", 15, W - 6))
    case("safe number with a syllable outside the table", safe[:2] + "현" + safe[3:])
    case("safe number with a full-width digit", "１" + safe[1:])
    case("safe number one character short", safe[:-1])
    case("safe number of another secret", ref.safe_number(bytes.fromhex(S2), "HALL-1", 15, W))
    case("safe number, rotation: old secret second", safe, keys=(master2, master1))
    return cases


def report_cases():
    """docs/TOKEN.md, Kiosk reports: a report's header and the answer's, from the report key."""
    body = ('{"venue":"HALL-1","kiosk":"door-1","version":"0.1.0","reportInterval":30,"wallClock":1700000000123,'
            '"lastRoundTripMs":12,"uptimeSeconds":3600,"status":"running","summary":"running","state":"running",'
            '"window":113333333,"seq":0,"expiresAt":1700000010,"period":15,"health":"ok","reason":null,"shake":"on",'
            '"refresh":"auto","modeSource":null,"modeChangedBy":null,"modeChangedAt":null,'
            '"clock":{"synchronized":true,"maxErrorSeconds":0},"outputAgeSeconds":{"png":1,"json":1,"txt":1},"applied":null}')
    steer = ('{"serverTime":1700000000456,"steer":{"id":7,"refresh":"paused","shake":null,"newCode":false,'
             '"by":"mina","at":1699999990}}')
    rows = [
        ("report with a steer in the answer", S1, "HALL-1", 1700000000123, "000102030405060708090a0b0c0d0e0f", body, steer),
        ("report at time 0, empty answer", S2, "A", 0, "ffffffffffffffffffffffffffffffff", "{}",
         '{"serverTime":0,"steer":null}'),
        ("16-character venue, non-ASCII in the body", S1, "SEOUL-01-HALL.B2", 1767225599999, "9f86d081884c7d659a2feaa0c55ad015",
         '{"summary":"성능 저하: 디스크가 가득 참"}', '{"serverTime":1767225600000,"steer":null}'),
    ]
    return [{"kind": "report", "name": name, "secret": secret, "venue": venue, "time": time, "nonce": nonce,
             "body": body, "answer": answer} for name, secret, venue, time, nonce, body, answer in rows]


def document():
    cases = issue_cases() + venue_cases() + verify_cases() + report_cases()
    for case in cases:
        case["expect"] = ref.check_vector(case)
    return {
        "description": "Test vectors of docs/TOKEN.md. kind 'issue': a code for secret (hex), venue, period, "
                       "time (Unix seconds) and seq. kind 'venue-id': whether text is a venue id. kind 'verify': "
                       "the result of verifying input for venue (null: none configured) at time with the key "
                       "sources keys, tried in order ({master: hex} or {venue, key: hex}); secretIndex is the "
                       "index of the key that matched. kind 'report': a kiosk report's Qrcheckin-Report header for "
                       "secret, venue, time (Unix ms), nonce and body, and the Qrcheckin-Answer header of answer "
                       "(docs/TOKEN.md, Kiosk reports). Base URL " + ref.BASE_URL + ".",
        "baseUrl": ref.BASE_URL,
        "reasons": ref.REASONS,
        "cases": cases,
    }
