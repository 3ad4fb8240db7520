"""DESIGN.md's import boundaries: the referee sees only the event types; vision never sees the referee."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _imports(folder: str) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for path in (ROOT / folder).rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.update((str(path.relative_to(ROOT)), a.name) for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add((str(path.relative_to(ROOT)), node.module))
    return found


def test_referee_imports_no_cv2_numpy_web_or_other_stages() -> None:
    forbidden = ("cv2", "numpy", "fastapi", "starlette", "uvicorn", "onnxruntime", "pymunk",
                 "tableref.vision", "tableref.calibration", "tableref.api", "tableref.simulator")
    bad = [(f, m) for f, m in _imports("referee") if m.split(".")[0] in forbidden or m.startswith(forbidden)]
    assert bad == [], f"referee/ must import only tableref.events and the standard library: {bad}"


def test_vision_and_calibration_never_import_the_referee() -> None:
    for folder in ("vision", "calibration", "simulator"):
        bad = [(f, m) for f, m in _imports(folder) if m.startswith("tableref.referee") or m.startswith("tableref.api")]
        assert bad == [], f"{folder}/ must not import the referee or the service: {bad}"


def test_referee_really_runs_without_numpy() -> None:
    """Import every engine in a subprocess where numpy and cv2 cannot be imported at all."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('numpy', 'cv2', 'fastapi'):\n"
        "            raise ImportError('blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from tableref.referee import ENGINES, engine_class\n"
        "import importlib\n"
        "for game, target in ENGINES.items():\n"
        "    mod = target.split(':')[0]\n"
        "    try:\n"
        "        importlib.util.find_spec(mod)\n"
        "    except ModuleNotFoundError:\n"
        "        continue\n"
        "    if importlib.util.find_spec(mod) is not None:\n"
        "        engine_class(game)()\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
