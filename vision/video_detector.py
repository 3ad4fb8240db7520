"""The fast calibrated video detector: every ball on the cloth, every frame, from a fixed camera.

With a calibration the detector knows where the playing surface is in the picture and how large
a ball looks at every place, so it does what a referee watching a fixed camera does: it learns
what the empty table looks like and reads every change against that.

Per frame (about 16 ms budget for the whole pipeline at 1280x720 on one core):

1. crop the playing surface's box and scale it so a ball is about five pixels across its radius
   (:class:`~tableref.vision.video_geometry.TableView`, built once);
2. foreground against the learned background: colour changes a shadow cannot explain, much
   brighter or much darker pixels (:mod:`~tableref.vision.video_cloth`);
3. round objects of the expected size in the foreground; crowded pieces (a rack, balls touching
   a hand) read at full resolution with a circle Hough transform; arms, cues and shadows rejected
   by size and shape (:mod:`~tableref.vision.video_balls`);
4. names from colour at full resolution, smoothed over frames per object and assigned once each
   for a pool set (:mod:`~tableref.vision.video_identity`); bar-billiards pins by their look
   (:mod:`~tableref.vision.video_pins`);
5. the background follows the light slowly where nothing is, never where an object is.

The first frame founds the background: objects found on it against a smooth cloth estimate are
painted out, while fixed features of the table (holes, pockets, pins, a carrom board's printed
circles) stay in it. What the first frame's objects hid is learned once they have moved away and
the place stays still (else a *ghost* of the starting position would stay in the foreground).

A short memory of the objects (where each was, how it moved, the colour evidence of its past
views) does three things a single frame cannot: it keeps a pool ball's number while the ball
shows only its white, it names a smeared ball (a capsule, or a streak cut out of a piece joined
to the cue) by the ball it continues, and it accepts weaker evidence for a ball lost a moment ago
(a fast ball smeared almost to nothing) near where it was heading. Where an object is found as
one piece with another it overlaps (a hitter at the moment of contact), that piece's centre is
neither's, so it gives the memory no velocity (:func:`_merged`).

**State**: the background, the noise thresholds, the pins' looks, the printed circles' look and
the object memory persist between frames; call :meth:`VideoDetector.reset` before feeding frames
of another video or after the camera moved.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.calibration.spec import TableSpec, load_table
from tableref.errors import UserError
from tableref.vision.cue_end import cue_beyond
from tableref.vision.detect import Detection, pool_group
from tableref.vision.extract_contacts import segment_distance
from tableref.vision.knock import towards_every
from tableref.vision.video_balls import (
    Circle,
    CircleParams,
    ObjectFinder,
    annulus_offsets,
    clean_mask,
    sample_mask,
)
from tableref.vision.video_cast import CastParams, LightCast
from tableref.vision.video_cloth import Background, ForegroundParams, cloth_field
from tableref.vision.video_exposure import ExposureMeter, ExposureParams, corrected, gain_table
from tableref.vision.video_geometry import CalibratedMapping, StaticDisc, TableView
from tableref.vision.video_identity import (
    CAP_WHITE,
    CARROM_LABELS,
    BallColour,
    assign_unique,
    ball_colours,
    bar_billiards_scores,
    carrom_scores,
    pool_scores,
    white_reference,
)
from tableref.vision.video_pins import PinParams, PinWatcher
from tableref.vision.video_prints import PrintParams, PrintWatcher
from tableref.vision.video_shift import CameraShift, ShiftParams
from tableref.vision.video_tint import TintParams, tinted

U8 = NDArray[np.uint8]
F64 = NDArray[np.float64]
FaintAge = TypeVar("FaintAge", float, F64)  # one memory's figure, or every memory's
F32 = NDArray[np.float32]

#: How many times farther every other memory must be from a found object than where a lost one
#: was heading for that object to be the lost one (``VideoDetector._found_nearest``): in a break
#: every memory's prediction is poor, and a nearer-by-a-little object is as likely another ball.
FOUND_CLEAR = 1.5
#: Kinds of found objects whose look is smeared by motion (their names come from memory).
SMEARED = ("blur", "streak", "weak")
#: The share of a light carrom piece's score that the striker's size must hold for a moving piece
#: to keep this frame's size reading (see ``_striker_sized``): 0.9 is 1.25 men or more measured.
STRIKER_SURE = 0.9

#: How near (in ball radii) to where a fallen pin is measured to lie, or a standing pin hidden by
#: a ball was last seen, a ball reading is taken for the pin itself: less than a whole radius, as
#: such a pin's place is known less well than one in view (a white ball rolling past a fallen pin
#: into its hole must not be lost, nor one resting against a pin it slid out of sight).
UNSURE_PIN_REACH = 0.6

#: a "ball" nearer a fallen pin's axis than the pin's radius and this share of a ball's radius is
#: part of that pin (``VideoDetector._with_pins``)
LYING_SLACK = 0.5

#: Tables this detector reads (cards need a card reader, not circles).
VIDEO_TABLES = ("pool", "bar-billiards", "carrom")


@dataclass(frozen=True)
class VideoParams:
    """Every threshold of the video detector in one place (see each part's own parameters).

    * ``weak_area``: size range (in ball areas) of a piece of any change that is taken for a ball
      lost a moment ago, near where it was (a smear too faint for the foreground).
    * ``flick_fill``: an object seen a frame ago under the hand or cue that struck it, on a table
      where nothing else moved for ``lost_frames``, and gone now, was struck: it is looked for
      near its place in a piece of change away from the hand whose disc is at least this share
      foreground. A light carrom striker flicked over a light board shows a
      crescent of colour inside a rim too faint to vote (seed 2402: 0.67 of its disc), the
      fingertip that flicked it hardly any (0.0); without the search the striker was first
      seen where it hit a man, whose memory took it. Lower takes a fingertip or a shadow for
      the struck object; higher loses a pale one.
    * ``shading``: brightness change (either way) that counts as *something changed* when a
      strong circle is checked for support: a ball of the cloth's own colour differs from the
      cloth only by its shading (a darker rim, a highlight).
    * ``tint``: a ball of the cloth's own colour whose outline is too weak for the Hough votes is
      taken by the hue of its whole disc against the cloth around it
      (:mod:`tableref.vision.video_tint`): on the first frame in any piece of change no found
      object explains, later where an object at rest or rolling slowly was seen a moment ago or
      lies hidden under an arm.
    * ``update_every``: frames between background updates (the light changes slowly; updating
      less often saves time).
    * ``memory``: weight of an object's past colour evidence against this frame's (0: no memory),
      per table. Higher keeps a stripe's number while it shows only its white (pool); lower
      follows a swap of look-alike neighbours after a collision at once (bar billiards, carrom,
      where one frame's colour is reliable).
    * ``memory_gate``: how far (in radii) an object may move between frames and keep its memory.
    * ``launch_reach``: how far (in radii) along its line of motion an object seen for the first
      time moving from rest, or faster again on the next sighting (*launched*), may be found on
      the next frame, no farther than its radius off that line. Struck during a frame, it shows a
      fraction of its speed (a striker flicked from its baseline moved 11 px, then 23, then 50):
      its smear on the next frame lay far beyond its prediction and was born as new memories,
      and the memory of a man it was about to hit took the striker's reading (its size split as
      a man's). Longer keeps harder strikes; shorter leaves a resting object farther down the
      line less likely to be taken for the struck one (a resting object's own reading on the
      line is matched first in any case).
    * ``touch_gap``: a moving object hits the first object at rest in its way, and is found
      nowhere beyond it: not on its launch line, not in the weak change looked for where it was
      heading, not by its memory's growing gate (``_in_the_way``). A carrom striker lost in its
      smear as it reached the pack took the reading of the far man it drove on, by each of the
      three (break, seeds 3702 and 3701). Only an object farther than ``touch_gap`` times their
      summed radii from where the mover was last placed blocks it: in a rack or a pack a hit
      passes through touching objects, and a ball leaving its neighbours is not blocked by them
      (at 1.0 the break's 9, moving off the rack beside the ball it had touched, lost its own
      reading and a patch of weak change took its name: four false pool pots over the
      development seeds). Higher lets a mover through more near neighbours; lower blocks a ball
      on the one it is leaving.
    * ``clear_memory``: the memory weight when this frame's view is unambiguous (one name clearly
      best), so a clear view corrects a wrong memory within a couple of frames.
    * ``solid_after``: pool views of colour all over (hardly any white) after which a ball that
      never showed a stripe's caps counts as a solid.
    * ``stripe_undone``: pool sightings in a row that clearly read a solid's number (before any
      lean from history) after which a stripe history is dropped: it came from another ball whose
      memory this one took over in a collision (a break's solid 4, in the dim corner it rolled
      to, read as the 12 for the rest of the clip). Over 58 development clips a stripe that had
      shown its caps never read clearly solid more than 3 frames in a row; a solid at rest reads so
      for most of its frames. Lower undoes a wrong history sooner; a stripe lying band-up that
      showed its caps while rolling must not fall to it (no white shows: it reads solid, unclear).
    * ``colour_cost``: how many radii of distance a complete colour disagreement costs when
      following objects between frames (after a collision the nearest ball is not always the same).
    * ``on_course``: a moving object seen on the last frame and read this frame within this many
      radii of where its motion puts it keeps that reading: no exchange of memories that costs
      less in all gives it away (up and down seed 4502, break: the 2, rolling off the rack, was
      read right on its course; the 10's memory, lost at rest where the 2 was passing, had
      grown its gate over the 10's far reading, and the 2's, just launched, reached that reading
      along its line; the two were exchanged, the 2 read as the 10 for 27 frames, and their
      cushions were each other's). Larger keeps more readings from being traded; smaller
      trades more on a poor prediction.
    * ``start_faint_votes``: the Hough votes (per pixel of radius) a faint circle (a ball of the
      cloth's own colour: a highlight and a shaded rim) needs on the first frame, and
      ``known_faint_votes`` where an object was found on the frame before (hysteresis: the same
      ball at rest shows a faint outline whose votes vary with the noise, a blue 2 on a blue cloth
      1.5 on the first frame and 1.32 eleven frames on, lost and reported removed); elsewhere
      ``circles.faint_votes``. The first frame decides what is cloth: a ball missed there is
      learned into the background and stays unseen until it moves (a violet 4 on a violet cloth
      had 1.84 votes against 2), while a false circle there is unlearned at once as a flat ghost.
      Lower finds fainter balls; higher
      keeps fewer knuckles and cue tips for a frame. At the same places (an object found a frame
      ago rolling slower than its radius a frame) a clear circle is kept in a piece it does not
      fill, which elsewhere reads as a hand holding a ball: a ball at rest against one of the
      cloth's colour is joined to its shaded side and both shadows.
    * ``quiet_pixels``/``quiet_speed``/``quiet_max``: a frame is *quiet* when at most
      ``quiet_pixels`` (a share of one object's disc) of its work pixels differ from the last frame
      read in full by more than twice the foreground's brightness threshold (compression noise
      reaches the threshold itself here and there; the rim of an object moving half a pixel
      passes twice it), every object was still
      then (found, and moving less than ``quiet_speed`` work pixels a frame) and fewer than
      ``quiet_max`` quiet frames came in a row. A quiet frame is read as that frame again: its
      objects and their colour readings are reused (the memory and the names still run), and the
      background still follows it; only the search for objects and their colour reading are
      skipped, the costly part (a still table costs a quarter to a third of the time). Most of a
      match is a still table (players walk round it, chalk, aim). Higher shares or speeds let a slow roll or a creeping
      hand be missed for a frame; a lower ``quiet_max`` reads a still table in full more often.
    * ``hole_slack``: how far (in ball radii, beyond the hole's own) a dark disc of a hole's size
      on the first frame may lie from where the calibration puts a hole and still be that hole.
    * ``lost_frames``: how many frames an object not found is remembered (its colour evidence for
      when it is found again, and where a smear of it may be accepted).
    * ``hidden_frames``/``hidden_cover``: an object at rest when last seen whose place is still
      covered (at least ``hidden_cover`` of its disc in foreground that no found object explains:
      an arm, a sleeve lying across the table; not a neighbour read as one piece with it), lost
      while nothing on the table was moving fast (a player aims at a still table; in a break a
      ball struck out of the rack leaves a place the others' smears and the rack's ghost cover) is remembered up to ``hidden_frames`` beyond ``lost_frames``: it is under
      the arm. When the arm lifts, a ball at rest joined to its shadow reads as a short capsule,
      which is taken for a ball only near one remembered (``_plausible_smears``); forgotten, the
      ball stayed unseen until a frame read it round. A place no longer covered forgets it at
      once (a piece potted, or picked up by the hand that covered it). Longer keeps a ball through
      a longer cover; the cost is that a capsule (a finger) where a covered ball was is taken for it.
      The same share tells the tracker a place is covered (:meth:`VideoDetector.covered`) and says
      that a ball already missed is under an arm rather than smeared (``_lost_streaks``).
    * ``hidden_shade``: for an object lost at rest, a place darker than this share of its
      background is covered too. A hand of the board's own hue, in its own shadow, reads as a
      shadow, not as foreground: a carrom man under the fingers resting on him was forgotten
      after ``lost_frames``, his place, no longer guarded, was learned as the board with the hand
      on it, and when the hand lifted the man and the learned hand around him were one piece of
      change, never found again (rendered carrom seed 4101; the same with the sleeve's edge in
      the foreground: the man then measured the striker's size). A man under a player's shadow
      and not found is still there as well. Lower asks for a darker cover; higher keeps objects
      under fainter shadows (at most ``hidden_frames``).
    * ``roll_share``: an object moving at least this share of its radius a frame is rolling, for
      the search of a smear of a ball lost at rest (``_lost_faint``): lost while another object
      rolled, the shot was under way, and a ball lost at rest that no fast object came near was
      not struck.
      Lower counts a creeping ball as a shot under way (a struck ball's smear is then not looked
      for); higher lets a slow roll pass for a still table.
    * ``still_blur`` and ``still_blur_length``: a capsule found where none is remembered is
      still taken for a ball when a capsule was found within ``still_blur`` radii of it on the
      last frame read, its straight part is at most ``still_blur_length`` radii long, and it is
      not joined to a mass of change. A smear moves with its ball, and a ball at rest whose
      outline takes in its own shadow (a dark ball under a low light: the red 3 on a dark cloth
      in Colors seed 2302, a capsule 1.1 radii long) reads as the same short capsule frame after
      frame; without it that ball was never seen, and the cue's ferrule following the cue ball
      through took its number. A cue laid still on the cloth while the player aims, its shaft
      too thin to join it to the arm, is a still capsule too, but a long one (7 radii, bar
      billiards seed 1602). Larger ``still_blur`` accepts a capsule that crept; a longer
      ``still_blur_length`` accepts more of a cue's end.
    * ``moving_blur_angle`` and ``moving_blur_slack``: a capsule found where no ball is
      remembered is also taken for a ball when a free capsule on the last frame read lay a
      radius or more behind it, both lie along the line between them within
      ``moving_blur_angle`` degrees, and neither's straight part is longer than that distance
      plus ``moving_blur_slack`` radii (a smear is the ball's travel within the exposure), while
      no remembered ball rolls fast (its smear's pieces are its own). A ball that left the
      table and came back onto it (bar billiards seed 3102: off the side rail, back on the
      cloth, off the scoreboard end and into a hole) is remembered by no one when it lands, and
      was never seen for the 30 frames it rolled. Wider or looser accepts more of a loose cue
      end or finger moving along itself; narrower or tighter loses a returning ball whose smear
      curves or whose measured length is stretched by its shadow.
    * ``size_still``: how far (in radii a frame) a carrom piece may move between frames and still
      have its size read. Only size tells the striker from a white man, and a moving piece is
      blurred by its own motion over the exposure: the light striker's faint blurred rim on a
      light board shrinks it to a man's size, a man's smear stretches it. Moving faster than this,
      a piece keeps the striker-or-man split of its memory (its colour, black, red or light, is
      still read), and pieces are followed from frame to frame by colour and motion, never by
      size; so the struck striker is not reborn as a white man that then "jumps" into a hole.
      A moving reading that measures the striker's size still counts as the striker
      (``STRIKER_SURE``): blur seldom grows a man to it, and the memory's split may have followed
      the man the striker just hit. Higher trusts sizes read in motion (a misread striker); lower
      holds an early misreading longer (a piece first seen in motion).
    * ``knock_cos``: a resting object knocked by a fast one leaves along the line of centres, away
      from the hitter. A resting object's memory does not follow a sighting more than half its
      radius away whose direction from it has a cosine below this with the direction from every
      fast object near enough to have hit it (seen or lost a frame ago) through it: that sighting
      is the hitter arriving. Without it, the carrom striker lost for a frame against the man it
      hit was found beside the man's place, paired with the man's memory (the nearer and
      fresher), named a man from then on, and its pot was the man's. The tracker has the same
      rule for its tracks (``Tracker.knock_cos``). Struck by one object moving straight, a piece
      leaves along the normal at contact, and the hitter came towards it along that normal, so the
      cosine with the direction from where the hitter was a frame ago is always positive: 0 is
      the physical limit for a piece lying alone. ``chain_knock_cos`` is the limit for one touching
      another resting piece (a rack, a carrom pack): the hit may come through that neighbour, from
      any side, so it may lean back towards the first hitter. One limit for both cost either way:
      -0.5 let a lone man keep the striker's smear read 112 degrees back from its hitter (carrom
      seed 2101, striker pocketed: the man's memory then carried the striker's name into the
      pocket); 0 lost rack balls' own readings in breaks (pool seed 2202: 4 of 17 cushions).
    """

    foreground: ForegroundParams = field(default_factory=ForegroundParams)
    exposure: ExposureParams = field(default_factory=ExposureParams)
    shift: ShiftParams = field(default_factory=ShiftParams)
    circles: CircleParams = field(default_factory=CircleParams)
    pins: PinParams = field(default_factory=PinParams)
    prints: PrintParams = field(default_factory=PrintParams)
    cast: CastParams = field(default_factory=CastParams)
    tint: TintParams = field(default_factory=TintParams)
    update_every: int = 3
    memory: tuple[tuple[str, float], ...] = (("pool", 0.8), ("bar-billiards", 0.35), ("carrom", 0.6))
    memory_gate: float = 4.0
    launch_reach: float = 25.0
    lost_frames: int = 4
    hidden_frames: int = 150
    hidden_cover: float = 0.5
    hidden_shade: float = 0.8
    touch_gap: float = 1.2
    size_still: float = 0.5
    still_blur: float = 0.35
    still_blur_length: float = 1.5
    moving_blur_angle: float = 25.0
    moving_blur_slack: float = 1.0
    roll_share: float = 0.25
    colour_cost: float = 4.0
    on_course: float = 0.5
    solid_after: int = 12
    stripe_undone: int = 12
    clear_memory: float = 0.4
    start_dark_ratio: float = 0.45
    start_faint_votes: float = 1.5
    known_faint_votes: float = 1.2
    knock_cos: float = 0.0
    chain_knock_cos: float = -0.5
    hole_slack: float = 1.5
    weak_area: tuple[float, float] = (0.5, 4.0)
    flick_fill: float = 0.3
    shading: float = 0.12
    quiet_pixels: float = 0.25
    quiet_speed: float = 0.2
    quiet_max: int = 10


@dataclass
class _Memo:
    x: float
    y: float
    vx: float
    vy: float
    evidence: F64
    r: float = 4.0
    age: int = 0  # frames since last seen
    stripe_views: int = 0  # pool: views that showed a stripe's white caps beside its colour
    solid_views: int = 0  # pool: views that showed colour all over with hardly any white
    hidden: int = 0  # frames kept beyond ``lost_frames`` because something covers its place
    still: bool = True  # at rest when last seen
    unseen: int = 0  # frames since a sighting of any kind last placed it (``age`` counts full ones)
    seen: tuple[float, float] | None = None  # where it was last placed, when it has coasted on since
    reached: bool = False  # a fast object came within hitting reach of it since it was last seen
    solid_run: int = 0  # pool: sightings in a row that read a solid clearly (``stripe_undone``)
    launched: bool = False  # its last sighting was its first move from rest, or faster still (``launch_reach``)
    in_play: bool = False  # lost while another object was rolling (see ``VideoParams.roll_share``)
    touched: bool = False  # last seen joined to a mass of change: the hand or the cue striking it


#: what _read makes of a frame: circles, their work and image positions, radii (image px),
#: colour scores and pool view kinds
_Read = tuple[list[Circle], F64, F64, list[float], list[F64], list[int]]


@dataclass(frozen=True)
class _Reading:
    """The last frame read in full, for quiet frames (``VideoParams.quiet_pixels``)."""

    work: U8
    probe: U8 | None  # only for a still frame, the only kind a quiet frame is compared with
    read: _Read
    pins: list[Detection]
    circles: list[Circle]
    fg: U8
    k: F32
    still: bool


class VideoDetector:
    """Detector for one fixed, calibrated camera over a pool, bar-billiards or carrom table.

    ``mapping`` is the pipeline's calibration (``load_calibration``): the ball-plane homography
    with, when known, the lens intrinsics and distortion. See the module docstring.
    """

    def __init__(self, table: str, mapping: CalibratedMapping, spec: TableSpec | None = None,
                 params: VideoParams | None = None) -> None:
        if table not in VIDEO_TABLES:
            raise UserError(f"the video detector reads {', '.join(VIDEO_TABLES)}; {table!r} is not one of them")
        self.table = table
        self.spec = spec or load_table(table)
        self.mapping = mapping
        self.p = params or VideoParams()
        self.view: TableView | None = None
        self._finder: ObjectFinder | None = None
        self._pins: PinWatcher | None = None
        self._prints: PrintWatcher | None = None
        self._meter: ExposureMeter | None = None  # the camera's gain, on the view's surface
        self.reset()

    def reset(self) -> None:
        """Forget everything learned from the video (background, noise, pins, colour memory)."""
        self.background: Background | None = None
        self._memos: list[_Memo] = []
        self._frame = 0
        self.debug: dict[str, Any] = {}
        #: the last frame read in full, for quiet frames: its work image, what was read of it
        #: (see _read), its pins, foreground and shading, and whether every object was still
        self._last: _Reading | None = None
        #: a foreground given by :meth:`use_foreground` (a replay of recorded detections)
        self._given_fg: U8 | None = None
        self._quiet_run = 0
        #: the camera's gain (B, G, R) this frame was divided by, None when uncorrected (video_exposure)
        self.gain: NDArray[np.float64] | None = None
        #: the picture's move since the background was learned (video_shift); made on the first
        #: frame read against a background (a new view resets the detector)
        self.shift: CameraShift | None = None
        #: frames since an object was last seen rolling (``roll_share``) or smeared
        self._rest_run = 0
        self._flicks: list[tuple[Circle, _Memo]] = []  # this frame's sightings of a struck object (_lost_faint)
        self._loose_blurs: list[Circle] = []  # capsules no memory explained, last frame read
        self._cast = LightCast(self.p.cast)  # the light's colour (pool: hues name the balls)

    # -- set-up ------------------------------------------------------------------------------
    def _ensure_view(self, image: U8) -> TableView:
        h, w = image.shape[:2]
        if self.view is None or self.view.size != (w, h):
            self.view = TableView(self.spec, self.mapping, (w, h))
            sizes = (1.0, self.spec.object_radius["striker"] / self.view.radius_mm) \
                if "striker" in self.spec.object_radius else (1.0,)
            circles = replace(self.p.circles, sizes=sizes)
            xy = (self.view.table_x, self.view.table_y)
            self._finder = ObjectFinder(self.view.radius_map, self.view.centre_mask, self.view.scale, self.view.box,
                                        circles, xy, self.view.radius_mm)
            self._start_finder = ObjectFinder(self.view.radius_map, self.view.rest_mask, self.view.scale,
                                              self.view.box, replace(circles, faint_votes=self.p.start_faint_votes),
                                              xy, self.view.radius_mm)
            self._max_hole = float(math.pi * self.view.median_radius ** 2 * 1.2)
            self._meter = ExposureMeter(self.view.surface_mask, self.p.exposure)
            self.reset()
        return self.view

    def _start(self, work: U8, image: U8) -> list[tuple[float, float]]:
        """Found the background on the first frame: objects painted out, fixed features kept.
        Answers where the objects were found (work px)."""
        view = self.view
        assert view is not None
        r_med = view.median_radius
        cloth, clothlike = cloth_field(work, view.surface_mask, r_med)
        first = self._first_look(work, cloth)
        first.trust_clean_cloth(work, cv2.bitwise_and(clothlike, view.surface_mask))
        fg, k0, changed = self._changes(first, work)
        found = self._start_finder.find(fg, image, changed)
        found += tinted(self._start_finder, image, fg, changed, found, seek=True, params=self.p.tint,
                        fixed=self._fixed(), masses=fg)
        prints = [sd for sd in view.statics if sd.kind == "print"]
        self._prints = PrintWatcher(prints, self.p.prints) if prints else None
        occupied: list[str] = []
        _, labels = cv2.connectedComponents(fg, connectivity=8)
        held: set[int] = set()
        if self._prints is not None:
            occupied = [pr.name for pr in self._prints.survey(work, cloth, found)]
            if occupied:
                found = self._refit_on_prints(work, image, cloth, found, occupied)
        objects = np.zeros(work.shape[:2], np.uint8)
        cores = np.zeros(work.shape[:2], np.uint8)
        guess = np.zeros(work.shape[:2], np.uint8)  # objects and their shadows
        near = np.zeros(work.shape[:2], np.uint8)  # within a ball of an object
        jaws = self._in_jaws(image, labels, k0, found)
        found += jaws
        for c in found:
            under = _under(c, view.statics)
            if c not in jaws and any(sd.kind != "print" or sd.name not in occupied for sd in under):
                continue  # a hole, a pin or an empty printed circle, not an object
            if self._hole_seen_off(c, k0):
                continue
            cv2.circle(objects, (int(round(c.x)), int(round(c.y))), int(round(1.3 * c.r * c.size)), 255, -1)
            cv2.circle(cores, (int(round(c.x)), int(round(c.y))), int(round(c.r * c.size)), 255, -1)
            cv2.circle(guess, (int(round(c.x)), int(round(c.y))), int(round(2.5 * c.r * c.size)), 255, -1)
            cv2.circle(near, (int(round(c.x)), int(round(c.y))), int(round(3.2 * c.r * c.size)), 255, -1)
            held.add(int(labels[min(labels.shape[0] - 1, max(0, int(round(c.y)))),
                                min(labels.shape[1] - 1, max(0, int(round(c.x))))]))
        # A piece that holds objects is objects all through, next to them: a ball of the cloth's
        # own colour in a rack (its stripe's white joins it to its neighbours, its colour gives the
        # Hough transform too little) would otherwise be learned as cloth and stay unseen until it
        # moves. Only the piece's ball-wide parts within a ball of a found one count: thin printed
        # lines joined to a piece are the board's, and fixed features stay in the background.
        held.discard(0)
        if held:
            whole: U8 = (np.isin(labels, sorted(held)) * 255).astype(np.uint8)
            k = max(3, int(2 * round(0.6 * r_med) + 1))
            whole = np.asarray(cv2.morphologyEx(whole, cv2.MORPH_OPEN,
                                                cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))), dtype=np.uint8)
            whole = np.asarray(cv2.bitwise_and(whole, near), dtype=np.uint8)
            for sd in view.statics:
                cv2.circle(whole, (int(round(sd.x)), int(round(sd.y))), int(math.ceil(sd.radius + 1.0)), 0, -1)
            objects = np.asarray(cv2.bitwise_or(objects, whole), dtype=np.uint8)
            guess = np.asarray(cv2.bitwise_or(guess, whole), dtype=np.uint8)
        self.background = Background(work, cloth, objects, self.p.foreground, guess)
        if self._prints is not None:
            self._prints.paint(work, cloth, self.background.image, occupied, cores)
            self.background.refresh()
        if self.spec.pins:
            self._pins = PinWatcher(view, self.spec.pins, self.p.pins)
            x0, y0, x1, y1 = view.box
            full = np.zeros(image.shape, np.float32)
            full[y0:y1, x0:x1] = view.full_image(cloth)
            self._pins.start(image, full)
        return [(c.x, c.y) for c in found]

    def _first_look(self, work: U8, model: F32) -> Background:
        """The first frame against a model of the empty table (no background learned yet)."""
        return Background(work, model, np.full(work.shape[:2], 255, np.uint8),
                          replace(self.p.foreground, dark_ratio=self.p.start_dark_ratio))

    def _changes(self, bg: Background, work: U8) -> tuple[U8, F32, U8]:
        """Foreground on the surface (cleaned), the brightness ratio, and *changed*: the
        foreground plus any shading change (see ``VideoParams.shading``)."""
        assert self.view is not None
        fg, k, _ = bg.foreground(work)
        fg = clean_mask(cv2.bitwise_and(fg, self.view.surface_mask), self._max_hole)
        changed = cv2.bitwise_or(fg, ((np.abs(k - 1.0) > self.p.shading) * 255).astype(np.uint8))
        return fg, k, changed

    def _refit_on_prints(self, work: U8, image: U8, cloth: F32, found: list[Circle],
                         occupied: list[str]) -> list[Circle]:
        """First-frame pieces over an occupied printed circle, found again against the bare
        board with its print (:meth:`PrintWatcher.bare`). Against the plain cloth a white man lying
        half on a red circle is one piece with it, fitted larger and off-centre: a striker that is
        not there. A piece found again within its own radius takes the new fit; one not found
        again keeps the old (the queen on the centre circle, nearly the print's own colour)."""
        view = self.view
        assert view is not None and self._prints is not None
        circles = [sd for sd in view.statics if sd.kind == "print" and sd.name in occupied]

        def on_print(c: Circle) -> bool:
            return any((c.x - sd.x) ** 2 + (c.y - sd.y) ** 2 < (sd.radius + 0.5 * c.r) ** 2 for sd in circles)

        if not any(on_print(c) for c in found):
            return found
        fg, _, changed = self._changes(self._first_look(work, self._prints.bare(work, cloth)), work)
        again = [c for c in self._start_finder.find(fg, image, changed) if on_print(c)]
        out = []
        for c in found:
            near = [a for a in again if math.hypot(a.x - c.x, a.y - c.y) < c.r * c.size] if on_print(c) else []
            out.append(min(near, key=lambda a: math.hypot(a.x - c.x, a.y - c.y)) if near else c)
        return out

    def _in_jaws(self, image: U8, labels: NDArray[Any], k0: F32, found: list[Circle]) -> list[Circle]:
        """Balls at rest in a pocket's jaws or against a hole on the first frame. Such a ball's
        piece of change joins the hole's dark disc; no circle is found in it, or one that lies
        over the hole, and the ball was learned as part of the hole, unseen until it was struck
        (up and down seed 3601, no rail: the cue ball in the middle pocket's jaws, and the shot
        was missed). What is left of a piece reaching into a hole once the hole's dark pixels
        (as dark as a hole, ``start_dark_ratio``) and the objects found are taken out, where it is
        a ball wide, is a ball, centred where it is deepest. A bare hole leaves at most its rim's
        thin crescent; a black ball in the jaws is as dark as the pocket and stays unseen until
        it moves, as before. Not where a pin stands by the hole: it joins the hole too."""
        view = self.view
        assert view is not None
        h, w = labels.shape
        out: list[Circle] = []
        pins = [sd for sd in view.statics if sd.kind == "pin"]
        holes = [sd for sd in view.statics if sd.kind == "hole"]
        # the objects found, less the circles over a hole (taken for the hole; the ball joined to it
        # may be one of them, smeared into a capsule with the hole's dark disc)
        objects = [c for c in found if not _under(c, holes)]
        for sd in holes:
            r = self._start_finder.radius_at(sd.x, sd.y)
            n = int(math.ceil(sd.radius + 3.0 * r))
            xi, yi = int(round(sd.x)), int(round(sd.y))
            x0, y0, x1, y1 = max(0, xi - n), max(0, yi - n), min(w, xi + n + 1), min(h, yi + n + 1)
            if x1 <= x0 or y1 <= y0 or any(x0 <= p.x < x1 and y0 <= p.y < y1 for p in pins):
                continue
            box = labels[y0:y1, x0:x1]
            mouth = np.zeros(box.shape, np.uint8)
            cv2.circle(mouth, (xi - x0, yi - y0), int(math.ceil(sd.radius + 1.0)), 1, -1)
            reaching = {int(v) for v in np.unique(box[mouth > 0]) if v}
            if not reaching:
                continue
            piece = np.isin(box, sorted(reaching)).astype(np.uint8)
            piece[(mouth > 0) & (k0[y0:y1, x0:x1] < self.p.start_dark_ratio)] = 0
            for c in objects + out:
                cv2.circle(piece, (int(round(c.x)) - x0, int(round(c.y)) - y0), int(math.ceil(1.3 * c.r * c.size)), 0, -1)
            dist = cv2.distanceTransform(piece, cv2.DIST_L2, 3)
            peak = float(dist.max())
            if peak < self.p.circles.min_width * r:
                continue
            iy, ix = np.unravel_index(int(np.argmax(dist)), dist.shape)
            cx, cy = float(x0 + ix), float(y0 + iy)
            # and a ball's outline there (a pocket's lit leather or rail is no disc)
            rings = self._start_finder.hough_at(image, piece > 0, x0, y0, r)
            near = [(x, y) for x, y, v in rings if math.hypot(x - cx, y - cy) <= 0.6 * r]
            if not near:
                continue
            cx, cy = min(near, key=lambda q: math.hypot(q[0] - cx, q[1] - cy))
            out.append(Circle(cx, cy, r, peak / r, 1.0, 0.0, "single", 1.0))
        return out

    def _hole_seen_off(self, c: Circle, k0: F32) -> bool:
        """A hole where a calibration a little off does not quite put it: on the first frame, a
        disc as dark as a hole, no larger than one, within ``hole_slack`` ball radii of a hole
        inside the playing surface (a bar-billiards hole; pockets at the cushions are left out, a
        black ball may rest in their jaws). Left in the foreground it would be an object for good."""
        view = self.view
        assert view is not None
        spec = self.spec
        reach = self.p.hole_slack * c.r
        near = [sd for sd in view.statics if sd.kind == "hole"
                and 0.0 < sd.x_mm < spec.length_mm and 0.0 < sd.y_mm < spec.width_mm
                and math.hypot(c.x - sd.x, c.y - sd.y) < sd.radius + reach and c.r * c.size < 1.3 * sd.radius]
        if not near:
            return False
        h, w = k0.shape
        n = max(1, int(round(0.6 * c.r * c.size)))
        xi, yi = int(round(c.x)), int(round(c.y))
        patch = k0[max(0, yi - n):min(h, yi + n + 1), max(0, xi - n):min(w, xi + n + 1)]
        return patch.size > 0 and float(np.median(patch)) < self.p.start_dark_ratio

    # -- per frame -----------------------------------------------------------------------------
    def detect(self, image: U8) -> tuple[Detection, ...]:
        """Detections in image pixels for one BGR frame of the calibrated camera."""
        if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise UserError("expected a colour (BGR, 8-bit) image")
        view = self._ensure_view(image)
        last, bg = self._last, self.background
        # the cheap look measures the camera's gain, and tells a still frame repeated (_quiet)
        look: U8 | None = None
        last_fg = last.fg if last is not None else None
        if bg is not None:
            if self.shift is None:
                self.shift = CameraShift(view.scale, self.p.shift)
            image = self.shift.apply(image, view.box)
            image, look = self._exposed(image, view, bg, last_fg)
        probe = look if last is not None and last.still else None
        if probe is not None and last is not None and bg is not None and self._quiet(probe, last, bg):
            self._quiet_run += 1
            self._rest_run += 1
            detections = self._with_pins(self._label(*last.read, fg=last.fg, k=last.k), last.pins)
            self._follow(last.work, bg, last.circles, last.fg, last.k)
            return tuple(detections)
        self._quiet_run = 0
        self._flicks = []
        work = view.work_image(image)
        if bg is not None and self.shift is not None:
            # on the work image itself: the cheap look is sampled a quarter of a work pixel apart
            self.shift.observe(work, bg.image, last_fg)
        start_found = self._start(work, image) if self.background is None else []
        bg = self.background
        finder = self._finder
        assert bg is not None and finder is not None
        fg, k, changed = self._changes(bg, work)
        # where an object was found a frame ago, rolling slower than its radius a frame (a moving
        # ball's look is its smear's: what it showed then says little about what it shows now)
        known = [xy for m in self._memos if m.age == 0 and math.hypot(m.vx, m.vy) < m.r
                 for xy in ((m.x, m.y), (m.x + m.vx, m.y + m.vy))] if self._memos else start_found
        circles = finder.find(fg, image, changed, known=known, known_votes=self.p.known_faint_votes)
        circles = self._drop_ghosts(work, circles, bg)
        circles = self._plausible_smears(circles)
        circles = [c for c in circles if c.kind == "single" or not self._over_hole(c)]
        circles += self._tinted(image, fg, changed, circles, start_found)
        circles += self._lost_streaks(finder.streaks, circles, fg)
        circles += self._lost_faint(changed, fg, circles)
        circles += self._on_prints(work, fg, circles, bg, changed)
        read = self._read(image, circles, bg)
        detections = self._label(*read, fg=fg, k=k)
        balls_px = [(d.x, d.y, d.radius) for d in detections]
        pins: list[Detection] = []
        if self._pins is not None:
            bare: list[U8] = []

            def bare_cloth() -> U8:
                if not bare:
                    bare.append(_bare(work, bg.cloth))
                return bare[0]

            pins = self._pins.detect(image, None, balls_px, fg, bare_cloth)
        detections = self._with_pins(detections, pins)
        self._follow(work, bg, circles, fg, k)
        # (a pin whose look was lost this frame is judged again on the next: that frame is read)
        still = all(m.age == 0 and math.hypot(m.vx, m.vy) < self.p.quiet_speed for m in self._memos) \
            and all(c.kind not in SMEARED for c in circles) and not (self._pins is not None and self._pins.doubting)
        rolled = any(c.kind in SMEARED for c in circles) or \
            any(math.hypot(m.vx, m.vy) >= self.p.roll_share * m.r for m in self._memos)
        self._rest_run = 0 if rolled else self._rest_run + 1
        if still and probe is None:
            probe = look if look is not None else view.probe_image(image)
        self._last = _Reading(work, probe, read, pins, circles, fg, k, still)
        self.debug = {"fg": fg, "work": work, "circles": circles, "k": k}
        return tuple(detections)

    def _exposed(self, image: U8, view: TableView, bg: Background, last_fg: U8 | None) -> tuple[U8, U8]:
        """``image`` brought back to the exposure the background was learned at, and its cheap
        look (:meth:`TableView.probe_image`): see :mod:`tableref.vision.video_exposure`.
        ``last_fg``: the last frame's foreground, left out of the measurement."""
        assert self._meter is not None
        probe = view.probe_image(image)
        gain = self._meter.gain(probe, bg.image, last_fg)
        self.gain = gain
        if gain is None:
            return image, probe
        table = gain_table(gain)
        return corrected(image, table, view.box), corrected(probe, table)

    def covered(self, x: float, y: float, radius: float) -> bool:
        """Does the last frame's foreground cover at least ``hidden_cover`` of the disc at image
        pixel (``x``, ``y``) of ``radius`` pixels (an arm over a ball at rest: the tracker keeps it)?"""
        fg = self.foreground()
        if fg is None or self.view is None:
            return False
        wx, wy = self.view.to_work(np.array([[x, y]], dtype=np.float64))[0]
        return _disc_share(fg, float(wx), float(wy), max(1.0, radius * self.view.scale)) >= self.p.hidden_cover

    def foreground(self) -> U8 | None:
        """The last frame's foreground (work pixels, 255 where something is over the cloth), which
        :meth:`covered` answers from; None before the first frame."""
        return self._given_fg if self._last is None else self._last.fg

    def use_foreground(self, image_size: tuple[int, int], fg: U8) -> None:
        """Answer :meth:`covered` from ``fg``, a foreground :meth:`foreground` gave for a frame of
        ``image_size`` (width, height), as if that frame had just been read: a replay of recorded
        detections through the tracker asks what the camera saw (``bench_pipeline --detections``).
        """
        if self.view is None or self.view.size != image_size:
            self._ensure_view(np.zeros((image_size[1], image_size[0], 3), np.uint8))
        self._last = None
        self._given_fg = fg

    def _with_pins(self, detections: list[Detection], pins: list[Detection]) -> list[Detection]:
        """The balls that are no part of a pin, and the pins."""
        if self._pins is None:
            return detections
        if self._pins.claimed:
            detections = [d for d in detections if (d.x, d.y, d.radius) not in self._pins.claimed]
        # A ball cannot overlap a pin (their centres are a ball and a pin radius apart at the
        # closest, standing or lying on its side): a "ball" within one ball radius of a pin that
        # shows its standing look is a piece of that pin (a nudged pin's head), not a ball; one
        # within UNSURE_PIN_REACH of where a fallen pin lies is that pin (a white pin lying by its
        # hole read as a white ball, "set down" and "potted" there twice after the shot). The
        # radius is a ball's at that place: a ball resting against a pin swells towards it in the
        # foreground (bar billiards seed 2602: read 11.4 px for 9.5, and dropped as the pin's).
        # A standing pin kept as it was while a ball hides it (a lower score) may have slid:
        # bar billiards seed 1801, the white read 20 mm from where the pin was last seen, 34 mm
        # from where it had gone; the pin's own reading where it went (the background still
        # holds it where it stood) lies within UNSURE_PIN_REACH (seed 2002: 10 mm).
        view, finder = self.view, self._finder
        if not pins or not detections:
            return detections + pins
        assert view is not None and finder is not None
        reach = [(p, UNSURE_PIN_REACH if p.group == "pin-fallen" or p.score < PinWatcher.SEEN else 1.0) for p in pins]
        # A fallen pin is a pin's height long: a "ball" on its body is the pin, however far from
        # its middle. Bar billiards seed 4502: the 200 pin, knocked over about its foot, lay
        # across its spot; the look of its foot there (the background still held it standing)
        # was read as the white, 14 mm from the lying pin's middle, that had dropped into the 200
        # hole ten frames before, and the white was "potted" 32 frames late. A ball can come no
        # nearer the axis than the two radii; half a ball radius leaves room for the pin's
        # place being known to a few millimetres.
        lying = self._pins.lying() if any(p.group == "pin-fallen" for p in pins) else []
        works = view.to_work(np.array([[d.x, d.y] for d in detections], dtype=np.float64))
        kept: list[Detection] = []
        for d, (wx, wy) in zip(detections, works, strict=True):
            size = min(d.radius, finder.radius_at(wx, wy) / view.scale)
            if any(math.hypot(d.x - p.x, d.y - p.y) < size * k for p, k in reach):
                continue
            if any(segment_distance(d.x, d.y, a, b) < r + LYING_SLACK * size for a, b, r in lying):
                continue
            kept.append(d)
        return kept + pins

    def _follow(self, work: U8, bg: Background, circles: list[Circle], fg: U8, k: F32) -> None:
        """Every ``update_every`` frames, let the background follow the light where nothing is."""
        self._frame += 1
        if self._frame % self.p.update_every != 0:
            return
        discs = np.zeros(fg.shape, np.uint8)
        near = np.zeros(fg.shape, np.uint8)  # an object and the shadow it casts
        for c in circles + [m for m in self._ghost_guard()]:
            cv2.circle(discs, (int(round(c.x)), int(round(c.y))), int(round(1.5 * c.r * c.size)), 255, -1)
            cv2.circle(near, (int(round(c.x)), int(round(c.y))), int(round(2.6 * c.r * c.size)), 255, -1)
        if bg.unverified.any():
            bg.reveal(work, cv2.bitwise_and(self._uncovered(fg, near), _off_masses(fg, bg.unverified)))
        protect = cv2.bitwise_or(fg, discs)
        bg.update(work, fg, protect, k, every=self.p.update_every)

    def _quiet(self, probe: U8, last: _Reading, bg: Background) -> bool:
        """Whether this frame is the last one read in full again (see ``VideoParams.quiet_pixels``),
        from the cheap look of both at the work size (:meth:`TableView.probe_image`)."""
        if not last.still or self._quiet_run >= self.p.quiet_max or last.probe is None \
                or last.probe.shape != probe.shape:
            return False
        assert self.view is not None
        diff = cv2.transform(cv2.absdiff(probe, last.probe), np.ones((1, 3), np.float32))  # channel sum, saturating
        moved = cv2.countNonZero((diff > 2.0 * bg.bright_threshold).astype(np.uint8))
        r = self.view.median_radius
        return moved <= self.p.quiet_pixels * math.pi * r * r

    def _drop_ghosts(self, work: U8, circles: list[Circle], bg: Background) -> list[Circle]:
        """Objects of the first frame leave *ghosts* when they move: the cloth they covered was
        painted with an estimate that is never exact. A disc found where the first frame was
        painted over, and as flat as bare cloth there, is such a ghost: it is learned at once.

        The background can also have learned something that is no object (a hand that rested
        on the board a moment, in its own shadow): a still disc found anywhere that is as flat
        as bare cloth is no ball either (a real ball or piece shows its rim's shading and its
        highlight, never a flat patch of cloth), and the cloth there is learned at once."""
        keep: list[Circle] = []
        h, w = work.shape[:2]
        for c in circles:
            xi, yi = int(round(c.x)), int(round(c.y))
            if not (0 <= xi < w and 0 <= yi < h) or c.kind not in ("single", "crowd"):
                keep.append(c)
                continue
            n = int(math.ceil(0.8 * c.r))
            ya, yb, xa, xb = max(0, yi - n), min(h, yi + n + 1), max(0, xi - n), min(w, xi + n + 1)
            now = work[ya:yb, xa:xb].astype(np.float32).reshape(-1, 3)
            bare = bg.cloth[ya:yb, xa:xb].reshape(-1, 3)
            k = (now.sum(axis=1) + 3.0) / (bare.sum(axis=1) + 3.0)
            tint = np.abs(now - bare * k[:, None]).sum(axis=1) / (now.sum(axis=1) + 30.0)
            if abs(float(k.mean()) - 1.0) < 0.15 and float(k.std()) < 0.08 and float(tint.mean()) < 0.1:
                mask = np.zeros(work.shape[:2], np.uint8)
                cv2.circle(mask, (xi, yi), int(round(1.5 * c.r)), 255, -1)
                if bg.unverified[yi, xi]:
                    bg.reveal(work, mask)
                else:  # only what looks like bare cloth itself (a neighbour may touch the disc)
                    bg.absorb(work, cv2.bitwise_and(cv2.bitwise_and(mask, cv2.bitwise_not(bg.unverified)),
                                                    _bare(work, bg.cloth)))
                continue
            keep.append(c)
        return keep

    def _ghost_guard(self) -> list[Circle]:
        """Where objects were seen a moment ago (hidden or smeared now): not to be learned."""
        return [Circle(m.x, m.y, m.r, 1.0, 1.0, 0.0, "memo") for m in self._memos if m.age > 0]

    def _uncovered(self, fg: U8, discs: U8) -> U8:
        """Pixels that no object covers now, nor its shadow: no found object, no recent one (the
        background learns them only where they also stay still, see ``Background.reveal``)."""
        return np.asarray(cv2.bitwise_not(discs), dtype=np.uint8)

    def _tinted(self, image: U8, fg: U8, changed: U8, circles: list[Circle],
                start_found: list[tuple[float, float]]) -> list[Circle]:
        """Balls of the cloth's own colour told by their disc (``VideoParams.tint``) where an
        object at rest or rolling slowly was seen a moment ago, or lies hidden under an arm.

        Not where a smear now leaves that place: the object was struck this frame, and what lies
        there is the cue's tip (bar billiards, seed 1701: the tip where the red had rested was
        kept as a ball, and the white took its name; traced before ``TintParams.most``, which
        alone now refuses that tip on the six clips tried: this stays as a second guard). Nor
        one beside a mass of change that nothing explains (an arm, a hand): a disc this weak
        there is as likely a fingertip (carrom seed 2302, break: the finger that flicked the
        striker too fast for a smear was kept as the striker, and a man took the shot's start).
        A hidden object is looked for again at its place once the arm has gone. (On the first
        frame the masses are the foreground's instead: there the change from the cloth estimate
        holds the light's own gradients, one piece round every ball.)"""
        finder = self._finder
        assert finder is not None
        if not self._memos:
            slow = [(x, y, 0.85 * finder.radius_at(x, y)) for x, y in start_found]
        else:
            smears = [c for c in circles + finder.streaks if c.kind in SMEARED]
            reach = 0.5 * self.p.circles.max_blur + 1.0
            slow = [(m.x + m.vx, m.y + m.vy, (0.85 + 0.5 * min(m.age, self.p.lost_frames)) * m.r + math.hypot(m.vx, m.vy))
                    for m in self._memos if math.hypot(m.vx, m.vy) < m.r
                    and not any(math.hypot(c.x - m.x, c.y - m.y) < reach * m.r for c in smears)]
        return tinted(finder, image, fg, changed, circles, keep=slow, params=self.p.tint, fixed=self._fixed())

    def _fixed(self) -> list[tuple[float, float, float]]:
        """The table's fixed round features (x, y, radius; work px)."""
        assert self.view is not None
        return [(sd.x, sd.y, sd.radius) for sd in self.view.statics]

    def _over_hole(self, c: Circle) -> bool:
        """A circle centred well inside a hole or pocket is its rim (or a pin lying over it), not
        a ball: a ball whose centre is over a hole has dropped."""
        view = self.view
        assert view is not None
        return any(sd.kind == "hole" and math.hypot(c.x - sd.x, c.y - sd.y) < 0.8 * sd.radius for sd in view.statics)

    def _plausible_smears(self, circles: list[Circle]) -> list[Circle]:
        """A smeared ball comes from somewhere: a capsule is taken for a moving ball only near a
        ball seen in the last frames (a finger or a cue end is capsule-shaped too), where a free
        capsule lay on the last frame (a ball at rest joined to its shadow; see
        ``VideoParams.still_blur``), or where a free capsule on the last frame was heading (a
        ball coming back onto the table from the rail or the floor, long after it was last
        seen; see ``VideoParams.moving_blur_angle``)."""
        before, self._loose_blurs = self._loose_blurs, []
        if not any(c.kind == "blur" for c in circles):
            return circles
        # while a remembered ball rolls fast its smear can break into pieces that run on ahead
        # of its memory's reach: those are its own, not a ball coming back (Colors seed 1802: a
        # piece of the cue ball's smear on the break was named the 14 and "hit" the cue ball)
        rolling = bool(self._fast())
        out = []
        for c in circles:
            if c.kind == "blur":
                reach = (0.5 * self.p.circles.max_blur + 3.0) * c.r
                if not any(math.hypot(c.x - m.x, c.y - m.y) < reach * (1 + 0.5 * m.age) for m in self._memos):
                    if c.joined:
                        continue
                    self._loose_blurs.append(c)
                    still = c.length <= self.p.still_blur_length and any(
                        b.length <= self.p.still_blur_length
                        and math.hypot(c.x - b.x, c.y - b.y) < self.p.still_blur * c.r for b in before)
                    if not still and (rolling or not any(self._carried_on(b, c, reach) for b in before)):
                        continue
            out.append(c)
        return out

    def _carried_on(self, before: Circle, now: Circle, reach: float) -> bool:
        """Whether capsule ``now`` is capsule ``before`` of the last frame read, moved on: it
        travelled at least a radius and at most ``reach``, both smears lie along the way it
        travelled (``VideoParams.moving_blur_angle``, where a smear is long enough to have a
        direction), and neither is longer than that way (a smear is the travel within the
        exposure, never more than a frame's; ``VideoParams.moving_blur_slack``). A cue's end
        drawn back and pushed while a player aims is longer than it moves."""
        dx, dy = now.x - before.x, now.y - before.y
        d = math.hypot(dx, dy)
        if not now.r <= d <= reach:
            return False
        way = math.atan2(dy, dx)
        for s in (before, now):
            if s.length > d / now.r + self.p.moving_blur_slack:
                return False
            off = abs((s.axis - way + math.pi / 2) % math.pi - math.pi / 2)
            if s.length >= 0.5 and math.degrees(off) > self.p.moving_blur_angle:
                return False
        return True

    def _lost_faint(self, changed: U8, fg: U8, circles: list[Circle]) -> list[Circle]:
        """A ball seen moving a moment ago and not found now, looked for in the weaker evidence of
        any change from the empty table: a light striker smeared over a light board, a fast ball
        whose smear barely shows. A ball-sized piece of change near where it was heading is taken.
        (A ball that vanishes at rest is hidden or potted, and is not looked for.)"""
        view = self.view
        assert view is not None
        # a ball that vanishes by a hole has dropped into it; a fallen pin is a change too
        fixed = [sd for sd in view.statics if sd.kind in ("hole", "pin")]

        def near_fixed(x: float, y: float, r: float) -> bool:
            return any(math.hypot(x - sd.x, y - sd.y) < sd.radius + 3.0 * r for sd in fixed)

        # A ball lost at rest is looked for only if something could have struck it: a fast object
        # came within reach of it, or nothing else was rolling when it was lost (the cue ball,
        # struck from rest, is the first thing to move). Lost at rest while the shot was under
        # way, with nothing near it since, it is under the arm that covers it, and the cue's end
        # following through, its axis pointing back across that arm, is no smear of it (Colors
        # seed 2302: the ferrule behind the rolling cue ball was read as the 3 hidden under the
        # bridge arm, and "hit" by it).
        fast = self._fast()

        def may_be_struck(m: _Memo) -> bool:
            return not m.still or not m.in_play or m.reached or bool(fast and _hitters(m, fast))

        # Seen at rest a frame ago under the hand or cue that struck it, on a table where nothing
        # else moves, and gone now: the shot's first move (a carrom striker leaves its baseline at
        # metres a second, and blurred over a light board its rim is too faint to vote). It is
        # looked for in change that holds colour (``flick_fill``) and lies away from the hand.
        # Once anything rolls, a ball gone from its place was hit, and the change beside it is
        # its hitter's.
        still_table = self._rest_run > self.p.lost_frames

        def flicked(m: _Memo) -> bool:
            return m.age == 0 and m.touched and m.still and still_table

        lost = [m for m in self._memos if (m.age >= 1 or flicked(m)) and m.age <= self.p.lost_frames
                and not m.hidden
                and not any(math.hypot(c.x - m.x, c.y - m.y) < 2.0 * c.r for c in circles)
                and not near_fixed(m.x, m.y, m.r) and may_be_struck(m) and not self._found_nearest(m, circles, fast)]
        if not lost:
            return []
        taken = np.zeros(changed.shape, np.uint8)
        for c in circles:
            cv2.circle(taken, (int(round(c.x)), int(round(c.y))), int(round(1.3 * c.r * c.size)), 255, -1)
        weak = cv2.bitwise_and(changed, cv2.bitwise_not(taken))
        resting = self._at_rest()
        n, lab, stats, cents = cv2.connectedComponentsWithStats(weak, connectivity=8)
        out: list[Circle] = []
        for m in lost:
            flick = m.age == 0
            reach = self._faint_reach(m.age, m.r)
            disc = math.pi * m.r * m.r
            best: tuple[float, int] | None = None
            for i in range(1, n):
                cx, cy = float(cents[i][0]), float(cents[i][1])
                d = math.hypot(cx - (m.x + m.vx), cy - (m.y + m.vy))
                area = float(stats[i, cv2.CC_STAT_AREA])
                if not (d < reach and self.p.weak_area[0] * disc <= area <= self.p.weak_area[1] * disc
                        and (best is None or d < best[0])):
                    continue
                if flick:
                    ok = math.hypot(cx - m.x, cy - m.y) > 2.0 * m.r \
                        and _disc_share(fg, cx, cy, m.r) >= self.p.flick_fill \
                        and not self._beside_hand(cents[i], m.r, changed)
                else:
                    ok = (math.hypot(m.vx, m.vy) > m.r or self._smear_from(lab, stats, i, m)) \
                        and not self._beyond_rest(m, resting, cx, cy)
                if ok:
                    best = (d, i)
            if best is None:
                continue
            i = best[1]
            cx, cy = float(cents[i][0]), float(cents[i][1])
            xi, yi = int(round(cx)), int(round(cy))
            if not (0 <= yi < view.centre_mask.shape[0] and 0 <= xi < view.centre_mask.shape[1]) \
                    or not view.centre_mask[yi, xi] or any(math.hypot(cx - c.x, cy - c.y) < 1.5 * c.r for c in out) \
                    or near_fixed(cx, cy, m.r):
                continue
            out.append(Circle(cx, cy, m.r, 1.0, 0.5, 0.0, "weak"))
            if flick:
                self._flicks.append((out[-1], m))
        return out

    def _found_nearest(self, m: _Memo, circles: list[Circle], fast: list[_Memo]) -> bool:
        """Is an object found this frame (not weak) within the reach of a search for the lost ``m``
        (``_faint_reach``), and clearly nearer to where ``m`` was heading than to where any other
        memory is or is heading (``FOUND_CLEAR``), while no more than one other object moves fast?
        Then ``m`` was found, farther on than its last sighting foretold, and a
        patch of weak change nearer by is no more than what it left behind (bar billiards seed
        4502, ball returns: the white, knocked by the red, was a streak joined to the red, then a
        blur 91 mm on; its memory took a patch of weak change 36 mm from its rest, and the blur
        was named the red). ``fast``: the memories of fast objects (``_fast``)."""
        if sum(1 for o in fast if o is not m) > 1:
            return False  # a break: every prediction is poor, and a found object may be any of them
        px, py = m.x + m.vx, m.y + m.vy
        reach = self._faint_reach(m.age, m.r)
        for c in circles:
            d = math.hypot(c.x - px, c.y - py)
            if c.kind != "weak" and d < reach and not any(
                    o is not m and min(math.hypot(c.x - o.x, c.y - o.y), math.hypot(c.x - o.x - o.vx, c.y - o.y - o.vy))
                    <= FOUND_CLEAR * d for o in self._memos):
                return True
        return False

    def _beyond_rest(self, m: _Memo, resting: list[_Memo], x: float, y: float) -> bool:
        """Does an object at rest lie in the way from where ``m`` was last placed to (``x``,
        ``y``), that place beyond it (see ``_in_the_way``)? A fast object lost as it reached
        resting ones hit them: change beyond them is what it knocked on (carrom break, seed 3702:
        the striker lost in its smear as it reached the pack was looked for, and found, in the
        smear of the far man it drove on; that man took the striker's name and its cushion)."""
        sx, sy = m.seen if m.seen is not None else (m.x, m.y)
        n = math.hypot(x - sx, y - sy)
        if n <= m.r:
            return False
        return self._in_the_way(m, resting, sx, sy, (x - sx) / n, (y - sy) / n, n) < n

    def _beside_hand(self, centre: Any, r: float, changed: U8) -> bool:
        """Is a disc of radius ``r`` at ``centre`` (work px) beside a mass of change it leaves
        unexplained (the fingertip that flicked the striker, at the end of its hand)?"""
        assert self._finder is not None
        probe = Circle(float(centre[0]), float(centre[1]), r, 1.0, 0.5, 0.0, "weak")
        return self._finder.beside_masses([probe], changed)[0].joined

    def _faint_reach(self, age: FaintAge, r: FaintAge) -> FaintAge:
        """How far (work px) from where a lost object was heading a patch of weak change may be
        and still be it: the farther the longer it has been lost (``_lost_faint``, and the pairing
        of such a patch with a memory in ``_remember``)."""
        return (0.5 * self.p.circles.max_blur + 2.0 * (1.0 + age)) * r

    @staticmethod
    def _smear_from(lab: Any, stats: Any, i: int, m: _Memo) -> bool:
        """True when piece ``i`` is a streak whose axis runs back to where ``m`` rested (a ball
        struck from rest): what a hand or a cue nearby does not look like."""
        x, y, w, h = (int(v) for v in stats[i, :4])
        part = (lab[y:y + h, x:x + w] == i).astype(np.uint8)
        mo = cv2.moments(part, binaryImage=True)
        if mo["m00"] <= 0:
            return False
        a, b, c = mo["mu20"] / mo["m00"], mo["mu02"] / mo["m00"], mo["mu11"] / mo["m00"]
        common = math.sqrt(max(0.0, ((a - b) / 2) ** 2 + c * c))
        major, minor = (a + b) / 2 + common, max(1e-6, (a + b) / 2 - common)
        if major < 2.5 * minor:  # not elongated (sd ratio about 1.6)
            return False
        theta = 0.5 * math.atan2(2 * c, a - b)
        cx, cy = mo["m10"] / mo["m00"] + x, mo["m01"] / mo["m00"] + y
        off = abs(-(m.x - cx) * math.sin(theta) + (m.y - cy) * math.cos(theta))  # distance to the axis
        return off < 1.5 * m.r

    def _on_prints(self, work: U8, fg: U8, circles: list[Circle], bg: Background, changed: U8) -> list[Circle]:
        """Pieces sitting on a carrom board's printed circles (see :mod:`video_prints`);
        ``changed`` less ``fg`` is where only a shadow lies."""
        if self._prints is None:
            return []
        view = self.view
        assert view is not None
        out: list[Circle] = []
        shaded = cv2.bitwise_and(changed, cv2.bitwise_not(fg))
        for pr in self._prints.occupied(work, bg.image, shaded):
            r = float(view.radius_map[min(view.radius_map.shape[0] - 1, max(0, int(pr.y))),
                                      min(view.radius_map.shape[1] - 1, max(0, int(pr.x)))])
            if any(math.hypot(c.x - pr.x, c.y - pr.y) < c.r * c.size + 0.5 * pr.radius for c in circles):
                continue  # the piece over the circle is seen already
            n = int(math.ceil(2.0 * r))
            patch = fg[max(0, int(pr.y) - n):int(pr.y) + n + 1, max(0, int(pr.x) - n):int(pr.x) + n + 1]
            if patch.size and float((patch > 0).mean()) > 0.5:
                continue  # a hand over the circle
            out.append(Circle(pr.x, pr.y, r, 1.0, 1.0, 0.0, "print"))
        return out

    def _lost_streaks(self, streaks: list[Circle], circles: list[Circle], fg: U8) -> list[Circle]:
        """Smears cut out of crowded pieces that continue a ball seen a moment ago and not found
        now: a ball struck hard, still joined to the cue or to the ball it hit. The reach grows
        with the frames since the ball was last placed, as for a capsule (``_plausible_smears``):
        a break shot covers more than the one-frame reach between two frames.

        A ball already missed on an earlier frame whose last place is now mostly covered by
        foreground is under whatever covers it (an arm reaching over it): it did not go anywhere,
        and a smear-wide piece of that arm beside it is not the ball. A struck ball is lost on the
        frame it is struck, its smear starting at its place (which is then covered by the smear
        and the cue); a frame later it has left its place bare but for the cue's tip.

        Nor is a ball lost when a found object that no other remembered object explains lies
        nearer to it than the smear, or within reach as a piece of its own while the smear is
        cut out of an arm or a cue: struck softly, it rolled clear of the cue, and the smear is
        the cue's white ferrule following it."""
        if not streaks:
            return []
        lost = [m for m in self._memos if m.age <= self.p.lost_frames and not m.hidden
                and not any(math.hypot(c.x - m.x, c.y - m.y) < 1.5 * c.r for c in circles)
                and (m.age == 0 or _disc_share(fg, m.x, m.y, m.r) <= self.p.hidden_cover)]
        unclaimed = [c for c in circles if not any(math.hypot(c.x - m.x, c.y - m.y) < 1.5 * c.r for m in self._memos)]
        out: list[Circle] = []
        for st in streaks:
            reach = (0.5 * self.p.circles.max_blur + 3.0) * st.r
            if any(_continues(st, m, reach * (1 + 0.5 * m.age), unclaimed) for m in lost) and \
                    not any(math.hypot(st.x - c.x, st.y - c.y) < 1.6 * st.r for c in circles + out):
                out.append(st)
        return out

    # -- names -----------------------------------------------------------------------------------
    def _read(self, image: U8, circles: list[Circle], bg: Background) -> _Read:
        """What this frame shows of each object: its place and its colour scores, before the
        memory (kept whole so that a quiet frame can be read as this one again)."""
        view = self.view
        assert view is not None
        if not circles:
            return [], np.zeros((0, 2)), np.zeros((0, 2)), [], [], []
        work_xy = np.array([[c.x, c.y] for c in circles], dtype=np.float64)
        pts = view.to_image(work_xy)
        radii = [c.r * c.size / view.scale for c in circles]
        h, w = bg.image.shape[:2]
        under = np.array([bg.image[min(h - 1, max(0, int(round(c.y)))), min(w - 1, max(0, int(round(c.x))))]
                          for c in circles], dtype=np.float64)  # the bare cloth (BGR) under each circle
        discs = [(float(x), float(y), c.r / view.scale) for (x, y), c in zip(pts, circles, strict=True)]
        gains = None
        if self.table == "pool":  # read as under neutral light (see video_cast); lone clear discs vote
            lone = [i for i, c in enumerate(circles) if c.kind == "single" and not c.joined]
            self._cast.update(image, [discs[i] for i in lone], [float(under[i] @ (0.114, 0.587, 0.299)) for i in lone])
            gains = self._cast.gains
            under = np.clip(under * np.asarray(gains), 0, 255)
        cloth_v = [float(v) for v in under.max(axis=1)]
        cloth_y = [float(v) for v in under @ (0.114, 0.587, 0.299)] if self.table == "pool" else None
        cloth_h = _cloth_hues(under) if self.table == "pool" else None
        colours = ball_colours(image, discs, cloth_v, cloth_luma=cloth_y, cloth_hue=cloth_h, gains=gains)
        if self.table == "pool":
            wr = white_reference(colours)
            scores = [pool_scores(c, wr) for c in colours]
        elif self.table == "bar-billiards":
            scores = [bar_billiards_scores(c) for c in colours]
        else:
            scores = [carrom_scores(col, c.size if c.kind in ("single", "blur") else 0.0)
                      for col, c in zip(colours, circles, strict=True)]
        views = [_view_kind(c) for c in colours] if self.table == "pool" else [0] * len(circles)
        return circles, work_xy, pts, radii, scores, views

    def _label(self, circles: list[Circle], work_xy: F64, pts: F64, radii: list[float], scores: list[F64],
               views: list[int], fg: U8 | None = None, k: F32 | None = None) -> list[Detection]:
        """Detections named from this frame's reading blended with the memory."""
        evidence = self._remember(work_xy, circles, scores, views, fg, k)
        out: list[Detection] = []
        if self.table == "pool":
            for (x, y), c, r, (n, conf) in zip(pts, circles, radii, assign_unique(evidence), strict=True):
                label = f"ball-{n}"
                out.append(Detection(label, pool_group(n), float(x), float(y), r, _score(c, conf), joined=c.joined))
        else:
            names = ("white", "red") if self.table == "bar-billiards" else CARROM_LABELS
            for (x, y), c, r, ev in zip(pts, circles, radii, evidence, strict=True):
                j = int(np.argmax(ev))
                conf = float(ev[j] / max(1e-6, ev.sum()))
                out.append(Detection(names[j], names[j], float(x), float(y), r, _score(c, conf), joined=c.joined))
        return out

    def _remember(self, xy: F64, circles: list[Circle], scores: list[F64], views: list[int],
                  fg: U8 | None = None, k: F32 | None = None) -> list[F64]:
        """Blend each object's colour evidence with what it showed in earlier frames (the object
        is followed by nearest neighbour, predicted with its last motion).

        Pool: whether a ball is a stripe is a matter of its history, not of one view (a stripe
        rolling shows its band, then its white caps; a solid never shows much white). ``views``
        says what each view showed (+1 stripe, -1 solid, 0 neither); once an object has shown a
        stripe, or only ever solid views, its numbers lean that way.

        An object not seen is remembered ``lost_frames``, and longer while something covers its
        place (``fg``; see ``VideoParams.hidden_frames``).
        """
        gate = self.p.memory_gate
        pairs: list[tuple[float, int, int]] = []
        fast = self._fast()
        # whether a fast object has come within hitting reach of each memory since it was seen
        reached = [m.reached or bool(fast and _hitters(m, fast)) for m in self._memos]
        if len(circles) and self._memos:
            mx = np.array([m.x for m in self._memos])
            my = np.array([m.y for m in self._memos])
            mvx = np.array([m.vx for m in self._memos])
            mvy = np.array([m.vy for m in self._memos])
            ages = np.array([m.age for m in self._memos], dtype=np.float64)
            ev = np.array([m.evidence for m in self._memos])
            sc = np.array(scores)
            d = np.minimum(np.hypot(xy[:, :1] - (mx + mvx)[None, :], xy[:, 1:2] - (my + mvy)[None, :]),
                           np.hypot(xy[:, :1] - mx[None, :], xy[:, 1:2] - my[None, :]))
            r = np.array([c.r for c in circles])[:, None]
            if self.table == "carrom":  # light, black, red: whether a light piece is a man or the
                unlike = _unlike(_colours_only(sc), _colours_only(ev))  # striker is blurred in motion
            else:
                unlike = _unlike(sc, ev)
            cost = d / r + ages[None, :] + self.p.colour_cost * unlike
            grow = np.where(self._pinned(circles, fg, reached, bool(fast)), 0.0, 2.0 * ages)
            within = d < gate * r * (1.0 + grow[None, :])
            self._on_launch_line(xy, r, ages, unlike, within, cost)
            within &= ~self._knocked_towards(xy, r)
            if fg is not None:
                within &= ~self._cue_ends(xy, r, circles, fg, within, bool(fast))
            self._not_past_rests(xy, within)
            # a weak sighting was looked for near where a lost object was heading (``_lost_faint``):
            # it is that object or none, never one lost at rest across the table
            weak = np.array([c.kind == "weak" for c in circles])
            if weak.any():
                reach = self._faint_reach(ages, np.array([m.r for m in self._memos]))
                within &= ~weak[:, None] | (d < reach[None, :])
                # one found for an object struck from rest is that object, as far as the search
                # reached (its memory still lies where it rested)
                at = {id(c): k for k, c in enumerate(circles)}
                of = {id(m): k for k, m in enumerate(self._memos)}
                for fc, fm in self._flicks:
                    if id(fc) in at and id(fm) in of:
                        i, j = at[id(fc)], of[id(fm)]
                        within[i, j] = bool(d[i, j] < reach[j])
            ii, jj = np.nonzero(within)
            pairs = [(float(cost[i, j]), int(i), int(j)) for i, j in zip(ii, jj, strict=True)]
        pairs.sort()
        used_i: set[int] = set()
        used_j: set[int] = set()
        match: dict[int, int] = {}
        for _, i, j in pairs:
            if i in used_i or j in used_j:
                continue
            used_i.add(i)
            used_j.add(j)
            match[i] = j
        # a moving object seen a frame ago, read right where its motion puts it, keeps that reading
        on_course = {i for i, j in match.items() if self._memos[j].age == 0 and not self._memos[j].still
                     and math.hypot(xy[i, 0] - self._memos[j].x - self._memos[j].vx,
                                    xy[i, 1] - self._memos[j].y - self._memos[j].vy) <= self.p.on_course * circles[i].r}
        match = _exchange(match, {(i, j): c for c, i, j in pairs}, on_course)
        merged = _merged(xy, circles, match, self._memos)
        memos: list[_Memo] = []
        out: list[F64] = []
        a = dict(self.p.memory).get(self.table, 0.5)
        for i, sc in enumerate(scores):
            stripes = solids = run = 0
            # a smear's colours and size are the cloth's as much as the ball's (and a ball whose
            # outline joins a cushion is fitted as one: the cushion's colour on its rim reads as
            # a stripe's band, the cue ball rolling along a green cushion as a cap-up 14)
            smeared = circles[i].kind in SMEARED
            before = self._memos[match[i]] if i in match else None  # the memory this sighting renews
            if before is not None:
                stripes, solids, run = before.stripe_views, before.solid_views, before.solid_run
            stripes += views[i] > 0
            solids += views[i] < 0
            if self.table == "pool":
                run = run + 1 if not smeared and _clear_solid(sc) else 0
                if run >= self.p.stripe_undone and views[i] <= 0:
                    stripes = 0
                sc = _lean(sc, stripes, solids, self.p.solid_after)
            if before is not None:
                w = min(a, self.p.clear_memory) if _clear(sc) else a
                if smeared:
                    w = 1.0
                # measured from where it was last placed (a smear places it too), over the frames
                # since: not from where it coasted to, which would halve a lost fast ball's speed
                gap = before.unseen + 1
                sx, sy = before.seen if before.seen is not None else (before.x, before.y)
                if self.table == "carrom" and \
                        math.hypot(xy[i, 0] - sx, xy[i, 1] - sy) > self.p.size_still * before.r * gap \
                        and not _striker_sized(sc):
                    sc = _size_from_memory(sc, before.evidence)
                ev = w * before.evidence + (1.0 - w) * sc
                vx, vy = (xy[i, 0] - sx) / gap, (xy[i, 1] - sy) / gap
                if i in merged:
                    vx, vy = before.vx, before.vy  # two objects seen as one: the centre is neither's
            else:
                ev = sc.copy()
                vx = vy = 0.0
            # a sighting on weak evidence does not renew the memory: a run of them ends, unless it
            # is the smear of a fast object where its motion takes it (see ``_on_course``)
            age = 0
            if before is not None and circles[i].kind in ("weak", "streak"):
                age = before.age if _on_course(circles[i], xy[i], before) else before.age + 1
            still = math.hypot(vx, vy) < 0.5 * circles[i].r
            # its first move from rest, or a faster one right after it (a smear's centre lags the
            # piece while it gathers speed within the frame)
            launched = before is not None and not still and (
                before.still or (before.launched and math.hypot(vx, vy) > math.hypot(before.vx, before.vy)))
            memos.append(_Memo(float(xy[i, 0]), float(xy[i, 1]), vx, vy, ev, circles[i].r, age, stripes, solids,
                               still=still, solid_run=run, launched=launched, touched=circles[i].joined))
            out.append(ev)
        # objects not seen this frame are remembered a little while (hidden, or a smear); longer
        # under a cover that came while the table was still (an arm over a ball as the player aims;
        # in a break a ball struck from the rack leaves its place under the others' smears)
        busy = any(c.kind in SMEARED for c in circles) or \
            any(m.age == 0 and math.hypot(m.vx, m.vy) > m.r for m in self._memos)
        rolling = [m for m in self._memos if m.age == 0 and math.hypot(m.vx, m.vy) >= self.p.roll_share * m.r]
        cover: U8 | None = None  # made once, when an object lost at rest asks (see ``_cover``)
        for j, m in enumerate(self._memos):
            if j in used_j:
                continue
            if m.age < self.p.lost_frames:
                coast = m.unseen < 2
                in_play = m.in_play if m.age > 0 else any(o is not m for o in rolling)
                memos.append(_Memo(m.x + (m.vx if coast else 0.0), m.y + (m.vy if coast else 0.0),
                                   m.vx if coast else 0.0, m.vy if coast else 0.0, m.evidence, m.r, m.age + 1,
                                   m.stripe_views, m.solid_views, still=m.still, unseen=m.unseen + 1,
                                   seen=m.seen if m.seen is not None else (m.x, m.y), reached=reached[j],
                                   solid_run=m.solid_run, launched=m.launched, in_play=in_play))
            elif m.still and m.hidden < self.p.hidden_frames and fg is not None and (m.hidden or not busy) and \
                    _cover_left(cover := cover if cover is not None else _cover(fg, k, self.p.hidden_shade), m,
                                circles) >= self.p.hidden_cover:
                # under the arm that covers its place
                memos.append(replace(m, hidden=m.hidden + 1, unseen=m.unseen + 1, reached=reached[j]))
        self._memos = memos
        return out

    def _on_launch_line(self, xy: F64, r: F64, ages: F64, unlike: F64, within: NDArray[np.bool_], cost: F64) -> None:
        """Let a memory just *launched* (see ``launch_reach``), seen or lost a frame ago, take a
        sighting ahead on its line of motion: ``within`` and ``cost`` (sightings x memories) are
        widened in place. The cost is the distance off the line, in radii, plus half a radius, so
        a resting object's own reading, right where it lies on that line, stays its own.

        Not beyond an object lying at rest in its way (its centre within their summed radii of
        the line, nearer than the sighting): the launched object hits that one first, and a
        sighting beyond it is that object knocked on, or one of the pack behind it (carrom break,
        seed 3702: the striker's memory reached through the pack to the far man it had driven
        forward, who took the striker's name and its cushion, while the striker, bounced back,
        went unnamed). Its own sighting short of the object is still taken."""
        resting = self._at_rest()
        for j, m in enumerate(self._memos):
            speed = math.hypot(m.vx, m.vy)
            if not m.launched or m.age > 1 or speed <= 0.0:
                continue
            ux, uy = m.vx / speed, m.vy / speed
            rx, ry = xy[:, 0] - m.x, xy[:, 1] - m.y
            along = rx * ux + ry * uy
            off = np.abs(rx * uy - ry * ux)
            block = self._in_the_way(m, resting, m.x, m.y, ux, uy, self.p.launch_reach * m.r)
            ahead = (along > 0.0) & (along <= block) & (off <= r[:, 0])
            line = off / r[:, 0] + 0.5 + ages[j] + self.p.colour_cost * unlike[:, j]
            cost[:, j] = np.where(ahead, np.minimum(cost[:, j], line), cost[:, j])
            within[:, j] |= ahead

    def _in_the_way(self, m: _Memo, resting: list[_Memo], x: float, y: float, ux: float, uy: float,
                    reach: float) -> float:
        """How far (work px) from (``x``, ``y``) along the unit direction (``ux``, ``uy``) the
        first of the objects ``resting`` (``_at_rest``) lies in the way of ``m`` moving on that line
        (its centre within their summed radii of it); ``reach`` when none does within it. ``m``
        hits that object first: nothing beyond it is ``m``. Not an object touching ``m`` where it
        starts (``touch_gap``): in a rack or a pack a hit passes through touching objects, and a
        ball leaving its neighbours is not blocked by them (colors seed 4002, break: the 9, moving
        off the rack, lost its own reading beside the ball it had touched, and a patch of weak
        change took its name)."""
        block = reach
        for o in resting:
            if o is m:
                continue
            ox, oy = o.x - x, o.y - y
            along = ox * ux + oy * uy
            if 0.0 < along < block and abs(ox * uy - oy * ux) <= m.r + o.r \
                    and math.hypot(ox, oy) > self.p.touch_gap * (m.r + o.r):
                block = along
        return block

    def _at_rest(self) -> list[_Memo]:
        """The memories of objects seen at rest on the last frame: what a moving one may meet
        in its way (``_in_the_way``)."""
        return [o for o in self._memos if o.still and o.age == 0]

    def _not_past_rests(self, xy: F64, within: NDArray[np.bool_]) -> None:
        """Unpair (in place) each moving memory from the sightings beyond an object at rest in
        its way (see ``_beyond_rest``). Its gate grows while it is lost (``memory_gate``), and a
        pack's pieces knocked on move more than their own gate in a frame: the striker, lost in
        its smear as it reached the pack, took the reading of a man it drove off the pack's far
        side (carrom break, seed 3702)."""
        resting = self._at_rest()
        if not resting:
            return
        for j, m in enumerate(self._memos):
            if m.still:
                continue
            for i in np.nonzero(within[:, j])[0]:
                if self._beyond_rest(m, resting, float(xy[i, 0]), float(xy[i, 1])):
                    within[i, j] = False

    def _fast(self) -> list[_Memo]:
        """Memories of objects seen moving fast (a radius a frame or more) on the last frame or
        the one before: the ones that can hit a resting object. Seen as a smear on its course
        counts (``unseen``): a struck striker is a smear until a hit slows it, its ``age`` not
        renewed by such sightings, and it is then the hitter above all."""
        return [m for m in self._memos if min(m.age, m.unseen) <= 1 and math.hypot(m.vx, m.vy) >= m.r]

    def _pinned(self, circles: list[Circle], fg: U8 | None, reached: list[bool], rolling: bool) -> NDArray[np.bool_]:
        """Memories of objects at rest when last seen, unseen since, that no fast object has come
        within reach of and whose place is still covered, while something else is moving fast:
        the object is under the cover (a ball under the hand that bridges the cue), and a
        sighting farther off than one frame's gate (the cue's white ferrule following through)
        is not it, however long it has been hidden. With nothing else moving, the ball under the
        cover may be the one just struck out from under it (bar billiards seed 1302: the red,
        under a shadow across the table, seen again 290 mm on as a smear). ``reached``: per
        memory, whether a fast object has come within reach of it; ``rolling``: whether one is fast."""
        out = np.zeros(len(self._memos), dtype=bool)
        if fg is None or not rolling:
            return out
        for j, m in enumerate(self._memos):
            out[j] = m.still and m.age > 0 and not reached[j] and _cover_left(fg, m, circles) >= self.p.hidden_cover
        return out

    def _cue_ends(self, xy: F64, r: F64, circles: list[Circle], fg: U8, within: NDArray[np.bool_],
                  in_play: bool) -> NDArray[np.bool_]:
        """Pairs (sighting, memory) within the gate (``within``) where the sighting, joined to a
        mass of change more than a radius from where the object rested on the last frame, is the
        end of the cue that struck it (:func:`~tableref.vision.cue_end.cue_beyond`): the struck
        ball's smear is ahead of it. None while something moves fast (``in_play``)."""
        out = np.zeros((len(xy), len(self._memos)), dtype=bool)
        joined = [i for i, c in enumerate(circles) if c.joined]
        if not joined or in_play:
            return out  # a player strikes only on a still table; in play, a mass is other objects

        def covered(x: float, y: float, radius: float) -> bool:
            return _disc_share(fg, x, y, max(1.0, radius)) >= self.p.hidden_cover

        for j, m in enumerate(self._memos):
            if not m.still or m.age > 0:
                continue
            for i in joined:
                if within[i, j]:  # only pairs that could be made are asked
                    out[i, j] = cue_beyond(m.x, m.y, float(xy[i, 0]), float(xy[i, 1]), float(r[i, 0]), covered)
        return out

    def _knocked_towards(self, xy: F64, r: F64) -> NDArray[np.bool_]:
        """Pairs (sighting, memory) where a resting object would have moved towards every fast
        object that could have hit it (see ``VideoParams.knock_cos``): that sighting is the hitter."""
        out = np.zeros((len(xy), len(self._memos)), dtype=bool)
        fast = self._fast()
        if not fast:
            return out
        resting = [m for m in self._memos if m.still and m.age <= 1]
        for j, m in enumerate(self._memos):
            if not m.still or m.age > 1:
                continue
            hitters = _hitters(m, fast)
            if not hitters:
                continue
            # touching another resting piece (a gap under half a radius): a hit may come through it
            chained = any(o is not m and math.hypot(o.x - m.x, o.y - m.y) < o.r + 1.5 * m.r for o in resting)
            dx, dy = xy[:, 0] - m.x, xy[:, 1] - m.y
            moved = np.hypot(dx, dy)
            limit = self.p.chain_knock_cos if chained else self.p.knock_cos
            out[:, j] = (moved > 0.5 * r[:, 0]) & towards_every(dx, dy, moved, hitters, limit)
        return out


def _under(c: Circle, statics: Sequence[StaticDisc]) -> list[StaticDisc]:
    """The fixed round features ``c`` lies over: its centre within half its radius of their rims
    (on the first frame, a circle there is the feature itself, not an object)."""
    return [sd for sd in statics if (c.x - sd.x) ** 2 + (c.y - sd.y) ** 2 < (sd.radius + 0.5 * c.r) ** 2]


def _hitters(m: _Memo, fast: list[_Memo]) -> list[tuple[float, float]]:
    """Directions (from each hitter through ``m``) of the fast objects near enough to ``m`` to
    have hit it since the last frame (two frames' travel and both radii)."""
    return [(m.x - o.x, m.y - o.y) for o in fast
            if o is not m and math.hypot(m.x - o.x, m.y - o.y) <= 2.0 * math.hypot(o.vx, o.vy) + o.r + m.r]


def _on_course(c: Circle, xy: F64, m: _Memo) -> bool:
    """Is ``c`` (at ``xy``), a smear or a patch of weak change, a fast object seen on the last
    frame, where its motion puts it now (within its radius)? A struck carrom striker or a break's
    cue ball is a smear on every frame until it slows: a run of smears that keeps to one object's
    course is that object, and its memory (the striker's size, a ball's number) must outlive the
    run, or the first object it meets names it."""
    return c.kind in ("weak", "streak") and m.unseen == 0 and math.hypot(m.vx, m.vy) >= m.r \
        and math.hypot(float(xy[0]) - m.x - m.vx, float(xy[1]) - m.y - m.vy) <= m.r


def _disc_share(mask: U8, x: float, y: float, r: float) -> float:
    """The share of the disc of radius ``r`` at (``x``, ``y``) (work px) set in ``mask``."""
    return float(sample_mask(mask, y, x, annulus_offsets(0.0, r)).mean())


def _cover_left(fg: U8, m: _Memo, circles: list[Circle]) -> float:
    """The share of ``m``'s disc in the foreground that no found object explains: an arm over
    it, not a neighbour it was read as one piece with (two touching balls found as one)."""
    dy, dx = annulus_offsets(0.0, m.r)
    on = sample_mask(fg, m.y, m.x, (dy, dx))
    px, py = dx + round(m.x), dy + round(m.y)
    for c in circles:
        if math.hypot(c.x - m.x, c.y - m.y) < m.r + 1.1 * c.r * c.size:
            on &= (px - c.x) ** 2 + (py - c.y) ** 2 > (1.1 * c.r * c.size) ** 2
    return float(on.mean()) if len(on) else 0.0


def _cover(fg: U8, k: F32 | None, shade: float) -> U8:
    """0/255: what covers the board for an object lost at rest (``VideoParams.hidden_shade``):
    the foreground, and where the picture is darker than ``shade`` of the background (``k``)."""
    if k is None:
        return fg
    dark = np.asarray((k < shade).view(np.uint8) * np.uint8(255), dtype=np.uint8)
    return np.asarray(cv2.bitwise_or(fg, dark), dtype=np.uint8)


def _off_masses(fg: U8, unverified: U8) -> U8:
    """0/255: pixels that are no part of a piece of change lying mostly (over half its pixels)
    beyond ``unverified``, the first frame's painted-over places. What an object uncovers there
    lies within them; a hand or an arm reaching over one spreads far beyond it, and resting
    there for a few updates it was learned as the board (carrom seed 4101, queen covered: the
    fingers that set the striker down beside a man were learned around him, so that man
    measured the striker's size for the rest of the clip and was named the striker)."""
    n, lab, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
    if n <= 1:
        return np.asarray(cv2.bitwise_not(fg), dtype=np.uint8)
    inside = np.bincount(lab[unverified > 0].ravel(), minlength=n)
    keep = inside * 2 >= stats[:, cv2.CC_STAT_AREA]
    keep[0] = True  # no change at all
    return (keep[lab] * 255).astype(np.uint8)


def _bare(work: U8, cloth: F32) -> U8:
    """0/255: pixels that look like the bare cloth estimate (brightness within 15 %, no tint)."""
    now = work.astype(np.float32)
    k = (now.sum(axis=2) + 3.0) / (cloth.sum(axis=2) + 3.0)
    tint = np.abs(now - cloth * k[..., None]).sum(axis=2) / (now.sum(axis=2) + 30.0)
    return ((np.abs(k - 1.0) < 0.15) & (tint < 0.1)).astype(np.uint8) * 255


def _merged(xy: F64, circles: list[Circle], match: dict[int, int], memos: list[_Memo]) -> set[int]:
    """Objects found where their disc overlaps another remembered object that was seen a frame
    ago and found nothing now. Two solid objects cannot overlap, so the other is inside the same
    piece: a hitter touching the piece it hits is found as one piece whose centre lies between
    them, and a velocity measured to that centre points halfway to the hit piece's path (the next
    frame's nearest-memory pairing then gives each the other's name)."""
    taken = set(match.values())
    idle = [m for j, m in enumerate(memos) if j not in taken and m.age == 0]
    out: set[int] = set()
    for i, j in match.items():
        r = circles[i].r * circles[i].size
        if any(math.hypot(xy[i, 0] - o.x, xy[i, 1] - o.y) < r + o.r for o in idle if o is not memos[j]):
            out.add(i)
    return out


def _exchange(match: dict[int, int], cost: dict[tuple[int, int], float], kept: set[int] | None = None) -> dict[int, int]:
    """Greedy pairs improved by exchanges: two objects trade memories when that costs less in all.

    Nearest-first pairing fails where a piece is struck: the struck piece, resting, is nearer to
    the hitter's next place than to its own, while the hitter (lost a frame in their contact) is
    predicted a little farther off. Taking the pairs that are cheapest together keeps each name
    on its own path. ``cost`` holds only pairs within the gate; an exchange must stay within it.
    The sightings in ``kept`` keep their memories (see ``VideoParams.on_course``).
    """
    kept = kept or set()
    out = dict(match)
    for _ in range(3):
        changed = False
        items = sorted(out.items())
        for a in range(len(items)):
            for b in range(a + 1, len(items)):
                (i, j), (k, m) = items[a], items[b]
                if out.get(i) != j or out.get(k) != m or (i, m) not in cost or (k, j) not in cost \
                        or i in kept or k in kept:
                    continue
                if cost[(i, m)] + cost[(k, j)] < cost[(i, j)] + cost[(k, m)] - 1e-9:
                    out[i], out[k] = m, j
                    items[a], items[b] = (i, m), (k, j)
                    changed = True
        if not changed:
            break
    return out


def _unlike(a: F64, b: F64) -> F64:
    """1 - cosine similarity of every row of ``a`` with every row of ``b`` (0.5 when one is empty)."""
    na = np.linalg.norm(a, axis=1)[:, None]
    nb = np.linalg.norm(b, axis=1)[None, :]
    return np.asarray(np.where((na > 1e-6) & (nb > 1e-6), 1.0 - (a @ b.T) / np.maximum(na * nb, 1e-12), 0.5))


def _colours_only(scores: F64) -> F64:
    """Carrom scores as colours only: [light (white man or striker), black, queen]."""
    return np.stack([scores[:, 0] + scores[:, 3], scores[:, 1], scores[:, 2]], axis=1)


def _striker_sized(sc: F64) -> bool:
    """Does this frame's reading of a light carrom piece say the striker by its size alone
    (``STRIKER_SURE``)? Motion blur shrinks the striker's faint rim to a man's size, but seldom
    grows a man to the striker's: over 96 development clips, of the pieces moving faster than
    300 mm/s and read as one disc or a smear, 98 % of the striker's readings measured 1.2 men or
    more and 2 % of the white men's. Such a reading counts with its size; the memory's split
    (``_size_from_memory``) had followed the man the striker hit, and the striker, read as that
    man for the rest of its run, took his name into the pocket."""
    light = float(sc[0] + sc[3])
    return light > 1e-6 and float(sc[3]) >= STRIKER_SURE * light


def _size_from_memory(sc: F64, memory: F64) -> F64:
    """Carrom scores ``[white, black, queen, striker]`` of a moving piece: its light share
    (a white man or the striker) split as its memory splits it, since only size tells those two
    apart and motion blur changes the size a frame shows (``VideoParams.size_still``)."""
    light, known = float(sc[0] + sc[3]), float(memory[0] + memory[3])
    if known <= 1e-6:
        return sc
    out = sc.copy()
    out[0], out[3] = light * float(memory[0]) / known, light * float(memory[3]) / known
    return out


def _cloth_hues(under: F64) -> list[float]:
    """OpenCV hue of the bare cloth (BGR rows), -1 where it is too grey to have one."""
    hsv = cv2.cvtColor(np.clip(under, 0, 255).astype(np.uint8).reshape(-1, 1, 3), cv2.COLOR_BGR2HSV).reshape(-1, 3)
    return [float(h) if sat >= 40 else -1.0 for h, sat, _ in hsv]


def _view_kind(c: BallColour) -> int:
    """+1 for a view that can only be a stripe (white caps spread around beside a clear colour, or
    a white cap ringed all round by its band), -1 for one that can only be a solid (colour all
    over, hardly any white), else 0."""
    if 0.25 <= c.white <= 0.85 and c.sat >= 0.1 and c.white_spread >= 0.18 and c.hue >= 0:
        return 1
    if c.white >= CAP_WHITE and c.rim_cover >= 0.75 and c.rim_hue >= 0:
        return 1
    if c.white < 0.1 and c.sat >= 0.6 and c.hue >= 0:
        return -1
    return 0


def _clear(sc: F64) -> bool:
    """Does one view's reading name one object clearly: at least 0.5, a quarter above any other?"""
    if len(sc) < 2:
        return bool(sc.max() >= 0.5)
    top = np.partition(sc, -2)[-2:]
    return bool(top[1] >= 0.5 and top[1] - top[0] >= 0.25)


def _clear_solid(sc: F64) -> bool:
    """Does one view's reading name a solid (1-7) clearly (its stripe twin included)?"""
    return 1 <= int(np.argmax(sc)) <= 7 and _clear(sc)


def _lean(sc: F64, stripes: int, solids: int, solid_after: int) -> F64:
    """Pool scores leaning to the stripe or solid numbers an object's history shows."""
    out = sc.copy()
    if stripes >= 2:
        for n in range(1, 8):
            out[n + 8] = max(out[n + 8], out[n])
            out[n] *= 0.2
        out[0] *= 0.3
    elif solids >= solid_after and stripes == 0:
        for n in range(1, 8):
            out[n] = max(out[n], out[n + 8])
            out[n + 8] *= 0.2
    return out


def _continues(st: Circle, m: _Memo, reach: float, unclaimed: list[Circle]) -> bool:
    """Is the smear ``st`` the lost ``m`` (within ``reach``), no object of its own nearer to it
    (any, within reach, of a piece of its own while the smear is cut out of an arm or a cue)?"""
    d = math.hypot(st.x - m.x, st.y - m.y)
    return d < reach and not any(
        math.hypot(c.x - m.x, c.y - m.y) < (reach if st.joined and c.kind in ("single", "blur") else d)
        for c in unclaimed)


def _score(c: Circle, conf: float) -> float:
    return float(min(1.0, max(0.01, c.score * (0.55 + 0.45 * min(1.0, conf)))))

