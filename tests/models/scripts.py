"""The project's scripts (``scripts/*.py``, not a package) loaded as modules, for the tests of what
they do: the training recipe, its run summary, the data-set builder."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def load_script(name: str) -> Any:
    """``scripts/<name>.py`` as the module ``name`` (registered, so that worker processes and
    pickling find its functions by that name; its sibling modules import from ``scripts/``)."""
    if str(ROOT / "scripts") not in sys.path:
        sys.path.insert(0, str(ROOT / "scripts"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module
