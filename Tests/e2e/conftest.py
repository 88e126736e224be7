"""Shared fixtures: the built binary, a real QR decoder, temporary directories."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("QRCHECKIN_BIN", str(ROOT / ".build" / "debug" / "qrcheckin"))


def run(*args, input=None, env=None, check=False, timeout=30):
    """Runs the built qrcheckin with `args`; returns the CompletedProcess (bytes)."""
    full_env = dict(os.environ)
    full_env.pop("NO_COLOR", None)
    if env:
        full_env.update(env)
    if isinstance(input, str):
        input = input.encode()
    return subprocess.run([BIN, *args], input=input, capture_output=True, env=full_env,
                          check=check, timeout=timeout)


def zbar(path):
    """Decodes a QR image with zbarimg as a user would; returns the raw payload bytes."""
    result = subprocess.run(["zbarimg", "--raw", "-q", "--nodbus", str(path)],
                            capture_output=True, timeout=30)
    assert result.returncode == 0, f"zbarimg could not decode {path}: {result.stderr!r}"
    return result.stdout.removesuffix(b"\n")


@pytest.fixture
def qrcheckin():
    assert os.access(BIN, os.X_OK), f"build first: {BIN} missing"
    return run


@pytest.fixture(scope="session")
def tools():
    for tool in ("zbarimg", "qrencode"):
        assert shutil.which(tool), f"{tool} missing: run scripts/install-deps --test"
