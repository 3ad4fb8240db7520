"""The learned detector's data set is the same files however many processes build it.

``scripts/build_dataset.py --jobs N`` renders looks in worker processes (a lent 16-core machine
builds the set in a minute); a frame must depend only on its look's seed, never on what the
process rendered before it, or a rebuilt set (and the model trained on it) is not the one its
model card describes.
"""

from __future__ import annotations

from pathlib import Path

from tests.models.scripts import load_script


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name not in ("manifest.json", "data.yaml")}


def test_two_worker_processes_write_the_same_files_as_one(tmp_path: Path) -> None:
    bd = load_script("build_dataset")
    cfgs = [bd.BuildConfig(tmp_path / name, train_looks=3, val_looks=1, frames_per_look=4,
                           val_frames_per_look=2, tables=("pool",), tile=0) for name in ("one", "two")]
    one = bd.build(cfgs[0], log=lambda _: None, jobs=1)
    two = bd.build(cfgs[1], log=lambda _: None, jobs=2)
    assert one["counts"] == two["counts"]
    a, b = _files(tmp_path / "one"), _files(tmp_path / "two")
    assert sorted(a) == sorted(b) and len(a) == 2 * (3 * 4 + 2) + 2  # images, labels, two truth files
    assert [k for k in a if a[k] != b[k]] == []
