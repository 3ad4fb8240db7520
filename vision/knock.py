"""A resting object struck by a moving one leaves along the line of centres, away from its hitter.

The rule both the tracker (its tracks, in table mm) and the video detector (its memory of
objects, in work pixels) apply before they let a resting object follow a reading: a reading that
lies towards every fast object that could have hit it is that hitter arriving, not the object.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

Values = TypeVar("Values", float, NDArray[np.float64])


def towards_every(dx: Values, dy: Values, moved: Values, away: Sequence[tuple[float, float]],
                  cos_limit: float) -> bool | NDArray[np.bool_]:
    """Where a displacement (``dx``, ``dy``) of length ``moved`` from a resting object's place has
    a cosine below ``cos_limit`` with every direction in ``away`` (each from a hitter through the
    object): it points back towards all of them. Scalars give a bool, arrays an array."""
    out: bool | NDArray[np.bool_] = True
    for ux, uy in away:
        norm = math.hypot(ux, uy)
        if norm < 1e-6:
            return False  # a hitter on the object's own place says nothing of a direction
        out = out & ((dx * ux + dy * uy) < cos_limit * moved * norm)
    return out
