"""Every command starts where Swift's own CommandLine could not find argv (issue 19, issue 25
item 10): with /proc not mounted (an image builder's chroot), under an LD_PRELOAD wrapper whose
constructor calls setenv (it moves `environ`), and started with an empty argv. Each used to die
with SIGILL (exit 132) before doing anything, `--version` included. Run against the debug
binary and the static release binary (`make release`), which is what the package ships."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import BIN, ROOT
from daemonutil import release_built

RELEASE = os.environ.get("QRCHECKIN_RELEASE_BIN", str(ROOT / ".build" / "release" / "qrcheckin"))


@pytest.fixture(params=["debug", "release"])
def binary(request):
    path = BIN if request.param == "debug" else RELEASE
    if request.param == "release":
        release_built()
    assert os.access(path, os.X_OK), f"{path} missing: build it with 'make release'"
    return path


def compile_c(tmp_path, name, source, shared=False):
    """Builds a small C program (or shared library) with the system's C compiler."""
    compiler = shutil.which("cc") or shutil.which("clang") or shutil.which("gcc")
    assert compiler, "no C compiler (cc, clang or gcc) on PATH"
    (tmp_path / f"{name}.c").write_text(source)
    output = tmp_path / name
    flags = ["-shared", "-fPIC"] if shared else []
    subprocess.run([compiler, *flags, "-o", str(output), str(tmp_path / f"{name}.c")], check=True, timeout=60)
    return output


def without_proc(binary, script_args, tmp_path):
    """Runs `binary ARGS` (one command per entry) in a mount namespace whose /proc is an empty
    tmpfs: the process tree sees no /proc at all. Returns [(returncode, stdout, stderr)]."""
    script = "mount -t tmpfs -o size=16k tmpfs /proc || exit 99\n"
    for index, args in enumerate(script_args):
        quoted = " ".join("'" + a.replace("'", "'\\''") + "'" for a in [binary, *args])
        script += f"{quoted} >{tmp_path}/out{index} 2>{tmp_path}/err{index}; echo $? >{tmp_path}/rc{index}\n"
    namespace = ["unshare", "-m", "--propagation", "private"] if os.geteuid() == 0 else ["unshare", "-r", "-m"]
    setup = subprocess.run([*namespace, "sh", "-c", script], capture_output=True, timeout=60)
    assert setup.returncode == 0, f"could not hide /proc: {setup.stderr!r}"
    return [(int((tmp_path / f"rc{i}").read_text()), (tmp_path / f"out{i}").read_bytes(),
             (tmp_path / f"err{i}").read_bytes()) for i in range(len(script_args))]


def test_every_command_runs_without_proc(binary, tmp_path):
    secret, png = tmp_path / "secret", tmp_path / "hello.png"
    results = without_proc(binary, [
        ["--version"],
        ["--help"],
        ["keygen", "-o", str(secret)],
        ["code", "--secret-file", str(secret), "--at", "1700000000", "--json"],
        ["encode", "-o", str(png), "HELLO"],
        ["verify", "--secret-file", str(secret), "--venue", "DEMO", "1AAAA"],
        ["status", "--output-dir", str(tmp_path / "nothing")],
    ], tmp_path)
    (version, help_, keygen, code, encode, verify, status) = results
    assert version[0] == 0 and version[1].startswith(b"qrcheckin "), version
    assert help_[0] == 0 and b"USAGE: qrcheckin COMMAND" in help_[1], help_
    assert keygen[0] == 0 and len(secret.read_text().strip()) == 64, keygen
    assert code[0] == 0 and b'"token":"1' in code[1], code
    assert encode[0] == 0 and png.read_bytes().startswith(b"\x89PNG"), encode
    assert verify[0] == 1 and b"invalid: malformed" in verify[1], verify   # answered, not trapped
    assert status[0] == 3, status                                            # "not running"
    for returncode, _, stderr in results:
        assert returncode < 128 and b"Fatal error" not in stderr


def test_a_daemon_starts_and_stops_cleanly_without_proc(binary, tmp_path):
    # `run` in the background until its first code is on disk (up to 30 s: a deadline, not a
    # speed), then SIGTERM: a clean exit 0 says it was still running and heard it.
    script = (f"mount -t tmpfs -o size=16k tmpfs /proc || exit 99\n"
              f"'{binary}' run --output-dir {tmp_path}/out --state-dir {tmp_path}/state --period 1 2>{tmp_path}/log &\n"
              f"daemon=$!; i=0\n"
              f"until [ -s {tmp_path}/out/current.json ] || [ $i -ge 600 ]; do sleep 0.05; i=$((i+1)); done\n"
              f"kill -TERM $daemon; wait $daemon; echo $? >{tmp_path}/rc\n")
    namespace = ["unshare", "-m", "--propagation", "private"] if os.geteuid() == 0 else ["unshare", "-r", "-m"]
    subprocess.run([*namespace, "sh", "-c", script], check=True, timeout=90)
    log = (tmp_path / "log").read_text()
    assert (tmp_path / "rc").read_text().strip() == "0", log
    assert "serving venue DEMO" in log and log.rstrip().endswith("stopped"), log
    assert (tmp_path / "out" / "current.png").read_bytes().startswith(b"\x89PNG")


SETENV_WRAPPER = r"""
#include <stdlib.h>
/* What LD_PRELOAD wrappers do before main: a new variable makes glibc move `environ`. */
__attribute__((constructor)) static void wrap(void) { setenv("QRCHECKIN_TEST_WRAPPED", "1", 1); }
"""


def test_an_ld_preload_wrapper_that_moves_environ_changes_nothing(binary, tmp_path):
    library = compile_c(tmp_path, "wrapper.so", SETENV_WRAPPER, shared=True)
    env = dict(os.environ, LD_PRELOAD=str(library))
    version = subprocess.run([binary, "--version"], capture_output=True, env=env, timeout=30)
    assert (version.returncode, version.stdout) == (0, b"qrcheckin 0.1.0\n"), version
    text = subprocess.run([binary, "encode", "-t", "utf8", "HELLO"], capture_output=True, env=env, timeout=30)
    assert text.returncode == 0 and "█".encode() in text.stdout, text


EMPTY_ARGV_LAUNCHER = r"""
#include <stdio.h>
#include <unistd.h>
/* execve with argv = { NULL }: argc 0 on kernels before 5.18; newer ones pass one empty
   argument instead. Either way the program must not trap. */
int main(int argc, char **argv) {
    char *none[] = { NULL };
    char *env[] = { "PATH=/usr/bin:/bin", NULL };
    execve(argv[1], none, env);
    perror("execve");
    return 127;
}
"""


def test_an_empty_argv_is_a_usage_error_not_a_trap(binary, tmp_path):
    launcher = compile_c(tmp_path, "launch", EMPTY_ARGV_LAUNCHER)
    result = subprocess.run([str(launcher), binary], capture_output=True, timeout=30)
    assert result.returncode == 64, result
    assert result.stderr.startswith(b"qrcheckin: no command given (see qrcheckin --help)\n"), result


# The C libraries a process loads on first use (Sources/C/CLibraryLoader): none of them at start.
LOADED_ON_USE = ("libqrencode.so.4", "libpng16.so.16", "libz.so.1", "libsodium.so.23", "libnettle.so.8")


def libraries_loaded(argv, env=None, timeout=30):
    """The shared libraries the dynamic loader maps for one run of argv (LD_DEBUG=files, whose
    report goes to standard error), and the run."""
    result = subprocess.run(argv, capture_output=True, env=dict(os.environ, **(env or {}), LD_DEBUG="files"),
                            timeout=timeout, stdin=subprocess.DEVNULL)
    loaded = {line.split("file=", 1)[1].split()[0] for line in result.stderr.decode(errors="replace").splitlines()
              if "file=" in line}
    return {name for name in loaded if name in LOADED_ON_USE}, result


def test_commands_load_only_the_c_libraries_they_use(binary, tmp_path):
    # --version and status touch no QR, PNG or crypto code, so they must not pay for mapping it
    # (docs/BENCHMARKS.md, "Start-up"); encode needs libqrencode and libpng (with zlib); keygen
    # libsodium's random bytes; code only an HMAC, from Nettle, never libsodium.
    for argv in (["--version"], ["--help"], ["status", "--output-dir", str(tmp_path / "nothing")]):
        loaded, result = libraries_loaded([binary, *argv])
        assert result.returncode in (0, 3), result
        assert loaded == set(), f"{argv} loaded {loaded}"
    loaded, result = libraries_loaded([binary, "encode", "-o", str(tmp_path / "code.png"), "HELLO"])
    assert result.returncode == 0 and (tmp_path / "code.png").read_bytes().startswith(b"\x89PNG"), result
    assert loaded == {"libqrencode.so.4", "libpng16.so.16", "libz.so.1"}, loaded
    loaded, result = libraries_loaded([binary, "keygen", "-o", str(tmp_path / "secret")])
    assert result.returncode == 0 and loaded == {"libsodium.so.23"}, (loaded, result)
    loaded, result = libraries_loaded([binary, "code", "--secret-file", str(tmp_path / "secret"), "--json"])
    assert result.returncode == 0 and b'"token":"' in result.stdout, result
    assert loaded == {"libnettle.so.8"}, loaded


def broken_library_dir(tmp_path, soname):
    """A directory whose `soname` is not a library: first on LD_LIBRARY_PATH, it is what
    dlopen finds, as on a machine where the library is damaged."""
    directory = tmp_path / "broken-libraries"
    directory.mkdir(exist_ok=True)
    (directory / soname).write_text("not a shared library\n")
    return {"LD_LIBRARY_PATH": str(directory)}


@pytest.mark.parametrize("soname", ["libqrencode.so.4", "libpng16.so.16"])
def test_a_library_that_cannot_be_loaded_stops_encode_with_exit_69_and_no_file(binary, tmp_path, soname):
    env = dict(os.environ, **broken_library_dir(tmp_path, soname))
    png = tmp_path / "code.png"
    result = subprocess.run([binary, "encode", "-o", str(png), "HELLO"], capture_output=True, env=env, timeout=30)
    assert result.returncode == 69, result
    assert result.stderr.decode().startswith(f"qrcheckin: cannot load {soname}: "), result.stderr
    assert not png.exists()
    # The commands that do not use it still work.
    version = subprocess.run([binary, "--version"], capture_output=True, env=env, timeout=30)
    assert version.returncode == 0 and version.stdout.startswith(b"qrcheckin "), version


@pytest.mark.parametrize("soname", ["libqrencode.so.4", "libpng16.so.16", "libsodium.so.23"])
def test_the_daemon_checks_its_libraries_at_start_not_at_its_first_code(binary, tmp_path, soname):
    env = dict(os.environ, **broken_library_dir(tmp_path, soname))
    result = subprocess.run([binary, "run", "--output-dir", str(tmp_path / "out"), "--state-dir", str(tmp_path / "state")],
                            capture_output=True, env=env, timeout=30)
    assert result.returncode == 69, result
    assert f"cannot load {soname}: " in result.stderr.decode(), result.stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / "state").exists(), "the daemon wrote something first"


def test_show_checks_libqrencode_before_it_takes_the_terminal(binary, tmp_path):
    env = dict(os.environ, **broken_library_dir(tmp_path, "libqrencode.so.4"))
    result = subprocess.run([binary, "show", "--output-dir", str(tmp_path)], capture_output=True, env=env, timeout=30,
                            stdin=subprocess.DEVNULL)
    assert result.returncode == 69, result
    assert result.stderr.decode().startswith("qrcheckin: cannot load libqrencode.so.4: "), result.stderr
    assert b"\x1b[" not in result.stdout, "the terminal was set up first"


def test_a_library_without_the_functions_qrcheckin_calls_is_named_with_the_first_missing(binary, tmp_path):
    # zlib under libqrencode's soname: it loads, but has none of libqrencode's functions.
    directory = tmp_path / "wrong-libraries"
    directory.mkdir()
    zlib = next(iter(sorted(Path("/usr/lib").glob("*/libz.so.1"))), None)
    assert zlib, "no libz.so.1 under /usr/lib/<multiarch>"
    shutil.copy(zlib.resolve(), directory / "libqrencode.so.4")
    result = subprocess.run([binary, "encode", "-o", str(tmp_path / "code.png"), "HELLO"], capture_output=True,
                            env=dict(os.environ, LD_LIBRARY_PATH=str(directory)), timeout=30)
    assert result.returncode == 69, result
    assert result.stderr == b"qrcheckin: cannot load libqrencode.so.4: it has no function QRinput_new2\n", result.stderr
    assert not (tmp_path / "code.png").exists()
