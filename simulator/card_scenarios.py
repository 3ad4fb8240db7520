"""All-Fours scenarios for the card table: the deal and the kick, a whole hand of six tricks, a lead out of turn.

Each scenario is ``fn(seed, fps) -> SimResult`` in :data:`CARD_SCENARIOS`, the registry that
``simulator/scenarios.py`` merges. A seed fixes everything: the shuffle, the dealer, the deck
design, each card's landing spot and rotation, the players' timing. Play follows the rule book
through ``card_game.py``; the motion (hands reaching in, laying a card, gathering a trick) is
scripted as keyframes through ``card_timeline.py``.

What a frame holds, for the renderer and the truth file:

* every one of the 52 cards in every frame, kind ``card``, id ``card-<label>``, label ``10S``;
  ``x``/``y`` its centre in table mm, ``angle`` its rotation, ``face_up``, ``layer`` (higher is on
  top); ``ON_TABLE`` while it lies on the table, ``IN_HAND`` while a player holds it (not drawn:
  ``x``/``y`` are then the holder's seat or the hand carrying it);
* the pack lies face down on the table beside the dealer, and in ``kick`` the dealt packets lie
  face down in front of each player until picked up; the camera sees these backs, but they are
  not events: only face-up cards on the board are (a camera cannot name a face-down card);
* ``hands``: a :class:`HandState` per hand over the table (dealing, kicking, laying a card,
  gathering a trick), ``holding`` the id of the card (or the top card of the packet) it carries.

Angle convention: degrees anticlockwise as seen from above with the table's ``y`` axis down the
image (south at the bottom), 0 being upright for the south player; each player lays cards
roughly upright for themselves (east 90, north 180, west 270) with a random twist.
:func:`tableref.simulator.cards.card_corners_mm` gives the four table points of a card's sprite
corners, so a renderer needs no convention of its own.

Events: ``card_kicked`` (objects ``[card-<label>]``, data ``card``), ``card_played`` (data
``card``, ``seat``, ``trick`` = the trick's number from 1, ``turn`` = the card's place among the
trick's cards on the board when it lands, 1 for the lead), ``removed`` when the winner lifts a
trick (objects the four cards, data ``positions`` where they were lifted), ``card_retrieved`` when
a card led out of turn is taken back (data ``card``, ``seat``). ``SimResult.meta`` carries the
dealer, the deal, the hands, the kick and trump, and per trick the leader, the cards in order and
the winner; ``meta["inputs"]`` the words a camera cannot see, as the tablet enters them: the
``deal`` (naming the dealer) before the kick, then the lead player's ``stand``, or his ``beg`` and
the dealer's ``give`` (a deal where the lead player holds no trump; one where the dealer holds
none either is shuffled again, since running the pack is not shown).

``card_played`` carries no ``order``: DESIGN.md reserves that key for the stacking order of cards
that land together (rule 23b), and the All-Fours referee reads any ``order`` other than 0 as the
top card of such a double play. No two cards land together in these clips, so the place in the
trick travels as ``turn`` instead.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tableref.calibration.spec import TableSpec, load_table
from tableref.errors import UserError
from tableref.events import EventType
from tableref.simulator.card_game import (
    KICK_POINTS,
    Deal,
    Trick,
    deal,
    next_seat,
    play_tricks,
    rank_value,
    seats_anticlockwise,
    shuffled_deck,
    suit_of,
    trick_winner,
)
from tableref.simulator.card_timeline import CardTimeline, Pose
from tableref.simulator.cards import design_for_seed
from tableref.simulator.state import ObjectStatus, SimResult

Point = tuple[float, float]
GAME = "all-fours"
TABLE = "cards"
MAX_SECONDS = 20.0
#: How much of the usual wait between moves a whole hand's brisk trick play keeps.
BRISK = 0.2
#: Hands hold a card by its near end: the hand's centre is this far behind the card's centre.
HAND_BEHIND_MM = 40.0


def card_id(label: str) -> str:
    return f"card-{label}"


@dataclass(frozen=True)
class SeatGeometry:
    """A seat seen from the table: where the player is and which way they face.

    ``forward`` points from the player to the table's centre, ``right`` to the player's right hand
    (the next seat in play), ``angle`` is the rotation of a card laid upright for this player.
    """

    id: str
    team: str
    position: Point
    play_spot: Point
    forward: Point
    right: Point
    angle: float

    def at(self, ahead: float, right: float = 0.0) -> Point:
        return (self.position[0] + self.forward[0] * ahead + self.right[0] * right,
                self.position[1] + self.forward[1] * ahead + self.right[1] * right)


def seat_geometry(spec: TableSpec) -> dict[str, SeatGeometry]:
    cx, cy = spec.spots.get("centre", (spec.length_mm / 2.0, spec.width_mm / 2.0))
    out = {}
    for s in spec.seats:
        dx, dy = cx - s.position[0], cy - s.position[1]
        norm = math.hypot(dx, dy) or 1.0
        fx, fy = dx / norm, dy / norm
        angle = math.degrees(math.atan2(-fx, -fy)) % 360.0
        out[s.id] = SeatGeometry(s.id, s.team, s.position, s.play_spot, (fx, fy), (-fy, fx), angle)
    return out


def _kick_spot(spec: TableSpec, seats: Mapping[str, SeatGeometry], dealer: str) -> Point:
    """The spec's kick spot is given for the south (bottom) dealer; turn it to the actual dealer's side.

    The dealer may kick in any direction but towards himself (rule 21b): away and to his right.
    """
    cx, cy = spec.spots.get("centre", (spec.length_mm / 2.0, spec.width_mm / 2.0))
    kx, ky = spec.spots.get("kick", (cx + 0.2 * spec.length_mm, cy - 0.2 * spec.width_mm))
    south = max(seats.values(), key=lambda s: s.position[1])
    ahead = (kx - cx) * south.forward[0] + (ky - cy) * south.forward[1]
    right = (kx - cx) * south.right[0] + (ky - cy) * south.right[1]
    d = seats[dealer]
    return (cx + d.forward[0] * ahead + d.right[0] * right, cy + d.forward[1] * ahead + d.right[1] * right)


class _Script:
    """Scripts one clip forwards in time on a :class:`CardTimeline`.

    ``tempo`` scales every duration; a scenario that would run past 20 s is re-scripted faster
    with the same random draws, so the story stays the same and only the pace changes.
    """

    def __init__(self, name: str, seed: int, fps: float, tempo: float, pauses: float = 1.0) -> None:
        self.rng = random.Random(f"all-fours:{name}:{seed}")
        self.timing = random.Random(f"all-fours-timing:{name}:{seed}")
        self.tempo = tempo
        #: scales the waits between moves in trick play (below 1: players keep the play brisk,
        #: each reaching in as the card before lands), so a whole hand fits a clip without
        #: hurrying every hand movement
        self.pauses = pauses
        self.tl = CardTimeline(fps)
        self.spec = load_table(TABLE)
        self.seats = seat_geometry(self.spec)
        self.order = seats_anticlockwise(self.spec)
        (bx0, by0), (bx1, by1) = self.spec.board or ((0.0, 0.0), (self.spec.length_mm, self.spec.width_mm))
        self.board = (bx0, by0, bx1, by1)
        self.meta: dict[str, Any] = {}
        self.inputs: list[dict[str, Any]] = []
        self.busy: dict[str, int] = {}  # frame each player's hand is free again (one hand over the table each)

    def ready(self, seat: str, start: int) -> int:
        """The frame a player can start a move: ``start``, or later while their hand is still out."""
        return max(start, self.busy.get(seat, 0))

    def say(self, frame: int, kind: str, **data: Any) -> None:
        """A human input at ``frame`` (a word or a knock at the table, entered on the tablet)."""
        self.inputs.append({"t": round(frame / self.tl.fps, 4), "frame": frame, "input": kind, **data})

    # -- timing ----------------------------------------------------------------------------------
    def dur(self, mean: float, spread: float = 0.0) -> int:
        """A human duration in frames: ``mean`` +- ``spread`` seconds, scaled by the tempo."""
        return self.tl.frames_for(self.tempo * (mean + self.timing.uniform(-spread, spread)))

    # -- set-up ----------------------------------------------------------------------------------
    def pack_spot(self, dealer: str) -> tuple[Point, float]:
        d = self.seats[dealer]
        return d.at(140.0, 150.0), d.angle + self.rng.uniform(-12.0, 12.0)

    def lay_pack(self, cards: Sequence[str], dealer: str) -> None:
        """The pack face down beside the dealer, ``cards[0]`` on top, squared with a little play."""
        (px, py), ang = self.pack_spot(dealer)
        n = len(cards)
        for i, label in enumerate(cards):
            depth = n - 1 - i  # 0 for the bottom card
            self.tl.add_card(card_id(label), label, 0, Pose(
                x=px + self.rng.gauss(0.0, 0.35), y=py + self.rng.gauss(0.0, 0.35),
                angle=ang + self.rng.gauss(0.0, 0.5), status=ObjectStatus.ON_TABLE, face_up=False,
                layer=depth + 1, z=0.3 * depth))
        self.pack_top_z = 0.3 * n

    def hold(self, seat: str, cards: Sequence[str]) -> None:
        """Cards already in a player's hand at the start of the clip."""
        x, y = self.seats[seat].position
        for label in cards:
            self.tl.add_card(card_id(label), label, 0, Pose(x=x, y=y, angle=self.seats[seat].angle))

    # -- moves -----------------------------------------------------------------------------------
    def hand_target(self, seat: str, card_xy: Point) -> Point:
        f = self.seats[seat].forward
        return (card_xy[0] - f[0] * HAND_BEHIND_MM, card_xy[1] - f[1] * HAND_BEHIND_MM)

    def carry(self, cards: Sequence[str], frame: int, xy: Point, **changes: Any) -> None:
        for label in cards:
            self.tl.key(card_id(label), frame, glide="inout", x=xy[0], y=xy[1], **changes)

    def deal_packets(self, the_deal: Deal, start: int) -> int:
        """The dealer takes three cards at a time off the pack and skims them to each player."""
        dealer = self.seats[the_deal.dealer]
        start = self.ready(dealer.id, start)
        (px, py), _ = self.pack_spot(the_deal.dealer)
        keys: list[tuple[int, float, float, str | None]] = [(start, *dealer.position, None)]
        f = start + self.dur(0.35, 0.05)
        spots = {s: self.seats[s].at(115.0, self.rng.uniform(-25.0, 25.0)) for s in self.order}
        for seat, cards in the_deal.packets:
            top = card_id(cards[0])
            hx, hy = self.hand_target(the_deal.dealer, (px, py))
            keys.append((f, hx, hy, None))
            for label in cards:  # picked up off the pack
                self.tl.key(card_id(label), f, status=ObjectStatus.IN_HAND, z=20.0)
            tx, ty = spots[seat]
            rx, ry = px + (tx - px) * 0.3, py + (ty - py) * 0.3
            f_rel = f + self.dur(0.2, 0.04)
            hrx, hry = self.hand_target(the_deal.dealer, (rx, ry))
            keys.append((f_rel, hrx, hry, top))
            self.carry(cards, f_rel - 1 if f_rel - 1 > f else f, (rx, ry))
            seat_angle = self.seats[seat].angle
            for k, label in enumerate(cards):  # let go: the packet skims across the cloth
                layer = self.tl.next_layer()
                self.tl.key(card_id(label), f_rel, x=rx, y=ry, status=ObjectStatus.ON_TABLE, z=0.3 * k, layer=layer)
                end = (tx + self.rng.gauss(0.0, 2.5), ty + self.rng.gauss(0.0, 2.5))
                self.tl.key(card_id(label), f_rel + self.dur(0.4, 0.08), glide="out", x=end[0], y=end[1],
                            angle=seat_angle + self.rng.uniform(-14.0, 14.0))
            f = f_rel + self.dur(0.22, 0.04)
        keys.append((f, *dealer.position, None))
        self.tl.hand(dealer.position, keys)
        self.busy[dealer.id] = f
        self.meta["deal"] = [{"seat": s, "cards": list(c)} for s, c in the_deal.packets]
        return f

    def kick(self, the_deal: Deal, start: int) -> int:
        """The dealer turns up the top card of the pack onto the kick spot: ``card_kicked``."""
        dealer = self.seats[the_deal.dealer]
        start = self.ready(dealer.id, start)
        label = the_deal.kick
        cid = card_id(label)
        pack_xy = (self.tl.pose(cid).x, self.tl.pose(cid).y)
        spot = _kick_spot(self.spec, self.seats, the_deal.dealer)
        land = (spot[0] + self.rng.gauss(0.0, 8.0), spot[1] + self.rng.gauss(0.0, 8.0))
        f_take = start + self.dur(0.4, 0.08)
        self.tl.key(cid, f_take, status=ObjectStatus.IN_HAND, z=20.0)
        f_turn = f_take + self.dur(0.2, 0.04)
        mid = ((pack_xy[0] + land[0]) / 2.0, (pack_xy[1] + land[1]) / 2.0)
        self.tl.key(cid, f_turn, glide="inout", x=mid[0], y=mid[1], face_up=True)
        f_lay = f_turn + self.dur(0.25, 0.05)
        self.tl.key(cid, f_lay - 1 if f_lay - 1 > f_turn else f_turn, glide="inout", x=land[0], y=land[1])
        self.tl.key(cid, f_lay, x=land[0], y=land[1], z=0.0, status=ObjectStatus.ON_TABLE, face_up=True,
                    layer=self.tl.next_layer(), angle=dealer.angle + self.rng.uniform(-25.0, 25.0))
        self.tl.event(f_lay, EventType.CARD_KICKED, (cid,), card=label)
        f_end = f_lay + self.dur(0.4, 0.06)
        self.tl.hand(dealer.position, [
            (start, *dealer.position, None),
            (f_take, *self.hand_target(dealer.id, pack_xy), None),
            (f_turn, *self.hand_target(dealer.id, mid), cid),
            (f_lay, *self.hand_target(dealer.id, land), cid),
            (f_end, *dealer.position, None),
        ])
        self.busy[dealer.id] = f_end
        return f_lay

    def pick_up(self, seat: str, cards: Sequence[str], start: int) -> int:
        """A player gathers their dealt cards off the table into their hand (no event: face down)."""
        s = self.seats[seat]
        start = self.ready(seat, start)
        xs = [self.tl.pose(card_id(c)).x for c in cards]
        ys = [self.tl.pose(card_id(c)).y for c in cards]
        spot = (sum(xs) / len(xs), sum(ys) / len(ys))
        f_at = start + self.dur(0.4, 0.08)
        f_lift = f_at + self.dur(0.2, 0.05)
        for label in cards:
            self.tl.key(card_id(label), f_lift, status=ObjectStatus.IN_HAND, x=spot[0], y=spot[1], z=20.0)
        f_end = f_lift + self.dur(0.4, 0.06)
        self.carry(cards, f_end, s.position, z=0.0)
        self.tl.hand(s.position, [(start, *s.position, None), (f_at, *self.hand_target(seat, spot), None),
                                  (f_lift, *self.hand_target(seat, spot), card_id(cards[0])),
                                  (f_end, *s.position, card_id(cards[0]))])
        self.busy[seat] = f_end
        return f_end

    def landing(self, seat: str) -> tuple[Point, float]:
        """Where a played card comes to rest: near the seat's play spot, a little twisted and towards the middle."""
        s = self.seats[seat]
        bx0, by0, bx1, by1 = self.board
        inward = self.rng.uniform(8.0, 38.0)
        x = s.play_spot[0] + s.forward[0] * inward + self.rng.gauss(0.0, 9.0)
        y = s.play_spot[1] + s.forward[1] * inward + self.rng.gauss(0.0, 9.0)
        margin = 48.0
        x = min(max(x, bx0 + margin), bx1 - margin)
        y = min(max(y, by0 + margin), by1 - margin)
        return (x, y), s.angle + self.rng.uniform(-32.0, 32.0)

    def play(self, seat: str, label: str, start: int, trick: int, turn: int) -> tuple[int, int]:
        """A player reaches in and lays ``label`` face up: ``card_played`` at the release frame.

        Returns (release frame, frame the hand is back out of view).
        """
        s = self.seats[seat]
        start = self.ready(seat, start)
        cid = card_id(label)
        (lx, ly), ang = self.landing(seat)
        short = (lx - s.forward[0] * 22.0, ly - s.forward[1] * 22.0)
        self.tl.key(cid, start, x=s.position[0], y=s.position[1], face_up=True, z=25.0,
                    status=ObjectStatus.IN_HAND)
        f_over = start + self.dur(0.34, 0.06)
        self.tl.key(cid, f_over, glide="inout", x=short[0], y=short[1], angle=ang, z=8.0)
        f_rel = f_over + self.dur(0.14, 0.04)
        self.tl.key(cid, f_rel - 1 if f_rel - 1 > f_over else f_over, glide="inout", x=lx, y=ly, z=1.0)
        self.tl.key(cid, f_rel, x=lx, y=ly, z=0.0, status=ObjectStatus.ON_TABLE, layer=self.tl.next_layer())
        self.tl.event(f_rel, EventType.CARD_PLAYED, (cid,), card=label, seat=seat, trick=trick, turn=turn)
        f_out = f_rel + self.dur(0.3, 0.05)
        self.tl.hand(s.position, [(start, *s.position, cid), (f_over, *self.hand_target(seat, short), cid),
                                  (f_rel, *self.hand_target(seat, (lx, ly)), cid), (f_out, *s.position, None)])
        self.busy[seat] = f_out
        return f_rel, f_out

    def retrieve(self, seat: str, label: str, start: int) -> int:
        """A card led out of turn is taken back into the hand (rule 23c): ``card_retrieved``."""
        s = self.seats[seat]
        start = self.ready(seat, start)
        cid = card_id(label)
        xy = (self.tl.pose(cid).x, self.tl.pose(cid).y)
        f_at = start + self.dur(0.35, 0.05)
        f_lift = f_at + self.dur(0.15, 0.03)
        self.tl.key(cid, f_lift, status=ObjectStatus.IN_HAND, z=20.0)
        self.tl.event(f_lift, EventType.CARD_RETRIEVED, (cid,), card=label, seat=seat)
        f_end = f_lift + self.dur(0.35, 0.05)
        self.carry([label], f_end, s.position, z=0.0, face_up=False)
        self.tl.hand(s.position, [(start, *s.position, None), (f_at, *self.hand_target(seat, xy), None),
                                  (f_lift, *self.hand_target(seat, xy), cid), (f_end, *s.position, cid)])
        self.busy[seat] = f_end
        return f_lift

    def gather(self, winner: str, cards: Sequence[str], start: int) -> tuple[int, int]:
        """The winner sweeps the trick together and lifts it off the board: ``removed``.

        Returns (lift frame, frame the hand is back out of view).
        """
        s = self.seats[winner]
        start = self.ready(winner, start)
        pts = [(self.tl.pose(card_id(c)).x, self.tl.pose(card_id(c)).y) for c in cards]
        gx = sum(p[0] for p in pts) / len(pts) + s.forward[0] * -25.0
        gy = sum(p[1] for p in pts) / len(pts) + s.forward[1] * -25.0
        hand_xy = self.hand_target(winner, (gx, gy))
        f_at = start + self.dur(0.38, 0.06)
        f_swept = f_at + self.dur(0.32, 0.05)
        for label in cards:
            self.tl.key(card_id(label), f_at)
            self.tl.key(card_id(label), f_swept, glide="inout", x=gx + self.rng.gauss(0.0, 2.0),
                        y=gy + self.rng.gauss(0.0, 2.0), angle=s.angle + self.rng.uniform(-8.0, 8.0))
        f_lift = f_swept + self.dur(0.1, 0.03)
        positions = {}
        for label in cards:
            p = self.tl.pose(card_id(label))
            positions[card_id(label)] = [round(p.x, 1), round(p.y, 1)]
            self.tl.key(card_id(label), f_lift, status=ObjectStatus.IN_HAND, z=20.0, face_up=False)
        self.tl.event(f_lift, EventType.REMOVED, tuple(card_id(c) for c in cards), positions=positions)
        f_end = f_lift + self.dur(0.38, 0.06)
        self.carry(cards, f_end, s.position, z=0.0)
        top = card_id(cards[-1])
        self.tl.hand(s.position, [(start, *s.position, None), (f_at, *hand_xy, None), (f_swept, *hand_xy, None),
                                  (f_lift, *hand_xy, top), (f_end, *s.position, top)])
        self.busy[winner] = f_end
        return f_lift, f_end

    def trick(self, trick: Trick, start: int, number: int, wrong_lead: tuple[str, str] | None = None) -> int:
        """One trick: (an out-of-turn lead taken back,) four cards anticlockwise, then the gather."""
        f = start
        entry: dict[str, Any] = {"number": number, "leader": trick.leader}
        if wrong_lead is not None:
            seat, label = wrong_lead
            f_rel, _ = self.play(seat, label, f, number, 1)
            f = self.retrieve(seat, label, f_rel + self.dur(0.8, 0.2)) + self.dur(0.3, 0.1)
            entry["retrieved"] = {"seat": seat, "card": label}
        played: list[str] = []
        for n, (seat, label) in enumerate(trick.plays, start=1):
            f_rel, _ = self.play(seat, label, f, number, n)
            played.append(label)
            f = f_rel + self.dur(0.22 * self.pauses, 0.12 * self.pauses)
        f_lift, f_end = self.gather(trick.winner, played, f + self.dur(0.25 * self.pauses, 0.08 * self.pauses))
        entry.update({
            "cards": [{"seat": seat, "card": label} for seat, label in trick.plays],
            "led_suit": suit_of(trick.plays[0][1]), "winner": trick.winner, "winning_card": trick.winning_card,
            "removed_frame": f_lift,
        })
        self.meta.setdefault("tricks", []).append(entry)
        return f_lift + self.dur(0.2 * self.pauses, 0.05 * self.pauses)

    # -- result ----------------------------------------------------------------------------------
    def result(self, name: str, seed: int, tail_s: float) -> SimResult:
        frames = self.tl.frames(tail_frames=self.tl.frames_for(tail_s))
        meta = {**self.meta, "inputs": sorted(self.inputs, key=lambda i: int(i["frame"]))}
        return SimResult(game=GAME, table=TABLE, scenario=name, seed=seed, fps=self.tl.fps, frames=frames,
                         events=self.tl.events(), meta=meta)

    def describe_deal(self, the_deal: Deal, seed: int) -> None:
        kick_rank = the_deal.kick[:-1]
        dealer_team = self.seats[the_deal.dealer].team
        self.meta.update({
            "card_design": design_for_seed(seed).name,
            "seat_order": list(self.order),
            "teams": {s: self.seats[s].team for s in self.order},
            "dealer": the_deal.dealer,
            "lead_player": next_seat(self.order, the_deal.dealer),
            "hands": {s: list(h) for s, h in the_deal.hands.items()},
            "kick": the_deal.kick,
            "trump": the_deal.trump,
            "kick_points": {"team": dealer_team, "points": KICK_POINTS.get(kick_rank, 0)},
            "pack": list(the_deal.pack),
            # the lead player's word after the kick (a human input, not on camera): he stands with a
            # trump in his hand (22b), else begs and the dealer, who holds trump, gives one (22e)
            "begged": not holds_trump(the_deal, next_seat(self.order, the_deal.dealer)),
        })
        self.meta["gave"] = self.meta["begged"]

    def answer_kick(self, the_deal: Deal, lead_frame: int, dealer_frame: int | None = None) -> int:
        """The lead player stands or begs at ``lead_frame``; after a beg the dealer gives one.

        Returns the frame of the last word. The dealer answers at ``dealer_frame`` (default: a
        moment after the beg), once he has looked at his own cards.
        """
        lead = next_seat(self.order, the_deal.dealer)
        if not self.meta["begged"]:
            self.say(lead_frame, "stand", by=lead)
            return lead_frame
        self.say(lead_frame, "beg", by=lead)
        give = dealer_frame if dealer_frame is not None else lead_frame + self.dur(0.6, 0.15)
        self.say(give, "give", by=the_deal.dealer)
        return give


def holds_trump(the_deal: Deal, seat: str) -> bool:
    return any(suit_of(c) == the_deal.trump for c in the_deal.hands[seat])


def _setup(script: _Script, seed: int) -> Deal:
    """Shuffle and deal until the hand has a story the rules allow without running the pack.

    The lead player stands only with a trump in his hand (22b); without one he begs, and the
    dealer gives one only with a trump of his own (22e). A deal where neither holds trump would
    need the pack run (21d), which these clips do not show, so the pack is shuffled again.
    """
    for _ in range(100):
        deck = shuffled_deck(script.rng)
        dealer = script.rng.choice(script.order)
        the_deal = deal(deck, dealer, script.order)
        if holds_trump(the_deal, next_seat(script.order, dealer)) or holds_trump(the_deal, dealer):
            break
    else:
        raise RuntimeError("no deal in 100 shuffles gave the lead player or the dealer a trump")
    script.describe_deal(the_deal, seed)
    return the_deal


def _kick_clip(seed: int, fps: float, tempo: float) -> _Script:
    sc = _Script("kick", seed, fps, tempo)
    the_deal = _setup(sc, seed)
    sc.lay_pack([c for _, cards in the_deal.packets for c in cards] + list(the_deal.pack), the_deal.dealer)
    f = sc.deal_packets(the_deal, sc.dur(0.6, 0.2))
    sc.say(f, "deal", dealer=the_deal.dealer)  # the cut made and six each dealt: the tablet's "deal"
    f_kick = sc.kick(the_deal, f + sc.dur(0.5, 0.15))
    lead = next_seat(sc.order, the_deal.dealer)
    f = sc.pick_up(lead, the_deal.hands[lead], f_kick + sc.dur(0.6, 0.15))
    f += sc.dur(1.0, 0.3)  # the lead player looks, then stands or begs (a human input)
    others = [sc.order[(sc.order.index(lead) + k) % len(sc.order)] for k in range(1, len(sc.order))]
    if sc.meta["begged"]:  # the dealer takes up his cards first to answer the beg
        others.remove(the_deal.dealer)
        f_dealer = sc.pick_up(the_deal.dealer, the_deal.hands[the_deal.dealer], f + sc.dur(0.15, 0.05))
        f = sc.answer_kick(the_deal, f, f_dealer + sc.dur(0.5, 0.1))
    else:
        sc.answer_kick(the_deal, f)
    for k, seat in enumerate(others):
        sc.pick_up(seat, the_deal.hands[seat], f + sc.dur(0.25 * k + 0.1, 0.08))
    return sc


def _hand_clip(seed: int, fps: float, tempo: float, n_tricks: int = 6, wrong_lead: bool = False,
               name: str = "hand", pauses: float = 1.0) -> _Script:
    sc = _Script(name, seed, fps, tempo, pauses)
    the_deal = _setup(sc, seed)
    sc.lay_pack(the_deal.pack, the_deal.dealer)
    for seat in sc.order:
        sc.hold(seat, the_deal.hands[seat])
    sc.say(0, "deal", dealer=the_deal.dealer)  # dealt before the clip starts: the tablet's "deal"
    f_kick = sc.kick(the_deal, sc.dur(0.4, 0.15))
    f = sc.answer_kick(the_deal, f_kick + sc.dur(0.5, 0.1)) + sc.dur(0.4, 0.1)  # stand or beg (and give), unseen
    leader = next_seat(sc.order, the_deal.dealer)
    tricks = play_tricks(sc.rng, the_deal.hands, leader, the_deal.trump, sc.order, n_tricks)
    for n, trick in enumerate(tricks, start=1):
        wrong = None
        if wrong_lead and n == 1:
            culprit = sc.rng.choice([s for s in sc.order if s != trick.leader])
            held = [c for c in the_deal.hands[culprit]]
            wrong = (culprit, sc.rng.choice(held))
        f = sc.trick(trick, f, n, wrong)
    return sc


def _fit(build: Callable[[float], _Script], fps: float) -> _Script:
    """Script at natural pace; if the clip would pass 20 s, re-script it proportionally faster."""
    if not (isinstance(fps, int | float) and math.isfinite(fps) and fps > 0):
        raise UserError(f"fps must be a positive number of frames per second, got {fps!r}")
    limit = int(math.floor(MAX_SECONDS * fps + 1e-9))
    tempo = 1.0
    for _ in range(6):
        sc = build(tempo)
        tail = sc.tl.frames_for(0.5)
        n = sc.tl.end_frame + tail + 1
        if n <= limit:
            return sc
        tempo *= 0.97 * (limit - tail - 1) / max(sc.tl.end_frame, 1)
    raise UserError(f"a {fps} fps clip cannot hold this card scenario in {MAX_SECONDS:.0f} s; use at least 10 fps")


def _finish(sc: _Script, name: str, seed: int) -> SimResult:
    return sc.result(name, seed, tail_s=0.5)


def kick(seed: int, fps: float) -> SimResult:
    """The dealer deals six cards each, three at a time anticlockwise, and kicks the trump card."""
    return _finish(_fit(lambda tempo: _kick_clip(seed, fps, tempo), fps), "kick", seed)


def hand(seed: int, fps: float) -> SimResult:
    """The kick, then the whole hand of six tricks: each seat lays a card in turn from the leader, the winner gathers."""
    return _finish(_fit(lambda tempo: _hand_clip(seed, fps, tempo, pauses=BRISK), fps), "hand", seed)


def lead_out_of_turn(seed: int, fps: float) -> SimResult:
    """The kick; a player leads out of turn and takes the card back (rule 23c); two tricks follow."""
    name = "lead-out-of-turn"
    return _finish(_fit(lambda tempo: _hand_clip(seed, fps, tempo, 2, True, name), fps), name, seed)


CARD_SCENARIOS: dict[str, Callable[[int, float], SimResult]] = {
    "kick": kick,
    "hand": hand,
    "lead-out-of-turn": lead_out_of_turn,
}

__all__ = ["CARD_SCENARIOS", "SeatGeometry", "card_id", "hand", "kick", "lead_out_of_turn", "seat_geometry",
           "trick_winner", "rank_value"]
