"""The shipped systemd units, checked the way systemd itself reads them."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import BIN, ROOT

UNITS = sorted((ROOT / "systemd").glob("*.service"))


def localized(unit, tmp_path):
    """The unit with ExecStart pointing at the freshly built binary (verify checks it exists)."""
    target = tmp_path / unit.name
    target.write_text(unit.read_text().replace("/usr/local/bin/qrcheckin", BIN))
    return target


@pytest.fixture(scope="module", autouse=True)
def analyzer():
    if not shutil.which("systemd-analyze"):
        pytest.fail("systemd-analyze missing: run scripts/install-deps --test")


@pytest.mark.parametrize("unit", UNITS, ids=[u.name for u in UNITS])
def test_unit_passes_systemd_analyze_verify(unit, tmp_path):
    result = subprocess.run(["systemd-analyze", "verify", str(localized(unit, tmp_path))],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "qrcheckin" not in result.stderr, result.stderr


def test_daemon_unit_is_hardened(tmp_path):
    unit = localized(ROOT / "systemd" / "qrcheckin.service", tmp_path)
    result = subprocess.run(["systemd-analyze", "security", "--offline=yes", str(unit)],
                            capture_output=True, text=True)
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout + result.stderr)
    assert match, result.stdout
    assert float(match.group(1)) <= 1.0, result.stdout


def test_daemon_unit_speaks_the_notify_protocol_it_implements():
    text = (ROOT / "systemd" / "qrcheckin.service").read_text()
    assert "Type=notify" in text and "WatchdogSec=" in text
    assert "RuntimeDirectory=qrcheckin" in text and "StateDirectory=qrcheckin" in text
    assert "ExecReload=/bin/kill -HUP $MAINPID" in text


def test_example_config_is_valid_and_holds_the_defaults(tmp_path):
    config = ROOT / "docs" / "qrcheckin.conf"
    active = tmp_path / "active.conf"
    active.write_text("".join(line.removeprefix("# ") + "\n" for line in config.read_text().splitlines()
                              if re.match(r"# [a-z-]+ = \S", line)))
    result = subprocess.run([BIN, "status", "--config", str(active), "--json"], capture_output=True, text=True)
    assert result.returncode == 3 and '"not-running"' in result.stdout, result.stderr
