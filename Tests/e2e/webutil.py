"""The web kiosk's test rig: nginx through scripts/web-kiosk, and headless Debian chromium."""
import os
import socket
import stat
import subprocess
import time
from pathlib import Path

from daemonutil import ROOT, wait_until

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
LIBFAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"


def free_port():
    """A TCP port nobody listens on now (bind 0): tests never share fixed ports."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def raw_get(port, path, method="GET"):
    """One HTTP/1.0 request with `path` sent byte for byte (no client-side normalising of ../).
    Returns (status, headers dict with lower-case names, body bytes)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(f"{method} {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
        data = b""
        while chunk := connection.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, body


class WebKiosk:
    """scripts/web-kiosk serving `output` on a free port: the shipped nginx config, for real."""

    def __init__(self, output, log_dir, args=()):
        self.output = Path(output)
        self.args = [str(arg) for arg in args]
        self.port = free_port()
        self.log_path = Path(log_dir) / f"web-kiosk-{self.port}.log"
        self.process = None

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}/"

    def start(self):
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [str(ROOT / "scripts" / "web-kiosk"), "--port", str(self.port), "--output-dir", str(self.output), *self.args],
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        # Started means: the port is listened on by this kiosk's nginx. A connection alone could
        # reach whatever else another worker started on a port free_port also gave it.
        wait_until(lambda: self.listening() or self.process.poll() is not None, timeout=60, interval=0.05,
                   message=f"web-kiosk on port {self.port}")
        if self.process.poll() is not None:
            raise AssertionError(f"web-kiosk did not start (exit {self.process.returncode}): {self.logs()}")
        return self

    def listening(self):
        """Whether a process of this kiosk's session (web-kiosk, its nginx) listens on the port."""
        inodes = set()
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[1] == f"0100007F:{self.port:04X}":
                inodes.add(f"socket:[{fields[9]}]")
        if not inodes:
            return False
        for proc in Path("/proc").iterdir():
            try:
                if not proc.name.isdigit() or os.getsid(int(proc.name)) != self.process.pid:
                    continue
                if any(os.readlink(fd) in inodes for fd in (proc / "fd").iterdir()):
                    return True
            except OSError:
                continue  # gone meanwhile
        return False

    def alive(self):
        """Whether web-kiosk still runs, and its log (for a failure's message)."""
        return f"web-kiosk {'running' if self.process.poll() is None else f'exited {self.process.returncode}'}, " \
               f"listening {self.listening()}: {self.logs()}"

    def stop(self):
        if self.process is None or self.log.closed:
            return
        if self.process.poll() is None:
            os.killpg(self.process.pid, 15)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, 9)
                self.process.wait()
        self.log.close()

    def logs(self):
        return self.log_path.read_text(errors="replace")


def faketime_prefix(directory, offset_seconds):
    """A --renderer-cmd-prefix that runs chromium's renderers (where the page's Date lives) under
    libfaketime with the wall clock `offset_seconds` off; the monotonic clock stays true.
    (Preloading libfaketime into the whole browser hangs chromium's start, and its "monotonic fix"
    of pthread_cond_timedwait slows a renderer's start from 3 s to 30 s: both stay off.)"""
    path = Path(directory) / "faketime-renderer"
    path.write_text("#!/bin/sh\n"
                    f"export FAKETIME='{offset_seconds:+d}' FAKETIME_DONT_FAKE_MONOTONIC=1 FAKETIME_DISABLE_SHM=1"
                    " FAKETIME_FORCE_MONOTONIC_FIX=0\n"
                    f"export LD_PRELOAD={LIBFAKETIME}\n"
                    'exec "$@"\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def browser(width, height, profile_dir, renderer_prefix=None):
    """Headless Debian chromium through chromedriver, its viewport exactly width×height CSS px at
    device scale 1 (screenshots are then width×height pixels)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--hide-scrollbars", "--force-device-scale-factor=1", "--no-first-run",
                     "--disable-extensions", "--disable-background-networking",
                     "--disable-component-update", "--lang=ko-KR",
                     f"--user-data-dir={profile_dir}", f"--window-size={width},{height}"):
        options.add_argument(argument)
    if renderer_prefix:
        options.add_argument("--no-zygote")
        options.add_argument(f"--renderer-cmd-prefix={renderer_prefix}")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    resize(driver, width, height)
    return driver


def resize(driver, width, height):
    """Makes the viewport exactly width×height at device scale 1 (the window size includes none
    of headless chromium's chrome, but set it through DevTools to be sure)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def png_size(data):
    """(width, height) of PNG bytes, from the IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
