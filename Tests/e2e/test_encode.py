"""Black-box tests of `qrcheckin encode` (issue 2, "Must show").

Every check runs the built binary and reads its output back independently: PNGs through a tiny
1-bit PNG reader (pngutil.py) and through zbarimg; terminal text parsed back into modules.
"""
import os
import pty
import select
import shutil
import stat
import struct
import subprocess
import threading
import time
import zlib
from pathlib import Path

import pytest

from conftest import BIN, run, zbar
from pngutil import IEND, PNG_SIGNATURE, png_chunks, png_matrix, read_png, strip_quiet_zone

# --------------------------------------------------------------------------- PNG out


def write_png(matrix, path, scale=4, margin=4):
    """Draws `matrix` as a plain 1-bit grey PNG (filter 0), independent of qrcheckin."""
    span = len(matrix) + 2 * margin
    width = span * scale
    raw = bytearray()
    for y in range(width):
        my = y // scale - margin
        bits = [not (0 <= my < len(matrix) and 0 <= x // scale - margin < len(matrix)
                     and matrix[my][x // scale - margin]) for x in range(width)]
        line = bytearray((width + 7) // 8)
        for x, light in enumerate(bits):
            if light:
                line[x >> 3] |= 0x80 >> (x & 7)
        raw += b"\x00" + line

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    Path(path).write_bytes(PNG_SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", width, width, 1, 0, 0, 0, 0))
                           + chunk(b"IDAT", zlib.compress(bytes(raw))) + chunk(b"IEND", b""))


# --------------------------------------------------------------------------- corpus

MAX_BYTES = {"L": 2953, "M": 2331, "Q": 1663, "H": 1273}

CORPUS = {
    "ascii": "Hello, world! check-in at the front desk.",
    "url": "https://checkin.example.org/c/venue-0042?t=AbCdEf123&s=12%ED%98%8434",
    "uppercase-alnum": "HTTPS://CHECKIN.EXAMPLE.ORG/C/DEMO-0042 $%*+-./:",
    "digits": "0123456789" * 7,
    "hangul-ga": "가",
    "hangul-gak": "각",
    "hangul-gieut-last": "깋",
    "hangul-hyeon": "현",
    "hangul-gyu": "규",
    "hangul-ea-range": "가각깋현규 개인안심번호",
    "safe-number": "12현34규",
    "url-with-hangul": "https://example.com/가?n=12현34규",
    "latin1-range": "héllo wörld — café",
    "mixed-scripts": "日本語 한국어 English Ελληνικά русский العربية",
    "emoji": "😀👍🏽 check-in ✅",
    "one-byte": "x",
    "one-digit": "7",
    "newline-inside": "line one\nline two",
}


def max_text(level, non_ascii=False):
    """Text of exactly the byte-mode maximum at `level` (one less with a UTF-8 designator)."""
    if non_ascii:
        limit = MAX_BYTES[level] - 1
        return "가" + "a" * (limit - 3)
    return "a" * MAX_BYTES[level]


@pytest.fixture
def workdir(tmp_path):
    """A fresh directory holding only what the test puts there."""
    d = tmp_path / "w"
    d.mkdir()
    return d


def encode_png(qrcheckin, directory, text, *options, name="out.png"):
    """Encodes `text` to a PNG in `directory`; returns the file's bytes."""
    path = directory / name
    result = qrcheckin("encode", "-o", str(path), *options, "--", text)
    assert result.returncode == 0, result.stderr
    assert result.stdout == b"" and result.stderr == b""
    return path.read_bytes()


# --------------------------------------------------------------------------- 1. PNG round trip

@pytest.mark.parametrize("text", CORPUS.values(), ids=CORPUS.keys())
def test_png_round_trip_through_zbar(qrcheckin, tools, workdir, text):
    data = encode_png(qrcheckin, workdir, text)
    assert zbar(workdir / "out.png") == text.encode()
    kinds = [kind for kind, _ in png_chunks(data)]
    # 1-bit grey, no palette, no transparency.
    assert data[24:26] == b"\x01\x00", "IHDR: bit depth 1, colour type 0"
    assert "tRNS" not in kinds and "PLTE" not in kinds
    assert sorted(os.listdir(workdir)) == ["out.png"], "stray temporary files"


@pytest.mark.parametrize("non_ascii", [False, True], ids=["ascii", "hangul"])
@pytest.mark.parametrize("level", "LMQH")
def test_maximum_length_at_each_level(qrcheckin, tools, workdir, level, non_ascii):
    text = max_text(level, non_ascii)
    data = encode_png(qrcheckin, workdir, text, "-l", level)
    assert len(png_matrix(data)) == 177, "the maximum needs version 40"
    assert zbar(workdir / "out.png") == text.encode()


@pytest.mark.parametrize("stdin, expected", [
    (b"from stdin\n", b"from stdin"),
    (b"no newline", b"no newline"),
    (b"two newlines\n\n", b"two newlines\n"),
    ("12현34규\n".encode(), "12현34규".encode()),
])
def test_standard_input_drops_one_trailing_newline(qrcheckin, tools, workdir, stdin, expected):
    result = qrcheckin("encode", "-o", str(workdir / "out.png"), input=stdin)
    assert result.returncode == 0, result.stderr
    assert zbar(workdir / "out.png") == expected


def test_digits_and_uppercase_keep_their_compact_modes(qrcheckin, workdir):
    # 60 alphanumeric characters fit version 3-M (29 modules); as bytes they need version 4 (33).
    upper = ("HTTPS://A.B/C" * 5)[:60]
    assert len(png_matrix(encode_png(qrcheckin, workdir, upper))) == 29
    assert len(png_matrix(encode_png(qrcheckin, workdir, upper.lower()))) == 33
    # Hangul text with a long digit run: the digits stay numeric (5 x 3 + 40 digits = 55 bytes
    # would need version 4-M as bytes; numeric digits fit version 3).
    assert len(png_matrix(encode_png(qrcheckin, workdir, "현규가" + "1234567890" * 4))) == 29


def test_symbol_matches_qrencode_for_ascii(qrcheckin, workdir):
    """qrencode's defaults are the same segmentation (8-bit hint, case-sensitive): same symbol."""
    text = "https://checkin.example.org/c/DEMO-0042?t=123456"
    ours = png_matrix(encode_png(qrcheckin, workdir, text))
    subprocess.run(["qrencode", "-l", "M", "-s", "8", "-m", "4", "-o", str(workdir / "q.png"), text], check=True)
    assert ours == png_matrix((workdir / "q.png").read_bytes())


def test_hangul_symbol_differs_from_qrencode_only_by_the_utf8_designator(qrcheckin, tools, workdir):
    """The bytes in our symbol are the UTF-8 of the text: zbar's binary mode (no charset guessing)
    returns them for both our symbol and qrencode -8's; only ours also decodes right with --raw."""
    text = "가"
    encode_png(qrcheckin, workdir, text)
    subprocess.run(["qrencode", "-8", "-l", "M", "-o", str(workdir / "q.png"), text], check=True)
    for name in ("out.png", "q.png"):
        binary = subprocess.run(["zbarimg", "--raw", "-q", "--nodbus", "-Sbinary", str(workdir / name)],
                                capture_output=True, check=True).stdout
        assert binary.removesuffix(b"\n") == text.encode(), name
    assert zbar(workdir / "out.png") == text.encode()
    assert zbar(workdir / "q.png") != text.encode(), "zbar learned to guess UTF-8: the ECI may be unnecessary"


# --------------------------------------------------------------------------- 2. terminal modes

ANSI_START, ANSI_END = "\x1b[0;30;107m", "\x1b[0m"
HALF = {" ": (False, False), "▀": (True, False), "▄": (False, True), "█": (True, True)}


def parse_terminal(text, style, margin):
    """Parses terminal output back into the module matrix (quiet zone checked and removed)."""
    lines = text.split("\n")
    assert lines[-1] == "", "output ends with a newline"
    lines = lines[:-1]
    grid = []
    if style == "ascii":
        for line in lines:
            assert len(line) % 2 == 0
            pairs = [line[i:i + 2] for i in range(0, len(line), 2)]
            assert set(pairs) <= {"##", "  "}, set(pairs)
            grid.append([pair == "##" for pair in pairs])
    else:
        for line in lines:
            if style == "ansi":
                assert line.startswith(ANSI_START) and line.endswith(ANSI_END), repr(line[:20])
                line = line[len(ANSI_START):-len(ANSI_END)]
            assert "\x1b" not in line
            cells = [HALF[ch] for ch in line]
            if style == "utf8":  # utf8 draws the light modules
                cells = [(not top, not bottom) for top, bottom in cells]
            grid.append([top for top, _ in cells])
            grid.append([bottom for _, bottom in cells])
        # The symbol plus quiet zone spans an odd number of modules: the last half row is padding.
        assert not any(grid[-1]), "padding half row must be light"
        grid.pop()
    return strip_quiet_zone(grid, margin)


@pytest.mark.parametrize("margin", [4, 1, 2])
@pytest.mark.parametrize("style", ["utf8", "utf8i", "ansi", "ascii"])
@pytest.mark.parametrize("text", [CORPUS["url"], CORPUS["hangul-ea-range"], CORPUS["one-byte"]],
                         ids=["url", "hangul", "one-byte"])
def test_terminal_modes_parse_back_to_the_png_matrix(qrcheckin, tools, workdir, text, style, margin):
    expected = png_matrix(encode_png(qrcheckin, workdir, text))
    result = qrcheckin("encode", "-t", style, "-m", str(margin), "--", text)
    assert result.returncode == 0 and result.stderr == b""
    parsed = parse_terminal(result.stdout.decode(), style, margin)
    assert parsed == expected
    write_png(parsed, workdir / "parsed.png")
    assert zbar(workdir / "parsed.png") == text.encode()


@pytest.mark.parametrize("style, flag", [("utf8", "UTF8"), ("utf8i", "UTF8i")])
def test_utf8_matches_qrencode_byte_for_byte(qrcheckin, style, flag):
    # Even margins only: with an odd margin qrencode drops the top quiet-zone half row.
    text = "https://checkin.example.org/c/demo"
    ours = qrcheckin("encode", "-t", style, text).stdout
    theirs = subprocess.run(["qrencode", "-l", "M", "-m", "4", "-t", flag, text], capture_output=True, check=True).stdout
    assert ours == theirs


def run_on_pty(args, env_extra=None):
    """Runs the binary with standard output on a pseudo-terminal; returns (status, output)."""
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    env.update(env_extra or {})
    master, slave = pty.openpty()
    process = subprocess.Popen([BIN, *args], stdin=subprocess.DEVNULL, stdout=slave, stderr=subprocess.PIPE, env=env)
    os.close(slave)
    output = bytearray()
    while True:
        ready, _, _ = select.select([master], [], [], 10)
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        output += chunk
    os.close(master)
    status = process.wait(timeout=30)
    process.stderr.close()
    return status, bytes(output).replace(b"\r\n", b"\n").decode()


def test_default_type_on_a_terminal_is_ansi(qrcheckin):
    status, output = run_on_pty(["encode", "tty"])
    assert status == 0
    assert output == qrcheckin("encode", "-t", "ansi", "tty").stdout.decode()


def test_default_type_on_a_terminal_with_no_color_is_utf8(qrcheckin):
    status, output = run_on_pty(["encode", "tty"], {"NO_COLOR": "1"})
    assert status == 0
    assert output == qrcheckin("encode", "-t", "utf8", "tty").stdout.decode()
    assert "\x1b" not in output


def test_default_type_when_piped_is_utf8(qrcheckin):
    assert qrcheckin("encode", "piped").stdout == qrcheckin("encode", "-t", "utf8", "piped").stdout
    assert b"\x1b" not in qrcheckin("encode", "piped").stdout


def test_png_is_never_written_to_a_terminal():
    status, output = run_on_pty(["encode", "-t", "png", "x"])
    assert status == 64 and "\x89PNG" not in output


def test_dash_output_writes_the_png_to_standard_output(qrcheckin, tools, workdir):
    result = qrcheckin("encode", "-t", "png", "-o", "-", "stdout")
    assert result.returncode == 0
    (workdir / "s.png").write_bytes(result.stdout)
    assert zbar(workdir / "s.png") == b"stdout"


# --------------------------------------------------------------------------- 3. bad input

OLD = b"old file contents, must survive\n"

BAD_INPUTS = [
    # id, arguments after "encode", stdin, exit status, words the message must contain
    ("empty-arg", ["-o", "{out}", ""], None, 65, ["empty"]),
    ("empty-stdin", ["-o", "{out}"], b"", 65, ["empty"]),
    ("newline-only-stdin", ["-o", "{out}"], b"\n", 65, ["empty"]),
    ("invalid-utf8-stdin", ["-o", "{out}"], b"caf\xe9\n", 65, ["standard input", "UTF-8"]),
    ("invalid-utf8-argv", ["-o", "{out}", b"caf\xe9"], None, 65, ["argument", "UTF-8"]),
    ("truncated-hangul-argv", ["-o", "{out}", "가".encode()[:2]], None, 65, ["UTF-8"]),
    ("too-long-L", ["-o", "{out}", "-l", "L", "a" * 2954], None, 65, ["2954 bytes", "at most 2953", "level L"]),
    ("too-long-M", ["-o", "{out}", "a" * 2332], None, 65, ["2332 bytes", "at most 2331", "level M"]),
    ("too-long-Q", ["-o", "{out}", "-l", "Q", "a" * 1664], None, 65, ["1664 bytes", "at most 1663"]),
    ("too-long-H", ["-o", "{out}", "-l", "h", "a" * 1274], None, 65, ["1274 bytes", "at most 1273"]),
    ("too-long-hangul-M", ["-o", "{out}", "가" + "a" * 2328], None, 65, ["2331 bytes", "at most 2330"]),
    ("too-long-stdin", ["-o", "{out}"], b"a" * 2332 + b"\n", 65, ["2332 bytes", "at most 2331"]),
    ("unknown-short-option", ["-o", "{out}", "-x", "hi"], None, 64, ["unknown option '-x'"]),
    ("unknown-long-option", ["-o", "{out}", "--colour", "hi"], None, 64, ["unknown option '--colour'"]),
    ("bad-type", ["-o", "{out}", "-t", "EPS", "hi"], None, 64, ["--type", "EPS", "ASCIIi"]),
    ("bad-scale-zero", ["-o", "{out}", "-s", "0", "hi"], None, 64, ["--scale", "'0'"]),
    ("bad-scale-word", ["-o", "{out}", "-s", "big", "hi"], None, 64, ["--scale", "big"]),
    ("bad-scale-huge", ["-o", "{out}", "-s", "65", "hi"], None, 64, ["--scale", "65"]),
    ("bad-margin", ["-o", "{out}", "-m", "-1", "hi"], None, 64, ["--margin", "-1"]),
    ("bad-margin-word", ["-o", "{out}", "--margin=wide", "hi"], None, 64, ["--margin", "wide"]),
    ("bad-level", ["-o", "{out}", "-l", "X", "hi"], None, 64, ["--level", "'X'"]),
    ("text-margin-zero", ["-o", "{out}", "-t", "utf8", "-m", "0", "hi"], None, 64, ["1 to 64", "--margin"]),
    ("png-margin-zero", ["-o", "{out}", "-m", "0", "hi"], None, 64, ["1 to 64", "--margin"]),
    ("bad-foreground", ["-o", "{out}", "--foreground", "12345", "hi"], None, 64, ["--foreground", "RRGGBB"]),
    ("colour-for-text", ["-o", "{out}", "-t", "UTF8", "--background", "FFFFFF", "hi"], None, 64, ["PNG and SVG"]),
    ("bad-version", ["-o", "{out}", "-v", "41", "hi"], None, 64, ["--symversion", "41"]),
    ("text-and-file", ["-o", "{out}", "-r", "/dev/null", "hi"], None, 64, ["-r FILE", "not both"]),
    ("missing-input-file", ["-o", "{out}", "-r", "/nonexistent/in.txt"], None, 66, ["/nonexistent/in.txt"]),
    ("missing-value", ["-o", "{out}", "hi", "-l"], None, 64, ["-l", "needs a value"]),
    ("two-texts", ["-o", "{out}", "a", "b"], None, 64, ["argument", "got 2"]),
]


def snapshot(directory):
    """Every file under `directory` with its bytes."""
    return {str(p.relative_to(directory)): p.read_bytes() for p in directory.rglob("*") if p.is_file()}


def check_failure(result, status, words):
    assert result.returncode == status, (result.returncode, result.stderr)
    assert result.stdout == b""
    message = result.stderr.decode()
    if status == 64:  # a usage error teaches: the message, then the usage line
        message, usage = message.split("\n", 1)
        assert usage.startswith("usage: qrcheckin ") and usage.count("\n") == 1, repr(usage)
        message += "\n"
    assert message.startswith("qrcheckin: ") and message.endswith("\n") and message.count("\n") == 1, repr(message)
    for word in words:
        assert word in message, (word, message)


@pytest.mark.parametrize("args, stdin, status, words", [case[1:] for case in BAD_INPUTS],
                         ids=[case[0] for case in BAD_INPUTS])
def test_bad_input_fails_cleanly(workdir, args, stdin, status, words):
    out = workdir / "out.png"
    out.write_bytes(OLD)
    argv = [BIN, "encode"] + [a.replace("{out}", str(out)) if isinstance(a, str) else a for a in args]
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    result = subprocess.run(argv, input=stdin if stdin is not None else b"",
                            capture_output=True, env=env, timeout=30)
    check_failure(result, status, words)
    assert snapshot(workdir) == {"out.png": OLD}, "the old file changed or a stray file was left"


@pytest.mark.parametrize("case", ["missing-directory", "parent-is-a-file", "target-is-a-directory"])
def test_unwritable_output_path(workdir, case):
    (workdir / "old.png").write_bytes(OLD)
    (workdir / "file").write_bytes(OLD)
    (workdir / "dir").mkdir()
    (workdir / "dir" / "keep").write_bytes(OLD)
    target, words = {
        "missing-directory": (workdir / "nope" / "out.png", ["cannot create", "nope/out.png", "No such file"]),
        "parent-is-a-file": (workdir / "file" / "out.png", ["cannot create", "file/out.png", "Not a directory"]),
        "target-is-a-directory": (workdir / "dir", ["cannot replace", str(workdir / "dir"),
                                                    "it is a directory, not a regular file; refusing to replace it"]),
    }[case]
    before = snapshot(workdir)
    check_failure(run("encode", "-o", str(target), "hello"), 73, words)
    assert snapshot(workdir) == before
    assert not list(workdir.rglob(".*.tmp"))


def null_device(directory):
    """A character device like /dev/null (1, 3), made in the test's own directory with mknod:
    never the real /dev/null, which an old build replaced with a regular file."""
    path = directory / "null"
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    return path


def test_encode_writes_into_a_character_device_in_place(workdir):
    device = null_device(workdir)
    result = run("encode", "-o", str(device), "HELLO")
    assert result.returncode == 0, result
    assert stat.S_ISCHR(os.lstat(device).st_mode) and os.stat(device).st_rdev == os.makedev(1, 3)
    assert sorted(p.name for p in workdir.iterdir()) == ["null"], "no temporary left beside it"
    # Through a link, as -o /dev/stdout is one: the link and the device stay.
    os.symlink(device, workdir / "stdout")
    assert run("encode", "-o", str(workdir / "stdout"), "-t", "utf8", "HELLO").returncode == 0
    assert os.path.islink(workdir / "stdout") and stat.S_ISCHR(os.lstat(device).st_mode)


def test_encode_writes_into_a_fifo_for_its_reader(tools, workdir):
    fifo = workdir / "fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    result = run("encode", "-o", str(fifo), "HELLO")
    reader.join(30)
    assert result.returncode == 0, result
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    (workdir / "got.png").write_bytes(received[0])
    assert zbar(workdir / "got.png") == b"HELLO"


def test_keygen_refuses_a_character_device_and_keeps_it(workdir):
    device = null_device(workdir)
    result = run("keygen", "--force", "-o", str(device))
    assert result.returncode == 73, result
    assert result.stderr.decode() == (f"qrcheckin: cannot create secret file: cannot replace {device}: it is a "
                                      "character device, not a regular file; refusing to replace it\n")
    result = run("keygen", "-o", str(device))
    assert result.returncode == 73 and b"already exists" in result.stderr, result
    assert stat.S_ISCHR(os.lstat(device).st_mode) and os.stat(device).st_rdev == os.makedev(1, 3)
    assert sorted(p.name for p in workdir.iterdir()) == ["null"]


def test_no_space_left_keeps_the_old_file(tmpfs):
    out = tmpfs / "out.png"
    out.write_bytes(OLD)
    # Fill the rest of the file system.
    fd = os.open(tmpfs / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError as error:
        assert error.errno == 28  # ENOSPC
    finally:
        os.close(fd)
    before = snapshot(tmpfs)
    # A version-40 code at scale 16 is a PNG far larger than any space left.
    result = run("encode", "-o", str(out), "-s", "16", "-l", "L", "a" * 2953)
    check_failure(result, 74, [str(out), "No space left on device"])
    assert snapshot(tmpfs) == before
    assert not list(tmpfs.glob(".*.tmp"))


# --------------------------------------------------------------------------- 4. PNG size

URLS = [
    "https://checkin.example.org/c/0042",
    "https://checkin.example.org/c/venue-0042?t=AbCdEfGhIjKlMnOpQ",  # 60 bytes
    "https://checkin.example.org/c/venue-0042?t=AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcde",  # 84 bytes
    "https://checkin.example.org/c/venue-0042?t=" + "x" * 100,
    "HTTPS://CHECKIN.EXAMPLE.ORG/C/VENUE-0042?T=ABCDEFGHIJKLMNOP",
    "https://example.com/가?n=12현34규",
]


def test_url_lengths_are_as_labelled():
    assert [len(u.encode()) for u in URLS[1:3]] == [60, 84]


@pytest.mark.parametrize("url", URLS)
def test_png_no_larger_than_qrencode(qrcheckin, tools, workdir, url, record_property):
    ours = encode_png(qrcheckin, workdir, url)
    subprocess.run(["qrencode", "-s", "8", "-m", "4", "-l", "M", "-o", str(workdir / "q.png"), url], check=True)
    theirs = (workdir / "q.png").read_bytes()
    figures = f"{len(url.encode())}-byte URL: ours {len(ours)} B, qrencode {len(theirs)} B"
    print(figures)
    record_property("png_size", figures)
    assert len(ours) <= len(theirs), figures


# --------------------------------------------------------------------------- 5. help and version

def test_program_help(qrcheckin):
    for flag in ("--help", "-h", "help"):
        result = qrcheckin(flag)
        assert result.returncode == 0 and result.stderr == b""
        assert result.stdout.startswith(b"USAGE: qrcheckin COMMAND") and b"encode" in result.stdout


@pytest.mark.parametrize("argv", [["encode", "--help"], ["encode", "-h"], ["help", "encode"],
                                  ["encode", "-o", "x.png", "--help"]])
def test_encode_help(qrcheckin, workdir, argv):
    result = qrcheckin(*argv)
    assert result.returncode == 0 and result.stderr == b""
    text = result.stdout.decode()
    assert text.startswith("USAGE: qrcheckin encode [-o FILE]")
    for word in ("--output", "--type", "--scale", "--margin", "--level", "EXIT STATUS", "64", "65", "73"):
        assert word in text, word
    assert not (workdir / "x.png").exists() and not Path("x.png").exists()


def test_version(qrcheckin):
    result = qrcheckin("--version")
    assert result.returncode == 0 and result.stdout.startswith(b"qrcheckin ") and result.stdout.count(b"\n") == 1


@pytest.mark.parametrize("argv, words", [(["frobnicate"], ["unknown command", "frobnicate"]),
                                         ([], ["no command"])])
def test_unknown_or_missing_command_is_a_usage_error(qrcheckin, argv, words):
    check_failure(qrcheckin(*argv), 64, words)


# --------------------------------------------------------------------------- 6. atomic replacement

def test_reader_never_sees_a_partial_png(qrcheckin, tools, workdir):
    out = workdir / "out.png"
    texts = ["short", "https://checkin.example.org/c/venue-0042?t=" + "y" * 200]
    encode_png(qrcheckin, workdir, texts[0])
    stop = threading.Event()
    seen, problems = set(), []

    def reader():
        while not stop.is_set():
            try:
                data = out.read_bytes()
            except FileNotFoundError:
                problems.append("file missing")
                continue
            try:
                assert data.endswith(IEND)
                read_png(data)
                seen.add(data)
            except AssertionError as error:
                problems.append(f"{len(data)} bytes: {error}")

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        # 200 replacements, and on until the reader has seen both versions (a starved reader
        # thread on a loaded machine may need more turns), within a deadline.
        i, deadline = 0, time.monotonic() + 120
        while i < 200 or (len(seen) < 2 and time.monotonic() < deadline):
            result = qrcheckin("encode", "-o", str(out), texts[i % 2])
            assert result.returncode == 0, result.stderr
            i += 1
    finally:
        stop.set()
        thread.join()
    assert not problems, problems[:5]
    assert len(seen) == 2, "the reader should have seen both versions"
    for i, data in enumerate(seen):
        (workdir / f"seen{i}.png").write_bytes(data)
        assert zbar(workdir / f"seen{i}.png").decode() in texts
    assert sorted(p.name for p in workdir.iterdir()) == ["out.png", "seen0.png", "seen1.png"]


@pytest.mark.parametrize("style", ["png", "utf8"])
def test_failed_write_to_standard_output_is_an_error(style):
    """`> /dev/full` used to exit 0 having written nothing; now EX_IOERR with the reason."""
    with open("/dev/full", "wb") as full:
        result = subprocess.run([BIN, "encode", "-t", style, "hello"], stdout=full, stderr=subprocess.PIPE, timeout=30)
    assert result.returncode == 74
    assert result.stderr == b"qrcheckin: cannot write standard output: No space left on device\n"


def test_a_file_name_near_name_max_can_be_written(qrcheckin, tools, workdir):
    """A 255-byte name is valid; the temporary name beside it must not exceed NAME_MAX."""
    name = "a" * 251 + ".png"
    encode_png(qrcheckin, workdir, "long name", name=name)
    assert zbar(workdir / name) == b"long name"
    assert os.listdir(workdir) == [name]


# --------------------------------------------------------------------------- 6. qrencode habits (issue 10)

def zbar_stdin(data):
    """Decodes image bytes piped to `zbarimg -`, as `encode -o - | zbarimg -` would."""
    result = subprocess.run(["zbarimg", "--raw", "-q", "--nodbus", "-"], input=data, capture_output=True, timeout=30)
    assert result.returncode == 0, f"zbarimg could not decode standard input: {result.stderr!r}"
    return result.stdout.removesuffix(b"\n")


def test_dash_output_without_a_type_is_a_png_like_qrencode(qrcheckin, tools):
    """`encode -o - HELLO > x.png` used to write terminal text."""
    result = qrcheckin("encode", "-o", "-", "HELLO 안녕")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(PNG_SIGNATURE)
    assert zbar_stdin(result.stdout).decode() == "HELLO 안녕"


def test_a_pipe_into_zbarimg_decodes():
    encode = subprocess.Popen([BIN, "encode", "-o", "-", "piped"], stdout=subprocess.PIPE)
    decoded = subprocess.run(["zbarimg", "--raw", "-q", "--nodbus", "-"], stdin=encode.stdout,
                             capture_output=True, timeout=30)
    encode.stdout.close()
    assert encode.wait(30) == 0 and decoded.stdout == b"piped\n"


@pytest.mark.parametrize("name, style", [("PNG", None), ("UTF8", "utf8"), ("UTF8i", "utf8i"), ("ANSI", "ansi"),
                                         ("ASCII", "ascii"), ("utf8I", "utf8i"), ("Png", None)])
def test_qrencode_type_names_in_any_case(qrcheckin, tools, workdir, name, style):
    if style is None:
        result = qrcheckin("encode", "-t", name, "-o", str(workdir / "t.png"), "case")
        assert result.returncode == 0 and zbar(workdir / "t.png") == b"case"
    else:
        lower = qrcheckin("encode", "-t", style, "case")
        upper = qrcheckin("encode", "-t", name, "case")
        assert upper.returncode == 0 and upper.stdout == lower.stdout


@pytest.mark.parametrize("margin", [1, 2, 4])
def test_asciii_matches_qrencode(margin):
    ours = run("encode", "-t", "ASCIIi", "-m", str(margin), "A")
    theirs = subprocess.run(["qrencode", "-l", "M", "-t", "ASCIIi", "-m", str(margin), "A"], capture_output=True)
    assert ours.returncode == 0 and ours.stdout == theirs.stdout
    # And it is ASCII with dark and light swapped, for any text.
    plain = run("encode", "-t", "ascii", "-m", str(margin), "HELLO 안녕").stdout
    inverted = run("encode", "-t", "asciii", "-m", str(margin), "HELLO 안녕").stdout
    assert inverted == plain.translate(bytes.maketrans(b"# ", b" #"))


def rasterise(svg_path, png_path):
    subprocess.run(["rsvg-convert", "-o", str(png_path), str(svg_path)], check=True, timeout=30)


@pytest.mark.parametrize("text", ["HELLO", "HTTPS://CHECKIN.EXAMPLE.ORG/C/DEMO/1AAAAAABVQYHS2AAAAAAOEDU3UXZCO44ONQ2CBDZI", "안녕하세요"])
def test_svg_rasterised_decodes(qrcheckin, tools, workdir, text):
    assert shutil.which("rsvg-convert"), "rsvg-convert missing: run scripts/install-deps --test"
    result = qrcheckin("encode", "-t", "SVG", "-o", str(workdir / "q.svg"), "--", text)
    assert result.returncode == 0, result.stderr
    svg = (workdir / "q.svg").read_text()
    # Compact vector: one path, integer coordinates only, crisp edges.
    assert svg.count("<path") == 1 and 'shape-rendering="crispEdges"' in svg
    path = svg.split(' d="', 1)[1].split('"', 1)[0]
    assert all(c in "0123456789 Mhvz-" for c in path), "only integer coordinates"
    rasterise(workdir / "q.svg", workdir / "q.png")
    assert zbar(workdir / "q.png").decode() == text


def test_svg_to_standard_output_and_its_module_grid(qrcheckin, tools, workdir):
    svg = qrcheckin("encode", "-t", "svg", "-o", "-", "-m", "2", "-s", "3", "GRID")
    assert svg.returncode == 0
    png = qrcheckin("encode", "-o", "-", "-m", "2", "-s", "3", "GRID")
    # The SVG's nominal size is the PNG's, and its dark modules are the PNG's.
    (workdir / "g.svg").write_bytes(svg.stdout)
    rasterise(workdir / "g.svg", workdir / "g.png")
    assert b'width="' + str(len(read_png(png.stdout))).encode() + b'"' in svg.stdout
    assert zbar(workdir / "g.png") == b"GRID"


@pytest.mark.parametrize("kind", ["PNG", "SVG"])
@pytest.mark.parametrize("fg, bg", [("1A237E", "FFF8E1"), ("000000", "FFFFFF00"), ("800000CC", "E0FFE0")])
def test_colours_decode(qrcheckin, tools, workdir, kind, fg, bg):
    name = workdir / f"c.{kind.lower()}"
    result = qrcheckin("encode", "-t", kind, "--foreground", fg, "--background", bg, "-o", str(name), "colour")
    assert result.returncode == 0, result.stderr
    if kind == "PNG":
        data = name.read_bytes()
        chunks = dict(png_chunks(data))
        width, height, depth, colour = struct.unpack(">IIBB", chunks["IHDR"][:10])
        assert colour == 3 and depth == 1, "two colours: a 1-bit palette"
        assert chunks["PLTE"][:3] == bytes.fromhex(fg[:6]) and chunks["PLTE"][3:6] == bytes.fromhex(bg[:6])
        assert ("tRNS" in chunks) == (len(fg) == 8 or len(bg) == 8)
        target = name
    else:
        text = name.read_text()
        assert f'fill="#{fg[:6]}"' in text
        target = workdir / "c.png"
        rasterise(name, target)
    if bg.endswith("00"):  # a transparent background: flatten onto white as a page would
        flat = workdir / "flat.svg"
        import base64
        flat.write_text('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                        'width="400" height="400"><rect width="400" height="400" fill="#FFFFFF"/>'
                        f'<image width="400" height="400" xlink:href="data:image/png;base64,'
                        f'{base64.b64encode(target.read_bytes()).decode()}"/></svg>')
        target = workdir / "flat.png"
        rasterise(flat, target)
    assert zbar(target) == b"colour"


def test_plain_png_stays_one_bit_grayscale(qrcheckin, workdir):
    result = qrcheckin("encode", "-o", "-", "plain")
    chunks = dict(png_chunks(result.stdout))
    assert struct.unpack(">BB", chunks["IHDR"][8:10]) == (1, 0) and "PLTE" not in chunks


def test_read_from_file(qrcheckin, tools, workdir):
    (workdir / "in.txt").write_text("from a file 파일\n")
    result = qrcheckin("encode", "-r", str(workdir / "in.txt"), "-o", str(workdir / "r.png"))
    assert result.returncode == 0, result.stderr
    assert zbar(workdir / "r.png").decode() == "from a file 파일"


@pytest.mark.parametrize("version", [1, 5, 10, 40])
def test_minimum_version(qrcheckin, tools, workdir, version):
    result = qrcheckin("encode", "-v", str(version), "-s", "4", "-m", "4", "-o", str(workdir / "v.png"), "A")
    assert result.returncode == 0, result.stderr
    assert len(read_png((workdir / "v.png").read_bytes())) == 4 * (17 + 4 * version + 8)
    assert zbar(workdir / "v.png") == b"A"
    theirs = subprocess.run(["qrencode", "-l", "M", "-v", str(version), "-s", "4", "-m", "4", "-o", str(workdir / "q.png"), "A"])
    assert theirs.returncode == 0
    assert read_png((workdir / "q.png").read_bytes()) == read_png((workdir / "v.png").read_bytes())
