"""Runs a command under a seccomp filter that denies adjtimex and clock_adjtime with EPERM, as
systemd's ProtectClock=yes does (it denies the whole @clock group, reads included).

    python3 deny_adjtimex.py COMMAND [ARG]...

x86-64 only (the system call numbers are that architecture's); the filter is inherited by the
command. Python stdlib only (ctypes), like private_users.py."""
import ctypes
import os
import platform
import struct
import sys

NR_ADJTIMEX, NR_CLOCK_ADJTIME = 159, 305
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO, EPERM = 0x7FFF0000, 0x00050000, 1
LD_W_ABS, JEQ_K, RET_K = 0x20, 0x15, 0x06


def main():
    if platform.machine() != "x86_64":
        sys.exit("deny_adjtimex: x86-64 only")
    program = [
        (LD_W_ABS, 0, 0, 0),                     # A = seccomp_data.nr
        (JEQ_K, 2, 0, NR_ADJTIMEX),              # adjtimex → deny
        (JEQ_K, 1, 0, NR_CLOCK_ADJTIME),         # clock_adjtime → deny
        (RET_K, 0, 0, SECCOMP_RET_ALLOW),
        (RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM),
    ]
    filters = ctypes.create_string_buffer(b"".join(struct.pack("HBBI", *op) for op in program))
    fprog = struct.pack("HxxxxxxQ", len(program), ctypes.addressof(filters))
    fprog_buffer = ctypes.create_string_buffer(fprog)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        sys.exit(f"deny_adjtimex: no_new_privs: errno {ctypes.get_errno()}")
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.c_void_p(ctypes.addressof(fprog_buffer)), 0, 0) != 0:
        sys.exit(f"deny_adjtimex: seccomp: errno {ctypes.get_errno()}")
    os.execvp(sys.argv[1], sys.argv[1:])


if __name__ == "__main__":
    main()
