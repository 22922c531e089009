"""Operations: the detailed health report, structured (JSON) logs, the listening-address check."""

from __future__ import annotations

import errno
import json
import logging
import socket
import threading
import time
from typing import Any
from urllib.parse import urlsplit

from reverie.config import Settings, describe_extractor, llm_setup_hint
from reverie.errors import ConfigError
from reverie.memory import Memory
from reverie.server.deps import is_loopback

_DEFAULT_PORTS = {"ollama": 11434, "openai": 443, "anthropic": 443}
_DEFAULT_HOSTS = {"openai": "api.openai.com", "anthropic": "api.anthropic.com", "ollama": "127.0.0.1"}
_PROBE_SECONDS = 15.0


def check_listen_address(settings: Settings, memory_admins: int | None = None) -> None:
    """Refuse to serve beyond this machine without TLS, or before any admin account exists."""
    conf = settings.server
    if is_loopback(conf.host):
        return
    if not (conf.tls_certfile and conf.tls_keyfile) and not conf.behind_tls_proxy:
        raise ConfigError(
            f"Refusing to listen on {conf.host} without TLS: passwords and tokens would cross the network "
            "in clear. Set [server] tls_certfile and tls_keyfile, or behind_tls_proxy = true when a reverse "
            "proxy terminates TLS, or listen on 127.0.0.1."
        )
    if memory_admins == 0:
        raise ConfigError(
            f"Refusing to listen on {conf.host} before an admin account exists (the setup page answers "
            "only on this machine): run `reverie users add NAME --admin` first."
        )


def check_port_free(host: str, port: int) -> None:
    """ConfigError naming the fix when another program already listens on ``host``:``port``."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise ConfigError(f"Cannot listen on {host}: {exc.strerror}; set host under [server]") from exc
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            probe.bind(address)
        except OSError as exc:
            reason = "is in use by another program" if exc.errno == errno.EADDRINUSE else f"({exc.strerror})"
            raise ConfigError(
                f"Cannot listen on {host}:{port}: the port {reason}. Stop that program (another "
                f"`reverie serve`?), or pick a free port: `reverie serve --port {port + 1}` or "
                "port = ... under [server] in reverie.toml"
            ) from exc


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, and any ``extra`` fields."""

    _STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "color_message"}

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in self._STANDARD and not key.startswith("_"):
                entry[key] = value if isinstance(value, (str, int, float, bool, type(None))) else str(value)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


class QueryRedactor(logging.Filter):
    """Drop query-string values from access-log lines: the words of a search are private."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        # uvicorn's access record: (client address, method, path with query, HTTP version, status)
        if isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str) and "?" in args[2]:
            record.args = (args[0], args[1], redact_query(args[2]), *args[3:])
        return True


def redact_query(target: str) -> str:
    """``/search?q=my+secret&limit=5`` -> ``/search?q=…&limit=…`` (names kept, values dropped)."""
    path, _, query = target.partition("?")
    names = [part.partition("=")[0] for part in query.split("&") if part]
    return f"{path}?{'&'.join(f'{name[:40]}=…' for name in names[:20])}"


def log_config(log_format: str, level: str) -> dict[str, Any]:
    """A logging dictConfig for uvicorn and Reverie: ``text`` or ``json`` lines on stderr."""
    formatter: dict[str, Any] = (
        {"()": "reverie.server.ops.JsonFormatter"}
        if log_format == "json"
        else {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    )
    handler = {"class": "logging.StreamHandler", "formatter": "default", "stream": "ext://sys.stderr"}
    upper = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"default": formatter},
        "filters": {"no_query": {"()": "reverie.server.ops.QueryRedactor"}},
        "handlers": {"default": handler},
        "loggers": {
            "reverie": {"handlers": ["default"], "level": upper, "propagate": False},
            "uvicorn": {"handlers": ["default"], "level": upper, "propagate": False},
            "uvicorn.error": {"level": upper},
            "uvicorn.access": {
                "handlers": ["default"],
                "level": upper,
                "propagate": False,
                "filters": ["no_query"],
            },
        },
    }


class UpstreamProbe:
    """Whether the configured LLM's address accepts connections (cached for a few seconds)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._lock = threading.Lock()
        self._last: tuple[float, dict[str, Any]] | None = None

    def status(self) -> dict[str, Any]:
        """provider, model, endpoint and reachable (None when no LLM is configured)."""
        llm = self.settings.llm
        if llm.provider == "none":
            return {"provider": "none", "reachable": None}
        with self._lock:
            if self._last is not None and time.monotonic() - self._last[0] < _PROBE_SECONDS:
                return self._last[1]
        endpoint = llm.endpoint or f"https://{_DEFAULT_HOSTS.get(llm.provider, '127.0.0.1')}"
        parts = urlsplit(endpoint if "://" in endpoint else f"http://{endpoint}")
        port = parts.port or _DEFAULT_PORTS.get(llm.provider, 443 if parts.scheme == "https" else 80)
        try:
            with socket.create_connection((parts.hostname or "127.0.0.1", port), timeout=0.5):
                reachable, error = True, ""
        except OSError as exc:
            reachable, error = False, str(exc.strerror or exc)
        result = {"provider": llm.provider, "model": llm.model, "endpoint": endpoint, "reachable": reachable}
        if error:
            result["error"] = error
        with self._lock:
            self._last = (time.monotonic(), result)
        return result


def startup_report(settings: Settings, memory: Memory, probe: UpstreamProbe) -> list[str]:
    """What a newcomer needs at startup: the URL, the data folder, the config file, the models."""
    conf = settings.server
    scheme = "https" if conf.tls_certfile else "http"
    config = settings.config_file
    service = memory.embeddings
    lines = [
        f"Reverie is at {scheme}://{conf.host}:{conf.port}/ (API docs at /docs)",
        f"Data folder: {settings.home}",
        f"Config file: {config}" + ("" if config.exists() else " (not there yet: the defaults apply)"),
        f"Embedder: {service.model_id if service else 'off (keyword search only)'}",
        "Extractor: "
        + (
            describe_extractor(settings)
            if memory.extraction_model
            else "rules (offline): power phrases and rules; an LLM under [llm] adds more"
        ),
    ]
    upstream = probe.status()
    if upstream["reachable"] is None:
        lines.append("LLM: none configured, so chat is off; " + llm_setup_hint(settings))
    elif upstream["reachable"]:
        lines.append(f"LLM: {upstream['provider']} {upstream['model']} at {upstream['endpoint']} (answers)")
    else:
        lines.append(
            f"LLM: {upstream['provider']} {upstream['model']} at {upstream['endpoint']} does NOT answer "
            f"({upstream.get('error', '?')}): start it, or fix endpoint under [llm] in {config}"
        )
    return lines


def health_report(memory: Memory, workers: dict[str, bool], probe: UpstreamProbe) -> dict[str, Any]:
    """Store, embedder, upstream LLM and background workers, and an overall status."""
    checks: dict[str, Any] = {}
    try:
        checks["store"] = {
            "ok": True,
            "schema_version": memory.store.schema_version(),
            "consolidation": memory.store.consolidation_counts(),
        }
    except Exception as exc:  # the report must answer even when the database does not
        checks["store"] = {"ok": False, "error": str(exc)}
    embeddings = memory.embeddings
    checks["embedder"] = (
        {"enabled": False}
        if embeddings is None
        else {"enabled": True, "model": embeddings.model_id, "paused": embeddings.paused}
    )
    checks["llm"] = probe.status()
    extractor = describe_extractor(memory.settings) if memory.extraction_model else "rules (offline)"
    checks["extractor"] = extractor
    scan = memory.documents.progress()
    checks["workers"] = {**workers, "document_scan": scan.state}
    degraded = (
        not checks["store"]["ok"]
        or checks["llm"].get("reachable") is False
        or bool(checks["embedder"].get("paused"))
        or not all(workers.values())
    )
    return {"status": "degraded" if degraded else "ok", "checks": checks}


__all__ = [
    "JsonFormatter",
    "QueryRedactor",
    "UpstreamProbe",
    "check_listen_address",
    "check_port_free",
    "health_report",
    "log_config",
    "redact_query",
    "startup_report",
]
