"""A Norwich league match (rules 6 and 8): six singles frames, then three doubles, and the scorecard.

The draw itself is done by people with a hat, so the referee never draws at random (a match must
replay exactly from its log): the tablet enters the drawn order and this module checks it against
the rules and keeps the card.

* Rule 6: no player plays more than one singles and one doubles frame; the home team referees the
  first frame and the teams then take turns (odd frames home, even frames away); a player should
  referee no more than one frame (a warning, as the rule says "should").
* Rule 8: a side needs at least five players. With exactly five, one player plays a second
  singles frame (8(b)) and another one, never the one with two singles, a second doubles frame
  (8(c)).

A frame's result comes from the frame referee (``home``/``away`` banked scores). A shared frame
(2i, a tie) counts for neither side; the match goes to the side with more frames won, and is
drawn when they are level (the rule book names no tie-break, so none is invented).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

SINGLES_FRAMES = 6
DOUBLES_FRAMES = 3
MIN_PLAYERS = 5


@dataclass
class FrameSlot:
    number: int
    kind: str  # "singles" | "doubles"
    home: list[str]
    away: list[str]
    referee_team: str  # "home" | "away" (rule 6)
    referee: str | None = None
    home_score: int | None = None
    away_score: int | None = None
    winner: str | None = None  # "home" | "away"; None with scores recorded: shared
    reason: str | None = None

    @property
    def played(self) -> bool:
        return self.home_score is not None


@dataclass
class Scorecard:
    home_team: str
    away_team: str
    frames: list[FrameSlot] = field(default_factory=list)
    current: int = 0  # index of the frame now being played
    warnings: list[str] = field(default_factory=list)


def _names(value: Any, size: int, what: str) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, Sequence) or len(value) != size or not all(isinstance(v, str) and v for v in value):
        raise ValueError(f"{what} must name {size} player(s), got {value!r}")
    if len(set(value)) != size:
        raise ValueError(f"{what} names the same player twice: {value!r}")
    return [str(v) for v in value]


def _check_side(team: str, singles: list[str], doubles: list[list[str]]) -> None:
    players = set(singles) | {p for pair in doubles for p in pair}
    if len(players) < MIN_PLAYERS:
        raise ValueError(f"{team} has {len(players)} players; a match needs at least {MIN_PLAYERS} (rule 8)")
    s_count = Counter(singles)
    d_count = Counter(p for pair in doubles for p in pair)
    twice_s = [p for p, n in s_count.items() if n > 1]
    twice_d = [p for p, n in d_count.items() if n > 1]
    if any(n > 2 for n in s_count.values()) or any(n > 2 for n in d_count.values()):
        raise ValueError(f"{team}: nobody plays more than two singles or two doubles frames (rules 6, 8)")
    if len(players) > MIN_PLAYERS and (twice_s or twice_d):
        raise ValueError(f"{team}: {', '.join(twice_s + twice_d)} plays twice; with six or more players nobody "
                         "plays more than one singles and one doubles frame (rule 6)")
    if len(twice_s) > 1 or len(twice_d) > 1:
        raise ValueError(f"{team}: with five players only one plays a second singles frame and one other a "
                         "second doubles frame (rule 8(b), 8(c))")
    if twice_s and twice_d and twice_s[0] == twice_d[0]:
        raise ValueError(f"{team}: {twice_s[0]} played two singles frames and may not play a second doubles "
                         "frame (rule 8(c))")


def build_scorecard(data: Mapping[str, Any]) -> Scorecard:
    """The card from the drawn order: ``singles`` [[home, away] x 6], ``doubles`` [[[h, h], [a, a]] x 3]."""
    home_team = str(data.get("home_team") or "home")
    away_team = str(data.get("away_team") or "away")
    singles = data.get("singles")
    doubles = data.get("doubles")
    if not isinstance(singles, Sequence) or isinstance(singles, str) or len(singles) != SINGLES_FRAMES:
        raise ValueError(f"a league match has {SINGLES_FRAMES} singles frames: 'singles' is [[home, away], ...] "
                         "in the drawn order (rule 6)")
    if not isinstance(doubles, Sequence) or isinstance(doubles, str) or len(doubles) != DOUBLES_FRAMES:
        raise ValueError(f"a league match has {DOUBLES_FRAMES} doubles frames: 'doubles' is "
                         "[[[home, home], [away, away]], ...] (rule 6)")
    frames: list[FrameSlot] = []
    for i, pair in enumerate(singles):
        h, a = _names(pair, 2, f"singles frame {i + 1}")
        frames.append(FrameSlot(i + 1, "singles", [h], [a], "home" if i % 2 == 0 else "away"))
    for j, sides in enumerate(doubles):
        if not isinstance(sides, Sequence) or len(sides) != 2:
            raise ValueError(f"doubles frame {j + 1} must be [[home, home], [away, away]], got {sides!r}")
        n = SINGLES_FRAMES + j
        frames.append(FrameSlot(n + 1, "doubles", _names(sides[0], 2, f"doubles frame {j + 1} home"),
                                _names(sides[1], 2, f"doubles frame {j + 1} away"),
                                "home" if n % 2 == 0 else "away"))
    for side, team in (("home", home_team), ("away", away_team)):
        s = [f.home[0] if side == "home" else f.away[0] for f in frames if f.kind == "singles"]
        d = [f.home if side == "home" else f.away for f in frames if f.kind == "doubles"]
        _check_side(team, s, d)
    return Scorecard(home_team, away_team, frames)


def current_frame(card: Scorecard) -> FrameSlot | None:
    return card.frames[card.current] if card.current < len(card.frames) else None


def set_referee(card: Scorecard, name: str) -> str | None:
    """Name the current frame's referee; returns a warning when they already refereed (rule 6)."""
    slot = current_frame(card)
    if slot is None:
        raise ValueError("the match is complete: there is no frame to referee")
    slot.referee = name
    earlier = [f.number for f in card.frames if f.referee == name and f is not slot]
    if earlier:
        warning = f"{name} already refereed frame {earlier[0]}; a player should referee one frame a match (rule 6)"
        card.warnings.append(warning)
        return warning
    return None


def record_frame(card: Scorecard, home_score: int, away_score: int, reason: str,
                 winner: str | None = None) -> FrameSlot:
    """Write the current frame's final score on the card (7(e)); the winner defaults to the higher score."""
    slot = current_frame(card)
    if slot is None:
        raise ValueError("the match is complete: every frame is already on the card")
    slot.home_score, slot.away_score, slot.reason = home_score, away_score, reason
    if winner is None and home_score != away_score:
        winner = "home" if home_score > away_score else "away"
    slot.winner = winner
    return slot


def advance(card: Scorecard) -> FrameSlot | None:
    """Move on to the next frame in the drawn order; ``None`` when the match is complete."""
    if card.current < len(card.frames):
        card.current += 1
    return current_frame(card)


def is_complete(card: Scorecard) -> bool:
    return all(f.played for f in card.frames)


def totals(card: Scorecard) -> dict[str, int]:
    played = [f for f in card.frames if f.played]
    return {
        "home_frames": sum(f.winner == "home" for f in played),
        "away_frames": sum(f.winner == "away" for f in played),
        "shared_frames": sum(f.winner is None for f in played),
        "home_points": sum(f.home_score or 0 for f in played),
        "away_points": sum(f.away_score or 0 for f in played),
    }


def match_winner(card: Scorecard) -> str | None:
    """``home``/``away`` once every frame is played and one side won more frames; else ``None``."""
    if not is_complete(card):
        return None
    t = totals(card)
    if t["home_frames"] == t["away_frames"]:
        return None
    return "home" if t["home_frames"] > t["away_frames"] else "away"


def scorecard_lines(card: Scorecard) -> list[str]:
    """The card as text, one frame a line, then the totals (what goes on the paper card)."""
    lines = [f"{card.home_team} v {card.away_team}"]
    for f in card.frames:
        score = f"{f.home_score}-{f.away_score}" if f.played else "not played"
        result = {"home": card.home_team, "away": card.away_team}.get(f.winner or "", "shared" if f.played else "")
        ref = f", referee {f.referee}" if f.referee else f", referee from {f.referee_team}"
        lines.append(f"{f.number}. {f.kind}: {' & '.join(f.home)} v {' & '.join(f.away)}: {score}"
                     f"{' (' + result + ')' if result else ''}{ref}")
    t = totals(card)
    lines.append(f"frames {t['home_frames']}-{t['away_frames']} ({t['shared_frames']} shared), "
                 f"points {t['home_points']}-{t['away_points']}")
    return lines
