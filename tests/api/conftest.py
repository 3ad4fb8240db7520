"""Fixtures for the service: a fake engine, a tiny clip with a truth file, a real uvicorn server."""

from __future__ import annotations

import json
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tableref import referee

#: Debian's Chromium (never a downloaded browser), and the switches that keep it offline and quiet.
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def launch_chromium(pw: Any) -> Any:
    """A headless Chromium for the tablet tests (``pw``: a started sync Playwright)."""
    return pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


def assert_usable(page: Any, width: int, buttons: list[str]) -> None:
    """Nothing wider than the screen (no sideways scrolling) and each button a finger-sized target
    (44 CSS pixels high) lying wholly on the screen's width."""
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{overflow}px wider than a {width}px screen"
    for sel in buttons:
        box = page.locator(sel).bounding_box()
        assert box is not None, sel
        assert box["x"] >= 0 and box["x"] + box["width"] <= width and box["height"] >= 44, (sel, box)


@pytest.fixture(autouse=True)
def counting_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the fake engine under the name 'counting' (tests that need a real game say so)."""
    monkeypatch.setitem(referee.ENGINES, "counting", "tests.api.fake_engine:CountingEngine")


def make_clip(folder: Path, name: str = "clip", frames: int = 45, fps: float = 30.0,
              events: list[dict] | None = None, game: str = "bar-billiards",
              inputs: list[dict] | None = None) -> Path:
    """A small real video file plus ``NAME.truth.json`` with the given events."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.mp4"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), fps, (160, 96))
    for i in range(frames):
        img = np.full((96, 160, 3), (40, 110, 60), np.uint8)
        cv2.circle(img, (10 + i * 3 % 140, 48), 6, (240, 240, 240), -1)
        writer.write(img)
    writer.release()
    states = [[{"id": "red", "kind": "red", "x": 500.0 + i, "y": 300.0, "status": "on_table"}] for i in range(frames)]
    truth = {"game": game, "table": "bar-billiards", "fps": fps, "states": states, "events": events or [],
             "inputs": inputs or []}
    path.with_suffix(".truth.json").write_text(json.dumps(truth))
    return path


#: A bar-billiards break on a tiny clip: home breaks off, pots the red, then knocks the white pin
#: over (rule 3b(a)), so a real engine calls one foul. The service tests that need a real game share it.
COIN_TOSS = [{"t": 0.1, "input": "coin_toss", "winner": "home", "choice": "break", "by": "referee"}]
PIN_FOUL_EVENTS = [
    {"t": 0.5, "frame": 15, "type": "shot_start", "objects": ["white-1"], "position": [305, 381],
     "positions": {"white-1": [305, 381], "red": [560, 381]}},
    {"t": 0.7, "frame": 21, "type": "contact", "objects": ["white-1", "red"]},
    {"t": 1.0, "frame": 30, "type": "pot", "objects": ["red"], "where": "hole-100"},
    {"t": 1.4, "frame": 42, "type": "at_rest", "objects": [], "positions": {"white-1": [1480, 260]}},
    {"t": 1.8, "frame": 54, "type": "placed", "objects": ["red"], "position": [290, 390]},
    {"t": 2.1, "frame": 63, "type": "shot_start", "objects": ["red"], "position": [290, 390],
     "positions": {"red": [290, 390], "white-1": [1480, 260]}},
    {"t": 2.4, "frame": 72, "type": "contact", "objects": ["red", "white-1"]},
    {"t": 2.6, "frame": 78, "type": "pin_fall", "objects": ["pin-50-left"], "colour": "white"},
    {"t": 3.0, "frame": 90, "type": "at_rest", "objects": [], "positions": {"red": [1100, 520], "white-1": [1500, 300]}},
]
#: Three events the fake 'counting' engine turns into a score and a foul each.
COUNTING_FOUL_EVENTS = [
    {"t": 0.2, "frame": 6, "type": "pot", "objects": ["red"], "where": "hole-100"},
    {"t": 0.5, "frame": 15, "type": "pin_fall", "objects": ["pin-50-left"], "colour": "white"},
    {"t": 0.8, "frame": 24, "type": "pot", "objects": ["white-1"], "where": "hole-10-left"},
]


def receive_until(ws: Any, pred: Callable[[list[dict[str, Any]]], bool], timeout: float = 15.0) -> list[dict[str, Any]]:
    """Websocket messages (parsed) until ``pred`` holds for those received so far, within ``timeout``
    seconds; a bounded wait, so a message that never comes fails the test with what did come."""
    got: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            msg = json.loads(ws.recv(timeout=max(0.05, deadline - time.monotonic())))
        except TimeoutError:
            break
        got.append(msg)
        if pred(got):
            return got
    raise AssertionError(f"condition not met in {timeout} s; received "
                         f"{[(m.get('type'), m.get('kind'), m.get('seq')) for m in got]}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_server(app: object, port: int) -> Iterator[str]:
    """A real uvicorn server on 127.0.0.1 in a thread; stops when the block ends."""
    import uvicorn

    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")  # type: ignore[arg-type]
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)
