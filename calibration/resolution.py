"""Is the camera close enough? The pixels a millimetre over the area of play, against what the
readers need.

Why: a venue chooses the camera, its height and its zoom once, and every call afterwards depends
on it. A card's suit at a venue camera's scale is a few pixels: on rendered card clips at about
0.45 pixels a millimetre (a 1280x720 camera over the whole card table, cards about 40 pixels long)
one black jack, queen or king in eight is read with the wrong black suit from a single view. Over
whole rendered hands, at the spot where each black court card lay: below 0.45 px/mm 6 of 12 were
named wrong, from 0.45 to 0.6 px/mm 4 of 83 (all 1280x720 clips), from 0.6 px/mm up none of 41
(1920x1080 clips, cards 53 pixels long and more; README, measured figures). The need is therefore
0.6, taken at the far corner of the board, where a card may lie. Telling the venue at calibration time,
with the figure and what to change, costs nothing; finding out from a disputed trick costs a match.

The check takes the lowest scale over the area of play (the card board and the seats' play spots;
the playing surface's corners on the ball tables), since a tilted camera sees the far side
smaller. Only the card table has a measured need so far; the ball tables report their scale with
no verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tableref.calibration.homography import numeric_scale
from tableref.calibration.spec import TableSpec

#: Pixels a millimetre the readers need, per table, with the reason (see the module docstring).
NEEDED_PX_PER_MM: dict[str, tuple[float, str]] = {
    "cards": (0.6, "to tell the spade from the club on a black jack, queen or king"),
}


#: Table millimetres (N x 2) to image pixels (N x 2), lens distortion included.
ToPixels = Callable[[Any], Any]


@dataclass(frozen=True)
class Resolution:
    """The lowest pixels a millimetre over the area of play, and the table's need (None: no
    measured need)."""

    table: str
    px_per_mm: float
    needed: float | None
    reason: str = ""
    #: The size a card takes at the lowest scale (long side, pixels), on the card table.
    card_px: float | None = None

    @property
    def ok(self) -> bool:
        return self.needed is None or self.px_per_mm >= self.needed

    def message(self) -> str:
        """One line for the venue: the scale, and when it is too low, what to change."""
        size = f" (a card's long side about {self.card_px:.0f} px)" if self.card_px is not None else ""
        text = f"camera resolution: {self.px_per_mm:.2f} px/mm at the far side of the area of play{size}"
        if self.needed is None:
            return text
        if self.ok:
            return f"{text}; enough (needs {self.needed:.2f} {self.reason})"
        ratio = self.needed / max(self.px_per_mm, 1e-9)
        factor = f"{ratio:.2f}" if ratio < 1.1 else f"{ratio:.1f}"  # never "1.0x closer"
        name = "card" if self.table == "cards" else self.table
        return (f"warning: {text}; the {name} table needs at least {self.needed:.2f} {self.reason}. "
                f"Bring the camera {factor}x closer, zoom in, or use a camera with {factor}x the "
                "pixels across (1920x1080 instead of 1280x720 is 1.5x); calls will be made, but more of "
                "them wrong")

    def to_json(self) -> dict[str, Any]:
        return {"px_per_mm": round(self.px_per_mm, 3), "needed": self.needed, "ok": self.ok,
                **({"card_px": round(self.card_px, 1)} if self.card_px is not None else {})}


def area_of_play(spec: TableSpec) -> list[tuple[float, float]]:
    """Table points whose scale bounds the area of play: the board's corners and the seats' play
    spots on the card table, the playing surface's corners (a little inside) elsewhere."""
    if spec.board is not None:
        (x0, y0), (x1, y1) = spec.board
        points = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        return points + [tuple(map(float, s.play_spot)) for s in spec.seats]  # type: ignore[misc]
    m = 0.05
    lx, ly = spec.length_mm, spec.width_mm
    return [(m * lx, m * ly), ((1 - m) * lx, m * ly), ((1 - m) * lx, (1 - m) * ly), (m * lx, (1 - m) * ly)]


def check_resolution(spec: TableSpec, to_pixels: ToPixels) -> Resolution:
    """The lowest scale over the area of play, against :data:`NEEDED_PX_PER_MM`."""
    scale = min(numeric_scale(to_pixels, p) for p in area_of_play(spec))
    needed, reason = NEEDED_PX_PER_MM.get(spec.name, (None, ""))
    card = spec.object_radius.get("card_h")
    return Resolution(spec.name, scale, needed, reason, card * scale if card else None)
