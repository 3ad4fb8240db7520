"""Run a snippet in a fresh Python where ``import torch`` fails.

Why: torch is a training dependency only (the ``train`` extra); the shipped ONNX readers must load
and read without it, and a development machine that has it installed would hide a stray import.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

_BLOCK_TORCH = """
import importlib.abc, sys

class NoTorch(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname == "torch" or fullname.startswith("torch."):
            raise ImportError("torch is blocked in this test")
        return None

sys.meta_path.insert(0, NoTorch())
"""


def run_without_torch(body: str, timeout: float) -> str:
    """Run ``body`` (dedented) after blocking torch; fail with its stderr unless it exits 0 and
    never imported torch; return what it printed."""
    script = _BLOCK_TORCH + textwrap.dedent(body) + '\nassert "torch" not in sys.modules\n'
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, out.stderr
    return out.stdout
