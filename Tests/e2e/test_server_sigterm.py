"""SIGTERM under load on the embedded ledger (issue 38): every check-in the server acknowledged
(a 303 to its receipt) is in the database afterwards, the process is gone within its grace
period (20 s: the listener's 15 s drain and 5 s for the rest), and it stops because it is told
to, not because something it polls noticed: it exits well before any poll interval would."""
import time

from daemonutil import wait_until
from serverutil import LOAD_ARGS, server_run
from test_server_postgres import PERIOD, Load


def crash_report(logs):
    """What a failed stop shows: the fatal error and the crashed thread's backtrace (Swift's
    backtracer prints them first, then every thread and the registers), else the log's end."""
    at = next((found for found in (logs.find("Crash at"), logs.find("crashed:")) if found >= 0), -1)
    return logs[max(0, at - 2000):at + 4000] if at >= 0 else logs[-3000:]


# serve's grace period: MicroHTTPServer.drainSeconds (15) + 5 (ServeCommand.gracePeriod).
GRACE_SECONDS = 20


def test_sigterm_under_load_records_every_acknowledged_check_in_and_exits_within_its_grace(tmp_path, secret, servers):
    server = servers(secret, args=["--period", PERIOD, *LOAD_ARGS])
    load = Load(tmp_path, [server], secret, seconds=30, connections=16)
    try:
        # Waiting for an event (300 acknowledged check-ins), with a deadline.
        wait_until(lambda: len(load.receipts()) >= 300, timeout=60, message="300 check-ins under load")
        began = time.monotonic()
        status = server.stop(timeout=GRACE_SECONDS + 10)
        took = time.monotonic() - began
    finally:
        load.stop()
        server.stop()
    assert status == 0, crash_report(server.logs())
    assert took < GRACE_SECONDS, f"the server took {took:.1f} s to stop after SIGTERM"
    acknowledged = set(load.receipts())
    listed = server_run("checkins", "--database", f"sqlite:{server.database}", "--format", "csv", timeout=120)
    assert listed.returncode == 0, listed.stderr
    stored = {int(line.split(",", 1)[0]) for line in listed.stdout.splitlines()[1:]}
    lost = acknowledged - stored
    assert not lost, f"{len(lost)} of {len(acknowledged)} acknowledged check-ins are not in the ledger"
