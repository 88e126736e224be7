"""A throwaway PostgreSQL cluster for the e2e tests: initdb and pg_ctl in a temporary
directory (as the postgres user when the tests run as root), a Unix socket only, no TCP port.
A watchdog in its own session holds the read end of a pipe only this process writes: however
this process ends (a failed test, a crash, SIGKILL), the watchdog sees the pipe close, stops the
cluster and removes the directory."""
import os
import pwd
import shlex
import subprocess
import tempfile
from pathlib import Path


def binaries():
    """The newest PostgreSQL's server programs (Debian: /usr/lib/postgresql/N/bin)."""
    versions = sorted((int(name) for name in os.listdir("/usr/lib/postgresql") if name.isdigit()), reverse=True)
    for version in versions:
        if os.access(f"/usr/lib/postgresql/{version}/bin/initdb", os.X_OK):
            return f"/usr/lib/postgresql/{version}/bin"
    raise RuntimeError("no PostgreSQL server programs (apt-get install postgresql)")


class PostgresCluster:
    """One cluster; `uri(db)` is the libpq URI of its database `db`."""

    def __init__(self, fsync=True):
        self.bin = binaries()
        # Under /tmp and the postgres user's own: reachable by it whatever the tests' tmp_path is.
        self.dir = Path(tempfile.mkdtemp(prefix="qrcheckin-pg-e2e.", dir="/tmp"))
        self.as_root = os.geteuid() == 0
        if self.as_root:
            user = pwd.getpwnam("postgres")
            os.chown(self.dir, user.pw_uid, user.pw_gid)
        self.data = self.dir / "data"
        self.options = f"-k {self.dir} -c listen_addresses='' -c max_connections=200" + ("" if fsync else " -c fsync=off")
        read_end, self._watchdog_pipe = os.pipe()  # not inherited by any other child (PEP 446)
        stop = shlex.join(self.command("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop"))
        self.watchdog = subprocess.Popen(["/bin/sh", "-c", f"read -r _; {stop} >/dev/null 2>&1; rm -rf {shlex.quote(str(self.dir))}"],
                                         stdin=read_end, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                         start_new_session=True)
        os.close(read_end)
        try:
            self.run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync")
            self.start()
        except BaseException:
            self.close()
            raise

    def command(self, program, *args):
        argv = [f"{self.bin}/{program}", *args]
        return ["runuser", "-u", "postgres", "--", *argv] if self.as_root else argv

    def run(self, program, *args, timeout=120):
        with open(self.dir / "commands.log", "ab") as log:
            result = subprocess.run(self.command(program, *args), stdout=log, stderr=log, timeout=timeout, cwd=self.dir)
        if result.returncode != 0:
            raise RuntimeError(f"{program} exited {result.returncode}: {(self.dir / 'commands.log').read_text()[-2000:]}")

    def start(self):
        """Starts the server and returns once it accepts connections."""
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.dir / "log"), "-o", self.options, "-w", "start")

    def stop(self, mode="fast"):
        self.run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def uri(self, database):
        return f"postgresql:///{database}?host={self.dir}&user=postgres"

    def createdb(self, name):
        self.sql("postgres", f"CREATE DATABASE {name}")
        return self.uri(name)

    def sql(self, database, statement):
        """Runs `statement` with psql; returns its rows as lists of strings."""
        result = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-d", self.uri(database),
                                 "-c", statement], capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        return [line.split("\t") for line in result.stdout.splitlines() if line]

    def close(self):
        """Stops everything and removes the directory; returns once that is done."""
        if self._watchdog_pipe is not None:
            os.close(self._watchdog_pipe)
            self._watchdog_pipe = None
            self.watchdog.wait(60)
