"""The .deb as a file: lintian, its Depends, its man page and completion, its layout. Installing,
running, upgrading, removing and purging it happen under a booted systemd in a container
(test_systemd_boot.py, test_readme.py), never on this machine."""
import gzip
import re
import shutil
import subprocess

import pytest

from booted import built_deb
from conftest import ROOT

ENV = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}


def sh(*args, check=True, env=None, **kwargs):
    result = subprocess.run(list(args), capture_output=True, text=True, env=env or ENV, timeout=600, **kwargs)
    if check:
        assert result.returncode == 0, f"{args}: {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def deb():
    return built_deb()


@pytest.fixture(scope="module")
def unpacked(deb, tmp_path_factory):
    """The package's files, extracted (dpkg-deb -x) into a temporary directory."""
    root = tmp_path_factory.mktemp("deb")
    sh("dpkg-deb", "-x", str(deb), str(root))
    return root


def test_lintian_reports_no_errors_or_warnings(deb):
    result = sh("lintian", "--fail-on", "error,warning", str(deb), check=False)
    tags = [line for line in result.stdout.splitlines() if re.match(r"^[EW]: ", line)]
    assert result.returncode == 0 and not tags, result.stdout + result.stderr


def test_depends_are_derived_from_debian_libraries_only(deb):
    depends = sh("dpkg-deb", "-f", str(deb), "Depends").stdout
    for library in ("libqrencode4", "libpng16-16", "libsodium23", "libnettle8", "libc6"):
        assert library in depends, depends
    assert "swift" not in depends.lower(), depends
    version = sh("dpkg-deb", "-f", str(deb), "Version").stdout.strip()
    arch = sh("dpkg", "--print-architecture").stdout.strip()
    assert deb.name == f"qrcheckin_{version}_{arch}.deb"
    assert version == sh(str(ROOT / ".build/release/qrcheckin"), "--version").stdout.split()[-1]


def test_layout_units_conffiles_and_docs(deb, unpacked):
    units = ["qrcheckin.service", "qrcheckin-kiosk.service", "qrcheckin@.service", "qrcheckin-kiosk@.service"]
    for unit in units:
        text = (unpacked / "usr/lib/systemd/system" / unit).read_text()
        assert re.search(r"^ExecStart=/usr/bin/qrcheckin ", text, re.M), unit
    assert (unpacked / "usr/lib/sysusers.d/qrcheckin.conf").read_text().count("g qrcheckin") == 1
    for name in ("README.md", "DAEMON.md", "VENUES.md", "WEB.md", "TOKEN.md", "STATE.md", "copyright", "changelog.gz"):
        assert (unpacked / "usr/share/doc/qrcheckin" / name).exists(), name
    # The operator's files are conffiles (upgrades keep edits): the settings and the nginx site.
    conffiles = sh("sh", "-c", f"dpkg-deb --ctrl-tarfile {deb} | tar -xO ./conffiles").stdout.split()
    assert conffiles == ["/etc/qrcheckin/qrcheckin.conf", "/etc/nginx/sites-available/qrcheckin"]
    site = (unpacked / "etc/nginx/sites-available/qrcheckin").read_text()
    assert "CHANGE:" in site and "include /usr/share/qrcheckin/nginx/qrcheckin-locations.conf;" in site
    assert "CHANGE:" not in (unpacked / "usr/share/qrcheckin/nginx/qrcheckin-locations.conf").read_text()
    assert not (unpacked / "usr/share/qrcheckin/nginx/qrcheckin.conf").exists()


def test_man_page_and_completion_cover_every_command_and_option(unpacked):
    page = sh("man", "-P", "cat", "-l", str(unpacked / "usr/share/man/man1/qrcheckin.1.gz"),
              env=dict(ENV, MANWIDTH="200")).stdout
    page = re.sub(r".\x08", "", page)
    # Control characters in the source (a "\f" font escape written as a form feed) print raw.
    source = gzip.decompress((unpacked / "usr/share/man/man1/qrcheckin.1.gz").read_bytes()).decode()
    assert not re.search(r"[\x00-\x08\x0b-\x1f]", source), re.findall(r".{20}[\x00-\x08\x0b-\x1f].{20}", source)
    binary = str(unpacked / "usr/bin/qrcheckin")
    top = sh(binary, "--help").stdout
    commands = re.findall(r"^  (\w+)  ", top.split("COMMANDS:")[1].split("OPTIONS:")[0], re.M)
    assert len(commands) >= 9, top
    for section in ("SETTINGS", "FILES", "EXIT STATUS", "ENVIRONMENT", "EXAMPLES"):
        assert re.search(rf"^{section}$", page, re.M), section
    completion = unpacked / "usr/share/bash-completion/completions/qrcheckin"

    def complete(*words):
        line = " ".join(("qrcheckin",) + words)
        script = (f"source {completion}; COMP_WORDS=({line}); COMP_CWORD={len(words)}; "
                  "_qrcheckin; printf '%s\\n' \"${COMPREPLY[@]}\"")
        return sh("bash", "-c", script).stdout.split()

    assert set(commands) <= set(complete('""'))
    for command in commands:
        assert re.search(rf"^   {command}$", page, re.M), f"no section for {command}"
        block = sh(binary, command, "--help").stdout.split("OPTIONS:\n")[1].split("\n\n")[0]
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
    run_block = sh(binary, "run", "--help").stdout.split("OPTIONS:\n")[1].split("\n\n")[0]
    for option in re.findall(r"^\s+(?:-\w, )?--([a-z][\w-]*)", run_block, re.M):
        if option not in ("config", "help"):
            assert re.search(rf"^       (.*, )?{option} \(QRCHECKIN_", settings, re.M), f"setting {option} undocumented"
    for status in ("0", "1", "3", "64", "77", "78"):
        assert re.search(rf"^       {status}\s", page, re.M), f"exit status {status}"


def test_web_directory_and_nginx_site_are_packaged_when_present(deb, tmp_path):
    web = tmp_path / "web"
    (web / "nginx").mkdir(parents=True)
    (web / "index.html").write_text("<!doctype html><title>qrcheckin</title>\n")
    (web / "nginx" / "qrcheckin.conf").write_text("server { include /usr/share/qrcheckin/nginx/qrcheckin-locations.conf; }\n")
    (web / "nginx" / "qrcheckin-locations.conf").write_text("location = / { return 404; }\n")
    binary = tmp_path / "qrcheckin"
    sh("dpkg-deb", "-x", str(deb), str(tmp_path / "x"))
    shutil.copy(tmp_path / "x/usr/bin/qrcheckin", binary)
    # Only the listing matters here: uncompressed (DEB_COMPRESSION=none) is built in a fraction of the time.
    built = sh(str(ROOT / "packaging/build-deb"), str(binary), str(tmp_path / "out"),
               env=dict(ENV, WEB_DIR=str(web), DEB_COMPRESSION="none")).stdout.strip()
    listing = sh("dpkg-deb", "-c", built).stdout
    assert "./usr/share/qrcheckin/web/index.html" in listing
    assert "./etc/nginx/sites-available/qrcheckin" in listing
    assert "./usr/share/qrcheckin/nginx/qrcheckin-locations.conf" in listing
    assert "./usr/share/qrcheckin/web/nginx/" not in listing, "the nginx files are not part of the page"
    # A tree without web/ makes a package without the page and the site (and that is fine).
    bare = sh(str(ROOT / "packaging/build-deb"), str(binary), str(tmp_path / "bare"),
              env=dict(ENV, WEB_DIR=str(tmp_path / "none"), DEB_COMPRESSION="none")).stdout.strip()
    listing = sh("dpkg-deb", "-c", bare).stdout
    assert "usr/share/qrcheckin" not in listing and "etc/nginx" not in listing
