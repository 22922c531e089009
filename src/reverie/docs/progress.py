"""How far a documents scan has come: files handled of the total, what was indexed or skipped."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

ScanState = Literal["idle", "running", "done", "failed", "stopped"]


@dataclass
class ScanProgress:
    """What the running (or last) scan has done; a snapshot is returned to callers."""

    state: ScanState = "idle"
    started_at: float | None = None
    finished_at: float | None = None
    files_total: int = 0
    files_done: int = 0
    current: str = ""
    chunks_indexed: int = 0
    indexed: int = 0
    unchanged: int = 0
    skipped: int = 0
    removed: int = 0
    excluded: int = 0
    warnings: list[str] = field(default_factory=list)
    error: str = ""

    @property
    def percent(self) -> int:
        """Whole percent of the files handled."""
        if self.state == "done":
            return 100
        return int(100 * self.files_done / self.files_total) if self.files_total else 0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {**asdict(self), "percent": self.percent}


__all__ = ["ScanProgress", "ScanState"]
