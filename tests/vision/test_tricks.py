"""The trick builder against the simulator's All-Fours scenarios: their true events are the answer.

The observations are made from the scenarios' frame states (no rendering): every face-up card on
the table or in a hand becomes an observation at its position with a few millimetres of jitter,
read right most of the time and misread now and then, and a hand over the table sometimes shows
up as a card-like blob. The seeds here were not used to develop the builder.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from tableref.calibration.spec import load_table
from tableref.events import EventType, TableEvent
from tableref.simulator.card_scenarios import CARD_SCENARIOS
from tableref.simulator.state import FrameState, ObjectStatus, SimResult
from tableref.vision.cards_read import LABELS, CardObservation
from tableref.vision.tricks import TrickBuilder

SPEC = load_table("cards")
FPS = 30.0


def _logp(label: str, confidence: float) -> np.ndarray:
    p = np.full(len(LABELS), (1.0 - confidence) / (len(LABELS) - 1))
    p[LABELS.index(label)] = confidence
    return np.log(p).astype(np.float32)


def _obs(x: float, y: float, label: str, confidence: float = 0.9, p_back: float = 0.0, p_none: float = 0.0,
         face: float = 1.0) -> CardObservation:
    quad = np.array([[x - 31.5, y - 44.0], [x + 31.5, y - 44.0], [x + 31.5, y + 44.0], [x - 31.5, y + 44.0]])
    return CardObservation(quad, (x, y), _logp(label, confidence), p_back, face, p_none, (x, y), 0.0, quad)


def observations(frame: FrameState, rng: random.Random, misread: float = 0.15) -> list[CardObservation]:
    """What a camera would report of ``frame``: face-up cards on the table or held over it."""
    held = {h.holding for h in frame.hands if h.holding}
    out = []
    for o in frame.objects:
        if o.kind != "card" or not o.face_up:
            continue
        if o.status is not ObjectStatus.ON_TABLE and o.id not in held:
            continue
        x, y = o.x + rng.gauss(0.0, 0.6), o.y + rng.gauss(0.0, 0.6)
        if rng.random() < misread:
            out.append(_obs(x, y, rng.choice(LABELS), 0.5))
        else:
            out.append(_obs(x, y, o.label, 0.85))
    for h in frame.hands:  # a hand now and then looks like a card
        if rng.random() < 0.1:
            out.append(_obs(h.x, h.y, rng.choice(LABELS), 0.3, p_none=0.3, face=0.6))
    return out


def build(sim: SimResult, seed: int) -> list[TableEvent]:
    rng = random.Random(seed)
    builder = TrickBuilder(SPEC)
    events: list[TableEvent] = []
    for frame in sim.frames:
        new, _ = builder.update(observations(frame, rng), frame.t, frame.index)
        events += new
    return events


def key(e: TableEvent) -> tuple[object, ...]:
    d = e.data
    if e.type is EventType.REMOVED:
        return (e.type.value, tuple(sorted(e.objects)))
    return (e.type.value, d.get("card"), d.get("seat"), d.get("trick"), d.get("turn"), d.get("order"))


def assert_same(found: list[TableEvent], truth: tuple[TableEvent, ...], tolerance: int = 3) -> None:
    assert [key(e) for e in found] == [key(e) for e in truth]
    for f, t in zip(found, truth, strict=True):
        assert f.frame is not None and t.frame is not None
        assert abs(f.frame - t.frame) <= tolerance, (key(t), f.frame, t.frame)


@pytest.mark.parametrize("seed", [71, 72])
def test_a_whole_hand_is_kicked_played_and_gathered_trick_by_trick(seed: int) -> None:
    sim = CARD_SCENARIOS["hand"](seed, FPS)
    found = build(sim, seed)
    assert_same(found, sim.events)
    played = [e for e in found if e.type is EventType.CARD_PLAYED]
    assert len(played) == 4 * len(sim.meta["tricks"])
    for trick in sim.meta["tricks"]:  # the lead, the order and the seats, trick by trick
        mine = [(e.data["seat"], e.data["card"]) for e in played if e.data["trick"] == trick["number"]]
        assert mine == [(c["seat"], c["card"]) for c in trick["cards"]]
        assert mine[0][0] == trick["leader"]


def test_a_lead_out_of_turn_taken_back_is_retrieved_and_the_trick_starts_again() -> None:
    sim = CARD_SCENARIOS["lead-out-of-turn"](73, FPS)
    found = build(sim, 73)
    assert_same(found, sim.events)
    retrieved = [e for e in found if e.type is EventType.CARD_RETRIEVED]
    assert [(e.data["card"], e.data["seat"]) for e in retrieved] == [
        (sim.meta["tricks"][0]["retrieved"]["card"], sim.meta["tricks"][0]["retrieved"]["seat"])]
    taken_back = retrieved[0].frame
    assert taken_back is not None
    first_real = next(e for e in found if e.type is EventType.CARD_PLAYED and (e.frame or 0) > taken_back)
    assert first_real.data["turn"] == 1


def test_the_kick_is_the_only_event_of_a_deal() -> None:
    sim = CARD_SCENARIOS["kick"](74, FPS)
    found = build(sim, 74)
    assert_same(found, sim.events)
    assert [e.type for e in found] == [EventType.CARD_KICKED]


def _lay(builder: TrickBuilder, frames: range, cards: list[tuple[float, float, str]], **kw: float) -> list[TableEvent]:
    out: list[TableEvent] = []
    for f in frames:
        new, _ = builder.update([_obs(x, y, lab, **kw) for x, y, lab in cards], f / FPS, f)
        out += new
    return out


def test_two_cards_landing_together_the_more_hidden_is_the_bottom_card() -> None:
    b = TrickBuilder(SPEC)
    _lay(b, range(0, 20), [(700.0, 300.0, "6H")])  # the kick
    events: list[TableEvent] = []
    for f in range(20, 45):
        obs = [_obs(700.0, 300.0, "6H"), _obs(500.0, 600.0, "5C", face=0.55), _obs(510.0, 585.0, "KD", face=1.0)]
        new, _ = b.update(obs, f / FPS, f)
        events += new
    played = [e for e in events if e.type is EventType.CARD_PLAYED]
    assert [(e.data["card"], e.data.get("order")) for e in played] == [("5C", 0), ("KD", 1)]
    assert {e.data["seat"] for e in played} == {"south"}
    assert played[0].data["turn"] == 1


def test_a_card_seen_twice_on_one_spot_is_one_play() -> None:
    b = TrickBuilder(SPEC)
    _lay(b, range(0, 20), [(700.0, 300.0, "6H")])
    events = _lay(b, range(20, 60), [(700.0, 300.0, "6H"), (500.0, 600.0, "9S")])
    # a second outline on the same card (an overlap misread) from frame 60 on
    events += _lay(b, range(60, 90), [(700.0, 300.0, "6H"), (500.0, 600.0, "9S"), (512.0, 590.0, "9C")])
    assert [e.data["card"] for e in events if e.type is EventType.CARD_PLAYED] == ["9S"]


def test_a_deck_has_one_of_each_card_so_a_second_reading_of_a_played_card_takes_the_next_best() -> None:
    b = TrickBuilder(SPEC)
    _lay(b, range(0, 20), [(700.0, 300.0, "JS")])
    events = []
    for f in range(20, 50):
        logp = _logp("JS", 0.55)
        logp[LABELS.index("JC")] = math.log(0.4)
        o = CardObservation(np.zeros((4, 2)), (0.0, 0.0), logp, 0.0, 1.0, 0.0, (610.0, 500.0), 90.0, None)
        new, _ = b.update([_obs(700.0, 300.0, "JS"), o], f / FPS, f)
        events += new
    played = [e for e in events if e.type is EventType.CARD_PLAYED]
    assert [e.data["card"] for e in played] == ["JC"]
    assert played[0].data["seat"] == "east"


def test_faces_down_and_non_cards_make_no_events() -> None:
    b = TrickBuilder(SPEC)
    events = _lay(b, range(0, 40), [(700.0, 300.0, "6H")], p_back=0.9)
    events += _lay(b, range(40, 80), [(500.0, 600.0, "2C")], p_none=0.8)
    assert events == []


# -- the rule book's clauses (../shared/rules/all-fours-ic2024.txt) ---------------------------------
SPOTS = {s.id: s.play_spot for s in SPEC.seats}
KICK = (700.0, 300.0, "6H")


def _kicked() -> TrickBuilder:
    b = TrickBuilder(SPEC)
    assert [e.type for e in _lay(b, range(0, 20), [KICK])] == [EventType.CARD_KICKED]
    return b


def test_23b_two_cards_played_at_once_the_bottom_card_counts_and_the_top_goes_back() -> None:
    b = _kicked()
    x, y = SPOTS["west"]
    # the bottom card shows a strip (a third of its face), the top card all of it
    events: list[TableEvent] = []
    for f in range(20, 50):
        obs = [_obs(*KICK), _obs(x, y, "9C", face=0.35), _obs(x + 12.0, y + 14.0, "QD", face=1.0)]
        events += b.update(obs, f / FPS, f)[0]
    played = [e for e in events if e.type is EventType.CARD_PLAYED]
    assert [(e.data["card"], e.data["seat"], e.data.get("order")) for e in played] == [
        ("9C", "west", 0), ("QD", "west", 1)]
    assert played[0].data["trick"] == 1 and played[0].data["turn"] == 1
    # the top card goes back to the hand: no event, and the next seat's card is turn 2
    x2, y2 = SPOTS["south"]
    more: list[TableEvent] = []
    for f in range(50, 90):
        obs = [_obs(*KICK), _obs(x, y, "9C", face=0.35), _obs(x2, y2, "2H")]
        more += b.update(obs, f / FPS, f)[0]
    assert [(e.type, e.data.get("card"), e.data.get("turn")) for e in more] == [(EventType.CARD_PLAYED, "2H", 2)]


def test_23c_a_lead_out_of_turn_taken_back_is_retrieved_dated_when_it_left() -> None:
    b = _kicked()
    x, y = SPOTS["north"]
    events = _lay(b, range(20, 60), [KICK, (x, y, "KS")])
    # picked up: it moves off towards its player over five frames, then is gone from view
    for k, f in enumerate(range(60, 65)):
        events += b.update([_obs(*KICK), _obs(x, y - 30.0 * (k + 1), "KS", face=0.6)], f / FPS, f)[0]
    events += _lay(b, range(65, 100), [KICK])
    assert [(e.type, e.data.get("card"), e.data.get("seat")) for e in events] == [
        (EventType.CARD_PLAYED, "KS", "north"), (EventType.CARD_RETRIEVED, "KS", "north")]
    assert events[1].frame == 60
    # the right player now leads: turn 1 of trick 1
    xe, ye = SPOTS["east"]
    lead = _lay(b, range(100, 130), [KICK, (xe, ye, "3D")])
    assert [(e.data["card"], e.data["trick"], e.data["turn"]) for e in lead] == [("3D", 1, 1)]


def test_23d_a_card_on_board_lifted_after_the_lead_is_still_reported_for_the_referee_to_rule() -> None:
    b = _kicked()
    (xe, ye), (xn, yn) = SPOTS["east"], SPOTS["north"]
    events = _lay(b, range(20, 60), [KICK, (xe, ye, "3D")])
    events += _lay(b, range(60, 100), [KICK, (xe, ye, "3D"), (xn, yn, "KS")])
    events += _lay(b, range(100, 130), [KICK, (xe, ye, "3D")])
    # the camera says what happened; the referee rules the card stands (23d)
    assert [(e.type, e.data.get("card")) for e in events] == [
        (EventType.CARD_PLAYED, "3D"), (EventType.CARD_PLAYED, "KS"), (EventType.CARD_RETRIEVED, "KS")]


TRICK = [(*SPOTS["east"], "3D"), (*SPOTS["north"], "KS"), (*SPOTS["west"], "9C"), (*SPOTS["south"], "2H")]


def _play_a_trick(b: TrickBuilder, start: int, cards: list[tuple[float, float, str]]) -> list[TableEvent]:
    """The cards laid one by one from ``start``, 25 frames apart."""
    events: list[TableEvent] = []
    for n in range(1, 5):
        events += _lay(b, range(start + 25 * (n - 1), start + 25 * n), [KICK, *cards[:n]])
    return events


def test_a_gathered_trick_is_swept_into_a_pile_and_lifted_as_one_removed() -> None:
    b = _kicked()
    cards = TRICK
    events = _play_a_trick(b, 20, cards)
    # the winner (north) sweeps the four cards together towards the middle over eight frames
    pile = (500.0, 450.0)
    for k, f in enumerate(range(120, 128)):
        a = (k + 1) / 8.0
        moved = [(x + a * (pile[0] - x), y + a * (pile[1] - y), lab) for x, y, lab in cards]
        events += _lay(b, range(f, f + 1), [KICK, *moved])
    # the pile (one outline, read as its top card) lies a moment, then is lifted at frame 140
    events += _lay(b, range(128, 140), [KICK, (*pile, "2H")])
    events += _lay(b, range(140, 180), [KICK])
    assert [e.type for e in events] == [EventType.CARD_PLAYED] * 4 + [EventType.REMOVED]
    removed = events[-1]
    assert sorted(removed.objects) == sorted(f"card-{lab}" for *_, lab in cards)
    assert removed.frame == 140
    # the next card led is trick 2, turn 1
    nxt = _lay(b, range(180, 210), [KICK, (*SPOTS["north"], "AS")])
    assert [(e.data["card"], e.data["trick"], e.data["turn"]) for e in nxt] == [("AS", 2, 1)]


def test_a_trick_gathered_with_a_card_the_camera_missed_is_lifted_not_taken_back() -> None:
    b = _kicked()
    seen = TRICK[:3]  # the fourth card was never seen (the builder's trick has three)
    events = _play_a_trick(b, 20, seen)
    events += _lay(b, range(95, 120), [KICK, *seen])
    pile = (500.0, 450.0)
    for k, f in enumerate(range(120, 128)):
        a = (k + 1) / 8.0
        events += _lay(b, range(f, f + 1), [KICK, *[(x + a * (pile[0] - x), y + a * (pile[1] - y), lab)
                                                     for x, y, lab in seen]])
    events += _lay(b, range(128, 170), [KICK])
    assert [e.type for e in events] == [EventType.CARD_PLAYED] * 3 + [EventType.REMOVED]
    assert EventType.CARD_RETRIEVED not in {e.type for e in events}


def test_a_card_leaving_before_it_is_named_takes_the_unsure_card_before_it_along() -> None:
    """The lead reads between two look-alikes (a jack of spades or of clubs seen small) and waits
    for a sure name; the next card lands surely, lies a second, and is taken back before the lead
    is named. It was played all the same: the lead is named on what it has, so that the two events
    keep their order, and the second card is played and then taken back, not lost."""
    b = _kicked()
    jx, jy = SPOTS["south"]
    logp = _logp("JS", 0.42)
    logp[LABELS.index("JC")] = math.log(0.41)  # 0.024 nats a view: not sure before it must be named
    jack = CardObservation(np.zeros((4, 2)), (0.0, 0.0), logp, 0.0, 1.0, 0.0, (jx, jy), 0.0, None)
    events: list[TableEvent] = []
    for f in range(20, 45):
        events += b.update([_obs(*KICK), jack], f / FPS, f)[0]
    ex, ey = SPOTS["east"]
    for f in range(45, 75):
        events += b.update([_obs(*KICK), jack, _obs(ex, ey, "QD")], f / FPS, f)[0]
    for f in range(75, 95):  # the queen is gone; the jack is still unsure
        events += b.update([_obs(*KICK), jack], f / FPS, f)[0]
    cards = [(e.type, e.data.get("seat"), e.data.get("turn")) for e in events]
    assert cards[:2] == [(EventType.CARD_PLAYED, "south", 1), (EventType.CARD_PLAYED, "east", 2)]
    assert (EventType.CARD_RETRIEVED, "east", None) in cards
    assert events[0].data["card"] in ("JS", "JC") and events[1].data["card"] == "QD"
    assert events[0].frame is not None and events[0].frame <= 22  # dated to its landing


def test_a_card_laid_slowly_is_dated_when_it_stops_not_by_its_hand_drawn_approach() -> None:
    """Sightings recorded on a rendered 1080p hand (seed 976, the three of hearts, released at frame
    277): the hand's last approach is seen 13-22 mm short of where the card comes to rest, and at
    rest the outline of a card the hand still half covers flips between two fits 6 mm apart. The
    rest is dated by how much the resting outline jitters, not by the approach: measured over the
    whole run, the approach widened the bound and dated the landing four frames early."""
    b = _kicked()
    trace = [(268, 493.8, 812.7, 0.37), (269, 493.4, 738.0, 0.45), (270, 491.9, 677.5, 0.52),
             (271, 491.6, 624.2, 0.61), (272, 491.5, 589.0, 0.69), (273, 489.8, 580.2, 0.67),
             (274, 483.5, 579.0, 0.64), (275, 491.3, 558.8, 0.73), (276, 491.8, 553.3, 0.72),
             (277, 496.7, 566.7, 0.59), (278, 492.5, 568.0, 0.97)]
    rest = [(491.4, 566.9, 0.84), (485.2, 565.7, 0.78), (490.4, 565.9, 0.83)]
    events: list[TableEvent] = []
    for f in range(20, 268):
        events += b.update([_obs(*KICK)], f / FPS, f)[0]
    for f, x, y, face in trace + [(f, *rest[f % 3]) for f in range(279, 300)]:
        events += b.update([_obs(*KICK), _obs(x, y, "3H", face=face)], f / FPS, f)[0]
    played = [e for e in events if e.type is EventType.CARD_PLAYED]
    assert [(e.data["card"], e.data["seat"]) for e in played] == [("3H", "south")]
    assert played[0].frame is not None and abs(played[0].frame - 277) <= 3


def test_the_pile_of_a_trick_lifted_while_it_is_named_is_not_a_play() -> None:
    """Seen on a rendered 1080p hand (seed 980): the winner sweeps the trick together, the pile
    (one outline, read as no card surely) rests a few frames and is lifted with the cards. The
    pile leaves before it is named, so it must be named at once; in that same frame the trick,
    unseen for three frames, is lifted. The pile belongs to the lifted trick: it is not the lead
    of the next trick."""
    b = _kicked()
    events = _play_a_trick(b, 20, TRICK)
    events += _lay(b, range(95, 120), [KICK, *TRICK])
    pile = (500.0, 450.0)
    for k, f in enumerate(range(120, 128)):
        a = min(k + 1, 5) / 8.0  # swept towards the middle, the pile forming there under the hand
        moved = [(x + a * (pile[0] - x), y + a * (pile[1] - y), lab) for x, y, lab in TRICK]
        obs = [_obs(*KICK), *[_obs(*m) for m in moved]]
        if f >= 124:
            obs.append(_obs(*pile, "2H", confidence=0.3))
        events += b.update(obs, f / FPS, f)[0]
    for f in range(128, 131):  # only the pile is seen now, then it is lifted too
        events += b.update([_obs(*KICK), _obs(*pile, "2H", confidence=0.3)], f / FPS, f)[0]
    events += _lay(b, range(131, 170), [KICK])
    assert [e.type for e in events] == [EventType.CARD_PLAYED] * 4 + [EventType.REMOVED]
    nxt = _lay(b, range(170, 200), [KICK, (*SPOTS["north"], "AS")])
    assert [(e.data["card"], e.data["trick"], e.data["turn"]) for e in nxt] == [("AS", 2, 1)]
