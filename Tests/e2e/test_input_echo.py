"""What error messages show of their input (issue 25 items 9 and 10): a line of a file that is
not `key = value` is never shown (it may be a secret: `status -c /etc/qrcheckin/secret` printed
the key), control characters are escaped, long values cut; only a newline ends a config line,
and a byte-order mark at the start is skipped."""
import os
import re

import pytest

from conftest import run


def clean_env(tmp_path, **extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("QRCHECKIN_")}
    env.update({"STATE_DIRECTORY": str(tmp_path / "state"), "RUNTIME_DIRECTORY": str(tmp_path / "out"),
                "CREDENTIALS_DIRECTORY": "", "HOME": str(tmp_path / "home"), "JOURNAL_STREAM": ""})
    env.update(extra)
    return env


@pytest.fixture
def keys(tmp_path):
    """A master secret and a venue key made by keygen, and their hex."""
    secret, venue_key = tmp_path / "secret", tmp_path / "hall.key"
    assert run("keygen", "-o", str(secret)).returncode == 0
    assert run("keygen", "--venue", "HALL-1", "--from", str(secret), "-o", str(venue_key)).returncode == 0
    hexes = [secret.read_text().strip(), venue_key.read_text().split()[2]]
    return {"secret": secret, "venue key": venue_key}, hexes


def assert_no_key(output, hexes):
    """No 8 consecutive hex digits of either key, in either case."""
    text = output.decode(errors="replace").lower()
    for key in hexes:
        for start in range(0, len(key) - 8):
            assert key[start:start + 8] not in text, f"key material in: {text}"


def commands(tmp_path):
    """Every command that reads the config file, with what keeps it away from real paths."""
    out, state = str(tmp_path / "out"), str(tmp_path / "state")
    return {
        "run": ["run", "--output-dir", out, "--state-dir", state],
        "status": ["status", "--output-dir", out],
        "status --all": ["status", "--all"],
        "ctl": ["ctl", "--output-dir", out, "get"],
        "shake": ["shake", "--output-dir", out],
        "show": ["show", "--output-dir", out],
        "code": ["code"],
        "verify": ["verify", "--venue", "HALL-1", "1AAAA"],
    }


@pytest.mark.parametrize("how", ["--config", "-c", "QRCHECKIN_CONFIG"])
def test_a_key_file_given_as_the_config_is_never_echoed(tmp_path, keys, how):
    files, hexes = keys
    for name, args in commands(tmp_path).items():
        for kind, path in files.items():
            if how == "QRCHECKIN_CONFIG":
                # A list, as the template unit sets it: an optional missing file, then the key file.
                result = run(*args, env=clean_env(tmp_path, QRCHECKIN_CONFIG=f"-/nonexistent.conf:{path}"))
            else:
                result = run(args[0], how, str(path), *args[1:], env=clean_env(tmp_path))
            where = f"{name} {how} {kind}"
            assert result.returncode == 78, (where, result)
            assert result.stderr.decode() == (f"qrcheckin: {path}:1: this looks like a secret or key file, not a file of "
                                              "'key = value' lines (the line is not shown)\n"), where
            assert_no_key(result.stdout + result.stderr, hexes)


def test_a_key_pasted_into_a_setting_is_not_echoed_either(tmp_path, keys):
    files, hexes = keys
    for variable in ["QRCHECKIN_VENUE", "QRCHECKIN_PERIOD", "QRCHECKIN_BASE_URL"]:
        result = run("code", "--secret-file", str(files["secret"]), env=clean_env(tmp_path, **{variable: hexes[0]}))
        assert result.returncode == 78 and b"not shown: they look like a secret key" in result.stderr, result
        assert_no_key(result.stdout + result.stderr, hexes)
    config = tmp_path / "pasted.conf"
    config.write_text(f"venue = {hexes[1]}\n")
    result = run("code", "-c", str(config), "--secret-file", str(files["secret"]), env=clean_env(tmp_path))
    assert result.returncode == 78
    assert_no_key(result.stdout + result.stderr, hexes)


def test_every_command_taking_a_secret_keeps_it_out_of_its_errors(tmp_path, keys):
    files, hexes = keys
    config = tmp_path / "ok.conf"
    config.write_text("venue = OTHER\n")
    outputs = [
        run("code", "--secret-file", str(files["venue key"]), "--venue", "OTHER"),
        run("verify", "--secret-file", str(files["venue key"]), "--venue", "OTHER", "1AAAA"),
        run("code", "-c", str(config), "--secret-file", str(files["venue key"])),
        run("keygen", "--venue", "OTHER", "--from", str(files["venue key"]), "-o", str(tmp_path / "k")),
        run("keygen", "-o", str(files["secret"])),
        run("run", "--secret-file", str(files["venue key"]), "--venue", "OTHER",
            "--output-dir", str(tmp_path / "o"), "--state-dir", str(tmp_path / "s")),
        run("verify", "--secret-file", str(config), "--venue", "HALL-1", "1AAAA"),
    ]
    for result in outputs:
        assert result.returncode not in (0, 1), result
        assert result.stderr.startswith(b"qrcheckin: ") and result.stderr.count(b"\n") <= 2, result
        assert_no_key(result.stdout + result.stderr, hexes)


@pytest.mark.parametrize("separator, name", [
    ("\u2028", "a line separator (U+2028)"), ("\u0085", "a next-line character (U+0085)"),
    ("\v", "a vertical tab (U+000B)"), ("\f", "a form feed (U+000C)"), ("\r", "a carriage return (U+000D)"),
])
def test_only_a_newline_ends_a_config_line(tmp_path, separator, name):
    # `period = 15⟨U+2028⟩venue = ZED` silently set venue ZED.
    config = tmp_path / "split.conf"
    config.write_text(f"period = 15{separator}venue = ZED\n", newline="")
    result = run("code", "-c", str(config), "--secret-file", str(tmp_path / "none"), env=clean_env(tmp_path))
    assert result.returncode == 78, result
    assert result.stderr.decode() == (f"qrcheckin: {config}:1: {name} at column 12: only a newline ends a line, "
                                      "and no other control character may appear in one\n")


def test_a_byte_order_mark_at_the_start_is_skipped(tmp_path, keys):
    files, _ = keys
    config = tmp_path / "bom.conf"
    config.write_bytes(b"\xef\xbb\xbfvenue = HALL-1\r\nperiod = 30\r\n")
    result = run("code", "-c", str(config), "--secret-file", str(files["secret"]), "--at", "1700000000",
                 env=clean_env(tmp_path))
    assert result.returncode == 0, result
    assert b"venue: HALL-1\n" in result.stdout and b"period: 30\n" in result.stdout


def test_control_characters_are_escaped_and_long_values_cut(tmp_path):
    escape = "\x1b]0;owned\x07\x1b[2J"
    cases = [
        ["code", "--venue", "A" + escape],
        ["code", "--period", escape],
        ["encode", "--level", escape, "x"],
        ["ctl", "--output-dir", str(tmp_path / "out"), "refresh", escape],
        [escape],
        ["code", "--" + escape],
        ["code", "--venue", "V" * 5000],
        ["code", "--at", "x" * 5000],
        ["code", "--base-url", "HTTPS://A/" + escape + "b" * 5000],
    ]
    for args in cases:
        result = run(*args, env=clean_env(tmp_path))
        message = result.stderr.decode()
        assert result.returncode in (64, 78), (args, message)
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", message), (args, message)
        first = message.splitlines()[0]
        assert len(first) < 300, (args, first)
        if escape in "".join(args):
            assert "\\u{001B}" in first, (args, first)
        if any(len(a) > 1000 for a in args):
            assert re.search(r"…' \(50\d\d characters\)", first), (args, first)
