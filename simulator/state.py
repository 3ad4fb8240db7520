"""What the simulator hands the renderer and the truth file: object states frame by frame.

Physics (``simulator/physics.py`` and the scenarios) produces a :class:`SimResult`; the renderer
turns each :class:`FrameState` into an image through the camera model; the truth writer dumps
states and events to ``truth.json``. All positions are table millimetres (see
``calibration/spec.py`` for the frame); ``z`` is the lift of the object above its resting position (0 on the cloth, above it in a jump).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from tableref.events import TableEvent


class ObjectStatus(StrEnum):
    ON_TABLE = "on_table"
    IN_HOLE = "in_hole"  # potted: in a hole or pocket (``hole`` names it)
    FALLEN = "fallen"  # a pin lying on the cloth
    OFF_TABLE = "off_table"  # left the playing surface and did not come back (yet)
    IN_HAND = "in_hand"  # not on the table: in the trough, in a player's hand, in the deck


@dataclass(frozen=True)
class ObjectState:
    """One object at one instant.

    ``kind``: ``ball`` (pool), ``white``/``red`` (bar billiards), ``pin``, ``white``/``black``/``queen``/
    ``striker`` (carrom, told apart from bar billiards by the table), ``card``.
    ``label`` is the identity a detector should report (``ball-9``, ``white``, ``pin-200``, ``10S``).
    ``angle`` is degrees: a ball's spin for drawing its number, a fallen pin's direction, a card's
    rotation. ``colour`` is set where it is not implied by the label (a pin's colour).
    """

    id: str
    kind: str
    x: float
    y: float
    radius: float
    status: ObjectStatus = ObjectStatus.ON_TABLE
    z: float = 0.0
    vx: float = 0.0
    vy: float = 0.0
    angle: float = 0.0
    label: str = ""
    colour: str = ""
    hole: str | None = None
    face_up: bool = True
    layer: int = 0  # draw order for overlapping cards (higher is on top)

    @property
    def speed(self) -> float:
        return float((self.vx * self.vx + self.vy * self.vy) ** 0.5)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id, "kind": self.kind, "x": round(self.x, 2), "y": round(self.y, 2),
            "status": self.status.value,
        }
        if self.z:
            out["z"] = round(self.z, 2)
        if self.hole:
            out["hole"] = self.hole
        if self.label and self.label != self.id:
            out["label"] = self.label
        if self.kind == "pin" or self.kind == "card":
            out["angle"] = round(self.angle, 1)
        if self.colour:
            out["colour"] = self.colour
        if self.kind == "card":
            out["face_up"] = self.face_up
            out["layer"] = self.layer
        return out


@dataclass(frozen=True)
class CueState:
    """The cue (or, for carroms, the flicking hand) in view for a shot.

    ``tip`` is where the cue tip is (mm), ``angle`` the direction the cue points (radians, the
    direction of the stroke), ``kind`` is ``cue`` or ``hand``. The renderer draws the cue from the
    tip backwards and a forearm and hand holding it, entering from the nearest table edge.
    """

    tip: tuple[float, float]
    angle: float
    kind: str = "cue"


@dataclass(frozen=True)
class HandState:
    """A hand over the table that is not cueing: placing a ball in the D, laying a card."""

    x: float
    y: float
    angle: float  # direction the arm comes from (radians), pointing from the body to the hand
    holding: str | None = None


@dataclass(frozen=True)
class FrameState:
    index: int
    t: float
    objects: tuple[ObjectState, ...]
    cue: CueState | None = None
    hands: tuple[HandState, ...] = ()

    def by_id(self) -> dict[str, ObjectState]:
        return {o.id: o for o in self.objects}


@dataclass(frozen=True)
class SimResult:
    """A whole simulated clip: the frame states, the true events, and how it was made."""

    game: str
    table: str
    scenario: str
    seed: int
    fps: float
    frames: tuple[FrameState, ...]
    events: tuple[TableEvent, ...]
    meta: Mapping[str, Any] = field(default_factory=dict)
