"""An independent implementation of docs/TOKEN.md with Python's standard library only: what a
check-in server in another language would write. The e2e tests compare qrcheckin against it."""
import base64
import hashlib
import hmac
import struct

SYLLABLES = "가거고구나너노누다더도두라러로루마머모무바버보부사서소수자저조주"
VERSION = b"1"


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


def _context(label, venue, period, window):
    return (label + b"\x00" + VERSION + bytes([len(venue)]) + venue.encode()
            + struct.pack(">Iq", period, window))


def window_of(unix_time, period):
    return unix_time // period  # Python's // already floors negative times


def token(secret, venue, period, window, seq):
    message = _context(b"QRCHECKIN-TOKEN", venue, period, window) + struct.pack(">I", seq)
    mac = hmac.new(venue_key(secret, venue), message, hashlib.sha256).digest()[:13]
    return VERSION.decode() + base64.b32encode(struct.pack(">qI", window, seq) + mac).decode()


def safe_number(secret, venue, period, window):
    message = _context(b"QRCHECKIN-SAFE-NUMBER", venue, period, window)
    n = int.from_bytes(hmac.new(venue_key(secret, venue), message, hashlib.sha256).digest()[:8], "big")
    first, n = n % 100, n // 100
    syllable1, n = SYLLABLES[n % 32], n // 32
    second, n = n % 100, n // 100
    syllable2 = SYLLABLES[n % 32]
    return f"{first:02d}{syllable1}{second:02d}{syllable2}"


def url(secret, venue, period, unix_time, seq, base="HTTPS://CHECKIN.EXAMPLE.ORG/C"):
    return f"{base}/{venue}/{token(secret, venue, period, window_of(unix_time, period), seq)}"


if __name__ == "__main__":
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
