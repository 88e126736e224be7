"""Runs a command under a seccomp filter that makes the named system calls fail with EPERM, as
systemd's SystemCallFilter=~GROUP with SystemCallErrorNumber=EPERM does.

    python3 deny_syscalls.py NAME[,NAME...] COMMAND [ARG]...

`chown` stands for the whole @chown group (chown, fchown, lchown, fchownat), the part of
@privileged a daemon meets first. x86-64 only (the numbers are that architecture's); the filter
is inherited by the command. Python stdlib only (ctypes), like deny_adjtimex.py."""
import ctypes
import os
import platform
import struct
import sys

NUMBERS = {"chown": (92, 93, 94, 260), "adjtimex": (159,), "clock_adjtime": (305,)}
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO, EPERM = 0x7FFF0000, 0x00050000, 1
LD_W_ABS, JEQ_K, RET_K = 0x20, 0x15, 0x06


def main():
    if platform.machine() != "x86_64":
        sys.exit("deny_syscalls: x86-64 only")
    numbers = [n for name in sys.argv[1].split(",") for n in NUMBERS[name]]
    program = [(LD_W_ABS, 0, 0, 0)]  # A = seccomp_data.nr
    for index, number in enumerate(numbers):  # equal: jump to the deny at the end
        program.append((JEQ_K, len(numbers) - index, 0, number))
    program += [(RET_K, 0, 0, SECCOMP_RET_ALLOW), (RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM)]
    filters = ctypes.create_string_buffer(b"".join(struct.pack("HBBI", *op) for op in program))
    fprog = ctypes.create_string_buffer(struct.pack("HxxxxxxQ", len(program), ctypes.addressof(filters)))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        sys.exit(f"deny_syscalls: no_new_privs: errno {ctypes.get_errno()}")
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.c_void_p(ctypes.addressof(fprog)), 0, 0) != 0:
        sys.exit(f"deny_syscalls: seccomp: errno {ctypes.get_errno()}")
    os.execvp(sys.argv[2], sys.argv[2:])


if __name__ == "__main__":
    main()
