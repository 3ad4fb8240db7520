"""Service latency: from a frame's timestamp to the websocket message for its event.

Starts the real app on 127.0.0.1 with the demo clip playing in real time through the demo's
pipeline (``vision`` by default: calibration, detection, tracking, events, referee; ``--pipeline
truth`` replays the simulator's truth instead), connects websocket clients, and for every
event/update message measures ``received - due``, where ``due`` is the moment the frame that
produced it was due on the video's clock (the runner records it). Prints p50/p99 and the number
of important messages any client missed, for 1 client and for 200; and whether the pipeline kept
up with the clip: frames processed and dropped (the runner drops frames more than 0.5 s late),
the pipeline's time per frame, and ``event_*``: latency from the moment the event happened on the
clip (the vision pipeline confirms some events a few frames later: a pin fall after 3 frames, a
rest after 0.4 s of stillness).

    .venv/bin/python benchmarks/bench_service.py [--clip sample_videos/X.mp4] [--clients 1 200] [--cores 1]

The tablets run in a child process (they are other devices; parsing 200 streams is not the
server's work). ``--cores N`` pins the server (and its pipeline) to N CPUs, with one thread per
numeric library, and the tablets to the others. Bounded: each run lasts one play of the clip (at
most --seconds), then everything stops.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import asyncio  # noqa: E402
import contextlib  # noqa: E402
import json  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import uvicorn  # noqa: E402
import websockets  # noqa: E402

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


async def _client(url: str, stop: asyncio.Event, got: list[tuple[int, float, float | None]],
                  first_seq: list[int]) -> None:
    async with websockets.connect(url, max_size=2**22) as ws:
        snap = json.loads(await ws.recv())
        first_seq.append(snap["seq"])
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.2)
            except TimeoutError:
                continue
            msg = json.loads(raw)
            if msg.get("type") in ("event", "update", "question", "notice", "input"):
                t = msg.get("t")
                got.append((msg["seq"], time.monotonic(), float(t) if isinstance(t, (int, float)) else None))


def clients_main(url: str, clients: int, seconds: float) -> int:
    """The tablets, in their own process (the server's CPUs serve, they do not parse): connect
    ``clients`` websockets, say ``ready``, read until standard input closes (or ``seconds``),
    then print what each received as JSON. ``time.monotonic`` is the system's clock on Linux, so
    the parent compares receive times with its frames' due times."""

    async def run() -> dict[str, Any]:
        stop = asyncio.Event()
        got: list[list[tuple[int, float, float | None]]] = [[] for _ in range(clients)]
        first: list[int] = []
        tasks = [asyncio.create_task(_client(url, stop, got[i], first)) for i in range(clients)]
        deadline = time.monotonic() + seconds
        while len(first) < clients and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        print("ready", flush=True)
        eof = asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(eof, timeout=max(1.0, deadline - time.monotonic()))
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        return {"first": first, "got": got}

    result = asyncio.run(run())
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
    os._exit(0)  # the stdin reader thread may still be blocked


def run_once(clip: Path, clients: int, seconds: float, pipeline: str, client_cpus: set[int] | None) -> dict[str, Any]:
    from tableref.api.app import create_app
    from tableref.api.settings import Settings

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp), token="bench", media_dirs=(clip.parent,), demo_clip=str(clip),
                            demo_loop=False, client_queue=1024)
        app = create_app(settings)
        service = app.state.service
        port = _free_port()
        # as `tableref serve` runs it (api/cli.py): no per-message deflate
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                               ws_max_size=2**20, ws_per_message_deflate=False))
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
        child = subprocess.Popen(
            [sys.executable, __file__, "--tablets", url, str(clients), str(seconds + 30),
             ",".join(str(c) for c in sorted(client_cpus)) if client_cpus else "-"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert child.stdin is not None and child.stdout is not None
        child.stdout.readline()  # "ready": every tablet has its snapshot
        gate.set()
        # Stop once the clip has ended and the last messages had time to arrive.
        stop_at = time.monotonic() + seconds + 5
        while time.monotonic() < stop_at:
            time.sleep(0.2)
            if service.sessions["demo"].status.get("state") in ("stopped", "error"):
                time.sleep(1.0)
                break
        out, _ = child.communicate(input="", timeout=60)  # closing its input ends the tablets
        received = json.loads(out.strip().splitlines()[-1])
        first: list[int] = received["first"]
        got = [[(int(a), float(b), c) for a, b, c in per] for per in received["got"]]
        runner = service.runners.get("demo")
        due = dict(runner.due) if runner else {}
        last_seq = service.hub.last_seq("demo")
        status = dict(service.sessions["demo"].status)
        process_ms = [1000 * s for s in runner.process_s] if runner else []
        frames = (runner.frames_seen, runner.frames_dropped) if runner else (0, 0)
        clock = runner.clock_start if runner else None
        speed = runner.speed if runner else 1.0
        log = service.store.log("demo")
        fouls = [r.body.get("code") for r in log if r.kind == "update" and r.body.get("kind") == "foul"]
        scores = service.sessions["demo"].engine.scores() if service.sessions["demo"].engine else {}
        server.should_exit = True
        thread.join(timeout=10)
    latencies = [(t - due[seq]) * 1000 for per in got for seq, t, _ in per if seq in due]
    since_event = [(t - (clock + et / speed)) * 1000 for per in got for seq, t, et in per
                   if seq in due and et is not None and clock is not None]
    expected = {seq for seq in range(min(first) + 1, last_seq + 1)} if first else set()
    lost = sum(len(expected - {seq for seq, _, _ in per}) for per in got)
    fps = _clip_fps(clip)
    return {"clients": clients, "pipeline": status.get("pipeline", pipeline), "messages": len(latencies),
            "p50_ms": round(_pct(latencies, 0.5), 1), "p99_ms": round(_pct(latencies, 0.99), 1),
            "max_ms": round(max(latencies, default=float("nan")), 1),
            "mean_ms": round(statistics.fmean(latencies), 1) if latencies else None, "lost": lost,
            "event_p50_ms": round(_pct(since_event, 0.5), 1), "event_p99_ms": round(_pct(since_event, 0.99), 1),
            "frames": frames[0], "dropped": frames[1], "clip_fps": fps,
            "process_p50_ms": round(_pct(process_ms, 0.5), 2), "process_p99_ms": round(_pct(process_ms, 0.99), 2),
            "process_max_ms": round(max(process_ms, default=float("nan")), 2),
            "pipeline_fps": round(1000 / statistics.fmean(process_ms), 1) if process_ms else None,
            "fouls": fouls, "scores": scores, "state": status.get("state"), "error": status.get("error")}


def _clip_fps(clip: Path) -> float:
    import cv2

    cap = cv2.VideoCapture(str(clip))
    fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
    cap.release()
    return round(fps, 2)


def main() -> int:
    if len(sys.argv) == 6 and sys.argv[1] == "--tablets":
        if sys.argv[5] != "-":
            os.sched_setaffinity(0, {int(c) for c in sys.argv[5].split(",")})
        return clients_main(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clip", type=Path, default=None, help="a sample clip (default: the demo's)")
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 200])
    parser.add_argument("--seconds", type=float, default=25.0, help="upper bound on one run")
    parser.add_argument("--pipeline", choices=("truth", "vision"), default="vision")
    parser.add_argument("--cores", type=int, default=None, help="pin the process to this many CPUs")
    args = parser.parse_args()
    client_cpus: set[int] | None = None
    if args.cores is not None:
        if args.cores < 1:
            print("--cores must be 1 or more", file=sys.stderr)
            return 2
        available = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, set(available[:args.cores]))
        client_cpus = set(available[args.cores:]) or None
        import cv2

        cv2.setNumThreads(1)
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
        print(json.dumps({"clip": clip.name, **run_once(clip, n, args.seconds, args.pipeline, client_cpus)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
