"""Socket activation across restarts: the listening socket systemd passes (qrcheckin-server.socket)
belongs to systemd and outlives each server it starts. A server that stops must leave it
listening, or systemd fails the .socket unit ("Got POLLHUP on a listening socket") and the
next server exits 69, "the socket systemd passed is not listening" — what `systemctl restart
qrcheckin-server` did under socket activation (test_server_boot.py found it, issue 37)."""
import os
import socket
import subprocess

import pytest

from daemonutil import wait_until
from serverutil import SERVER_BIN, clean_env, code


def serve_on(listener, tmp_path, secret, threads, log_name):
    """A server given `listener` as systemd gives it (descriptor 3, LISTEN_FDS=1, LISTEN_PID its
    own pid), started and ready; returns (process, log path)."""
    log_path = tmp_path / log_name
    env = clean_env()
    env.update({"LISTEN_FDS": "1", "TZ": "UTC"})
    with open(log_path, "wb") as log:
        # The socket as descriptor 3; the shell sets LISTEN_PID to its pid, then becomes the server.
        process = subprocess.Popen(
            ["sh", "-c", 'LISTEN_PID=$$ exec "$0" "$@"', SERVER_BIN, "serve", "--admin-listen", "none",
             "--threads", str(threads), "--database", f"sqlite:{tmp_path}/c.db", "--secret-file", str(secret)],
            stdout=log, stderr=subprocess.STDOUT, env=env, preexec_fn=lambda: os.dup2(listener.fileno(), 3), pass_fds=(3,))
    wait_until(lambda: b"listening on" in log_path.read_bytes() or process.poll() is not None,
               timeout=30, message="the server to start")
    assert process.poll() is None, log_path.read_text()
    return process, log_path


def accepting(listener):
    return listener.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN) == 1


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_a_stopped_server_leaves_systemds_socket_listening_for_the_next(tmp_path, secret, threads):
    """Stopped by SIGTERM, with one thread or a pool of them (the pool's stop shut the socket
    down): the socket is still listening, and a second server on it records a scan."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    port = listener.getsockname()[1]
    try:
        first, log = serve_on(listener, tmp_path, secret, threads, "first.log")
        first.terminate()
        assert first.wait(30) == 0, log.read_text()
        assert accepting(listener), "the server's stop shut down the socket systemd passed"
        second, log = serve_on(listener, tmp_path, secret, threads, "second.log")
        try:
            url = code(secret, "HALL-1", port)["url"]
            path = url.split(f"{port}", 1)[1]
            with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
                connection.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
                assert connection.recv(100).startswith(b"HTTP/1.1 303"), log.read_text()
        finally:
            second.terminate()
            assert second.wait(30) == 0, log.read_text()
        assert accepting(listener)
    finally:
        listener.close()
