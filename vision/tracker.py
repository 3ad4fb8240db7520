"""Tracking: per-frame detections in table millimetres become objects with identities over time.

``Tracker.update(detections, t, frame) -> Tracks`` is called every frame, with no detections too
(norfair's lesson: the tracker must age its tracks even when the detector sees nothing).

What it has to get right for a referee:

* **Identity through fast motion and collisions.** Each track predicts its position with its own
  velocity; detections are assigned to predictions by a global greedy match on distance, gated by
  how far the ball could have gone since it was last seen, and penalised when the label disagrees.
* **Identity for look-alike objects.** Pool balls carry their number (label votes over the last
  second or two fix a frame where the detector misread a stripe, and let two tracks swapped in a
  break trade names; ``VOTE_KEEP``). Bar-billiards whites and carrom pieces of one colour
  cannot be told apart, so the tracker names them ``white-1``, ``white-2``... as they appear and
  reuses a name only after its object is gone.
* **A ball over a hole versus a ball under a hand.** A track that stops being seen is *missing*.
  If its last predicted position is over a hole or pocket, it is declared potted after
  ``pot_confirm_s``; if it was heading off the surface fast, it is *off the table*; otherwise it is
  occluded and kept (at its last position) for ``occlusion_s`` before it is declared removed.

All thresholds are constructor parameters whose trade-off is written beside them.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from tableref.calibration.spec import TableSpec
from tableref.vision.cue_end import CUE_REACH, cue_beyond
from tableref.vision.detect import CUE_BALL_LABEL, POOL_GROUPS, Detection
from tableref.vision.knock import towards_every


class TrackStatus(StrEnum):
    TENTATIVE = "tentative"  # seen, not yet confirmed (not reported)
    VISIBLE = "visible"
    MISSING = "missing"  # not seen this frame; position is a prediction
    POTTED = "potted"
    OFF_TABLE = "off_table"
    REMOVED = "removed"


ALIVE = (TrackStatus.TENTATIVE, TrackStatus.VISIBLE, TrackStatus.MISSING)

#: Identity by label (pool numbers, red, queen, striker, pins) or by colour with a tracker index.
INDEXED_LABELS = {"white", "black"}
#: The look-alike a one-of-a-kind object's smear reads as (see *strayed* in ``Tracker``): motion
#: blur mixes it with the surface and thins its rim, so the light striker and the red queen or
#: bar-billiards red read as a white man or ball; none of them reads black.
SMEAR_LABEL = "white"
#: How much more two tracks' votes must name each other than themselves before they trade names:
#: two balls read alike for a while must not trade back and forth.
TRADE_MARGIN = 1.25
#: The share of its label votes a track keeps at each sighting: a track's label is what it has
#: read lately (half of it from the last 35 sightings or so), so two balls whose tracks swapped
#: in a break, each then reading the other's number, trade names within a second or two instead
#: of after as long as they were followed before the swap. A free number is taken only when all
#: its readings agree too (``_State.total``): a ball misread for a second is not renamed after a
#: ball potted long ago.
VOTE_KEEP = 0.98


@dataclass(frozen=True)
class Track:
    """One object over time, in table millimetres (the contract with the event extractor)."""

    id: str
    label: str
    group: str
    x: float
    y: float
    vx: float
    vy: float
    radius_mm: float
    status: TrackStatus
    last_seen_t: float
    first_seen_t: float
    hole: str | None = None
    score: float = 1.0
    #: Set on the frame a ball is seen again after it was lost at the edge heading off the table
    #: for longer than a pot takes to confirm: when it was last seen before it left. It jumped the
    #: rail, unseen over the floor or the frame, and came back (``off_table`` with ``returned``).
    left_t: float | None = None
    #: Whether its place was seen bare (no arm, hand or cue over it: the detector's foreground
    #: covers too little of it) on the frame it was last lost. A ball at rest that vanishes from a
    #: bare place was not hidden: it was struck, too fast to be seen, or it dropped.
    lost_bare: bool = False

    @property
    def speed(self) -> float:
        return math.hypot(self.vx, self.vy)

    @property
    def alive(self) -> bool:
        return self.status in ALIVE


@dataclass(frozen=True)
class Tracks:
    """Every reported track at one frame (tentative ones are left out)."""

    t: float
    frame: int
    tracks: tuple[Track, ...]
    #: Pairs of ids two tracks traded on this frame (two balls read the other way round from the
    #: start, see ``Tracker``'s ``stay``), or a track's old and new name when it took a free one
    #: (the 8 read as the 10 for its first second): what was known of the first id now belongs
    #: to the second. No object appeared or left.
    renamed: tuple[tuple[str, str], ...] = ()

    def by_id(self) -> dict[str, Track]:
        return {tr.id: tr for tr in self.tracks}

    def on_table(self) -> tuple[Track, ...]:
        return tuple(tr for tr in self.tracks if tr.status in (TrackStatus.VISIBLE, TrackStatus.MISSING))


@dataclass
class _State:
    """A track's mutable working state (never handed out; :class:`Track` snapshots are)."""

    key: int
    id: str
    group: str
    x: float
    y: float
    vx: float = 0.0
    vy: float = 0.0
    radius_mm: float = 20.0
    status: TrackStatus = TrackStatus.TENTATIVE
    confirmed: bool = False
    hits: int = 1
    free: int = 0  # sightings not joined to a mass the found objects do not explain (Detection.joined)
    steady: int = 1  # sightings in a row up to the last one
    last_seen_t: float = 0.0
    first_seen_t: float = 0.0
    missing_since: float | None = None
    hole: str | None = None
    score: float = 1.0
    votes: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))  # lately (``VOTE_KEEP``)
    total: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))  # since it was born
    left_t: float | None = None
    lost_vx: float = 0.0  # velocity when it was lost
    lost_vy: float = 0.0
    steady_roll: bool = False  # its last two velocity estimates agreed (it was rolling, not jumping)
    launched: bool = False  # its last sighting was its first move from rest (see *launched* in ``Tracker``)
    struck_alone: bool = False  # ... and nothing else was moving fast then: a hand or cue sent it
    rest_x: float = 0.0  # where it was seen before its launch (see *launched* in ``Tracker``)
    rest_y: float = 0.0
    lost_bare: bool = False  # its place was seen bare on the frame it was lost (see ``Track.lost_bare``)
    seen_x: float = 0.0  # where it was last seen (x, y may be a prediction while it is missing)
    seen_y: float = 0.0
    stirred: bool = False  # lost at rest, and since then something may have struck it (see *unstruck*)
    read: str = ""  # the label of its last reading
    touched: bool = False  # its last reading was joined to a mass of change (a hand, the cue)
    trail: list[tuple[float, float, float]] = field(default_factory=list)  # recent sightings (t, x, y)

    @property
    def label(self) -> str:
        # most_common(1) is this max with a heap's overhead, and the label is read for every pair
        # the tracker weighs
        return max(self.votes, key=self.votes.__getitem__) if self.votes else self.id


def _size(d: Detection) -> float:
    """A reading's radius to compare with other readings of the same frame: in millimetres when
    calibrated (under a tilted camera the far side's pieces are imaged smaller: a man near the
    camera measured more pixels than the striker on the far side), else in pixels."""
    return d.radius_mm if d.radius_mm is not None else d.radius


class Tracker:
    """Multi-object tracker over calibrated detections for one table.

    Parameters (and what each trades):

    * ``gate_mm``: how far from its prediction a detection may be and still belong to a track.
      Larger survives hard collisions (a ball's path bends between frames); smaller avoids swapping
      two balls that pass close.  ``gate_speed`` adds that fraction of the distance the track
      travels in one frame. A hidden track seen at least ``coast_hits`` times gets ``gate_mm``
      more (it may have been nudged under the hand) for a detection of its own label; one seen
      fewer times gets neither that nor the jumps of ``max_jump_mm``: it is as likely a piece of
      the hand itself, and it took the detection of the carrom striker flicked beside it. A
      detection of another label is taken within ``gate_mm`` only (a phantom queen read from
      a hand took the striker put down 94 mm away, read as a white man under the fingers). A
      track seen on the last frame takes a ``joined`` detection beyond ``gate_mm`` only ahead of
      its motion: struck, a ball still joined to the cue has not left it farther than that, and
      a ball moves forwards; at rest beside it or behind it, that detection is a part of the arm
      or the cue (a white cuff, a knuckle, the ferrule following the ball) read as the ball.
    * ``label_penalty_mm``: cost added when a detection's label differs from the track's; high
      enough that a ball keeps its number through a misread, low enough that a real swap of nearby
      balls is not forced.
    * ``confirm_hits``: detections needed before a new track is reported. More rejects flicker
      (a highlight, a chalk cube) but delays ``placed`` events by that many frames. At least one
      of them must not be ``joined`` (see :class:`~tableref.vision.detect.Detection`): a ball put
      down by a hand is reported when the hand lets go of it, a knuckle or a fist read as a ball
      goes away with the hand and never is (no parameter: a new object seen only as a part of a
      hand is no evidence that anything was put on the table).
    * ``pot_confirm_s``: how long a ball must be missing over a hole before it counts as potted.
      Longer avoids false pots when a ball rolls over a hole's edge under a cue, or skims the rim
      hidden by the pin it knocked over (bar billiards seed 2701: missing for five frames, 0.17 s,
      three of them read as the falling pin, and called potted at 0.12 s; a ball in a hole stays
      gone); shorter reports the pot sooner (the event is dated to the drop either way, so only
      the referee's tablet waits). A ball lost heading over the rail and found again after at
      least this long went off the table and came back (``Track.left_t``).
    * ``occlusion_s``: how long a missing ball that is not over a hole is kept at its last position
      (a hand or cue over it) before it is declared removed. One that was rolling when it was
      lost, on a path that runs over a hole it could have reached while unseen, and that has
      not been seen since, dropped into that hole (it went out of sight behind the pin it
      knocked over, or under the cue, on its way in): it is potted then, rather than removed.
      ``roll_speed_mm_s``: the speed below which a lost ball counts as at rest for that (a ball
      at rest under a hand beside a hole is not heading anywhere). ``cover_s``: a ball lost at
      rest whose place the camera sees covered (``covered`` given to :meth:`update`: an arm, a
      sleeve lying across the table while the player aims) is kept up to this long: it is under
      the cover, and a player may aim for seconds. A bare place ends it after ``occlusion_s``
      as before (picked up). Longer keeps a ball through longer aiming; the cost is a ball
      picked up by the hand that covered it, and carried off under the arm, reported late.
    * ``off_speed_mm_s`` and ``edge_mm``: a ball last seen within ``edge_mm`` of the surface's edge and
      moving outward faster than this has left the table, rather than being hidden, once it has
      stayed unseen for ``off_confirm_s``: a ball driven hard into a cushion is a smear the
      detector can lose for a few frames and comes back off the cushion; one that jumped the
      rail does not. Longer keeps more hard bounces; shorter reports a ball off sooner (the
      event is dated to its last sighting either way).
    * ``max_jump_mm``: in a second pass, how far a track may jump to a detection of its own label
      when nothing nearer matched: a ball struck hard from rest moves 100-300 mm in one frame.
      Larger keeps identity through the hardest shots; smaller avoids pairing a vanished ball
      with a different one of the same label elsewhere. A track seen on the last frame rolling
      faster than ``jump_speed_mm_s`` jumps no farther from where it was than its speed, or that
      of a faster ball near enough to hit it, takes it in the frame (plus two radii): collisions
      only pass speed on from a faster ball, and a detection farther off is something else (a cue
      following through), not the ball. A *missing* track of a one-of-a-kind label
      (a pool number, the queen, the striker) takes its label at any distance. No track lost over
      a hole on its way in jumps at all: it was not struck from rest, and it dropped or rattles in
      the jaws where it was lost (a carrom man lost over a pocket took the striker, read as a man
      300 mm back, and was never potted). ``lost_jump_s``: for this long after a track was last
      seen (not over a hole) it also takes, within ``max_jump_mm``, a detection of another label
      that no track of that label took: the smear of a ball struck hard is read
      with the cloth's colour as much as its own. Longer keeps more struck balls through misread
      smears; shorter avoids giving a hidden ball the detection of a new one put down nearby.
      Only a track seen ``lost_steady`` frames in a row before it was lost does so: a ball lost
      in its smear was in plain view until it was struck, while one flickering in and out of
      view is under an arm or a hand, and a detection beside it is as likely part of that arm.
      Never a reading joined to an arm or a cue that names another one-of-a-kind object: that
      object's own track took its own reading, and this one is the arm's (up and down seed
      1701: a green 6 at rest, unseen for a frame as a sleeve passed, took the sleeve's streak
      155 mm off, read as the 8, and started a shot no one played). A look-alike reading there
      may still be the struck ball's smear beside the cue (bar billiards seed 1901: the red,
      struck hard, read as a white joined to the cue).
    * ``carry``: a track seen on the last frame rolling faster than ``jump_speed_mm_s`` takes,
      before any other pairing, a detection within this fraction of its radius of where its
      velocity puts it, whatever that detection's colour reads, as long as the label could be
      its own smear (its own, a look-alike colour such as a white man, or a one-of-a-kind label
      that no other live track holds). A fast piece smeared by its own motion measures smaller
      and paler than it is (the carrom striker is read as a white man), and a piece it just hit
      is never there: a hit piece leaves the contact point a full sum of radii ahead of where the
      hitter would have gone. Larger keeps fast objects through worse velocity estimates; smaller
      leaves more of them to the label-first passes, where a resting look-alike next to the
      hitter's path takes its smear (a false move, then a false pot when the smear drops).
    * ``stay``: a track seen on the last frame and not rolling fast takes, after ``carry`` and
      before any other pairing, a detection within this fraction of its radius of where it is,
      under the same condition on the label as ``carry`` (a track of the detection's own label
      there first; a reading of another label only if it is a look-alike colour, a white or black,
      not a named object, and only for a track seen ``lost_steady`` frames in a row, so that a
      pairing gone wrong a frame ago is not held): an object does not vanish from under itself
      while another takes its place. A struck piece read another way (a carrom striker blurred to a
      man's size in the frame it is flicked, or half hidden by the finger) is otherwise taken by
      any track of the read label within the gate, such as one a hand left behind a moment ago.
      A piece that hits it is never there: touching, their centres are two radii apart. Larger
      keeps more misread still objects; smaller leaves more to the label-first passes.
      No other resting or hidden-at-rest track takes the reading at the place of one seen there
      ``lost_steady`` frames in a row, whatever its label: a resting ball is not where another
      rests (a ball rolling fast may arrive there: it knocked the other away). Two balls cannot
      trade places in one frame: the orange 5 and the orange-striped 13 touching in a rack,
      read the other way round for a while, each keep the reading at their own place as a
      misread; following the labels moved both a ball's width and started a shot no one played.
      Their votes still see the readings: two balls named the other way round from the start
      trade names once each one's votes clearly name the other (``TRADE_MARGIN``).
    * ``overlap``: an unmatched detection whose centre is nearer than this fraction of the summed
      radii to a detection already matched this frame is the same object seen twice, not a new
      one. Higher suppresses more doubles; lower lets two touching objects both be born.
    * ``coast_hits``: sightings a track needs before a hidden one coasts along its velocity (and
      may coast into a hole): fewer follows a new ball under a cue sooner, more ignores the wild
      velocity of a track paired wrongly once. ``coast_hole_mm``: a hidden ball coasting onto a
      hole counts as potted only within this distance of where it was last seen (a ball rolling
      in under a cue); farther, the prediction is a guess, and the referee must not be told of a
      pot no one saw near its hole. Coasting stops at the cushions.
    * ``struck_path_s``: a track lost while at rest and seen again within this long, more than
      two radii away, was struck from its rest (a man flicked off by the striker, lost in its
      smear at once): its path from the rest to the new sighting is straight, so that velocity
      counts as a steady roll (``_hole_on_path`` may follow it into a hole if it is lost again
      before it is seen twice). Longer trusts the line over longer gaps (a hand could have
      carried the piece there); shorter asks for a second sighting sooner.
    * *launched* (no parameter of its own): a track whose last sighting was its first move from
      rest (slower than ``roll_speed_mm_s`` before, faster than ``jump_speed_mm_s`` then) was
      struck during that frame, so the distance it showed is a fraction of what it covers in a
      whole frame (a carrom striker flicked from its baseline shows 40 mm, then goes 160). It
      takes first, as ``carry`` does, a detection anywhere ahead on its line of motion within
      ``max_jump_mm``, no farther off the line than ``carry`` radii, that no resting object holds
      (within ``stay`` of where it rests) and whose label it could be misread as. Beyond one
      object lying still in its way (within their summed radii of the line), only after that
      object has had its own label's reading: it hits the object first, and a reading beyond it
      is the object knocked on (carroms, piece off the board, seed 3702: the striker was read as
      a white man at the man's place, the man 69 mm beyond on its line; the striker's track took
      the far reading and the first contact went to a man hit eight frames later). Not through
      a pack of several. So does one struck from its rest while unseen (``struck_path_s``): its speed over the gap is a
      fraction of its speed since the strike (a break's cue ball lost for a frame, seen 220 mm
      on, then 270 mm further). Its next move, a whole frame's, is its velocity then, not averaged
      with the launch's fraction (the striker's 131 mm averaged with its 28 mm left it short of
      its next reading by more than its reach). Launched while nothing else moved fast, a hand
      or a cue sent it: lost then, for ``struck_path_s`` it takes no reading behind the place it
      was launched from, farther than ``gate_mm`` from it. The fingers that flicked a striker at
      4.5 m/s, read as a striker on the base circle behind it, took its track back (carrom seed
      1702), and its cushion and contact went to a man. Within the gate the reading may be the
      object itself, its launch read on the cue's tip; set moving among moving objects, one of
      them may have struck it back.
    * *strayed* (no parameter of its own): a one-of-a-kind object (the striker, the queen, the
      red) seen ``lost_steady`` frames in a row and then lost in motion, rolling fast or
      vanishing from a bare place at rest (struck too fast to be seen), away from any hole, is
      for ``occlusion_s`` the last resort of a white reading (``SMEAR_LABEL``) that no track
      took and no hand holds: struck hard, the striker is a smear until a hit slows it, then
      reads as a white man (its faint blurred rim is read as a man's) wherever it got to, far
      beyond any jump; it still measures larger than the white readings of that frame do
      (halfway to its size, geometrically: only size tells the striker from a man, and a man's
      smear stretches him too). Never a black reading (a man it knocked on), nor while any white man is unseen
      (the reading may be him: in a break, men flicked out of the pack are lost and found all
      over the board), nor one within ``gate_mm`` of a track born a frame ago.
    * *struck, not nudged* (no parameter of its own): a track lost at rest gets ``gate_mm`` more
      for a reading of its own label (nudged under a hand) and jumps of ``max_jump_mm`` (struck
      hard from its rest); a reading there that an object rolling fast a frame ago has within its
      own motion gate is that object's first, whatever its label reads, and the lost track's only
      if that object takes another. So is one that an object lost in its smear within
      ``lost_jump_s`` can have reached, if that object was seen on its course after the track was
      lost (the striker seen once past the man it hit, then lost: its next reading, read as a man,
      went to him, and the striker's pot was called his); lost on the same frame as the track,
      it was not seen going on, and the reading is as likely the struck piece's. Lost at rest as the fast one arrived, it was struck, and where
      it went is unknown (a man knocked off the board by the striker is never seen again), while
      the fast one is on its course: the striker coming off the cushion beside it, its smear read
      as a white man, was followed as that man and its cushions were given to him. A look-alike
      label (a white or a black man) is deferred so within the plain gate too: it says which
      colour, not which man, and the striker read as a man 32 mm from the rest of the man it had
      just knocked off the board was taken by his track. Such a reading goes to the fast object,
      or, when that takes another, straight back to the man, before any track may take a reading
      of another label: in a break, a black man lost beside the white one took it, and the two
      read each other's colour for the rest of the clip. A numbered label is that object's.
    * ``roll_base_s``: a ball lost rolling follows its path into a hole after ``occlusion_s``
      (``_hole_on_path``) only if its velocity is a roll's: its last two velocity estimates
      agreed, or its velocity agrees with its move over its sightings of this long (three at
      least). Readings 20-40 mm apart from the truth (a green ball on green cloth, colors seed
      3802) make every step disagree with the last while the smoothed velocity and the move over
      a few frames hold true; the ball lost 67 mm short of a corner pocket was "removed". Longer
      averages more noise away and bends more round a bounce (which then disagrees: no pot).
    * *unstruck*, and ``settled_s``: a player strikes only the pool cue ball, the carrom striker,
      and in bar billiards the ball played from the D (any ball); every other object moves when
      something reaches it. An object ball at rest that nothing can have struck this frame does
      not jump beyond its gate: seen a frame ago, or lost at rest while a shot is on (or within
      ``lost_jump_s`` of its loss while none is: after that a hand may have moved it), and
      nothing reached it since. What may strike (``_strikers``): an object rolling fast a frame
      ago, as far as its speed takes it; one lost in its smear, as far as its speed took it
      since; the struck object lost (off a hole), or seen at rest a frame ago and read nowhere at
      its place now, or just launched (its speed so far a fraction of it), ``max_jump_mm`` a
      frame. A hit passes on through objects within ``gate_mm`` of touching within the frame (a
      break's pack), and every resting object is open to a hit while the struck object is not
      followed at all. Up and down seed 3702: the cue laid over the 14 was read as the 14 114 mm
      off; the 14's track took it, then the cue ball's reading as it was struck, and followed the
      cue ball for the whole shot. Seed 2802, break: the 2, unread in the rack, took the tail of
      the cue ball's smear read as the 2 halfway up the table. A lost object ball's jump to a
      reading within the motion gate of another object seen a frame ago also waits until that
      object has taken a reading (the cue ball's first smear, read as the 14, is the cue ball's).
      Not for a track younger than ``settled_s``: its rest is not yet known (a ball the
      background had learned leaves a ghost of its look behind as it rolls off; a track born on
      it froze there, and the ball's own reading at the pocket was the jump that found it).
      Nor for a track whose last reading was of another label: its identity is in doubt, and
      its label read elsewhere may be it. Longer ``settled_s`` trusts fewer rests.
    * ``knock_min`` and ``knock_cos``: a resting object knocked by a fast one leaves along the
      line of centres at the contact, away from the hitter, so that its displacement points the
      way from where the hitter was a frame ago through it (the hitter's own motion only adds to
      that). A resting track does not take a detection more than ``knock_min`` of its radius from
      where it is if, for every fast object seen a frame ago that could have reached it, the
      displacement's cosine with that direction is below ``knock_cos``: that detection is the
      hitter itself arriving (a carrom striker flicked into the pack, read as a white man), not
      the piece it is about to hit. So does an object that vanished from a bare place at rest
      within ``struck_path_s`` (struck too fast to be seen) and could have come this far at
      ``max_jump_mm`` a frame: it comes from where it rested (carrom seed 2901, piece off the
      board: the striker, unseen from its baseline on, read as a white man 15 mm from a man's
      rest on its way in, was taken as that man; his track "started" the shot). Nearer -1
      allows more (a piece knocked sideways in a chain of hits may lean back a little towards
      the first hitter); nearer 0 rejects more.
    * ``twin``: a one-of-a-kind object's track lost while another track of its label, rolling,
      is seen within this fraction of their summed radii of it (two balls cannot overlap) was
      the same ball followed twice; it ends there, without a pot or a removal. Higher ends more
      doubles (and could end a ball hidden beside a misread look-alike); lower leaves doubles to
      coast into pockets.
    * ``cushion_keep``: the share of its speed into a cushion that a ball keeps coming off it (a
      cushion's restitution; real cushions return about 0.7-0.85 of it). A track's predicted
      place beyond a cushion is where no ball rolls: a ball driven into the cushion comes back
      (a fast one within the frame), so the prediction is bounced off it, and so is the velocity
      of a track seen coming back. Only along the cushion's own length: past its end (a pocket's
      mouth) the ball goes on. Without it, a fast ball bouncing between two sightings was
      predicted off the table and lost, and a resting look-alike took its reading (the striker
      followed as a white man after a cushion, its cushions given to that man). Higher or lower
      than the real cushion's misplaces the bounced prediction by that share of the overshoot.
      The speed of a track seen coming back is measured from where it met the cushion, but never
      more than it came in with or than its plain move shows: a cushion gives no speed, and a bounce
      dated late on a poor velocity squeezed the whole move into a sliver of the frame.
    * ``cue_reach``: on a table where nothing rolled fast a frame ago, a reading joined to a mass
      of change, more than a radius off the place where an object a player strikes (the pool cue
      ball, the carrom striker, any bar-billiards ball) rested, is the end of the cue that struck it when the camera's
      foreground goes on beyond it, away from that place, at each of these distances (in radii
      beyond the reading; :mod:`~tableref.vision.cue_end`): the struck ball is ahead of the cue,
      and the white ferrule at its old place reads as the ball better than its faint smear does.
      The track does not take it. Longer distances need more of the cue on the table; shorter
      ones take a long smear for a cue. Empty: never.
    * ``smoothing``: weight of the newest velocity measurement; higher follows sudden changes
      (collisions) faster, lower is steadier at rest.
    """

    def __init__(self, spec: TableSpec, *, gate_mm: float = 70.0, gate_speed: float = 0.6,
                 label_penalty_mm: float = 150.0, confirm_hits: int = 2, pot_confirm_s: float = 0.2,
                 occlusion_s: float = 1.2, off_speed_mm_s: float = 600.0, edge_mm: float = 40.0,
                 smoothing: float = 0.7, hole_margin_mm: float = 6.0, max_jump_mm: float = 450.0,
                 overlap: float = 0.6, coast_hits: int = 4, off_confirm_s: float = 0.4,
                 coast_hole_mm: float = 60.0, lost_jump_s: float = 0.1, lost_steady: int = 5,
                 jump_speed_mm_s: float = 600.0, roll_speed_mm_s: float = 100.0, carry: float = 0.8, stay: float = 0.35,
                 struck_path_s: float = 0.25, knock_min: float = 0.5, knock_cos: float = -0.5,
                 twin: float = 0.8, cover_s: float = 5.0, cushion_keep: float = 0.75,
                 settled_s: float = 0.5, roll_base_s: float = 0.3,
                 cue_reach: tuple[float, ...] = CUE_REACH) -> None:
        self.spec = spec
        self.gate_mm = gate_mm
        self.gate_speed = gate_speed
        self.label_penalty_mm = label_penalty_mm
        self.confirm_hits = confirm_hits
        self.pot_confirm_s = pot_confirm_s
        self.occlusion_s = occlusion_s
        self.off_speed_mm_s = off_speed_mm_s
        self.edge_mm = edge_mm
        self.smoothing = smoothing
        self.hole_margin_mm = hole_margin_mm
        self.max_jump_mm = max_jump_mm
        self.overlap = overlap
        self.coast_hits = coast_hits
        self.off_confirm_s = off_confirm_s
        self.coast_hole_mm = coast_hole_mm
        self.lost_jump_s = lost_jump_s
        self.lost_steady = lost_steady
        self.jump_speed_mm_s = jump_speed_mm_s
        self.roll_speed_mm_s = roll_speed_mm_s
        self.carry = carry
        self.stay = stay
        self.struck_path_s = struck_path_s
        self.knock_min = knock_min
        self.knock_cos = knock_cos
        self.twin = twin
        self.cover_s = cover_s
        self.cushion_keep = cushion_keep
        self.settled_s = settled_s
        self.roll_base_s = roll_base_s
        self.cue_reach = cue_reach
        self._covered: Callable[[float, float, float], bool] | None = None
        self._stir: set[int] | None = None  # this frame's *unstruck* judgement (see ``_stirred``)
        self._cushions = [(*spec.nose(c), *c.a, *c.b) for c in spec.cushions]
        self._tracks: list[_State] = []
        self._next_key = 0
        self._t: float | None = None

    # -- public ---------------------------------------------------------------------------------
    def update(self, detections: Sequence[Detection], t: float, frame: int,
               covered: Callable[[float, float, float], bool] | None = None) -> Tracks:
        """The tracks after this frame's ``detections``. ``covered(x_mm, y_mm, radius_mm)``, when
        given, says whether something covers that place in this frame (see ``cover_s``)."""
        self._covered = covered
        self._stir = None
        dt = 0.0 if self._t is None else max(1e-6, t - self._t)
        self._t = t
        dets = [d for d in detections if d.x_mm is not None and d.y_mm is not None]
        alive = [s for s in self._tracks if s.status in ALIVE]
        # nothing moving fast: what starts moving now was sent by a hand or a cue (see *launched*)
        quiet = not any(o.confirmed and not o.group.startswith("pin")
                        and math.hypot(o.vx, o.vy) >= self.jump_speed_mm_s for o in alive)
        # Confirmed tracks choose first: a track born a frame ago from a stray detection (the far
        # end of a smear) must not take the detection of an object followed for seconds.
        pairs = self._associate([s for s in alive if s.confirmed], dets, dt, t)
        left = [d for d in dets if id(d) not in {id(d) for _, d in pairs}]
        pairs += self._associate([s for s in alive if not s.confirmed], left, dt, t)
        matched_tracks = {id(s) for s, _ in pairs}
        matched_dets = {id(d) for _, d in pairs}
        swept = [self._sweep(s, d) for s, d in pairs]
        for s, d in pairs:
            if quiet and self._cue_pulled(s, d, t, dt):
                d = replace(d, x_mm=s.x, y_mm=s.y)  # where it rests (see cue_reach)
            self._observe(s, d, t, dt)
            s.struck_alone = s.launched and quiet
        for s in alive:
            if id(s) not in matched_tracks:
                self._miss(s, t, dt)
        taken = [d for _, d in pairs]
        for d in sorted(dets, key=lambda d: -d.score):
            if id(d) not in matched_dets and not self._overlaps(d, taken) and not self._in_swept(d, swept):
                self._spawn(d, t)
                taken.append(d)
        traded = self._relabel()
        ended = [s for s in self._tracks if s.status not in ALIVE and s.confirmed]
        self._tracks = [s for s in self._tracks if s.status in ALIVE]
        # Tracks that ended this frame are reported once, with their final status, then forgotten.
        reported = [self._as_track(s) for s in self._tracks if s.confirmed]
        reported.extend(self._as_track(s) for s in ended)
        return Tracks(t, frame, tuple(reported), tuple(traded))

    def _relabel(self) -> list[tuple[str, str]]:
        """Numbered objects (pool balls, red, queen, ...) take the label their votes agree on,
        when no other live track holds it: one misread frame never renames a ball for good. Two
        whose votes name each other by ``TRADE_MARGIN`` trade names. The pairs traded, and those
        of a track's old and new name, are returned (see :attr:`Tracks.renamed`)."""
        traded: list[tuple[str, str]] = []
        live = [s for s in self._tracks if s.confirmed and s.status in ALIVE]
        taken = {s.id for s in live}
        holder = {s.id: s for s in live}
        for s in self._tracks:
            label = s.label
            if not s.confirmed or label in INDEXED_LABELS or s.id == label:
                continue
            if label in taken:
                # two balls each voted the other's name clearly (read the other way round from the
                # start and kept in place by ``stay``): they trade names
                other = holder.get(label)
                if other is not None and other is not s and other.label == s.id \
                        and s.votes[label] >= TRADE_MARGIN * s.votes[s.id] \
                        and other.votes[s.id] >= TRADE_MARGIN * other.votes[label]:
                    traded.append((s.id, other.id))
                    s.id, other.id = other.id, s.id
                    holder[s.id], holder[other.id] = s, other
                continue
            if max(s.total, key=s.total.__getitem__) != label:
                continue  # only lately read so: a free number is taken on all the readings
            taken.discard(s.id)
            holder.pop(s.id, None)
            traded.append((s.id, label))  # the same object under its own name, not a new one
            s.id = label
            taken.add(label)
            holder[label] = s
        return traded

    # -- association ----------------------------------------------------------------------------
    def _associate(self, tracks: list[_State], dets: list[Detection], dt: float,
                   t: float) -> list[tuple[_State, Detection]]:
        """Greedy passes, nearest first. Before them a track seen a frame ago keeps a detection of
        a label it could be misread as, where its motion puts it (``carry``) or, not rolling fast,
        where it is (``stay``). Then (1) same label within the motion gate, (2) same label
        within ``max_jump_mm`` (a ball struck hard from rest), (3) a different label within the gate
        (a misread), (4) a different label within ``max_jump_mm`` of a track lost for at most
        ``lost_jump_s`` (a ball struck hard, lost in its smear, whose smear is misread: a struck red
        seen as a white streak is the red, not a new ball). Label agreement comes first so that a
        resting ball never takes the detection of the ball that just hit it, however close they are."""
        carried: list[tuple[float, int, int]] = []
        blocked: list[tuple[float, int, int]] = []  # see *launched*
        kept: list[tuple[float, int, int]] = []
        kept_other: list[tuple[float, int, int]] = []
        same: list[tuple[float, int, int]] = []
        jump: list[tuple[float, int, int]] = []
        other: list[tuple[float, int, int]] = []
        lost: list[tuple[float, int, int]] = []
        strayed: list[tuple[float, int, int]] = []
        nudged: list[tuple[float, int, int]] = []
        overtaken: list[tuple[float, int, int]] = []  # see *struck, not nudged*: a fast object's look-alike reading
        reclaimed: list[tuple[float, int, int]] = []  # ... and the lost track's claim on it after
        index = {id(o): k for k, o in enumerate(tracks)}
        held = {o.label: o for o in self._tracks if o.confirmed and o.status in ALIVE}
        seen_now = [o for o in self._tracks if o.status == TrackStatus.VISIBLE and o.last_seen_t >= t - dt - 1e-6]
        slow = [o for o in seen_now if o.confirmed and math.hypot(o.vx, o.vy) < self.roll_speed_mm_s]
        resting = [(o.x, o.y, self.stay * o.radius_mm) for o in slow]
        # ... and what lies in the way of a fast object's launch (see *launched*)
        still = [o for o in slow if not o.group.startswith("pin")]
        # fast objects seen a frame ago: what may have knocked a resting one (see knock_cos)
        rolling = [o for o in seen_now if not o.group.startswith("pin")
                   and math.hypot(o.vx, o.vy) >= self.jump_speed_mm_s]
        # ... and those that vanished from a bare place at rest a moment ago: struck too fast to
        # be seen, on their way from that rest (see knock_cos)
        vanished = [o for o in self._tracks if o.confirmed and o.status == TrackStatus.MISSING and o.lost_bare
                    and o.hole is None and not o.group.startswith("pin")
                    and math.hypot(o.lost_vx, o.lost_vy) < self.roll_speed_mm_s
                    and t - o.last_seen_t <= self.struck_path_s + 1e-9]
        # ... and, on a still table, an object a player strikes seen at rest a frame ago under the
        # cue (its reading joined to it) and read nowhere at its place now: struck this frame,
        # from that rest (see cue_reach). Not one it may have hit on the same frame, read away
        # from its place too: that one was not under the cue.
        if not rolling:
            vanished += [o for o in slow if self._cue_strikes(o) and o.touched and not o.group.startswith("pin")
                         and not any(math.hypot(d.x_mm - o.x, d.y_mm - o.y) <= o.radius_mm
                                     for d in dets if self._compatible(o, d))]
        # ... and those lost in their smear since (see *struck, not nudged*)
        smeared = [o for o in self._tracks if o.confirmed and o.status == TrackStatus.MISSING and o.hole is None
                   and not o.group.startswith("pin") and t - o.last_seen_t <= self.lost_jump_s + 1e-9
                   and math.hypot(o.lost_vx, o.lost_vy) >= self.jump_speed_mm_s]
        reserved = self._reserved(tracks, dets, t, dt)
        # what resting objects something may have struck this frame (see *unstruck*), judged once
        # a frame on all of its readings
        if self._stir is None:
            self._stir = self._stirred(seen_now, smeared, dets, t, dt)
        stirred = self._stir
        in_play = bool(rolling or smeared or vanished)
        # what may stray (see *strayed*), and only then what the frame says of it: on most frames
        # of most tables nothing can
        strayers = self._strayers(tracks, t)
        loose, newborn, man = self._stray_scene(dets) if strayers else (True, [], 0.0)
        for i, s in enumerate(tracks):
            px, py = self._predict(s, dt)
            gate = self._motion_gate(s, dt)
            # hidden after a sighting or two: as likely a piece of a hand as an object (see gate_mm)
            flicker = s.status == TrackStatus.MISSING and s.hits < self.coast_hits
            misread_gate = gate  # nudged while hidden and misread as well is one guess too many
            if s.status == TrackStatus.MISSING and not flicker:
                gate += self.gate_mm  # a hidden ball may have been nudged
            # Rolling fast and seen a frame ago, a ball cannot get farther than its speed takes it,
            # unless a faster ball hit it: it jumps no farther than the fastest of the two goes.
            speed = math.hypot(s.vx, s.vy)
            fast = speed >= self.jump_speed_mm_s and s.status != TrackStatus.MISSING
            reach = 1.1 * self._fastest_near(s, dt) * dt + 2.0 * s.radius_mm if fast else self.max_jump_mm
            carries = fast and s.confirmed and s.last_seen_t >= t - dt - 1e-6
            stays = self._stays(s, t, dt)
            lost_at_rest = s.status == TrackStatus.MISSING and math.hypot(s.lost_vx, s.lost_vy) < self.roll_speed_mm_s
            # what may have struck it: fast a frame ago, or lost in its smear after it was seen
            # on its course past this track's loss
            struckby = rolling + [o for o in smeared if o.last_seen_t > s.last_seen_t + 1e-9] \
                if lost_at_rest and smeared else rolling
            # lost on its way into a hole: it dropped, or rattles in the jaws within its gate
            over_hole = s.status == TrackStatus.MISSING and s.hole is not None
            # a pin topples where it stands rather than sliding off the line of centres
            hitters = self._hitters(s, rolling, vanished, t, dt) if (rolling or vanished) and stays \
                and speed < self.roll_speed_mm_s and not s.group.startswith("pin") else []
            launch = carries and s.launched
            # lost on a launch a hand or a cue made: behind its rest lies what sent it (see *launched*)
            sent = s.status == TrackStatus.MISSING and s.struck_alone \
                and t - s.last_seen_t <= self.struck_path_s + 1e-9
            # Carroms: the player flicks only the striker. A man or the queen lost at rest while
            # nothing rolled was not struck, and does not fly off to a reading of another label
            # (break, seed 3501: a black man lost in the still pack for a frame took the striker's
            # reading 240 mm off on its baseline, where the striker had just been set down).
            unflicked = bool(self.spec.baselines) and s.label != "striker"
            # An object ball at rest that nothing can have struck is where it was (see *unstruck*)
            unstruck = False
            if not self._cue_strikes(s) and not s.group.startswith("pin") and s.read == s.label \
                    and t - s.first_seen_t >= self.settled_s \
                    and ((stays and speed < self.roll_speed_mm_s) or lost_at_rest):
                if s.status == TrackStatus.MISSING:
                    s.stirred = s.stirred or id(s) in stirred
                    unstruck = not s.stirred and (in_play or t - s.last_seen_t <= self.lost_jump_s + 1e-9)
                else:
                    s.stirred = id(s) in stirred  # kept through its loss, if it is lost on this frame
                    unstruck = not s.stirred
            larger = strayers.get(i, 0.0)
            strays = i in strayers and not loose
            for j, d in enumerate(dets):
                if not self._compatible(s, d) or (hitters and self._towards_hitters(s, d, hitters)):
                    continue
                foreign = reserved.get(j, i) != i  # where another ball has rested all along
                if foreign and (stays or lost_at_rest):
                    continue  # the reading there is that ball
                # and a ball lost rolling a moment ago does not land on one lying still (one only
                # rolling slowly may be this track's own ball, followed by the wrong track since a
                # hit; one lost long ago may have been carried anywhere)
                landing = foreign and t - s.last_seen_t <= self.struck_path_s + 1e-9 \
                    and math.hypot(tracks[reserved[j]].vx, tracks[reserved[j]].vy) < self.roll_speed_mm_s
                assert d.x_mm is not None and d.y_mm is not None
                if d.joined and s.status != TrackStatus.MISSING and math.hypot(d.x_mm - s.x, d.y_mm - s.y) > self.gate_mm \
                        and (speed < self.roll_speed_mm_s or (d.x_mm - s.x) * s.vx + (d.y_mm - s.y) * s.vy < 0):
                    continue  # part of the arm or the cue, at rest beside it or behind it (see gate_mm)
                if d.joined and s.status != TrackStatus.MISSING and speed < self.roll_speed_mm_s and not rolling \
                        and self._cue_strikes(s) and self._cue_end(s, d):
                    continue  # the end of the cue that struck it, where it lay (see cue_reach)
                if sent and math.hypot(d.x_mm - s.rest_x, d.y_mm - s.rest_y) > self.gate_mm \
                        and (d.x_mm - s.rest_x) * s.lost_vx + (d.y_mm - s.rest_y) * s.lost_vy < 0:
                    continue  # lost on its launch: behind it is the hand or cue that sent it
                ahead = math.hypot(d.x_mm - px, d.y_mm - py)
                dist = min(ahead, math.hypot(d.x_mm - s.x, d.y_mm - s.y))  # from where it is or will be
                off = self._off_line(s, d) if launch else None
                if carries and ahead <= self.carry * s.radius_mm and self._could_be(s, d, held):
                    carried.append((ahead, i, j))  # its own smear, where its motion takes it
                elif off is not None and off <= self.carry * s.radius_mm and self._could_be(s, d, held) \
                        and not any(math.hypot(d.x_mm - x, d.y_mm - y) <= r for x, y, r in resting):
                    # further along the line it was launched on; beyond an object lying in the
                    # way, only once that object has had its own reading
                    (blocked if self._blocked(s, d, still) else carried).append((off, i, j))
                elif stays and dist <= self.stay * s.radius_mm and self._could_be(s, d, held) \
                        and (d.label == s.label or (d.label in INDEXED_LABELS and s.steady >= self.lost_steady)):
                    # where it is; its own label first
                    (kept if d.label == s.label else kept_other).append((dist, i, j))
                if d.label == s.label:
                    reachers = self._reachers(d, struckby, dt) if dist <= gate and lost_at_rest and not flicker else []
                    if reachers and dist > gate - self.gate_mm:
                        nudged.append((dist, i, j))  # see *struck, not nudged*
                    elif reachers and d.label in INDEXED_LABELS:
                        overtaken.extend((near, index[id(o)], j) for near, o in reachers if id(o) in index)
                        reclaimed.append((dist, i, j))
                    elif dist <= gate:
                        same.append((dist, i, j))
                    elif not flicker and not landing and not over_hole and not unstruck \
                            and not (s.status == TrackStatus.MISSING and d.joined
                                     and t - s.last_seen_t > self.lost_jump_s + 1e-9) \
                            and (dist <= min(reach, self.max_jump_mm)
                                 or (s.status == TrackStatus.MISSING and s.label not in INDEXED_LABELS)):
                        # Only one object carries a numbered label (ball-9, queen, striker): when
                        # its track is lost, that label seen anywhere is it, moved by a hand or
                        # lost in a smear, not a second one. Unless it was lost over a hole on its
                        # way in: it dropped, and its label read across the table a frame later
                        # is another ball (a cap-up stripe that read as the cue ball all along).
                        # Nor does a track hidden for longer than a smear is lost (lost_jump_s)
                        # jump to a detection joined to an arm or a hand: it is under that arm as
                        # likely as anywhere, and a ball a hand moved is taken where the hand lets
                        # go of it. (A ball struck hard is lost for a frame or two and then seen
                        # as a smear still beside the cue.)
                        # Of two readings of its label, one joined to an arm or a cue comes second.
                        cost = dist + (self.label_penalty_mm if d.joined else 0.0)
                        if lost_at_rest and (self._reachers(d, struckby, dt)
                                             or (not self._cue_strikes(s) and self._owned(s, d, seen_now, dt))):
                            nudged.append((cost, i, j))  # see *struck, not nudged*
                        else:
                            jump.append((cost, i, j))
                elif dist <= misread_gate:
                    other.append((dist + self.label_penalty_mm, i, j))
                elif s.status == TrackStatus.MISSING and not landing and not over_hole \
                        and t - s.last_seen_t <= self.lost_jump_s + 1e-9 \
                        and not (d.joined and d.label not in INDEXED_LABELS) \
                        and not (unflicked and lost_at_rest and not struckby) and not unstruck \
                        and s.steady >= self.lost_steady and dist <= min(reach, self.max_jump_mm):
                    lost.append((dist + self.label_penalty_mm, i, j))
                elif strays and d.label == SMEAR_LABEL and _size(d) >= larger * man and not d.joined and not foreign \
                        and not any(math.hypot(d.x_mm - x, d.y_mm - y) <= self.gate_mm for x, y in newborn):
                    strayed.append((math.hypot(d.x_mm - s.seen_x, d.y_mm - s.seen_y), i, j))
        used_t: set[int] = set()
        used_d: set[int] = set()
        pairs: list[tuple[_State, Detection]] = []
        for candidates in (carried, kept, kept_other, same, blocked, overtaken, reclaimed, jump, other, nudged, lost,
                           strayed):
            self._greedy(candidates, tracks, dets, used_t, used_d, pairs)
        return pairs

    def _cue_pulled(self, s: _State, d: Detection, t: float, dt: float) -> bool:
        """Is ``d``, a reading of ``s`` at rest (an object a player strikes, seen a frame ago),
        joined to a mass of change and off its place by more than ``stay`` but at most a radius,
        the ball and the end of the cue about to strike it read as one piece, its centre pulled
        towards the cue (see ``cue_reach``)? The ball has not moved yet."""
        assert d.x_mm is not None and d.y_mm is not None
        if not d.joined or not self._stays(s, t, dt) \
                or math.hypot(s.vx, s.vy) >= self.roll_speed_mm_s or not self._cue_strikes(s) \
                or math.hypot(d.x_mm - s.x, d.y_mm - s.y) > s.radius_mm:
            return False
        return self._cue_end(s, d, off=self.stay)

    def _cue_end(self, s: _State, d: Detection, off: float = 1.0) -> bool:
        """Is ``d``, a reading joined to a mass of change more than ``off`` radii off the place where
        ``s`` rests, the end of the cue that struck it (see ``cue_reach``)?"""
        assert d.x_mm is not None and d.y_mm is not None
        return self._covered is not None and cue_beyond(s.x, s.y, d.x_mm, d.y_mm, s.radius_mm, self._covered,
                                                        self.cue_reach, off=off)

    def _cue_strikes(self, s: _State) -> bool:
        """Whether a player strikes ``s`` itself: the pool cue ball, the carrom striker, and in bar
        billiards any ball (each is played from the D in turn, the red too). Every other object
        moves only when one of these, or something they set moving, hits it (or a hand moves it)."""
        if self.spec.baselines:
            return s.label == "striker"
        if s.group in POOL_GROUPS:
            return s.label == CUE_BALL_LABEL  # by its track's label: its reading may be misread
        return not s.group.startswith("pin")

    def _stirred(self, seen_now: list[_State], smeared: list[_State], dets: list[Detection], t: float,
                 dt: float) -> set[int]:
        """``id()`` of the resting objects that something may have struck this frame (see
        *unstruck*): within reach of a striker (:meth:`_strikers`), or within ``gate_mm`` of touching
        one that is, on and on (a hit passes through a pack within the frame). Every one while no
        object a cue or a finger strikes is followed (never seen, or gone into a pocket): it may be
        anywhere."""
        resting = [o for o in self._tracks if o.confirmed and o.status in ALIVE and not o.group.startswith("pin")
                   and math.hypot(*((o.lost_vx, o.lost_vy) if o.status == TrackStatus.MISSING else (o.vx, o.vy)))
                   < self.roll_speed_mm_s]
        if all(self._cue_strikes(o) for o in resting):
            return set()  # no object ball at rest to ask of (bar billiards: every ball is played)
        if not any(o.confirmed and o.status in ALIVE and self._cue_strikes(o) for o in self._tracks):
            return {id(o) for o in resting}  # the object struck is not followed: it may be anywhere
        place = {id(o): (o.seen_x, o.seen_y) if o.status == TrackStatus.MISSING else (o.x, o.y) for o in resting}
        strikers = self._strikers(seen_now, smeared, dets, t, dt)
        todo = [o for o in resting if any(math.hypot(place[id(o)][0] - x, place[id(o)][1] - y) <= r + o.radius_mm
                                          for x, y, r in strikers)]
        out = {id(o) for o in todo}
        while todo:
            a = todo.pop()
            ax, ay = place[id(a)]
            for o in resting:
                if id(o) not in out and math.hypot(place[id(o)][0] - ax, place[id(o)][1] - ay) \
                        <= a.radius_mm + o.radius_mm + self.gate_mm:
                    out.add(id(o))
                    todo.append(o)
        return out

    def _strikers(self, seen_now: list[_State], smeared: list[_State], dets: list[Detection], t: float,
                  dt: float) -> list[tuple[float, float, float]]:
        """Where an object that may have struck a resting one this frame came from, and how far it
        reaches, to the centre of the object it hit less that object's radius (see *unstruck*):
        one rolling fast a frame ago, as far as its speed takes it; one lost in its smear, as far
        as that speed took it since; one a cue or a finger strikes (:meth:`_cue_strikes`), lost
        (off any hole) or seen at rest a frame ago and not at its place now, and one just
        launched (its speed so far a fraction of it), as far as ``max_jump_mm`` a frame."""
        out: list[tuple[float, float, float]] = []
        for o in seen_now:
            speed = math.hypot(o.vx, o.vy)
            if o.group.startswith("pin") or not o.confirmed:
                continue
            if speed >= self.jump_speed_mm_s and o.launched:
                out.append((o.x, o.y, self.max_jump_mm + o.radius_mm))  # its speed so far a fraction of it
            elif speed >= self.jump_speed_mm_s:
                out.append((o.x, o.y, 1.1 * speed * dt + o.radius_mm + self.gate_mm))
            elif self._cue_strikes(o) and not any(
                    math.hypot(d.x_mm - o.x, d.y_mm - o.y) <= self.stay * o.radius_mm
                    for d in dets if self._compatible(o, d)):
                out.append((o.x, o.y, self.max_jump_mm + o.radius_mm))
        for o in smeared:
            gone = t - o.last_seen_t
            fast = self.max_jump_mm / dt if o.launched else 1.1 * math.hypot(o.lost_vx, o.lost_vy)
            out.append((o.seen_x, o.seen_y, fast * gone + o.radius_mm + self.gate_mm))
        for o in self._tracks:
            if o.confirmed and o.status == TrackStatus.MISSING and o.hole is None and self._cue_strikes(o):
                frames = max(1.0, round((t - o.last_seen_t) / dt))
                out.append((o.seen_x, o.seen_y, self.max_jump_mm * frames + o.radius_mm))
        return out

    def _owned(self, s: _State, d: Detection, seen_now: list[_State], dt: float) -> bool:
        """Whether ``d`` lies within the motion gate of another object seen a frame ago: a reading
        a lost track would jump to there is that object's, misread, first (see *unstruck*)."""
        assert d.x_mm is not None and d.y_mm is not None
        return any(o is not s and o.confirmed and not o.group.startswith("pin")
                   and math.hypot(d.x_mm - o.x, d.y_mm - o.y) <= self._motion_gate(o, dt) for o in seen_now)

    def _motion_gate(self, s: _State, dt: float) -> float:
        """How far from where ``s`` is or will be a reading may lie and be its own (see ``gate_mm``)."""
        return self.gate_mm + self.gate_speed * math.hypot(s.vx, s.vy) * dt

    def _reachers(self, d: Detection, rolling: list[_State], dt: float) -> list[tuple[float, _State]]:
        """The objects rolling fast a frame ago that have ``d`` within their motion gate, each with
        its distance to ``d`` (from where it was or where its motion puts it). See *struck, not
        nudged*."""
        assert d.x_mm is not None and d.y_mm is not None
        out: list[tuple[float, _State]] = []
        for o in rolling:
            px, py = self._predict(o, dt)
            near = min(math.hypot(d.x_mm - px, d.y_mm - py), math.hypot(d.x_mm - o.x, d.y_mm - o.y))
            if near <= self._motion_gate(o, dt):
                out.append((near, o))
        return out

    def _strayers(self, tracks: list[_State], t: float) -> dict[int, float]:
        """Index -> the size a reading must have against the frame's white ones (the square root of
        its size over a man's) of each one-of-a-kind track lost in motion that may take an
        unclaimed white reading (see *strayed*): only an object larger than a man can be told
        from one by its size."""
        out: dict[int, float] = {}
        man = self.spec.object_radius.get(SMEAR_LABEL)
        for i, s in enumerate(tracks):
            larger = math.sqrt(s.radius_mm / man) if man else 1.0
            if s.label not in INDEXED_LABELS and s.steady >= self.lost_steady and larger > 1.0 + 1e-9 \
                    and self._struck_away(s, t):
                out[i] = larger
        return out

    def _stray_scene(self, dets: list[Detection]) -> tuple[bool, list[tuple[float, float]], float]:
        """What this frame says for a track that may stray (see *strayed*): whether a white man is
        unseen (he may be the unclaimed white reading himself), where tracks born a frame ago are
        (one is followed there), and the median size of the white readings."""
        loose = any(o.label == SMEAR_LABEL and o.confirmed and o.status == TrackStatus.MISSING for o in self._tracks)
        newborn = [(o.x, o.y) for o in self._tracks if not o.confirmed and o.status in ALIVE]
        smeared = sorted(_size(d) for d in dets if d.label == SMEAR_LABEL)
        return loose, newborn, smeared[len(smeared) // 2] if smeared else 0.0

    def _struck_away(self, s: _State, t: float) -> bool:
        """Was ``s`` lost in motion (rolling fast, or vanishing from a bare place at rest: struck
        too fast to be seen), away from any hole, and not yet given up (see *strayed*)?"""
        return s.confirmed and s.status == TrackStatus.MISSING and s.hole is None \
            and t - s.last_seen_t <= self.occlusion_s + 1e-9 \
            and (math.hypot(s.lost_vx, s.lost_vy) >= self.jump_speed_mm_s or s.lost_bare)

    def _predict(self, s: _State, dt: float) -> tuple[float, float]:
        """Where ``s`` will be after ``dt`` on its velocity, bounced off any cushion it reaches on
        the way (see :meth:`_bounce`)."""
        px, py, _, _, _ = self._bounce(s, dt)
        return px, py

    def _bounce(self, s: _State, dt: float) -> tuple[float, float, float, float, float]:
        """Where ``s`` will be after ``dt`` on its velocity, its velocity then, and the share of
        ``dt`` after which it first reaches a cushion (1.0 if none), bounced off any cushion it
        reaches on the way (see ``cushion_keep``)."""
        px, py, vx, vy = s.x + s.vx * dt, s.y + s.vy * dt, s.vx, s.vy
        first = 1.0
        r = s.radius_mm
        for nx, ny, c, ax, ay, bx, by in self._cushions:
            gap = nx * px + ny * py - c - r  # below 0: beyond the line a touching ball's centre reaches
            if gap >= 0.0 or nx * s.vx + ny * s.vy >= 0.0:
                continue
            # where it crosses that line, which must lie alongside the cushion
            share = (nx * s.x + ny * s.y - c - r) / max(-(nx * s.vx + ny * s.vy) * dt, 1e-9)
            cx, cy = s.x + s.vx * dt * share, s.y + s.vy * dt * share
            ux, uy = bx - ax, by - ay
            u = ((cx - ax) * ux + (cy - ay) * uy) / max(ux * ux + uy * uy, 1e-9)
            if 0.0 <= u <= 1.0:
                first = min(first, max(0.0, share))
                k = 1.0 + self.cushion_keep
                px, py = px - k * gap * nx, py - k * gap * ny
                vn = nx * vx + ny * vy
                vx, vy = vx - k * vn * nx, vy - k * vn * ny
        return px, py, vx, vy, first

    def _stays(self, s: _State, t: float, dt: float) -> bool:
        """Was ``s`` seen on the last frame, not rolling fast (see ``stay``)?"""
        fast = math.hypot(s.vx, s.vy) >= self.jump_speed_mm_s
        return not fast and s.confirmed and s.status != TrackStatus.MISSING and s.last_seen_t >= t - dt - 1e-6

    def _reserved(self, tracks: list[_State], dets: list[Detection], t: float, dt: float) -> dict[int, int]:
        """Readings at the place of a track resting there, seen ``lost_steady`` frames in a row:
        detection index -> that track's index. No other resting or hidden track takes them (see
        ``stay``), nor does one lost within ``struck_path_s`` jump to them from beyond its gate
        while that track lies still: a rolling ball cannot land where another lies (up and down
        seed 1602, break: a rack stripe read as the cue ball for a frame was taken by the cue
        ball's track, lost in its smear 1.2 m short of the rack)."""
        out: dict[int, int] = {}
        for i, s in enumerate(tracks):
            if s.steady < self.lost_steady or not self._stays(s, t, dt):
                continue
            best: tuple[float, int] | None = None
            for j, d in enumerate(dets):
                assert d.x_mm is not None and d.y_mm is not None
                dist = math.hypot(d.x_mm - s.x, d.y_mm - s.y)
                if dist <= self.stay * s.radius_mm and self._compatible(s, d) and (best is None or dist < best[0]):
                    best = (dist, j)
            if best is not None:
                out[best[1]] = i
        return out

    @staticmethod
    def _could_be(s: _State, d: Detection, held: dict[str, _State]) -> bool:
        """Could ``d`` be ``s`` misread: its own label, a look-alike colour, or a one-of-a-kind
        label no other live track holds (a label another track holds is that object)."""
        if d.label == s.label or d.label in INDEXED_LABELS:
            return True
        other = held.get(d.label)
        return other is None or other is s

    def _off_line(self, s: _State, d: Detection) -> float | None:
        """How far ``d`` lies from the line ``s`` moves on, when it lies ahead of ``s`` on it
        within ``max_jump_mm``; None otherwise."""
        assert d.x_mm is not None and d.y_mm is not None
        speed = math.hypot(s.vx, s.vy)
        if speed <= 0:
            return None
        ux, uy = s.vx / speed, s.vy / speed
        rx, ry = d.x_mm - s.x, d.y_mm - s.y
        along = rx * ux + ry * uy
        if along <= 0 or along > self.max_jump_mm:
            return None
        return abs(rx * uy - ry * ux)

    @staticmethod
    def _blocked(s: _State, d: Detection, still: list[_State]) -> bool:
        """Whether one object lying still, and only one, stands in the way from ``s`` to ``d``:
        its centre within their summed radii of that path, ``d`` beyond it. ``s`` would hit it
        first, and a reading beyond it on that line is it, knocked on (see *launched*). Not
        through a pack: which piece a reading beyond several is, their hits decide."""
        assert d.x_mm is not None and d.y_mm is not None
        rx, ry = d.x_mm - s.x, d.y_mm - s.y
        length = math.hypot(rx, ry)
        if length <= 0:
            return False
        ux, uy = rx / length, ry / length
        ways = 0
        for o in still:
            if o is s:
                continue
            ox, oy = o.x - s.x, o.y - s.y
            along = ox * ux + oy * uy
            if 0 < along < length and abs(ox * uy - oy * ux) <= s.radius_mm + o.radius_mm:
                ways += 1
        return ways == 1

    def _hitters(self, s: _State, rolling: list[_State], vanished: list[_State], t: float,
                 dt: float) -> list[_State]:
        """Of the tracks seen a frame ago rolling fast (``rolling``), those near enough to have
        reached the resting ``s`` this frame: within ``max_jump_mm``, because a piece struck from
        rest during the last frame has only begun to move in it, and its measured speed is far
        below its real one. Of those that vanished from their rest since (``vanished``), those
        that ``max_jump_mm`` a frame from that rest can have brought to ``s`` by now: they come
        from where they rested."""
        frames = 1.0 / max(dt, 1e-6)
        return [o for o in rolling if o is not s
                and math.hypot(o.x - s.x, o.y - s.y) <= self.max_jump_mm + o.radius_mm + s.radius_mm] + \
            [o for o in vanished if o is not s and math.hypot(o.x - s.x, o.y - s.y)
             <= self.max_jump_mm * (t - o.last_seen_t) * frames + o.radius_mm + s.radius_mm]

    def _towards_hitters(self, s: _State, d: Detection, hitters: list[_State]) -> bool:
        """Would the resting ``s`` have moved to ``d`` towards every fast object that could have
        hit it (see ``knock_cos``)? Then ``d`` is not ``s``."""
        assert d.x_mm is not None and d.y_mm is not None
        dx, dy = d.x_mm - s.x, d.y_mm - s.y
        moved = math.hypot(dx, dy)
        if moved <= self.knock_min * s.radius_mm:
            return False
        return bool(towards_every(dx, dy, moved, [(s.x - o.x, s.y - o.y) for o in hitters], self.knock_cos))

    def _fastest_near(self, s: _State, dt: float) -> float:
        """The speed of ``s`` or of the fastest object that could reach it within ``dt``."""
        best = math.hypot(s.vx, s.vy)
        for o in self._tracks:
            if o is s or o.status not in ALIVE or o.group.startswith("pin"):
                continue
            v = math.hypot(o.vx, o.vy)
            if v > best and math.hypot(o.x - s.x, o.y - s.y) <= v * dt + o.radius_mm + s.radius_mm + self.gate_mm:
                best = v
        return best

    @staticmethod
    def _greedy(candidates: list[tuple[float, int, int]], tracks: list[_State], dets: list[Detection],
                used_t: set[int], used_d: set[int], pairs: list[tuple[_State, Detection]]) -> None:
        for _, i, j in sorted(candidates):
            if i in used_t or j in used_d:
                continue
            used_t.add(i)
            used_d.add(j)
            pairs.append((tracks[i], dets[j]))

    @staticmethod
    def _family(group: str) -> str:
        """Groups a misread can confuse: every ball or disc with every other of its table (a pool
        ball's number; a white carrom man smeared by fast motion measures as large as the striker,
        a man beside the queen takes its tint; a smeared bar-billiards red reads as white), so that
        the label-penalty passes can still keep the track. Pins are told apart from balls."""
        if group.startswith("pin"):
            return "pin"
        return "ball"

    def _compatible(self, s: _State, d: Detection) -> bool:
        if self._family(s.group) != self._family(d.group):
            return False
        if s.group.startswith("pin"):
            return d.label == s.label
        return True

    # -- track life -----------------------------------------------------------------------------
    def _observe(self, s: _State, d: Detection, t: float, dt: float) -> None:
        assert d.x_mm is not None and d.y_mm is not None
        s.left_t = None
        s.stirred = False
        if s.status == TrackStatus.MISSING and s.missing_since is not None and self._leaving(s) \
                and t - s.missing_since >= self.pot_confirm_s:
            s.left_t = s.last_seen_t  # it went over the rail and came back (see Track.left_t)
        if dt > 0 and s.hits > 0:
            gap = max(dt, t - s.last_seen_t)
            mvx, mvy = (d.x_mm - s.x) / gap, (d.y_mm - s.y) / gap
            a = self.smoothing
            if s.status != TrackStatus.MISSING:
                # Seen coming off a cushion since the last frame (its move agrees with its velocity
                # mirrored off it better than with the velocity itself): that velocity mirrored,
                # and its speed measured from the cushion, where it was part of the way.
                _, _, bvx, bvy, share = self._bounce(s, gap)
                if share < 1.0 and mvx * bvx + mvy * bvy > mvx * s.vx + mvy * s.vy:
                    hx, hy = s.x + s.vx * gap * share, s.y + s.vy * gap * share
                    if share < 0.8:
                        # no faster than it came in, or than the plain move shows: a cushion
                        # gives no speed, and a late bounce on a poor velocity divides a short
                        # rest of the frame into the whole move (a striker read at 261 mm a frame)
                        cap = max(math.hypot(s.vx, s.vy), math.hypot(mvx, mvy))
                        fx, fy = (d.x_mm - hx) / (gap * (1.0 - share)), (d.y_mm - hy) / (gap * (1.0 - share))
                        shrink = min(1.0, cap / max(math.hypot(fx, fy), 1e-9))
                        mvx, mvy = fx * shrink, fy * shrink
                    s.vx, s.vy = bvx, bvy
            s.steady_roll = _agree(s.vx, s.vy, mvx, mvy)
            # the velocity of a launch was a fraction of a frame's move (see *launched*): the first
            # whole frame's move replaces it rather than being averaged with it
            a = 1.0 if s.launched and s.status != TrackStatus.MISSING else a
            s.launched = s.status != TrackStatus.MISSING and math.hypot(s.vx, s.vy) < self.roll_speed_mm_s \
                and math.hypot(mvx, mvy) >= self.jump_speed_mm_s
            if s.status == TrackStatus.MISSING and math.hypot(s.lost_vx, s.lost_vy) < self.roll_speed_mm_s \
                    and t - s.last_seen_t <= self.struck_path_s + 1e-9 \
                    and math.hypot(d.x_mm - s.seen_x, d.y_mm - s.seen_y) > 2.0 * s.radius_mm:
                s.steady_roll = True  # struck from its rest: a straight path (see ``struck_path_s``)
                s.launched = True  # at some moment while unseen: its speed so far is a fraction of it
            s.vx, s.vy = a * mvx + (1 - a) * s.vx, a * mvy + (1 - a) * s.vy
        s.steady = 1 if s.status == TrackStatus.MISSING else s.steady + 1
        s.trail = [p for p in s.trail if t - p[0] <= self.roll_base_s + 1e-9] + [(t, d.x_mm, d.y_mm)]
        s.x, s.y = d.x_mm, d.y_mm
        if s.launched:
            s.rest_x, s.rest_y = s.seen_x, s.seen_y
        s.seen_x, s.seen_y = d.x_mm, d.y_mm
        s.hits += 1
        s.free += not d.joined
        s.last_seen_t = t
        s.missing_since = None
        s.score = 0.8 * s.score + 0.2 * d.score
        for k in s.votes:
            s.votes[k] *= VOTE_KEEP
        s.votes[d.label] += d.score
        s.total[d.label] += d.score
        s.read = d.label
        s.touched = d.joined
        s.group = d.group
        s.radius_mm = self._radius_for(s.label, s.group)
        if s.status == TrackStatus.TENTATIVE and s.hits >= self.confirm_hits and s.free:
            s.status = TrackStatus.VISIBLE
            s.confirmed = True
            s.id = self._identity(s)
        elif s.status == TrackStatus.MISSING:
            s.status = TrackStatus.VISIBLE

    def _miss(self, s: _State, t: float, dt: float) -> None:
        if s.status == TrackStatus.TENTATIVE:
            s.status = TrackStatus.REMOVED
            return
        if s.missing_since is None and self._twin_seen(s, t, dt):
            s.status = TrackStatus.REMOVED  # one ball followed twice: the one seen goes on
            return
        if s.missing_since is None:
            s.missing_since = s.last_seen_t
            s.status = TrackStatus.MISSING
            s.lost_vx, s.lost_vy = s.vx, s.vy
            s.lost_bare = self._covered is not None and not self._covered(s.seen_x, s.seen_y, s.radius_mm)
            s.hole = self._hole_under(s) or self._hole_ahead(s, dt)
        gone = t - s.missing_since
        if s.hole is not None and gone >= self.pot_confirm_s:
            s.status = TrackStatus.POTTED
            s.vx = s.vy = 0.0
            return
        if self._leaving(s):
            if gone >= self.off_confirm_s:
                s.status = TrackStatus.OFF_TABLE
            return
        # Hidden: coast briefly (a ball under a cue keeps rolling), then hold still. A track seen
        # only a few times has no velocity worth following (one bad pairing makes it huge).
        if gone < 0.2 and dt > 0 and s.hits >= self.coast_hits:
            r = s.radius_mm
            share = self._pin_stop(s, s.vx * dt, s.vy * dt)
            s.x = min(max(s.x + s.vx * dt * share, r), self.spec.length_mm - r)
            s.y = min(max(s.y + s.vy * dt * share, r), self.spec.width_mm - r)
            if share < 1.0:
                s.vx = s.vy = 0.0  # it met a pin that still stands: it goes no further
        else:
            s.vx = s.vy = 0.0
        if s.hole is None and math.hypot(s.x - s.seen_x, s.y - s.seen_y) <= self.coast_hole_mm:
            s.hole = self._hole_under(s)
        if self.occlusion_s <= gone < self.cover_s and self._covered is not None and s.hole is None \
                and math.hypot(s.lost_vx, s.lost_vy) < self.roll_speed_mm_s and self._covered(s.x, s.y, s.radius_mm):
            return  # at rest under the arm that still covers its place
        if gone >= self.occlusion_s:
            s.hole = self._hole_on_path(s, gone)
            s.status = TrackStatus.POTTED if s.hole is not None else TrackStatus.REMOVED

    def _twin_seen(self, s: _State, t: float, dt: float) -> bool:
        """Is ``s``, a one-of-a-kind object (a pool number, the red, the queen, the striker) just
        lost, seen this frame under another track of its label rolling right where it would be (within
        ``twin`` of their summed radii)? Then it was one ball followed twice (a fast ball's smear
        read as two), and the track that lost it is the stale one: left to coast on, it took the
        ball into a pocket it never reached."""
        if s.label in INDEXED_LABELS or s.group.startswith("pin") or not s.confirmed:
            return False
        px, py = s.x + s.vx * dt, s.y + s.vy * dt  # where it would be now
        for o in self._tracks:
            if o is not s and o.confirmed and o.status == TrackStatus.VISIBLE and o.last_seen_t >= t - 1e-9 \
                    and o.label == s.label and math.hypot(o.vx, o.vy) >= self.roll_speed_mm_s \
                    and math.hypot(o.x - px, o.y - py) <= self.twin * (o.radius_mm + s.radius_mm):
                return True
        return False

    def _overlaps(self, d: Detection, taken: list[Detection]) -> bool:
        """A second detection on an object already matched this frame (a smear split in two, a
        ring read apart from its disc): two solid objects cannot overlap by more than
        ``overlap`` of their radii, so it is not a new object."""
        assert d.x_mm is not None and d.y_mm is not None
        r = self._radius_for(d.label, d.group)
        for o in taken:
            assert o.x_mm is not None and o.y_mm is not None
            if self._family(o.group) == self._family(d.group) and not d.group.startswith("pin") and \
                    math.hypot(d.x_mm - o.x_mm, d.y_mm - o.y_mm) < self.overlap * (r + self._radius_for(o.label, o.group)):
                return True
        return False

    def _sweep(self, s: _State, d: Detection) -> tuple[float, float, float, float, float]:
        """The stretch a matched object covered this frame (from where it was to a step past
        where it is now, as far as a motion smear read as several circles reaches: a break's cue
        ball at 8 m/s was read at 904, 960 and 1118 mm along one smear) and its radius."""
        assert d.x_mm is not None and d.y_mm is not None
        ex, ey = d.x_mm + (d.x_mm - s.x), d.y_mm + (d.y_mm - s.y)
        return s.x, s.y, ex, ey, s.radius_mm

    def _in_swept(self, d: Detection, swept: list[tuple[float, float, float, float, float]]) -> bool:
        """No new object can appear where another just rolled through (it would have been hit):
        a detection there is a piece of that object's smear."""
        assert d.x_mm is not None and d.y_mm is not None
        if d.group.startswith("pin"):
            return False
        r = self._radius_for(d.label, d.group)
        for x0, y0, x1, y1, rs in swept:
            dx, dy = x1 - x0, y1 - y0
            n2 = dx * dx + dy * dy
            if n2 < (2.0 * rs) ** 2:
                continue  # it barely moved: _overlaps covers it
            u = max(0.0, min(1.0, ((d.x_mm - x0) * dx + (d.y_mm - y0) * dy) / n2))
            if math.hypot(d.x_mm - (x0 + u * dx), d.y_mm - (y0 + u * dy)) < rs + 0.5 * r:
                return True
        return False

    def _spawn(self, d: Detection, t: float) -> None:
        assert d.x_mm is not None and d.y_mm is not None
        radius = self._radius_for(d.label, d.group)
        s = _State(key=self._next_key, id=f"tmp-{self._next_key}", group=d.group, x=d.x_mm, y=d.y_mm,
                   radius_mm=radius, last_seen_t=t, first_seen_t=t, score=d.score, seen_x=d.x_mm, seen_y=d.y_mm,
                   free=int(not d.joined), read=d.label)
        s.votes[d.label] += d.score
        s.total[d.label] += d.score
        self._next_key += 1
        if self.confirm_hits <= 1 and s.free:
            s.status = TrackStatus.VISIBLE
            s.confirmed = True
            s.id = self._identity(s)
        self._tracks.append(s)

    def _radius_for(self, label: str, group: str) -> float:
        """The real radius of an object of this label (or group). A track's radius follows its
        label, not the reading it was born from: the carrom striker put down under the player's
        fingers reads as a white man, and a striker track sized as a man for the rest of the clip
        could never be told from one by its size (*strayed*), nor kept its pieces' distances."""
        radii = self.spec.object_radius
        for key in (label, group, "ball"):
            if key in radii:
                return float(radii[key])
        if group.startswith("pin"):
            return 11.0
        return float(next(iter(radii.values()), 20.0))

    def _identity(self, s: _State) -> str:
        label = s.label
        taken = {o.id for o in self._tracks if o is not s and o.status in ALIVE and o.status != TrackStatus.TENTATIVE}
        if label in INDEXED_LABELS:
            n = 1
            while f"{label}-{n}" in taken:
                n += 1
            return f"{label}-{n}"
        if label not in taken:
            return label
        return f"{label}-dup{s.key}"

    # -- geometry -------------------------------------------------------------------------------
    def _hole_under(self, s: _State) -> str | None:
        """The hole ``s`` is over: its centre within the hole's radius, or on its rim (within
        ``hole_margin_mm`` and half a ball radius more: a fast ball is lost between two frames)
        and not rolling away from it. A slow ball rattling in a pocket's jaws, lost against the
        dark of the pocket as it rolls back out along the cushion, has not dropped."""
        best: tuple[float, str] | None = None
        rolling = math.hypot(s.vx, s.vy) >= self.roll_speed_mm_s
        for h in self.spec.holes:
            dist = math.hypot(s.x - h.x, s.y - h.y)
            if dist > h.radius + self.hole_margin_mm + 0.5 * s.radius_mm or (best is not None and dist >= best[0]):
                continue
            if dist > h.radius and rolling and s.vx * (h.x - s.x) + s.vy * (h.y - s.y) < 0.0:
                continue  # on the rim, rolling away from it
            best = (dist, h.id)
        return best[1] if best else None

    def _hole_ahead(self, s: _State, dt: float) -> str | None:
        """A fast ball can reach a hole between two frames: look one frame ahead along its path."""
        if dt <= 0:
            return None
        x0, y0 = s.x, s.y
        reach = self._pin_stop(s, s.vx * dt * 1.5, s.vy * dt * 1.5) * 1.5
        for frac in (0.5, 1.0, 1.5):
            frac = min(frac, reach)
            s.x, s.y = x0 + s.vx * dt * frac, y0 + s.vy * dt * frac
            hole = self._hole_under(s)
            if hole is not None:
                s.x, s.y = x0, y0
                return hole
        s.x, s.y = x0, y0
        return None

    def _pin_stop(self, s: _State, mx: float, my: float) -> float:
        """The share of the move (``mx``, ``my``) from where ``s`` is that it can make before it
        meets a pin still standing (their centres a ball and a pin radius apart); 1.0 when none is
        in the way. A bar-billiards pin stands just in front of its hole: a ball lost against it
        (read as part of the pin) and coasting on would otherwise run through the pin into the
        hole behind it, a pot no one played. A pin it knocks down no longer stands, and does not
        stop it."""
        share = 1.0
        if s.group.startswith("pin") or not self.spec.pins:
            return share
        mm = mx * mx + my * my
        if mm <= 1e-9:
            return share
        for p in self._tracks:
            if p.group != "pin-standing" or p.status not in ALIVE:
                continue
            touch = s.radius_mm + p.radius_mm
            rx, ry = p.x - s.x, p.y - s.y
            along = rx * mx + ry * my
            if along <= 0.0:
                continue  # behind it, or beside it: not in the way
            disc = along * along - mm * (rx * rx + ry * ry - touch * touch)
            if disc < 0.0:
                continue  # its path passes the pin
            share = min(share, max(0.0, (along - math.sqrt(disc)) / mm))
        return share

    def _hole_on_path(self, s: _State, gone: float) -> str | None:
        """The hole a ball lost while rolling was heading into: its centre's straight path from
        where it was last seen passes over the hole, no farther than it could roll while unseen.
        Its velocity must be a roll's: its last step agreed with the one before in direction and
        speed (a velocity made by one wrong pairing points anywhere). A pin still standing on the
        way (within a ball and a pin radius of the path) stops it."""
        speed = math.hypot(s.lost_vx, s.lost_vy)
        if speed < self.roll_speed_mm_s or s.group.startswith("pin") \
                or not (s.steady_roll or self._rolled_on(s)):
            return None  # at rest, or its velocity is one jump's (a wrong pairing), not a roll
        ux, uy = s.lost_vx / speed, s.lost_vy / speed

        def on_path(x: float, y: float) -> tuple[float, float]:
            return (x - s.seen_x) * ux + (y - s.seen_y) * uy, abs((x - s.seen_x) * uy - (y - s.seen_y) * ux)

        # a standing pin on the way stops it (a knocked-down one does not stand)
        pins = [(on_path(p.x, p.y), p.radius_mm) for p in self._tracks if p.group == "pin-standing" and p.status in ALIVE]
        blocked = min((a for (a, off), r in pins if a > 0.0 and off <= s.radius_mm + r), default=math.inf)
        best: tuple[float, str] | None = None
        for h in self.spec.holes:
            along, off = on_path(h.x, h.y)
            if 0.0 < along <= min(speed * gone, blocked) and off <= h.radius and (best is None or along < best[0]):
                best = (along, h.id)  # the first hole on its way
        return best[1] if best else None

    def _rolled_on(self, s: _State) -> bool:
        """Does its velocity when lost agree with its move over its sightings of the last
        ``roll_base_s`` (at least three)? A ball read with 20-40 mm of noise (a green ball on
        green cloth) has steps that never agree with each other, while its smoothed velocity
        and its move over a few frames do; a wrong pairing's jump agrees with neither."""
        if len(s.trail) < 3:
            return False
        t0, x0, y0 = s.trail[0]
        t1, x1, y1 = s.trail[-1]
        if t1 - t0 <= 0.0:
            return False
        return _agree(s.lost_vx, s.lost_vy, (x1 - x0) / (t1 - t0), (y1 - y0) / (t1 - t0))

    def _leaving(self, s: _State) -> bool:
        speed = math.hypot(s.vx, s.vy)
        if speed < self.off_speed_mm_s:
            return False
        # Judged where it was last *seen*: a ball coasting unseen never crosses a cushion.
        L, W = self.spec.length_mm, self.spec.width_mm
        x, y = s.seen_x, s.seen_y
        near = (x < self.edge_mm and s.vx < 0) or (x > L - self.edge_mm and s.vx > 0) \
            or (y < self.edge_mm and s.vy < 0) or (y > W - self.edge_mm and s.vy > 0)
        return near

    # -- output ---------------------------------------------------------------------------------
    def _as_track(self, s: _State) -> Track:
        return Track(id=s.id, label=s.label, group=s.group, x=s.x, y=s.y, vx=s.vx, vy=s.vy,
                     radius_mm=s.radius_mm, status=s.status, last_seen_t=s.last_seen_t,
                     first_seen_t=s.first_seen_t, hole=s.hole, score=round(s.score, 3), left_t=s.left_t,
                     lost_bare=s.lost_bare)


def _agree(vx0: float, vy0: float, vx1: float, vy1: float) -> bool:
    """Do two velocity estimates agree within 30 degrees and a factor of two in speed?"""
    s0, s1 = math.hypot(vx0, vy0), math.hypot(vx1, vy1)
    if s0 <= 0.0 or s1 <= 0.0 or not 0.5 <= s1 / s0 <= 2.0:
        return False
    return (vx0 * vx1 + vy0 * vy1) / (s0 * s1) >= math.cos(math.radians(30.0))
