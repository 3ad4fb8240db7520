"""Service settings from flags and environment, with defaults that make ``tableref serve`` a demo."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from tableref.errors import UserError

REPO_ROOT = Path(__file__).resolve().parents[1]
BUNDLED_SAMPLES = REPO_ROOT / "sample_videos"


@dataclass(frozen=True)
class Settings:
    """Everything the service needs; ``from_env`` reads ``TABLEREF_*`` variables.

    ``media_dirs``: the only folders a file source may come from (the bundled samples included),
    so a table configuration cannot make the service read arbitrary files.

    ``demo_pipeline``: what the demo table runs (``TABLEREF_DEMO_PIPELINE``). Unset: the camera
    pipeline (``vision``) whenever the clip has a calibration beside it (the bundled demo clip
    ships one) or no truth file; ``truth`` only for a simulated clip with a truth file and no
    calibration (the service's own tests and development, labelled as such on the tablet).
    """

    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = Path("tableref-data")
    token: str = ""
    media_dirs: tuple[Path, ...] = (BUNDLED_SAMPLES,)
    demo: bool = True
    demo_clip: str | None = None
    demo_loop: bool = True
    demo_pipeline: str | None = None
    max_message_bytes: int = 16_384
    max_messages_per_second: float = 20.0
    #: REST bodies other than inputs (table configuration with a calibration, calibration uploads)
    max_upload_bytes: int = 262_144
    #: REST writes per second from one client address, and the burst allowed (0: no limit)
    max_writes_per_second: float = 30.0
    write_burst: float = 60.0
    client_queue: int = 256
    heartbeat_s: float = 10.0
    playback_speed: float = 1.0
    #: how late (s) a file's frame may be processed before frames are dropped to catch up, as a live
    #: camera would; tests that check what the pipeline sees (not its speed) raise it so that a
    #: loaded machine drops no frame and every event still happens
    max_lag_s: float = 0.5
    database_url: str | None = None
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def db_path(self) -> Path:
        return self.data_dir / "tableref.sqlite3"

    @property
    def stills_dir(self) -> Path:
        return self.data_dir / "stills"

    @staticmethod
    def from_env(host: str | None = None, port: int | None = None, data_dir: str | None = None) -> Settings:
        env = os.environ
        data = Path(data_dir or env.get("TABLEREF_DATA_DIR", "tableref-data"))
        media = [Path(p) for p in env.get("TABLEREF_MEDIA_DIR", "").split(os.pathsep) if p]
        return Settings(
            host=host or env.get("TABLEREF_HOST", "127.0.0.1"),
            port=port if port is not None else int(_number("TABLEREF_PORT", "8000", whole=True, low=1, high=65535)),
            data_dir=data,
            token=env.get("TABLEREF_TOKEN", ""),
            media_dirs=(*media, BUNDLED_SAMPLES),
            demo=env.get("TABLEREF_DEMO", "1") not in ("0", "false", "no"),
            demo_clip=env.get("TABLEREF_DEMO_CLIP") or None,
            demo_loop=env.get("TABLEREF_DEMO_LOOP", "1") not in ("0", "false", "no"),
            demo_pipeline=_choice("TABLEREF_DEMO_PIPELINE", ("vision", "truth")),
            playback_speed=_number("TABLEREF_SPEED", "1.0", low=0.01),
            max_writes_per_second=_number("TABLEREF_WRITES_PER_SECOND", "30", low=0.0),
            database_url=env.get("DATABASE_URL") or None,
        )


def _number(name: str, default: str, whole: bool = False, low: float | None = None, high: float | None = None) -> float:
    """A numeric environment setting, or a ``UserError`` naming the variable and what it accepts."""
    text = os.environ.get(name, default).strip()
    accepted = ("a whole number" if whole else "a number") + (f" from {low:g}" if low is not None else "") + \
        (f" to {high:g}" if high is not None else "")
    try:
        value = float(int(text)) if whole else float(text)
    except ValueError:
        raise UserError(f"{name}={text!r} is not {accepted}") from None
    if (low is not None and value < low) or (high is not None and value > high) or value != value:
        raise UserError(f"{name}={text!r}: accepted is {accepted}")
    return value


def _choice(name: str, accepted: tuple[str, ...]) -> str | None:
    text = os.environ.get(name) or None
    if text is not None and text not in accepted:
        raise UserError(f"{name}={text!r}; accepted: {', '.join(accepted)} (or unset)")
    return text


def resolve_token(settings: Settings) -> str:
    """The referee token: configured, or made once and kept in the data folder (0600)."""
    if settings.token:
        return settings.token
    path = settings.data_dir / "referee-token"
    if path.is_file():
        return path.read_text("utf-8").strip()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(18)
    path.write_text(token + "\n", "utf-8")
    path.chmod(0o600)
    return token
