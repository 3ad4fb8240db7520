"""Helpers of the round-object finder (:mod:`tableref.vision.video_balls`)."""

from __future__ import annotations

import numpy as np

from tableref.vision import video_balls
from tableref.vision.video_balls import annulus_offsets


def test_annulus_offsets_do_not_depend_on_which_radius_asked_first() -> None:
    """Replaying a recorded match must give the same calls whatever was read before it in the
    same process (the service runs several tables; a developer replays many clips). The offsets
    were cached by radii rounded to tenths but computed from the first caller's radii: a disc of
    radius 9.96 asked first left out the pixels at distance 10 that a later 10.04 wanted, and a
    carrom break read after a pool break named its men differently than read alone."""
    video_balls._OFFSETS.clear()
    first = annulus_offsets(0.0, 9.96)
    video_balls._OFFSETS.clear()
    second = annulus_offsets(0.0, 10.04)
    assert np.array_equal(first[0], second[0]) and np.array_equal(first[1], second[1])
    d2 = first[0].astype(int) ** 2 + first[1].astype(int) ** 2
    assert d2.max() == 100  # radius 10.0: the pixels at distance 10 are in
