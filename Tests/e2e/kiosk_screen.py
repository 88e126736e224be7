"""Helpers for the kiosk tests: a private tmux server, and reading a captured screen back
into QR modules, a PNG and (with zbarimg) the URL a phone would scan."""
import itertools
import json
import os
import shlex
import struct
import subprocess
import time
import zlib
from pathlib import Path

_SERVERS = itertools.count()
HALF_BLOCKS = {"█": (True, True), "▀": (True, False), "▄": (False, True)}


class Tmux:
    """One tmux server on its own socket (never the user's), one session, one pane."""

    def __init__(self, name, command, cols=80, rows=24, env=None):
        # A fresh socket every time: a server killed by the previous test may still be exiting.
        self.socket = f"qrk-{os.getpid()}-{next(_SERVERS)}-{name}"
        self.env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/root"),
                    "TERM": "xterm-256color", "LANG": "C.UTF-8"}
        self.env.update(env or {})
        # tmux reads the locale of the client that starts it: UTF-8 so it keeps wide glyphs.
        self.tmux("-u", "new-session", "-d", "-s", "k", "-x", str(cols), "-y", str(rows), command)

    def tmux(self, *args, check=True):
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args], env=self.env,
                              capture_output=True, text=True, check=check, timeout=30)

    def capture(self, escapes=False):
        """The visible pane as lines (escape sequences kept with escapes=True). The screen was
        read between `captured_at` and `captured_by` (wall times): what a phone scanning it then
        would check against."""
        args = ["capture-pane", "-p", "-t", "k"] + (["-e"] if escapes else [])
        self.captured_at = time.time()
        lines = self.tmux(*args).stdout.split("\n")
        self.captured_by = time.time()
        return lines

    def text(self):
        return "\n".join(self.capture())

    def display(self, fmt):
        return self.tmux("display-message", "-p", "-t", "k", fmt).stdout.strip()

    def keys(self, *keys):
        self.tmux("send-keys", "-t", "k", *keys)

    def resize(self, cols, rows):
        self.tmux("resize-window", "-t", "k", "-x", str(cols), "-y", str(rows))

    def wait_for(self, predicate, timeout=15.0, interval=0.02):
        """Captures until `predicate(text)` holds; returns the text (fails after `timeout`). A
        capture can land halfway through drawing a frame: a predicate names everything the
        caller then asserts about the text."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.text()
            if predicate(text):
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"screen never matched; last screen:\n{text}")
            time.sleep(interval)

    def kill(self):
        self.tmux("kill-server", check=False)


def shell_command(binary, *args, env=None, before="", after=""):
    """A shell line for a pane: optional setup, the kiosk, then its exit status and a pause,
    so the pane (and what the kiosk left on it) stays readable after it quits."""
    exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in (env or {}).items())
    run = f"{exports} {shlex.quote(binary)} " + " ".join(shlex.quote(a) for a in args)
    return f"sh -c {shlex.quote(f'{before} {run}; echo EXIT=$?; {after} sleep 600')}"


def modules_from_screen(lines, mode):
    """The QR symbol (no quiet zone) read back from captured text, as rows of booleans."""
    width = max(len(line) for line in lines)
    grid = [line.ljust(width) for line in lines]
    if mode == "ascii":
        rows = [r for r, line in enumerate(grid) if "#" in line]
        left = min(line.index("#") for line in grid if "#" in line)
        right = max(line.rindex("#") for line in grid if "#" in line)
        matrix = [[grid[r][c] == "#" for c in range(left, right + 1, 2)] for r in range(rows[0], rows[-1] + 1)]
        return trim(matrix)
    block_rows = [r for r, line in enumerate(grid) if any(ch in HALF_BLOCKS for ch in line)]
    block_cols = [c for line in grid for c, ch in enumerate(line) if ch in HALF_BLOCKS]
    top, bottom = block_rows[0], block_rows[-1]
    left, right = min(block_cols), max(block_cols)
    matrix = []
    for r in range(top, bottom + 1):
        upper, lower = [], []
        for c in range(left, right + 1):
            a, b = HALF_BLOCKS.get(grid[r][c], (False, False))
            if mode == "utf8":  # utf8 draws the light modules: invert
                a, b = not a, not b
            upper.append(a)
            lower.append(b)
        matrix += [upper, lower]
    return trim(matrix)


def trim(matrix):
    """Drops light rows and columns around the symbol (what is left of the quiet zone)."""
    rows = [r for r, row in enumerate(matrix) if any(row)]
    cols = [c for c in range(len(matrix[0])) if any(row[c] for row in matrix)]
    return [row[cols[0]:cols[-1] + 1] for row in matrix[rows[0]:rows[-1] + 1]]


def write_png(matrix, path, scale=8, margin=4):
    """An 8-bit grayscale PNG of the modules with a quiet zone, written with zlib only."""
    size = len(matrix) + 2 * margin
    width = len(matrix[0]) + 2 * margin
    raw = bytearray()
    for y in range(size * scale):
        r = y // scale - margin
        raw.append(0)  # filter: none
        for x in range(width * scale):
            c = x // scale - margin
            dark = 0 <= r < len(matrix) and 0 <= c < len(matrix[0]) and matrix[r][c]
            raw.append(0 if dark else 255)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width * scale, size * scale, 8, 0, 0, 0, 0)
    Path(path).write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw)))
                           + chunk(b"IEND", b""))


def decode_screen(lines, mode, tmp_path, zbar):
    """What a phone would read off the screen: capture → modules → PNG → zbarimg."""
    matrix = modules_from_screen(lines, mode)
    assert len(matrix) == len(matrix[0]), f"the symbol read back is not square: {len(matrix)}x{len(matrix[0])}"
    png = tmp_path / f"screen-{time.monotonic_ns()}.png"
    write_png(matrix, png)
    return zbar(png).decode()


def write_state(directory, **fields):
    """Replaces current.json atomically, as the daemon does (schema v1, docs/STATE.md)."""
    now = int(time.time())
    document = {"version": 1, "state": "running", "venue": "DEMO",
                "url": "HTTPS://CHECKIN.EXAMPLE.ORG/C/DEMO/1AAAAAABVQYHUCAAAAAAOBS6XKGJS27U4W7DK6JER",
                "token": "1AAAAAABVQYHUCAAAAAAOBS6XKGJS27U4W7DK6JER", "safeNumber": "12현34규",
                "window": now // 15, "seq": 0, "issuedAt": now, "expiresAt": now + 15, "period": 15,
                "shake": "on", "refresh": "auto", "health": "ok", "reason": None, "updatedAt": now,
                "pid": os.getpid()}
    document.update(fields)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    temporary = directory / ".current.json.tmp"
    temporary.write_text(json.dumps(document, ensure_ascii=False))
    os.replace(temporary, directory / "current.json")
    return document
