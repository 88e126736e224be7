"""Clock trust, seen as users see it: `status`, `status --json`, `ctl get`, the kiosk (tmux) and
current.png (zbarimg). This machine's kernel reports its clock unsynchronised (STA_UNSYNC), as
many VMs and containers do; a tiny adjtimex probe checks that first, since the warning can only
be seen where the kernel says so."""
import ctypes
import json
import subprocess

import pytest

from conftest import BIN, ROOT
from kiosk_screen import Tmux, shell_command

TIME_ERROR = 5
STA_UNSYNC = 0x0040


def kernel_clock():
    """adjtimex(modes = 0), read-only: (synchronised, maximum error in µs)."""
    buffer = ctypes.create_string_buffer(256)  # struct timex (208 bytes on x86-64), zeroed: modes = 0
    libc = ctypes.CDLL(None, use_errno=True)
    state = libc.adjtimex(buffer)
    assert state >= 0, f"adjtimex: errno {ctypes.get_errno()}"
    maxerror = ctypes.c_long.from_buffer(buffer, 24).value  # after modes (+pad), offset, freq
    status = ctypes.c_int.from_buffer(buffer, 40).value      # after maxerror, esterror
    return not (state == TIME_ERROR or status & STA_UNSYNC), maxerror


@pytest.fixture(scope="module", autouse=True)
def unsynchronised():
    synchronised, _ = kernel_clock()
    if synchronised:
        pytest.skip("this kernel reports its clock synchronised: the warning cannot show here")


@pytest.fixture
def kiosk():
    panes = []

    def start(out, language):
        pane = Tmux(str(len(panes)), shell_command(BIN, "show", "--output-dir", str(out), env={"LC_MESSAGES": language}))
        panes.append(pane)
        return pane

    yield start
    for pane in panes:
        pane.kill()


def schema_validate(definition, document):
    import jsonschema
    schema = dict(json.loads((ROOT / "docs" / "qrcheckin.schema.json").read_text()))
    schema["$ref"] = f"#/$defs/{definition}"
    jsonschema.validate(document, schema, cls=jsonschema.Draft202012Validator)


def test_an_unsynchronised_clock_is_a_warning_in_status_json_ctl_and_the_kiosk(daemons, kiosk):
    _, earliest = kernel_clock()
    daemon = daemons(period=5)
    document = daemon.state_now()
    assert document["state"] == "running" and document["health"] == "ok", "a warning, not degraded"
    assert document["clock"]["synchronized"] is False
    # The kernel's maximum error grows while unsynchronised: the daemon read it between these two.
    _, latest = kernel_clock()
    assert -(-earliest // 1_000_000) <= document["clock"]["maxErrorSeconds"] <= -(-latest // 1_000_000), (earliest, latest)
    schema_validate("currentJson", document)
    assert "the clock is not synchronised" in daemon.logs()

    where = ("--output-dir", str(daemon.out))
    english = daemon.cli("status", *where, env={"LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"})
    assert english.returncode == 0, english
    assert "Warning: clock not synchronised (±" in english.stdout.decode()
    korean = daemon.cli("status", *where, env={"LC_ALL": "ko_KR.UTF-8"})
    assert korean.returncode == 0 and "경고: 시계가 동기화되지 않음" in korean.stdout.decode(), korean

    as_json = daemon.cli("status", *where, "--json")
    report = json.loads(as_json.stdout)
    assert as_json.returncode == 0 and report["state"]["clock"]["synchronized"] is False
    schema_validate("statusJson", report)

    get = daemon.cli("ctl", *where, "get", env={"LC_ALL": "C.UTF-8"})
    assert get.returncode == 0 and "Warning: clock not synchronised" in get.stdout.decode(), get
    reply = json.loads(daemon.cli("ctl", *where, "get", "--json").stdout)
    assert reply["state"]["clock"]["synchronized"] is False

    pane = kiosk(daemon.out, "ko_KR.UTF-8")
    # The whole warning fits an 80-column kiosk, in both languages.
    text = pane.wait_for(lambda t: "경고: 시계가 동기화되지 않음 (±" in t and "초): 코드가 만료로 거부될 수 있음" in t
                         and "안심번호" in t)
    assert "안심번호" in text, "the code stays on screen with the warning under it"
    pane = kiosk(daemon.out, "C.UTF-8")
    pane.wait_for(lambda t: "Warning: clock not synchronised (±" in t and "s): codes may be rejected as expired" in t)


def test_require_clock_sync_shows_the_waiting_state_and_no_code_anywhere(daemons, kiosk, tools):
    daemon = daemons(period=5, args=["--require-clock-sync", "yes"])
    document = daemon.state_now()
    assert document["state"] == "waiting" and document["url"] is None and document["safeNumber"] is None
    schema_validate("currentJson", document)
    # No decodable QR in current.png: zbarimg finds nothing (exit 4: no symbol).
    scan = subprocess.run(["zbarimg", "--raw", "-q", "--nodbus", str(daemon.out / "current.png")], capture_output=True)
    assert scan.returncode == 4 and scan.stdout == b"", scan
    assert (daemon.out / "current.txt").read_text().startswith("WAITING FOR THE CLOCK\n")
    assert "waiting for the clock to synchronise" in daemon.logs()

    where = ("--output-dir", str(daemon.out))
    status = daemon.cli("status", *where, env={"LC_ALL": "C.UTF-8"})
    assert status.returncode == 1, status
    assert "waiting for the clock to synchronise" in status.stdout.decode()
    report = json.loads(daemon.cli("status", *where, "--json").stdout)
    assert report["status"] == "waiting" and report["exitStatus"] == 1
    schema_validate("statusJson", report)

    pane = kiosk(daemon.out, "C.UTF-8")
    text = pane.wait_for(lambda t: "Waiting for the clock to synchronise" in t and not set("█▀▄") & set(t))
    assert not set("█▀▄") & set(text), "no QR on the kiosk"
    pane = kiosk(daemon.out, "ko_KR.UTF-8")
    pane.wait_for(lambda t: "시계 동기화를 기다리는 중" in t)
    assert daemon.state_now()["state"] == "waiting"
