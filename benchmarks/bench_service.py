"""Service latency: from a frame's timestamp to the websocket message for its event.

Starts the real app on 127.0.0.1 with the demo clip playing in real time, connects websocket
clients, and for every event/update message measures ``received - due``, where ``due`` is the
moment the frame that produced it was due on the video's clock (the runner records it). Prints
p50/p99 and the number of important messages any client missed, for 1 client and for 200.

    .venv/bin/python benchmarks/bench_service.py [--clip sample_videos/X.mp4] [--clients 1 200]

Bounded: each run lasts one play of the clip (at most --seconds), then everything stops.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn
import websockets

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


async def _client(url: str, stop_at: float, got: list[tuple[int, float]], first_seq: list[int]) -> None:
    async with websockets.connect(url, max_size=2**22) as ws:
        snap = json.loads(await ws.recv())
        first_seq.append(snap["seq"])
        while time.monotonic() < stop_at:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.05, stop_at - time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(raw)
            if msg.get("type") in ("event", "update", "question", "notice", "input"):
                got.append((msg["seq"], time.monotonic()))


def run_once(clip: Path, clients: int, seconds: float, pipeline: str) -> dict[str, Any]:
    from tableref.api.app import create_app
    from tableref.api.settings import Settings

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp), token="bench", media_dirs=(clip.parent,), demo_clip=str(clip),
                            demo_loop=False, client_queue=1024)
        app = create_app(settings)
        service = app.state.service
        port = _free_port()
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                               ws_max_size=2**20))
        thread = threading.Thread(target=server.run, daemon=True)
        # Hold the clip until every client is connected, so each sees the whole match.
        real_start = service.start_runner
        gate = threading.Event()

        def delayed(row: dict[str, Any]) -> None:
            row = {**row, "pipeline": pipeline}
            loop = asyncio.get_running_loop()

            async def later() -> None:
                while not gate.is_set():
                    await asyncio.sleep(0.02)
                real_start(row)

            loop.create_task(later())

        service.start_runner = delayed
        thread.start()
        while not server.started:
            time.sleep(0.05)
        url = f"ws://127.0.0.1:{port}/ws/tables/demo"
        got: list[list[tuple[int, float]]] = [[] for _ in range(clients)]
        first: list[int] = []

        async def main() -> None:
            stop_at = time.monotonic() + seconds + 5
            tasks = [asyncio.create_task(_client(url, stop_at, got[i], first)) for i in range(clients)]
            while len(first) < clients:
                await asyncio.sleep(0.05)
            gate.set()
            # Stop once the clip has ended and the last messages had time to arrive.
            while time.monotonic() < stop_at:
                await asyncio.sleep(0.2)
                status = service.sessions["demo"].status.get("state")
                if status == "stopped":
                    await asyncio.sleep(1.0)
                    break
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run(main())
        runner = service.runners.get("demo")
        due = dict(runner.due) if runner else {}
        last_seq = service.hub.last_seq("demo")
        server.should_exit = True
        thread.join(timeout=10)
    latencies = [(t - due[seq]) * 1000 for per in got for seq, t in per if seq in due]
    expected = {seq for seq in range(min(first) + 1, last_seq + 1)} if first else set()
    lost = sum(len(expected - {seq for seq, _ in per}) for per in got)
    return {"clients": clients, "messages": len(latencies), "p50_ms": round(_pct(latencies, 0.5), 1),
            "p99_ms": round(_pct(latencies, 0.99), 1), "max_ms": round(max(latencies, default=float("nan")), 1),
            "mean_ms": round(statistics.fmean(latencies), 1) if latencies else None, "lost": lost,
            "pipeline": pipeline}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clip", type=Path, default=None, help="a sample clip (default: the demo's)")
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 200])
    parser.add_argument("--seconds", type=float, default=25.0, help="upper bound on one run")
    parser.add_argument("--pipeline", choices=("truth", "vision"), default="truth")
    args = parser.parse_args()
    clip = args.clip
    if clip is None:
        from tableref.api.app import _demo_row
        from tableref.api.settings import Settings

        row = _demo_row(Settings())
        if row is None:
            print("no sample clip found in sample_videos/; run `make samples`", file=sys.stderr)
            return 2
        clip = Path(row["source"])
    for n in args.clients:
        print(json.dumps({"clip": clip.name, **run_once(clip, n, args.seconds, args.pipeline)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
