"""Keyframe animation of cards and hands on the card table, turned into per-frame simulator states.

A card-table clip is hands moving cards, not physics, so the scenarios script it as keyframes in
integer frames: each card has poses (position, angle, face, on the table or in a hand, layer)
and each hand has positions over its visit. Between two keyframes a card either glides (eased)
or stays put; its status, face and layer change exactly at a keyframe, which is what makes every
event's frame agree with the states (a card is ``ON_TABLE`` from its ``card_played`` frame on).
Working in frames rather than seconds keeps a clip identical for a seed at any speed of machine.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from tableref.events import EventType, TableEvent
from tableref.simulator.cards import CARD_H_MM, CARD_W_MM
from tableref.simulator.state import FrameState, HandState, ObjectState, ObjectStatus

Point = tuple[float, float]
#: A card's ``radius`` in its ObjectState: half its diagonal, the circle that always covers it.
CARD_RADIUS_MM = 0.5 * math.hypot(CARD_W_MM, CARD_H_MM)


@dataclass(frozen=True)
class Pose:
    """Where a card is from one keyframe on. ``angle`` in degrees (see ``card_scenarios``)."""

    x: float
    y: float
    angle: float = 0.0
    status: ObjectStatus = ObjectStatus.IN_HAND
    face_up: bool = False
    layer: int = 0
    z: float = 0.0


def _ease(kind: str, u: float) -> float:
    u = min(max(u, 0.0), 1.0)
    if kind == "inout":
        return u * u * (3.0 - 2.0 * u)
    if kind == "out":  # a card sliding to rest on the cloth decelerates
        return 1.0 - (1.0 - u) ** 2
    return u


@dataclass(frozen=True)
class _Key:
    frame: int
    pose: Pose
    glide: str | None  # easing of the move *into* this key; None: jump here at ``frame``


@dataclass(frozen=True)
class _HandKey:
    frame: int
    x: float
    y: float
    holding: str | None
    glide: str


class CardTimeline:
    """Collects keyframes and events; :meth:`frames` evaluates every frame of the clip.

    Keys for one card must be added in increasing frame order (a scenario scripts forwards in
    time); a key at the same frame as the previous one replaces it, so "jump here now" is cheap.
    """

    def __init__(self, fps: float) -> None:
        if not (isinstance(fps, int | float) and math.isfinite(fps) and fps > 0):
            raise ValueError(f"fps must be a positive number of frames per second, got {fps!r}")
        self.fps = float(fps)
        self._cards: dict[str, list[_Key]] = {}
        self._labels: dict[str, str] = {}
        self._hands: list[tuple[Point, list[_HandKey]]] = []
        self._events: list[TableEvent] = []
        self._layer = 0

    # -- scripting -------------------------------------------------------------------------------
    def frames_for(self, seconds: float) -> int:
        """A duration in whole frames, at least one so keyframes always advance."""
        return max(1, int(round(seconds * self.fps)))

    def next_layer(self) -> int:
        self._layer += 1
        return self._layer

    def add_card(self, card_id: str, label: str, frame: int, pose: Pose) -> None:
        if card_id in self._cards:
            raise ValueError(f"card {card_id} is already on the timeline")
        self._labels[card_id] = label
        self._cards[card_id] = [_Key(frame, pose, None)]
        self._layer = max(self._layer, pose.layer)

    def key(self, card_id: str, frame: int, glide: str | None = None, **changes: Any) -> Pose:
        """Give ``card_id`` a new pose at ``frame`` (changes on top of its last pose); returns it."""
        keys = self._cards[card_id]
        last = keys[-1]
        if frame < last.frame:
            raise ValueError(f"{card_id}: key at frame {frame} is before its last key at {last.frame}")
        pose = replace(last.pose, **changes)
        if frame == last.frame:
            keys[-1] = _Key(frame, pose, last.glide)
        else:
            keys.append(_Key(frame, pose, glide))
        return pose

    def pose(self, card_id: str) -> Pose:
        """The card's latest scripted pose."""
        return self._cards[card_id][-1].pose

    def last_frame(self, card_id: str) -> int:
        return self._cards[card_id][-1].frame

    def hand(self, origin: Point, keys: list[tuple[int, float, float, str | None]], glide: str = "inout") -> None:
        """A hand visit: it is in view from its first key to its last, moving in between.

        ``origin`` is where the arm comes from (the player's seat); ``keys`` are
        (frame, x, y, holding) in increasing frame order.
        """
        frames = [k[0] for k in keys]
        if frames != sorted(frames) or len(set(frames)) != len(frames):
            raise ValueError(f"hand keys must have increasing frames, got {frames}")
        self._hands.append((origin, [_HandKey(f, x, y, h, glide) for f, x, y, h in keys]))

    def event(self, frame: int, etype: EventType, objects: tuple[str, ...], **data: Any) -> None:
        self._events.append(TableEvent(t=frame / self.fps, type=etype, objects=objects, frame=frame, data=data))

    # -- evaluation ------------------------------------------------------------------------------
    @property
    def end_frame(self) -> int:
        last_card = max((k[-1].frame for k in self._cards.values()), default=0)
        last_hand = max((keys[-1].frame for _, keys in self._hands), default=0)
        return max(last_card, last_hand)

    def _card_at(self, keys: list[_Key], frames: list[int], f: int) -> Pose:
        i = bisect.bisect_right(frames, f) - 1
        if i < 0:
            return keys[0].pose
        cur = keys[i].pose
        if i + 1 < len(keys) and keys[i + 1].glide is not None:
            nxt = keys[i + 1]
            u = _ease(nxt.glide or "linear", (f - keys[i].frame) / (nxt.frame - keys[i].frame))
            dang = ((nxt.pose.angle - cur.angle + 180.0) % 360.0) - 180.0
            return replace(cur, x=cur.x + (nxt.pose.x - cur.x) * u, y=cur.y + (nxt.pose.y - cur.y) * u,
                           angle=cur.angle + dang * u, z=cur.z + (nxt.pose.z - cur.z) * u)
        return cur

    @staticmethod
    def _hand_at(origin: Point, keys: list[_HandKey], f: int) -> HandState | None:
        if f < keys[0].frame or f > keys[-1].frame:
            return None
        i = max(j for j, k in enumerate(keys) if k.frame <= f)
        k = keys[i]
        x, y = k.x, k.y
        if i + 1 < len(keys):
            n = keys[i + 1]
            u = _ease(n.glide, (f - k.frame) / (n.frame - k.frame))
            x, y = k.x + (n.x - k.x) * u, k.y + (n.y - k.y) * u
        angle = math.atan2(y - origin[1], x - origin[0])
        return HandState(x=x, y=y, angle=angle, holding=k.holding)

    def frames(self, tail_frames: int = 0) -> tuple[FrameState, ...]:
        """Every frame from 0 to the last key plus ``tail_frames``, cards ordered by layer."""
        n = self.end_frame + tail_frames + 1
        key_frames = {cid: [k.frame for k in keys] for cid, keys in self._cards.items()}
        prev: dict[str, Pose] = {}
        out: list[FrameState] = []
        for f in range(n):
            objects: list[ObjectState] = []
            for cid in sorted(self._cards):
                p = self._card_at(self._cards[cid], key_frames[cid], f)
                vx = vy = 0.0
                q = prev.get(cid)
                if q is not None and p.status == ObjectStatus.ON_TABLE and q.status == ObjectStatus.ON_TABLE:
                    vx, vy = (p.x - q.x) * self.fps, (p.y - q.y) * self.fps
                prev[cid] = p
                objects.append(ObjectState(
                    id=cid, kind="card", x=p.x, y=p.y, radius=CARD_RADIUS_MM, status=p.status, z=p.z,
                    vx=vx, vy=vy, angle=p.angle % 360.0, label=self._labels[cid], face_up=p.face_up,
                    layer=p.layer,
                ))
            objects.sort(key=lambda o: (o.layer, o.id))
            hands = tuple(h for origin, keys in self._hands if (h := self._hand_at(origin, keys, f)) is not None)
            out.append(FrameState(index=f, t=f / self.fps, objects=tuple(objects), hands=hands))
        return tuple(out)

    def events(self) -> tuple[TableEvent, ...]:
        return tuple(sorted(self._events, key=lambda e: (e.frame or 0, _EVENT_ORDER.get(e.type, 9))))


_EVENT_ORDER: Mapping[EventType, int] = {
    EventType.REMOVED: 0, EventType.CARD_RETRIEVED: 1, EventType.CARD_KICKED: 2, EventType.CARD_PLAYED: 3,
}
