"""A check-in server's receiving end for kiosk reports, as a program: reportutil.ReportReceiver
on a port, for a test that cannot hold the receiver in its own process (one run inside a booted
container's network namespace: test_systemd_boot.py).

  python3 report_receiver.py KEY_FILE PORT LOG [STEER_FILE]

KEY_FILE is a report key file (`QRCHECKIN-REPORT-KEY-1 VENUE HEX`). Every verified report's body
is appended to LOG as one JSON line ({"t", "receivedAt", "body"}), refusals as {"refused": …}.
When STEER_FILE appears (a JSON object: refresh, shake, newCode, by), it is read, removed and
queued as a steer: a held report is answered with it at once. Runs until killed."""
import json
import os
import sys
import threading
import time

from reportutil import ReportReceiver


def main(key_file, port, log, steer_file=None):
    _, venue, key = open(key_file).read().split()
    receiver = ReportReceiver(bytes.fromhex(key), venue=venue, port=int(port))
    written = 0
    print(f"listening on {receiver.url}", flush=True)
    while True:
        if steer_file and os.path.exists(steer_file):
            steer = json.load(open(steer_file))
            os.unlink(steer_file)
            receiver.steer(refresh=steer.get("refresh"), shake=steer.get("shake"), new_code=steer.get("newCode", False),
                           by=steer.get("by", "mina"))
        with receiver.condition:
            fresh = receiver.reports[written:]
            refusals = list(receiver.refusals)
            receiver.refusals.clear()
            written = len(receiver.reports)
        with open(log, "a") as out:
            for report in fresh:
                out.write(json.dumps({"t": report.t, "receivedAt": report.at_wall_ms, "body": report.body}) + "\n")
            for status, reason in refusals:
                out.write(json.dumps({"refused": status, "reason": reason}) + "\n")
        time.sleep(0.05)


if __name__ == "__main__":
    main(*sys.argv[1:])
