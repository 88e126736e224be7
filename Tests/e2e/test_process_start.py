"""How the binary takes its command line before main (Sources/CProcessArguments): from glibc's
start-up, not from a scan of /proc/self/maps (issue 24), so it needs no /proc and survives an
empty argv."""
import ctypes
import os
import subprocess

import pytest

from conftest import BIN


def test_runs_where_proc_is_not_mounted():
    # The static Swift runtime's own argv lookup read /proc/self/maps and trapped (SIGILL) without it.
    if os.geteuid() != 0:
        pytest.skip("needs root (unshare -m, mount)")
    script = 'mount --make-rprivate / && mount -t tmpfs tmpfs /proc && exec "$@"'
    for args in (["--version"], ["encode", "-t", "utf8", "HELLO"]):
        result = subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", BIN, *args], capture_output=True, timeout=30)
        assert result.returncode == 0, result.stderr
    assert result.stdout.count(b"\n") > 10  # the whole symbol, so the argument arrived


def test_an_empty_argv_is_a_usage_error_not_a_crash():
    libc = ctypes.CDLL(None, use_errno=True)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.dup2(write_end, 2)
        argv = (ctypes.c_char_p * 1)(None)
        libc.execve(BIN.encode(), argv, argv)
        os._exit(127)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as errors:
        message = errors.read()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 64, message
    assert b"no command given" in message


def test_arguments_arrive_exactly():
    result = subprocess.run([BIN, "encode", "-t", "ascii", "-m", "2", "A B  C"], capture_output=True, timeout=30)
    reference = subprocess.run(["qrencode", "-l", "M", "-t", "ASCII", "-m", "2", "A B  C"], capture_output=True, timeout=30)
    assert result.returncode == 0 and result.stdout == reference.stdout
