"""On a packaged host, `code` and `verify` use what the installed daemon uses (issue 19): run as
root they ignored /etc/qrcheckin/qrcheckin.conf and /etc/qrcheckin/secret, exited 66 suggesting
`keygen -o /var/lib/qrcheckin/secret`, or silently used the developer secret `make run` had left
in root's state directory. The host is faked: /etc and /var/lib are overlays in a private mount
namespace, so the real ones are never written."""
import json
import os
import secrets
import shlex
import subprocess

import token_reference as ref
from conftest import BIN, needs_root
from daemonutil import reachable_directory

pytestmark = needs_root("overlay mounts in a mount namespace")

T = 1700000000
BASE = "HTTPS://GATE.EXAMPLE/C"


def packaged_host(tmp_path, service_secret, developer_secret, runs):
    """Runs the shell lines `runs` (name → command) on a faked packaged host: the service's
    config and secret in /etc/qrcheckin, a venue instance GATE-2 with its own key and config,
    and a developer secret in /var/lib/qrcheckin. Returns name → (returncode, stdout, stderr)."""
    key = ref.venue_key_file(service_secret, "GATE-2")
    setup = f"""
set -e
for d in etc var/lib; do mkdir -p {tmp_path}/upper/$d {tmp_path}/work/$d; done
mount -t overlay overlay -o lowerdir=/etc,upperdir={tmp_path}/upper/etc,workdir={tmp_path}/work/etc /etc
mount -t overlay overlay -o lowerdir=/var/lib,upperdir={tmp_path}/upper/var/lib,workdir={tmp_path}/work/var/lib /var/lib
mkdir -p -m 0700 /etc/qrcheckin/secrets /var/lib/qrcheckin
umask 077
echo {service_secret.hex()} > /etc/qrcheckin/secret
echo {shlex.quote(key.strip())} > /etc/qrcheckin/secrets/GATE-2
echo {developer_secret.hex()} > /var/lib/qrcheckin/secret
umask 022
printf 'venue = HALL-1\\nperiod = 30\\nbase-url = {BASE}\\n' > /etc/qrcheckin/qrcheckin.conf
printf 'period = 60\\n' > /etc/qrcheckin/GATE-2.conf
set +e
"""
    clean = "env -i PATH=/usr/bin:/bin HOME=/root"
    script = setup
    for name, command in runs.items():
        script += f"{command.replace('CLEAN', clean).replace('BIN', shlex.quote(BIN))} " \
                  f">{tmp_path}/{name}.out 2>{tmp_path}/{name}.err; echo $? >{tmp_path}/{name}.rc\n"
    result = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script],
                            capture_output=True, timeout=120)
    assert result.returncode == 0, result
    return {name: (int((tmp_path / f"{name}.rc").read_text()), (tmp_path / f"{name}.out").read_text(),
                   (tmp_path / f"{name}.err").read_text()) for name in runs}


def test_root_uses_the_installed_services_config_and_secret(tmp_path):
    service, developer = secrets.token_bytes(32), secrets.token_bytes(32)
    service_url = ref.url(service, "HALL-1", 30, T, 0, base=BASE)
    developer_url = ref.url(developer, "HALL-1", 30, T, 0, base=BASE)
    results = packaged_host(tmp_path, service, developer, {
        "code": f"CLEAN BIN code --json --at {T}",
        "verify": f"CLEAN BIN verify --json --at {T} {service_url}",
        "developer": f"CLEAN BIN verify --json --at {T} {developer_url}",
        "instance": f"CLEAN BIN code --venue GATE-2 --json --at {T}",
        "instance-verify": f"CLEAN BIN verify --venue GATE-2 --json --at {T} "
                           f"{ref.url(service, 'GATE-2', 60, T, 0, base=BASE)}",
        "no-config": f"CLEAN QRCHECKIN_CONFIG= BIN code --json --at {T}",
        "explicit": f"CLEAN BIN code --json --at {T} --secret-file /var/lib/qrcheckin/secret",
    })
    code = json.loads(results["code"][1])
    assert (code["venue"], code["period"], code["url"]) == ("HALL-1", 30, service_url), results["code"]
    verify = json.loads(results["verify"][1])
    assert results["verify"][0] == 0 and verify["secretFile"] == "/etc/qrcheckin/secret", results["verify"]
    assert json.loads(results["developer"][1])["reason"] == "bad-mac", "the developer secret is not the service's"
    # qrcheckin@GATE-2: its own config over the shared one, and its key file.
    instance = json.loads(results["instance"][1])
    assert (instance["venue"], instance["period"]) == ("GATE-2", 60), results["instance"]
    assert instance["url"] == ref.url(service, "GATE-2", 60, T, 0, base=BASE)
    assert json.loads(results["instance-verify"][1])["secretFile"] == "/etc/qrcheckin/secrets/GATE-2"
    # QRCHECKIN_CONFIG set but empty: no config file, the service's secret still.
    assert json.loads(results["no-config"][1])["url"] == ref.url(service, "DEMO", 15, T, 0)
    assert json.loads(results["explicit"][1])["url"] == developer_url, "--secret-file still wins"


def test_a_user_who_cannot_read_the_service_secret_keeps_their_own_defaults(tmp_path):
    service, developer, own = (secrets.token_bytes(32) for _ in range(3))
    with reachable_directory("qrcheckin-installed-") as state:
        (state / "secret").write_text(own.hex() + "\n")
        os.chown(state / "secret", 65534, 65534)
        (state / "secret").chmod(0o600)
        nobody = "setpriv --reuid nobody --regid nogroup --clear-groups"
        results = packaged_host(tmp_path, service, developer, {
            "none": f"CLEAN HOME=/nonexistent {nobody} BIN code --at {T}",
            "own": f"CLEAN HOME=/nonexistent STATE_DIRECTORY={state} {nobody} BIN code --json --at {T}",
        })
    code, _, err = results["none"]
    assert code == 77, results["none"]
    assert err == ("qrcheckin: cannot read /etc/qrcheckin/secret, the secret of the installed qrcheckin service "
                   "(run as root, or pass --secret-file), and this user has none of its own "
                   "(/nonexistent/.local/state/qrcheckin/secret does not exist)\n")
    # Their own `run`'s secret, with their own defaults: the service's config is not read.
    own_code = json.loads(results["own"][1])
    assert own_code["url"] == ref.url(own, "DEMO", 15, T, 0), results["own"]


def test_code_and_verify_agree_with_a_daemon_started_as_the_unit_starts_it(tmp_path):
    service, developer = secrets.token_bytes(32), secrets.token_bytes(32)
    out, state, credentials = tmp_path / "run", tmp_path / "state", tmp_path / "credentials"
    # What qrcheckin.service passes: its config, the secret as a credential, its directories.
    unit = (f"env -i PATH=/usr/bin:/bin QRCHECKIN_CONFIG=/etc/qrcheckin/qrcheckin.conf CREDENTIALS_DIRECTORY={credentials} "
            f"RUNTIME_DIRECTORY={out} STATE_DIRECTORY={state} BIN run")
    daemon = (f"mkdir -p -m 0700 {credentials} && cp /etc/qrcheckin/secret {credentials}/secret && "
              f"({unit} 2>{tmp_path}/daemon.log & echo $! >{tmp_path}/daemon.pid; "
              f"i=0; until [ -s {out}/current.json ] || [ $i -ge 300 ]; do sleep 0.05; i=$((i+1)); done)")
    snapshot = tmp_path / "current.json"
    results = packaged_host(tmp_path, service, developer, {
        "daemon": daemon,
        "snapshot": f"cp {out}/current.json {snapshot}",
        "verify": f"CLEAN BIN verify --json \"$(sed -n 's/.*\"url\":\"\\([^\"]*\\)\".*/\\1/p' {snapshot})\"",
        "code": f"CLEAN BIN code --json --at \"$(sed -n 's/.*\"issuedAt\":\\([0-9]*\\).*/\\1/p' {snapshot})\"",
        "stop": f"pid=$(cat {tmp_path}/daemon.pid); kill $pid; i=0; while kill -0 $pid 2>/dev/null && [ $i -lt 200 ]; "
                f"do sleep 0.05; i=$((i+1)); done; ! kill -0 $pid 2>/dev/null",
    })
    shown = json.loads(snapshot.read_text())
    assert results["verify"][0] == 0, (results, (tmp_path / "daemon.log").read_text())
    assert json.loads(results["verify"][1])["secretFile"] == "/etc/qrcheckin/secret"
    code = json.loads(results["code"][1])
    assert (code["url"], code["venue"], code["period"]) == (shown["url"], "HALL-1", 30), (code, shown)
    assert results["stop"][0] == 0, "the daemon stopped"
