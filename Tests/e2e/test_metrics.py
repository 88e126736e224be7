"""metrics.prom, scraped the way Prometheus reads it: with prometheus_client's text parser.

Counters must move after `ctl refresh now`, a shake, a refused peer and an ignored shake; health
must flip to degraded on a full disk and back. The output directory is a 64 KiB tmpfs (real
ENOSPC); `metrics-dir` (node_exporter's textfile directory) is on another file system, so
monitoring hears about the full output directory. Needs root (mount, setpriv)."""
import os
import subprocess
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from conftest import BIN, needs_root, run
from daemonutil import fill, request, wait_until

pytestmark = needs_root("a tmpfs mount, setpriv")


def scrape(path):
    """{(sample name, frozen labels): value} of a metrics file, via the real parser (None: no file)."""
    try:
        text = Path(path).read_text()
    except FileNotFoundError:
        return None
    families = list(text_string_to_metric_families(text))
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in families for sample in family.samples}


def value(samples, name, **labels):
    return (samples or {}).get((name, tuple(sorted({"venue": "DEMO", **labels}.items()))))


@pytest.fixture
def daemon(base, tmpfs, daemons):
    """The daemon writing to the tmpfs (stopped before the tmpfs is unmounted), in `base`, which
    others may traverse: the refused peer must reach the socket for the daemon, not the file
    system, to turn it away."""
    textfiles = base / "textfile-collector"
    textfiles.mkdir()
    started = daemons(base / "daemon", out=tmpfs, period=5, args=["--metrics-dir", str(textfiles)])
    started.textfile = textfiles / "qrcheckin-DEMO.prom"
    return started


def test_metrics_follow_requests_shakes_refusals_and_a_full_disk(daemon):
    out_metrics = daemon.out / "metrics.prom"
    first = wait_until(lambda: scrape(daemon.textfile), message="the textfile collector's copy")
    local = scrape(out_metrics)
    # Both copies come from one rendering: the same families, the same build.
    assert {name for name, _ in first} == {name for name, _ in local}
    version = run("--version").stdout.decode().split()[-1]
    assert value(first, "qrcheckin_build_info", version=version) == 1
    assert value(first, "qrcheckin_healthy") == 1
    assert value(first, "qrcheckin_state", state="running") == 1
    assert value(first, "qrcheckin_period_seconds") == 5

    def agreeing():
        # metrics.prom is renamed into place after current.json: a rotation between the two
        # reads makes them differ for a moment, and they are read again.
        samples, document = scrape(out_metrics), daemon.state_now()
        return value(samples, "qrcheckin_code_window") == document["window"] and (samples, document)

    local, document = wait_until(agreeing, message="metrics.prom to show the code current.json shows")
    assert value(local, "qrcheckin_code_window") == document["window"]
    assert value(local, "qrcheckin_code_expiry_timestamp_seconds") == document["expiresAt"]
    # Counters are typed counters (the parser strips _total from the family name).
    types = {family.name: family.type for family in text_string_to_metric_families(out_metrics.read_text())}
    assert types["qrcheckin_rotations"] == "counter" and types["qrcheckin_control_refusals"] == "counter"
    assert types["qrcheckin_healthy"] == "gauge"

    def moved(name, before, **labels):
        wait_until(lambda: (value(scrape(daemon.textfile), name, **labels) or 0) > before and
                   (value(scrape(out_metrics), name, **labels) or 0) > before, message=f"{name} {labels} to move")

    assert value(first, "qrcheckin_rotations_total", cause="refresh-now") == 0
    assert daemon.cli("ctl", "--output-dir", str(daemon.out), "refresh", "now").returncode == 0
    moved("qrcheckin_rotations_total", 0, cause="refresh-now")
    moved("qrcheckin_control_requests_total", 0)

    assert daemon.cli("shake", "--output-dir", str(daemon.out)).returncode == 0
    moved("qrcheckin_rotations_total", 0, cause="shake")

    # A peer that is neither root nor the daemon's user nor in the ops group: opened to all so
    # that the daemon, not the file mode, turns it away.
    os.chmod(daemon.socket, 0o666)
    outsider = subprocess.run(["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups", "--",
                               BIN, "ctl", "--socket", str(daemon.socket), "get"], capture_output=True, timeout=30)
    assert outsider.returncode == 77 and b"permission" in outsider.stderr.lower(), outsider
    moved("qrcheckin_control_refusals_total", 0)

    assert daemon.cli("ctl", "--output-dir", str(daemon.out), "shake", "off").returncode == 0
    assert daemon.cli("shake", "--output-dir", str(daemon.out)).returncode == 1
    moved("qrcheckin_ignored_shakes_total", 0)
    assert value(scrape(daemon.textfile), "qrcheckin_shake_enabled") == 0

    # A full output directory: monitoring hears it from the textfile directory.
    filler = fill(daemon.out)
    reply = request(daemon.socket, "refresh now")
    assert reply["state"]["health"] == "degraded", reply
    wait_until(lambda: value(scrape(daemon.textfile), "qrcheckin_healthy") == 0, message="healthy 0")
    assert value(scrape(daemon.textfile), "qrcheckin_output_write_failures_total") >= 1
    filler.unlink()
    wait_until(lambda: value(scrape(daemon.textfile), "qrcheckin_healthy") == 1 and
               value(scrape(out_metrics), "qrcheckin_healthy") == 1, timeout=15, message="healthy 1 again")
    assert daemon.state_now()["health"] == "ok"


def test_the_stopped_state_reaches_the_metrics(tmp_path, daemons):
    textfiles = tmp_path / "prom"
    textfiles.mkdir()
    daemon = daemons("d", period=5, args=["--metrics-dir", str(textfiles)])
    assert daemon.stop() == 0
    samples = scrape(textfiles / "qrcheckin-DEMO.prom")
    assert value(samples, "qrcheckin_state", state="stopped") == 1
    assert value(samples, "qrcheckin_code_window") is None, "no code, no window"
