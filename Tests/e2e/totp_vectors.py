"""TOTP vectors from pyotp (PyPI), a client nobody here wrote, for ServerSecondFactorTests
(Tests/Server/ServerSecondFactorTests/vectors/pyotp-totp.json): codes of fixed secrets at fixed
times, and otpauth URIs percent-encoded by Python's urllib with pyotp's reading of each.
`python3 Tests/e2e/totp_vectors.py > Tests/Server/ServerSecondFactorTests/vectors/pyotp-totp.json`
writes the file; test_totp_vectors.py checks that the committed file is still what pyotp says."""
import json
import sys
from urllib.parse import quote

import pyotp

# Fixed secrets (pyotp.random_base32() once each; RFC 6238's ASCII "12345678901234567890" first).
SECRETS = [
    "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
    "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
    "N3T6UO2D5RQ7XZVL7P3SQW4ZK6HL2M4A",
    "Z7ZX2RJ6ZQ5OH3ZN4XLCAV4SRSXFXHWD",
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    "77777777777777777777777777777777",
]
# Steps' edges, RFC 6238's times, and today's range.
TIMES = [59, 1111111109, 1111111111, 1234567890, 2000000000, 20000000000,
         1764892799, 1764892800, 1764892829, 1764892830]
# (issuer, account): plain, the characters an account name may have (. _ - @), and text to encode.
LABELS = [
    ("qrcheckin", "admin"),
    ("qrcheckin (Acme Corp & Sons)", "kim.min-ji_2@example.org"),
    ("qrcheckin (서울시청)", "steward"),
    ("qrcheckin (a/b?c=d#e%f+g)", "x~y"),
]


def uri(issuer, account, secret):
    """The URI ServerSecondFactor must write: RFC 3986 percent-encoding (urllib's, nothing safe
    but the unreserved characters) of the label's parts and the issuer parameter."""
    name = quote(issuer, safe="")
    return (f"otpauth://totp/{name}:{quote(account, safe='')}?secret={secret}&issuer={name}"
            "&period=30&digits=6&algorithm=SHA1")


def vectors():
    codes = [{"secret": secret, "time": time, "code": pyotp.TOTP(secret).at(time)}
             for secret in SECRETS for time in TIMES]
    uris = []
    for (issuer, account), secret in zip(LABELS, SECRETS):
        text = uri(issuer, account, secret)
        parsed = pyotp.parse_uri(text)
        uris.append({"issuer": issuer, "account": account, "secret": secret, "uri": text,
                     "pyotp": {"issuer": parsed.issuer, "name": parsed.name, "secret": parsed.secret,
                               "digits": parsed.digits, "interval": parsed.interval,
                               "code_at_59": parsed.at(59)}})
    return {"generator": "Tests/e2e/totp_vectors.py", "codes": codes, "uris": uris}


if __name__ == "__main__":
    json.dump(vectors(), sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
