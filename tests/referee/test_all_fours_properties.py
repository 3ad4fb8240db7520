"""All-Fours (IC2024): the engine contract on random legal games, and the documented log replays.

A seeded dealer shuffles a real deck, deals, kicks and plays legal cards (follow suit or trump,
anything when void, never under-trumping while holding another suit) with random stands, begs,
gives, runs of the pack, blind stands, sings and the occasional impossible item. On such play the
referee must call no foul at all, and ``check_engine_properties`` checks atomicity, JSON updates,
the score contract, replay and undo.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tableref.events import EventType, HumanInput, LogItem, TableEvent
from tableref.referee import RefereeError, Update, UpdateKind
from tableref.referee.all_fours import AllFoursEngine
from tableref.referee.all_fours_cards import DECK, SEATS, power, suit_of
from tableref.referee.all_fours_codes import InputKind
from tableref.referee.all_fours_notation import parse
from tableref.replay import replay_stream
from tests.referee.harness import check_engine_properties

LOG = Path(__file__).resolve().parents[2] / "docs" / "logs" / "all-fours.jsonl"


def legal_cards(cards: list[str], trick: list[str], trump: str) -> list[str]:
    """Follow suit or trump; void, anything; never a lower trump on a trumped trick unless only trumps."""
    if not trick:
        return list(cards)
    led = suit_of(trick[0])
    follow = [c for c in cards if suit_of(c) == led]
    if follow:
        options = follow + ([c for c in cards if suit_of(c) == trump] if led != trump else [])
    else:
        options = list(cards)
    on_board = [power(c) for c in trick if suit_of(c) == trump]
    if led != trump and on_board and not all(suit_of(c) == trump for c in cards):
        options = [c for c in options if suit_of(c) != trump or power(c) > max(on_board)]
    return options


class Dealer:
    """Plays a random legal match into a live engine, recording every item it sends."""

    def __init__(self, seed: int, noise: bool = False, script: dict[int, str] | None = None) -> None:
        self.rng = random.Random(seed)
        self.noise = noise
        self.script = script or {}
        self.engine = AllFoursEngine()
        self.items: list[LogItem] = []
        self.updates: list[Update] = []
        self.t = 0.0
        self.turn: str | None = None

    def push(self, item: LogItem) -> bool:
        self.items.append(item)
        try:
            updates = self.engine.apply(item)
        except RefereeError:
            return False
        self.updates.extend(updates)
        for u in updates:
            if u.kind is UpdateKind.TURN:
                self.turn = u.player
        return True

    def tick(self, gap: float = 2.0) -> float:
        self.t = round(self.t + gap + self.rng.random(), 2)
        return self.t

    def say(self, kind: str, **data: Any) -> bool:
        return self.push(HumanInput(t=self.tick(), kind=kind, data=data))

    def see(self, etype: EventType, card: str, **data: Any) -> bool:
        return self.push(TableEvent(t=self.tick(1.0), type=etype, objects=(f"card-{card}",), data={"card": card, **data}))

    def hand_state(self) -> dict[str, Any]:
        game = self.engine.state["game"]
        return game["hand"] if game else {}

    def play_hand(self, number: int, first_dealer: str | None) -> None:
        deck = list(DECK)
        self.rng.shuffle(deck)
        plan = self.script.get(number, "")
        self.say("deal", **({"dealer": first_dealer} if first_dealer else {}))
        hand = self.hand_state()
        dealer = hand["dealer"]
        order = [SEATS[(SEATS.index(dealer) + i) % 4] for i in range(1, 5)]
        held = {s: deck[6 * i : 6 * i + 6] for i, s in enumerate(order)}
        pos = 24
        lead = order[0]
        if self.rng.random() < 0.25 or "hands" in plan:
            self.say("hands", **{s: list(held[s]) for s in order})
        blind = "blind" in plan or (not plan and self.rng.random() < 0.08)
        trick: list[str] = []
        if blind:
            card = held[lead].pop(self.rng.randrange(len(held[lead])))
            self.see(EventType.CARD_PLAYED, card, seat=lead)
            trick.append(card)
        kick = deck[pos]
        pos += 1
        self.see(EventType.CARD_KICKED, kick)
        trump = suit_of(kick)
        if not blind:
            has_trump = any(suit_of(c) == trump for c in held[lead])
            wants = "stand" if "stand" in plan else "beg" if ("give" in plan or "run" in plan) else None
            if has_trump and (wants == "stand" or (wants is None and self.rng.random() < 0.6)):
                self.say("stand")
            else:
                self.say("beg")
                dealer_trump = any(suit_of(c) == trump for c in held[dealer])
                if dealer_trump and "run" not in plan and ("give" in plan or self.rng.random() < 0.5):
                    self.say("give")
                else:
                    self.say("run_pack")
                    while self.hand_state().get("phase") == "running":
                        for s in order:
                            held[s] += deck[pos : pos + 3]
                            pos += 3
                        kick = deck[pos]
                        pos += 1
                        self.see(EventType.CARD_KICKED, kick)
                        trump = suit_of(kick)
        if "late_lead" in plan and not trick:
            wrong = order[1]
            card = held[wrong][0]
            self.see(EventType.CARD_PLAYED, card, seat=wrong)
            self.see(EventType.CARD_RETRIEVED, card, seat=wrong)
        double = "double" in plan
        while self.hand_state().get("phase") == "play" and self.turn is not None:
            seat = self.turn
            if self.noise and self.rng.random() < 0.05:  # the kicked card again: always refused
                assert not self.see(EventType.CARD_PLAYED, kick, seat=self.rng.choice(SEATS))
                continue
            card = self.rng.choice(legal_cards(held[seat], trick, trump))
            others = [c for c in held[seat] if c != card]
            if double and trick and others:
                double = False
                self.see(EventType.CARD_PLAYED, card, seat=seat, order=0)
                self.see(EventType.CARD_PLAYED, others[0], seat=seat, order=1)
            else:
                self.see(EventType.CARD_PLAYED, card, seat=seat)
            held[seat].remove(card)
            trick.append(card)
            if len(trick) == 4:
                trick = []

    def after_hand(self) -> None:
        game = self.engine.state["game"]
        if game and game["singer"] and self.rng.random() < 0.85:
            self.say("sing", team=game["singer"])
        if self.noise and self.rng.random() < 0.2:
            self.say(self.rng.choice(["give", "sing", "overrule", "called_shot"]), team="A")

    def play(self, hands: int) -> None:
        first: str | None = self.rng.choice(SEATS)
        for number in range(1, hands + 1):
            if self.engine.state["match_over"]:
                break
            self.turn = None
            self.play_hand(number, first)
            first = None
            self.after_hand()


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), hands=st.integers(1, 6), noise=st.booleans())
def test_random_legal_games_keep_the_engine_contract_and_draw_no_foul(seed: int, hands: int, noise: bool) -> None:
    dealer = Dealer(seed, noise=noise)
    dealer.play(hands)
    assert not [u for u in dealer.updates if u.kind is UpdateKind.FOUL], "legal play drew a foul"
    check_engine_properties(AllFoursEngine, dealer.items)


_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 20),
    st.sampled_from([*SEATS, "A", "B", "x", "wrong_count", "looked_at_cards", "pack_fell_after_kick"]),
    st.sampled_from(DECK),
    st.lists(st.sampled_from(DECK), max_size=7),
    st.dictionaries(st.sampled_from(["A", "B"]), st.integers(-1, 20), max_size=2),
)
_KEYS = st.sampled_from(["dealer", "seat", "team", "cards", "cause", "code", "card", "order", "trick",
                         "bullseyes", "table", "games", "closed", "close_table", "cards_held", "south"])
_JUNK = st.one_of(
    st.builds(
        lambda kind, data: HumanInput(t=50.0, kind=kind, data=data),
        st.sampled_from([k.value for k in InputKind] + ["called_shot"]),
        st.dictionaries(_KEYS, _VALUES, max_size=3),
    ),
    st.builds(
        lambda etype, card, data: TableEvent(t=50.0, type=etype, objects=(card,), data=data),
        st.sampled_from([EventType.CARD_PLAYED, EventType.CARD_KICKED, EventType.CARD_RETRIEVED, EventType.POT]),
        st.sampled_from([*DECK, "card-AH", "ZZ"]),
        st.dictionaries(_KEYS, _VALUES, max_size=3),
    ),
)


@settings(max_examples=50, deadline=None)
@given(junk=st.lists(_JUNK, max_size=25))
def test_any_input_is_applied_or_refused_with_a_referee_error_never_a_crash(junk: list[LogItem]) -> None:
    start = parse("deal S; kick 5H; stand; E:2C N:4C")
    check_engine_properties(AllFoursEngine, [*start, *junk])


def test_a_long_legal_game_reaches_a_sung_bullseye() -> None:
    dealer = Dealer(2024)
    dealer.play(40)
    games = [u for u in dealer.updates if u.kind is UpdateKind.GAME_OVER]
    assert games, "forty hands should bring a bullseye"
    assert all(u.data["scores"][u.player] >= 14 for u in games)


def test_the_documented_log_replays_without_a_question() -> None:
    out = io.StringIO()
    with LOG.open(encoding="utf-8") as handle:
        code = replay_stream("all-fours", handle, out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert code == 0
    assert not [line for line in lines if "question" in line or "error" in line]
    final = lines[-1]["final"]
    codes = {line.get("code") for line in lines[:-1]}
    assert {"lead_out_of_turn", "card_retrieved", "bottom_card_counts", "give_one", "run_pack", "hands"} <= codes
    over = [line for line in lines[:-1] if line.get("kind") == "game_over"]
    assert len(over) == 1 and final["winner"] == over[0]["player"]
    assert final["scores"][over[0]["player"]] >= 14
    scored = {"A": 0, "B": 0}
    for line in lines[:-1]:
        if line.get("kind") == "score":
            scored[line["player"]] += line["points"]
    assert scored == final["scores"]


def write_log(path: Path = LOG, seed: int = 4) -> None:
    """Regenerate the documented log: a seeded game with a lead out of turn, two cards landing
    together, a give, a run of the pack and the hands shown, played to a sung bullseye."""
    script = {1: "stand late_lead", 2: "give double", 3: "run", 4: "hands stand"}
    dealer = Dealer(seed, script=script)
    dealer.say("teams", A="White Oak", B="Rivals")
    dealer.play(60)
    if not any(u.kind is UpdateKind.GAME_OVER for u in dealer.updates):
        raise RuntimeError("the seeded game ended without a bullseye; pick another seed")
    cut = next(i for i, item in enumerate(dealer.items) if isinstance(item, HumanInput) and item.kind == "sing")
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(item.to_json(), separators=(",", ":")) for item in dealer.items[: cut + 1]]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
