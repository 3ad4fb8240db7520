"""The All-Fours clips: legal, rule-true tricks, and events whose frames agree with the states.

The trick rule and the anticlockwise order are re-derived here from the table spec and the rule
book rather than imported from the simulator, so a bug in ``card_game.py`` cannot hide itself.
"""

from __future__ import annotations

import math
from collections import defaultdict
from functools import cache

import cv2
import numpy as np
import pytest

from tableref.calibration.spec import load_table
from tableref.errors import UserError
from tableref.events import EventType, TableEvent
from tableref.simulator.card_scenarios import CARD_SCENARIOS
from tableref.simulator.cards import CARD_H_MM, CARD_W_MM, card_corners_mm
from tableref.simulator.state import FrameState, ObjectState, ObjectStatus, SimResult

FPS = 30.0
SEEDS = range(8)
ORDER_RANK = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SPEC = load_table("cards")
SEAT_XY = {s.id: s.position for s in SPEC.seats}
(BX0, BY0), (BX1, BY1) = SPEC.board or ((0.0, 0.0), (0.0, 0.0))


@cache
def run(name: str, seed: int, fps: float = FPS) -> SimResult:
    return CARD_SCENARIOS[name](seed, fps)


def _next_anticlockwise(seat: str) -> str:
    """The seat on this one's right, from the geometry: the smallest anticlockwise turn seen from above."""
    cx = sum(p[0] for p in SEAT_XY.values()) / 4
    cy = sum(p[1] for p in SEAT_XY.values()) / 4

    def heading(s: str) -> float:  # y points down the image, so negate it for an anticlockwise angle
        return math.atan2(-(SEAT_XY[s][1] - cy), SEAT_XY[s][0] - cx)

    return min((s for s in SEAT_XY if s != seat), key=lambda s: (heading(s) - heading(seat)) % (2 * math.pi))


def _winner(cards: list[tuple[str, str]], trump: str) -> str:
    """All-Fours: the highest trump takes the trick, else the highest card of the suit led."""
    led = cards[0][1][-1]
    trumps = [c for c in cards if c[1][-1] == trump]
    pool = trumps or [c for c in cards if c[1][-1] == led]
    return max(pool, key=lambda c: ORDER_RANK.index(c[1][:-1]))[0]


def _state(r: SimResult, frame: int, cid: str) -> ObjectState:
    return r.frames[frame].by_id()[cid]


def _of(r: SimResult, etype: EventType) -> list[TableEvent]:
    return [e for e in r.events if e.type == etype]


ALL = sorted(CARD_SCENARIOS)


def test_registry_names_the_scenarios() -> None:
    assert {"kick", "hand"} <= set(CARD_SCENARIOS)
    for name in ALL:
        r = run(name, 0)
        assert (r.game, r.table, r.scenario, r.seed, r.fps) == ("all-fours", "cards", name, 0, FPS)


@pytest.mark.parametrize("name", ALL)
def test_same_seed_same_clip_and_seeds_differ(name: str) -> None:
    a, b = run(name, 5), CARD_SCENARIOS[name](5, FPS)
    assert a.frames == b.frames and a.events == b.events and a.meta == b.meta
    c = run(name, 6)
    assert c.meta["hands"] != a.meta["hands"]


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("fps", [10.0, 25.0, 30.0, 60.0])
def test_clips_last_at_most_20_seconds_and_times_match_frames(name: str, fps: float) -> None:
    r = run(name, 3, fps)
    assert len(r.frames) <= 20.0 * fps
    assert all(f.index == i and f.t == pytest.approx(i / fps) for i, f in enumerate(r.frames))
    assert all(e.frame is not None and e.t == pytest.approx(e.frame / fps) for e in r.events)
    assert [e.frame for e in r.events] == sorted(e.frame or 0 for e in r.events)


def test_bad_fps_is_a_clear_user_error() -> None:
    for fps in (0.0, -5.0, float("nan")):
        with pytest.raises(UserError, match="fps"):
            CARD_SCENARIOS["hand"](0, fps)
    with pytest.raises(UserError, match="at least"):
        CARD_SCENARIOS["hand"](0, 1.0)


@pytest.mark.parametrize("name", ALL)
def test_every_frame_holds_the_whole_pack_as_cards(name: str) -> None:
    r = run(name, 1)
    for f in r.frames[:: max(1, len(r.frames) // 40)]:
        cards = [o for o in f.objects if o.kind == "card"]
        assert len(cards) == 52 == len({o.id for o in cards})
        assert all(o.id == f"card-{o.label}" for o in cards)
        layers = [o.layer for o in f.objects]
        assert layers == sorted(layers)  # drawn bottom to top
        for o in cards:
            assert 0.0 <= o.x <= SPEC.length_mm and 0.0 <= o.y <= SPEC.width_mm


@pytest.mark.parametrize("name", ALL)
def test_deal_and_hands_are_consistent(name: str) -> None:
    for seed in SEEDS:
        meta = run(name, seed).meta
        hands = meta["hands"]
        assert set(hands) == set(SEAT_XY) and all(len(h) == 6 for h in hands.values())
        dealt = [c for h in hands.values() for c in h]
        assert len(set(dealt)) == 24
        assert meta["kick"] not in dealt and meta["trump"] == meta["kick"][-1]
        assert meta["lead_player"] == _next_anticlockwise(meta["dealer"])
        assert sorted(dealt + meta["pack"]) == sorted(f"{r}{s}" for r in ORDER_RANK for s in "SHDC")
        kick_rank = meta["kick"][:-1]
        expected = {"J": 3, "6": 2, "A": 1}.get(kick_rank, 0)
        assert meta["kick_points"] == {"team": meta["teams"][meta["dealer"]], "points": expected}


def test_kick_deals_three_at_a_time_anticlockwise_from_the_dealers_right() -> None:
    for seed in SEEDS:
        meta = run("kick", seed).meta
        packets = meta["deal"]
        assert len(packets) == 8 and all(len(p["cards"]) == 3 for p in packets)
        seat = meta["dealer"]
        for p in packets:
            seat = _next_anticlockwise(seat)
            assert p["seat"] == seat
        for s, h in meta["hands"].items():
            assert [c for p in packets if p["seat"] == s for c in p["cards"]] == h


@pytest.mark.parametrize("name", ALL)
def test_the_kick_is_turned_up_once_and_stays_on_the_board(name: str) -> None:
    for seed in SEEDS:
        r = run(name, seed)
        kicks = _of(r, EventType.CARD_KICKED)
        assert len(kicks) == 1
        e = kicks[0]
        assert e.objects == (f"card-{r.meta['kick']}",) and dict(e.data) == {"card": r.meta["kick"]}
        assert e.frame is not None and e.frame > 0
        before = _state(r, e.frame - 1, e.objects[0])
        assert before.status == ObjectStatus.IN_HAND
        for f in range(e.frame, len(r.frames)):
            s = _state(r, f, e.objects[0])
            assert s.status == ObjectStatus.ON_TABLE and s.face_up
            assert BX0 <= s.x <= BX1 and BY0 <= s.y <= BY1
        # never kicked towards the dealer (rule 21b): it lands on the far half of the table from him
        dx, dy = SEAT_XY[r.meta["dealer"]]
        s = _state(r, e.frame, e.objects[0])
        assert math.hypot(s.x - dx, s.y - dy) > math.hypot(500 - dx, 500 - dy)


def _tricks_from_events(r: SimResult) -> list[list[TableEvent]]:
    """card_played events grouped by trick: a trick ends with the ``removed`` that lifts it."""
    out: list[list[TableEvent]] = []
    current: list[TableEvent] = []
    for e in r.events:
        if e.type == EventType.CARD_PLAYED:
            current.append(e)
        elif e.type == EventType.CARD_RETRIEVED:
            current = [p for p in current if p.objects[0] != e.objects[0]]
        elif e.type == EventType.REMOVED:
            assert sorted(e.objects) == sorted(p.objects[0] for p in current), "gathered cards are not the trick"
            out.append(current)
            current = []
    assert current == [], "cards left on the board at the end"
    return out


@pytest.mark.parametrize("name", ["hand", "lead-out-of-turn"])
def test_tricks_go_anticlockwise_from_the_leader_and_the_rule_picks_the_winner(name: str) -> None:
    for seed in SEEDS:
        r = run(name, seed)
        meta = r.meta
        tricks = _tricks_from_events(r)
        assert len(tricks) == len(meta["tricks"]) == (6 if name == "hand" else 2)
        held = {s: set(h) for s, h in meta["hands"].items()}
        leader = meta["lead_player"]
        for events, m in zip(tricks, meta["tricks"], strict=True):
            seats = [e.data["seat"] for e in events]
            cards = [e.data["card"] for e in events]
            assert len(events) == 4 and len(set(seats)) == 4
            assert seats[0] == leader == m["leader"]
            for a, b in zip(seats, seats[1:], strict=False):
                assert b == _next_anticlockwise(a)
            assert [e.data["turn"] for e in events] == [1, 2, 3, 4]
            assert {e.data["trick"] for e in events} == {m["number"]}
            assert all("order" not in e.data for e in events)  # DESIGN.md: only for cards landing together
            assert [e.objects for e in events] == [(f"card-{c}",) for c in cards]
            assert m["cards"] == [{"seat": s, "card": c} for s, c in zip(seats, cards, strict=True)]
            led = cards[0][-1]
            for s, c in zip(seats, cards, strict=True):
                assert c in held[s], f"{s} plays {c}, which is not in their hand"
                if c[-1] != led:  # renege check: off-suit only when void in the suit led
                    assert not any(h[-1] == led for h in held[s]), f"{s} reneges with {c}"
                held[s].discard(c)
            winner = _winner(list(zip(seats, cards, strict=True)), meta["trump"])
            assert m["winner"] == winner
            leader = winner


@pytest.mark.parametrize("name", ["hand", "lead-out-of-turn"])
def test_no_card_is_played_twice_unless_taken_back(name: str) -> None:
    for seed in SEEDS:
        r = run(name, seed)
        on_board: set[str] = set()
        ever: set[str] = set()
        for e in r.events:
            cid = e.objects[0]
            if e.type == EventType.CARD_PLAYED:
                assert cid not in on_board
                assert cid not in ever or name == "lead-out-of-turn"
                on_board.add(cid)
                ever.add(cid)
            elif e.type == EventType.CARD_RETRIEVED:
                assert cid in on_board
                on_board.discard(cid)
            elif e.type == EventType.REMOVED:
                on_board -= set(e.objects)
        if name == "hand":
            assert len(ever) == 24  # the whole hand: six cards from each of four seats


def test_a_lead_out_of_turn_is_taken_back_by_its_player() -> None:
    for seed in SEEDS:
        r = run("lead-out-of-turn", seed)
        played = _of(r, EventType.CARD_PLAYED)
        back = _of(r, EventType.CARD_RETRIEVED)
        assert len(back) == 1
        first = played[0]
        assert first.data["seat"] != r.meta["lead_player"] and first.data["turn"] == 1
        assert back[0].objects == first.objects and back[0].data["seat"] == first.data["seat"]
        assert r.meta["tricks"][0]["retrieved"] == {"seat": first.data["seat"], "card": first.data["card"]}
        nxt = played[1]
        assert nxt.data["seat"] == r.meta["lead_player"] and (nxt.frame or 0) > (back[0].frame or 0)


@pytest.mark.parametrize("name", ALL)
def test_event_frames_agree_with_the_states(name: str) -> None:
    for seed in list(SEEDS)[:4]:
        r = run(name, seed)
        n = len(r.frames)
        lifted: dict[str, list[int]] = {}
        for e in r.events:
            if e.type in (EventType.REMOVED, EventType.CARD_RETRIEVED):
                for cid in e.objects:
                    lifted.setdefault(cid, []).append(e.frame or 0)
        for e in r.events:
            f = e.frame
            assert f is not None and 0 < f < n
            if e.type == EventType.CARD_PLAYED:
                cid = e.objects[0]
                assert _state(r, f - 1, cid).status == ObjectStatus.IN_HAND
                end = min(x for x in lifted[cid] if x > f)
                for g in range(f, end):
                    s = _state(r, g, cid)
                    assert s.status == ObjectStatus.ON_TABLE and s.face_up
                    assert BX0 <= s.x <= BX1 and BY0 <= s.y <= BY1
                assert _state(r, end, cid).status == ObjectStatus.IN_HAND
            elif e.type in (EventType.REMOVED, EventType.CARD_RETRIEVED):
                for cid in e.objects:
                    assert _state(r, f - 1, cid).status == ObjectStatus.ON_TABLE
                    assert _state(r, f, cid).status == ObjectStatus.IN_HAND
                if e.type == EventType.REMOVED:
                    pos = e.data["positions"]
                    for cid in e.objects:
                        s = _state(r, f - 1, cid)
                        assert pos[cid] == pytest.approx([s.x, s.y], abs=0.1)


@pytest.mark.parametrize("name", ALL)
def test_every_face_up_card_reaching_the_table_is_an_event(name: str) -> None:
    """No silent appearances: a card turns up face up on the table only with card_played/kicked."""
    r = run(name, 2)
    announced = {(e.frame, e.objects[0]) for e in r.events
                 if e.type in (EventType.CARD_PLAYED, EventType.CARD_KICKED)}
    seen = set()
    for prev, cur in zip(r.frames, r.frames[1:], strict=False):
        before = prev.by_id()
        for o in cur.objects:
            p = before[o.id]
            visible_now = o.status == ObjectStatus.ON_TABLE and o.face_up
            visible_before = p.status == ObjectStatus.ON_TABLE and p.face_up
            if visible_now and not visible_before:
                assert (cur.index, o.id) in announced
                seen.add((cur.index, o.id))
    assert seen == announced
    # and every card face up on the table at the start of a clip is none (nothing is pre-placed)
    assert not any(o.status == ObjectStatus.ON_TABLE and o.face_up for o in r.frames[0].objects)


def _hands_near(f: FrameState, x: float, y: float, within: float) -> bool:
    return any(math.hypot(h.x - x, h.y - y) <= within for h in f.hands)


@pytest.mark.parametrize("name", ALL)
def test_hands_lay_each_card_and_gather_each_trick(name: str) -> None:
    r = run(name, 4)
    for e in r.events:
        f = e.frame or 0
        if e.type in (EventType.CARD_PLAYED, EventType.CARD_KICKED):
            cid = e.objects[0]
            s = _state(r, f, cid)
            frames_with_hand = [g for g in range(max(0, f - 6), f + 1)
                                if any(h.holding == cid for h in r.frames[g].hands)
                                and _hands_near(r.frames[g], s.x, s.y, 120.0)]
            assert len(frames_with_hand) >= 3, f"no hand seen laying {cid}"
            if e.type == EventType.CARD_PLAYED:  # the arm comes from the player's own side
                hand = min(r.frames[f].hands, key=lambda h: math.hypot(h.x - s.x, h.y - s.y))
                sx, sy = SEAT_XY[str(e.data["seat"])]
                assert math.cos(hand.angle - math.atan2(hand.y - sy, hand.x - sx)) > 0.99
        elif e.type == EventType.REMOVED:
            xs = [_state(r, f - 1, c).x for c in e.objects]
            ys = [_state(r, f - 1, c).y for c in e.objects]
            assert _hands_near(r.frames[f], float(np.mean(xs)), float(np.mean(ys)), 80.0)
    assert not r.frames[0].hands or r.scenario == "kick"


def _outline(s: ObjectState) -> np.ndarray:
    return np.array(card_corners_mm(s.x, s.y, s.angle), np.float32)


def test_played_cards_scatter_near_their_seat_and_overlap_only_a_little() -> None:
    overlaps = 0
    area = CARD_W_MM * CARD_H_MM
    for seed in SEEDS:
        r = run("hand", seed)
        spots = {s.id: s.play_spot for s in SPEC.seats}
        by_trick: dict[int, list[ObjectState]] = defaultdict(list)
        removed = [e.frame or 0 for e in _of(r, EventType.REMOVED)]
        for e in _of(r, EventType.CARD_PLAYED):
            s = _state(r, e.frame or 0, e.objects[0])
            spot = spots[str(e.data["seat"])]
            assert math.hypot(s.x - spot[0], s.y - spot[1]) < 70.0
            trick = sum(1 for x in removed if x <= (e.frame or 0))
            by_trick[trick].append(s)
        angles = [o.angle for cards in by_trick.values() for o in cards]
        assert len({round(a) for a in angles}) > 8  # twisted by hand, not laid square
        for cards in by_trick.values():
            for i, a in enumerate(cards):
                for b in cards[i + 1:]:
                    inter, _ = cv2.intersectConvexConvex(_outline(a), _outline(b))
                    assert inter < 0.35 * area, "a played card hides most of another"
                    overlaps += inter > 1.0
    assert overlaps > 0  # but cards do touch and overlap now and then, as on a real table


def test_kick_clip_shows_the_deal_face_down_off_the_board_then_the_pickup() -> None:
    for seed in list(SEEDS)[:4]:
        r = run("kick", seed)
        dealt = {c for h in r.meta["hands"].values() for c in h}
        kick_frame = _of(r, EventType.CARD_KICKED)[0].frame or 0
        at_kick = r.frames[kick_frame].by_id()
        for label in dealt:  # dealt packets lie face down in front of each player when the kick comes
            s = at_kick[f"card-{label}"]
            assert s.status == ObjectStatus.ON_TABLE and not s.face_up
            assert not (BX0 < s.x < BX1 and BY0 < s.y < BY1)
        last = r.frames[-1].by_id()
        assert all(last[f"card-{c}"].status == ObjectStatus.IN_HAND for c in dealt)
        pack = [last[f"card-{c}"] for c in r.meta["pack"][1:]]
        assert all(p.status == ObjectStatus.ON_TABLE and not p.face_up for p in pack)
