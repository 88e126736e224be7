"""The console's second factor (issue 41), before its commands exist: the TOTP vectors the Swift
tests read are pyotp's, and the server draws QR codes with the kiosk's libqrencode only when it
draws one, so `serve` maps neither it nor libpng."""
import json
from pathlib import Path

import pytest

from conftest import ROOT

VECTORS = ROOT / "Tests" / "Server" / "ServerSecondFactorTests" / "vectors" / "pyotp-totp.json"


def test_the_vectors_the_swift_tests_read_are_what_pyotp_computes():
    """ServerSecondFactorTests' PyOTPVectorTests check our codes and URIs against this file; the
    file is only as good as its source, so it is checked against pyotp itself, here and now."""
    pytest.importorskip("pyotp", reason="pyotp (PyPI) computes the codes: scripts/install-deps --test")
    import totp_vectors
    committed = json.loads(VECTORS.read_text())
    assert committed == totp_vectors.vectors(), "regenerate: python3 Tests/e2e/totp_vectors.py > " + str(VECTORS.relative_to(ROOT))
    assert len(committed["codes"]) >= 50 and len(committed["uris"]) >= 4


def mapped_libraries(pid):
    """The file names of the shared objects process `pid` has mapped."""
    lines = Path(f"/proc/{pid}/maps").read_text().splitlines()
    return {Path(line.split()[-1]).name for line in lines if len(line.split()) >= 6 and ".so" in line.split()[-1]}


def test_serve_links_liboath_and_maps_neither_libqrencode_nor_libpng(servers, secret):
    """libqrencode is loaded on the first QR code the server draws (a TOTP enrolment), never at
    start or to answer a visitor; libpng is the kiosk's alone. liboath is linked (DT_NEEDED)."""
    server = servers(secret)
    status, _, _ = server.get("/")
    assert status in (200, 404), status
    mapped = mapped_libraries(server.pid)
    assert any(name.startswith("liboath.so") for name in mapped), sorted(mapped)
    assert not [name for name in mapped if name.startswith(("libqrencode.so", "libpng"))], sorted(mapped)
