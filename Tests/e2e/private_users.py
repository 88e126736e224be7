#!/usr/bin/env python3
"""Runs a command the way systemd's PrivateUsers= with User=/Group= does: in a new user
namespace where only root, UID and GID are mapped, as UID:GID with no supplementary groups.

  python3 private_users.py UID GID COMMAND [ARGS...]     (as root)

Everyone else's ids read as the overflow id (nobody) inside, e.g. in SO_PEERCRED."""
import ctypes
import os
import signal
import sys

CLONE_NEWUSER = 0x10000000


def main():
    uid, gid, command = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    ready_r, ready_w = os.pipe()
    mapped_r, mapped_w = os.pipe()
    child = os.fork()
    if child == 0:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.unshare(CLONE_NEWUSER) != 0:
            os.write(2, f"unshare: {os.strerror(ctypes.get_errno())}\n".encode())
            os._exit(90)
        os.write(ready_w, b"1")
        os.read(mapped_r, 1)  # the parent wrote the maps
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
        os.execvp(command[0], command)
    os.read(ready_r, 1)
    # Written from the parent namespace by root, so several single-id lines are allowed.
    with open(f"/proc/{child}/uid_map", "w") as f:
        f.write(f"0 0 1\n{uid} {uid} 1\n")
    with open(f"/proc/{child}/gid_map", "w") as f:
        f.write(f"0 0 1\n{gid} {gid} 1\n")
    os.write(mapped_w, b"1")
    # Signals to this launcher go to the command, like systemd's to a service's main process.
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGUSR1):
        signal.signal(number, lambda received, _: os.kill(child, received))
    _, status = os.waitpid(child, 0)
    sys.exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main()
