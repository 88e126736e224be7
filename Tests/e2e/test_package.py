"""The .deb as an operator meets it: install with apt-get, run without the Swift toolchain,
upgrade, remove, purge. It installs into this machine's real /usr, /etc, /var and /run (only the
package's own paths) and always purges again. Needs root; `make test` builds the .deb once
(QRCHECKIN_DEB_DIR); run alone, it builds it with `make deb`."""
import grp
import json
import os
import re
import shutil
import stat
import subprocess
import textwrap
from pathlib import Path

import pytest

from conftest import ROOT, zbar

INSTALLED = "/usr/bin/qrcheckin"
UNITS = ["qrcheckin.service", "qrcheckin-kiosk.service", "qrcheckin@.service", "qrcheckin-kiosk@.service"]
APT = ["apt-get", "-o", "DPkg::Lock::Timeout=600", "-y", "-q"]
ENV = dict(os.environ, DEBIAN_FRONTEND="noninteractive")


def sh(*args, check=True, env=None, **kwargs):
    result = subprocess.run(list(args), capture_output=True, text=True, env=env or ENV, timeout=600, **kwargs)
    if check:
        assert result.returncode == 0, f"{args}: {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result


def installed():
    result = subprocess.run(["dpkg-query", "-W", "-f=${Status}", "qrcheckin"], capture_output=True, text=True)
    return "installed" in result.stdout or "config-files" in result.stdout


@pytest.fixture(scope="module")
def deb():
    if os.geteuid() != 0:
        pytest.fail("the package test installs a .deb: run as root (make test does)")
    directory = Path(os.environ.get("QRCHECKIN_DEB_DIR", ROOT / "build"))
    debs = sorted(directory.glob("qrcheckin_*.deb"), key=lambda p: p.stat().st_mtime)
    if "QRCHECKIN_DEB_DIR" not in os.environ:
        sh("make", "-s", "-C", str(ROOT), "deb")
        debs = sorted(directory.glob("qrcheckin_*.deb"), key=lambda p: p.stat().st_mtime)
    assert debs, f"no .deb in {directory}: run make deb"
    return debs[-1]


@pytest.fixture(scope="module")
def package(deb):
    """The package installed with apt-get; purged (and a group it created removed) afterwards."""
    if installed():
        pytest.fail("a qrcheckin package is already installed here; the test would purge it")
    group_existed = _group_exists("qrcheckin")
    for path in ("/etc/qrcheckin", "/run/qrcheckin", "/var/lib/qrcheckin", "/var/lib/private/qrcheckin"):
        # Purging deletes these: refuse rather than wipe a root daemon's real files.
        if Path(path).exists():
            pytest.fail(f"{path} exists (a qrcheckin running as root?); the package test's purge would delete it")
    try:
        sh(*APT, "install", "--no-install-recommends", str(deb))
        yield deb
    finally:
        subprocess.run(["dpkg", "--purge", "qrcheckin"], capture_output=True)
        if not group_existed and _group_exists("qrcheckin"):
            subprocess.run(["groupdel", "qrcheckin"], capture_output=True)


def _group_exists(name):
    try:
        grp.getgrnam(name)
        return True
    except KeyError:
        return False


def without_toolchain(script, tmp_path):
    """Runs `script` (bash) in a mount namespace where /opt/swift is an empty tmpfs."""
    toolchain = "/opt/swift"
    full = f"set -euo pipefail\nmount -t tmpfs -o size=64k,mode=0755 tmpfs {toolchain}\n" \
           f"test -z \"$(ls -A {toolchain})\"\n" + textwrap.dedent(script)
    path = tmp_path / "hidden.sh"
    path.write_text(full)
    return sh("unshare", "-m", "--propagation", "private", "bash", str(path), check=False)


def test_lintian_reports_no_errors_or_warnings(deb):
    result = sh("lintian", "--fail-on", "error,warning", str(deb), check=False)
    tags = [line for line in result.stdout.splitlines() if re.match(r"^[EW]: ", line)]
    assert result.returncode == 0 and not tags, result.stdout + result.stderr


def test_depends_are_derived_from_debian_libraries_only(deb):
    depends = sh("dpkg-deb", "-f", str(deb), "Depends").stdout
    for library in ("libqrencode4", "libpng16-16", "libsodium23", "libc6"):
        assert library in depends, depends
    assert "swift" not in depends.lower(), depends
    version = sh("dpkg-deb", "-f", str(deb), "Version").stdout.strip()
    arch = sh("dpkg", "--print-architecture").stdout.strip()
    assert deb.name == f"qrcheckin_{version}_{arch}.deb"
    assert version == sh(str(ROOT / ".build/release/qrcheckin"), "--version").stdout.split()[-1]


def test_installed_files_and_defaults(package):
    assert stat.S_IMODE(os.stat(INSTALLED).st_mode) == 0o755
    secret = os.stat("/etc/qrcheckin/secret")
    assert stat.S_IMODE(secret.st_mode) == 0o600 and secret.st_uid == 0 and secret.st_gid == 0
    assert _group_exists("qrcheckin")
    assert Path("/etc/qrcheckin/qrcheckin.conf").exists()
    assert "/etc/qrcheckin/qrcheckin.conf" in sh("dpkg-query", "-W", "-f=${Conffiles}", "qrcheckin").stdout
    assert Path("/usr/lib/sysusers.d/qrcheckin.conf").read_text().count("g qrcheckin") == 1
    for name in ("README.md", "TOKEN.md", "STATE.md", "copyright", "changelog.gz"):
        assert Path("/usr/share/doc/qrcheckin", name).exists(), name
    for unit in UNITS:
        text = Path("/usr/lib/systemd/system", unit).read_text()
        assert re.search(r"^ExecStart=/usr/bin/qrcheckin ", text, re.M), unit
        credential = "secret:/etc/qrcheckin/secrets/%i" if "@" in unit else "secret:/etc/qrcheckin/secret"
        assert f"LoadCredential={credential}\n" in text or "kiosk" in unit
    # Where operators put each venue instance's key (qrcheckin@VENUE): root's only.
    secrets = os.stat("/etc/qrcheckin/secrets")
    assert stat.S_ISDIR(secrets.st_mode) and stat.S_IMODE(secrets.st_mode) == 0o700 and secrets.st_uid == 0


def test_installed_units_pass_systemd_analyze(package):
    for unit in UNITS:
        path = f"/usr/lib/systemd/system/{unit}"
        # With the man page installed, verify also resolves Documentation=man:qrcheckin(1).
        result = sh("systemd-analyze", "verify", path, check=False)
        assert result.returncode == 0 and "qrcheckin" not in result.stderr, result.stderr
        gate = sh("systemd-analyze", "security", "--offline=true", "--threshold=3", path, check=False)
        assert gate.returncode == 0, gate.stdout + gate.stderr


def test_man_page_and_completion_cover_every_command_and_option(package):
    page = sh("man", "-P", "cat", "qrcheckin", env=dict(ENV, MANWIDTH="200")).stdout
    page = re.sub(r".\x08", "", page)
    top = sh(INSTALLED, "--help").stdout
    commands = re.findall(r"^  (\w+)  ", top.split("COMMANDS:")[1].split("OPTIONS:")[0], re.M)
    assert len(commands) >= 9, top
    for section in ("SETTINGS", "FILES", "EXIT STATUS", "ENVIRONMENT", "EXAMPLES"):
        assert re.search(rf"^{section}$", page, re.M), section
    completion = "/usr/share/bash-completion/completions/qrcheckin"

    def complete(*words):
        line = " ".join(("qrcheckin",) + words)
        script = (f"source {completion}; COMP_WORDS=({line}); COMP_CWORD={len(words)}; "
                  "_qrcheckin; printf '%s\\n' \"${COMPREPLY[@]}\"")
        return sh("bash", "-c", script).stdout.split()

    assert set(commands) <= set(complete('""'))
    for command in commands:
        assert re.search(rf"^   {command}$", page, re.M), f"no section for {command}"
        block = sh(INSTALLED, command, "--help").stdout.split("OPTIONS:\n")[1].split("\n\n")[0]
        options = set(re.findall(r"^\s+(?:-\w, )?(--[a-z][\w-]*)", block, re.M))
        assert "--help" in options
        for option in options:
            assert option in page, f"{command} {option} missing from the man page"
        assert options <= set(complete(command, "--")), f"{command}: {options - set(complete(command, '--'))}"
    assert set(complete("ctl", '""')) >= {"get", "shake", "refresh"}
    assert set(complete("ctl", "refresh", '""')) == {"auto", "pause", "now"}
    assert set(complete("encode", "-t", '""')) >= {"png", "utf8", "ansi", "ascii"}
    assert set(complete("status", "--lang", '""')) >= {"en", "ko"}
    # Every daemon setting (a flag of run) is described in the hand-written SETTINGS section.
    settings = page.split("\nSETTINGS\n")[1].split("\nFILES\n")[0]
    run_block = sh(INSTALLED, "run", "--help").stdout.split("OPTIONS:\n")[1].split("\n\n")[0]
    for option in re.findall(r"^\s+(?:-\w, )?--([a-z][\w-]*)", run_block, re.M):
        if option not in ("config", "help"):
            assert re.search(rf"^       (.*, )?{option} \(QRCHECKIN_", settings, re.M), f"setting {option} undocumented"
    for status in ("0", "1", "3", "64", "77", "78"):
        assert re.search(rf"^       {status}\s", page, re.M), f"exit status {status}"


def test_runs_without_the_swift_toolchain(package, tmp_path):
    work = tmp_path / "hidden"
    work.mkdir()
    result = without_toolchain(f"""
        ldd {INSTALLED} > {work}/ldd.txt
        {INSTALLED} --version > {work}/version.txt
        {INSTALLED} code --secret-file /etc/qrcheckin/secret --venue HALL-1 --json > {work}/code.json
        {INSTALLED} encode -o {work}/hello.png '안녕 hello'
        {INSTALLED} run --output-dir {work}/out --state-dir {work}/state --period 2 2> {work}/daemon.log &
        daemon=$!
        for _ in $(seq 1 200); do
            [[ -s {work}/out/current.json ]] && grep -q '"running"' {work}/out/current.json && break
            kill -0 $daemon; sleep 0.05
        done
        cp {work}/out/current.png {work}/daemon.png
        cp {work}/out/current.json {work}/daemon.json
        kill -TERM $daemon; wait $daemon
    """, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr + (work / "daemon.log").read_text(errors="replace")
    ldd = (work / "ldd.txt").read_text()
    assert "not found" not in ldd and "/opt/swift" not in ldd and "libswift" not in ldd, ldd
    assert (work / "version.txt").read_text().startswith("qrcheckin ")
    code = json.loads((work / "code.json").read_text())
    assert code["url"].startswith("HTTPS://CHECKIN.EXAMPLE.ORG/C/HALL-1/") and code["token"] in code["url"]
    assert zbar(work / "hello.png") == "안녕 hello".encode()
    state = json.loads((work / "daemon.json").read_text())
    assert state["state"] == "running"
    assert zbar(work / "daemon.png").decode() == state["url"]


def test_upgrade_keeps_secret_config_and_saved_settings(package):
    secret = Path("/etc/qrcheckin/secret").read_bytes()
    config = Path("/etc/qrcheckin/qrcheckin.conf")
    config.write_text(config.read_text() + "venue = HALL-7\n")
    settings = Path("/var/lib/qrcheckin/settings")
    settings.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    settings.write_text("shake = off\nrefresh = auto\n")
    sh("dpkg", "-i", str(package))  # same package again: the upgrade path (postinst configure OLD)
    assert Path("/etc/qrcheckin/secret").read_bytes() == secret
    assert config.read_text().endswith("venue = HALL-7\n")
    assert settings.read_text() == "shake = off\nrefresh = auto\n"


def test_remove_keeps_config_and_purge_leaves_nothing(package):
    files = [line.split()[-1].removeprefix(".") for line in sh("dpkg-deb", "-c", str(package)).stdout.splitlines()
             if not line.startswith("d")]
    sh(*APT, "remove", "qrcheckin")
    assert not Path(INSTALLED).exists()
    assert Path("/etc/qrcheckin/secret").exists() and Path("/etc/qrcheckin/qrcheckin.conf").exists()
    sh(*APT, "purge", "qrcheckin")
    assert not installed()
    left = [f for f in files if Path(f).exists()]
    assert left == [], left
    for path in ("/etc/qrcheckin", "/var/lib/qrcheckin", "/var/lib/private/qrcheckin", "/run/qrcheckin",
                 "/usr/share/doc/qrcheckin", "/usr/share/qrcheckin"):
        assert not Path(path).exists(), path


def test_web_directory_and_nginx_snippet_are_packaged_when_present(deb, tmp_path):
    web = tmp_path / "web"
    (web / "nginx").mkdir(parents=True)
    (web / "index.html").write_text("<!doctype html><title>qrcheckin</title>\n")
    (web / "nginx" / "qrcheckin.conf").write_text("location /qrcheckin/ { alias /run/qrcheckin/; }\n")
    binary = tmp_path / "qrcheckin"
    sh("dpkg-deb", "-x", str(deb), str(tmp_path / "x"))
    shutil.copy(tmp_path / "x/usr/bin/qrcheckin", binary)
    built = sh(str(ROOT / "packaging/build-deb"), str(binary), str(tmp_path / "out"),
               env=dict(ENV, WEB_DIR=str(web))).stdout.strip()
    listing = sh("dpkg-deb", "-c", built).stdout
    assert "./usr/share/qrcheckin/web/index.html" in listing
    assert "./usr/share/qrcheckin/nginx/qrcheckin.conf" in listing
    assert "./usr/share/qrcheckin/web/nginx/" not in listing, "the nginx files are not part of the page"
    # The package test's own .deb, from a tree without web/, has neither (and that is fine).
    if not (ROOT / "web").exists():
        assert "usr/share/qrcheckin" not in sh("dpkg-deb", "-c", str(deb)).stdout
