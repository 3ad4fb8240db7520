"""The event extractor's thresholds (see :class:`ExtractorParams`), apart so that the extractor and
its cushion geometry (:mod:`tableref.vision.extract_cushions`) share them without a cycle."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ExtractorParams:
    """Thresholds of the event extractor and what each one trades.

    * ``start_speed``: speed (mm/s) a resting ball must reach to start a shot. Lower catches the
      softest touches; higher ignores tracking jitter and a ball nudged by hand.
    * ``still_mm`` and ``rest_s``: an object is still once it has stayed within ``still_mm`` of
      where it stopped; when everything has been still for ``rest_s`` the shot is over, dated to
      when the last object stopped, and never sooner than ``rest_s`` after the shot started.
      Displacement, not speed, decides: speed from noisy positions never reaches zero. A longer
      window avoids closing a shot while a slow ball still creeps (and the referee judging
      early); a shorter one reports the end sooner. ``rest_speed`` is the speed below which a
      ball counts as not moving for contacts and cushions.
    * ``hand_still_s``: once every object has stayed still, and below ``rest_speed``, for this
      long, nothing of the shot can set one moving again: an object that then moves off at
      ``start_speed`` (seen lying there meanwhile) was taken up by a hand, or its track took the
      hand's reading, and the shot ended when the table went still. A carrom player picks the
      striker up as soon as it stops, well within ``rest_s`` (queen returned, seed 2801: the
      carry was read as the shot's last roll, with a contact against a man it passed, and the
      rest 50 frames late). Longer leaves more of a quick hand's work in the shot; shorter ends
      a shot on a slow ball whose place hovers (back off a cushion over where it turned).
      0.15 s, not 0.2: the hand's approach stirs a reading or two a few frames before it takes
      anything (queen returned, seeds 1702 and 2002: the queen put back was read as contacts of
      the shot before). Until the table is still again for as long, with no carried object out
      of sight, the hand is taken to be at work: the object it took starts no shot until it
      lies still again; a start must be seen leaving its rest (no striker flicked unseen under
      the finger: seed 2902, the striker's track took the hand's readings 300 mm away); and any
      start waits for the next sighting (up to ``carry_wait`` frames while the mover is unseen)
      and stands only if the mover ran straight on from its rest (within ``hidden_line_r`` of
      its radius) and went less than ``carry_gain`` times as far a frame as on the frame it
      started: a struck object is fastest at once, a carried one gathers speed (seed 2801: 7, 7,
      then 19 mm a frame). A lower ``carry_gain`` rejects more carries and risks a strike whose
      first frame showed only its start. ``carry_wait`` also holds any start that waits for
      its next frame (in a cluster, or barely off its rest) while its mover is lost: it stands
      once the mover is seen farther from its rest, or, lost from a bare place, at once if it
      was seen leaving its rest (a smear too faint to see) and otherwise once still lost after
      that many frames. Up and down seed 3602: a cue ball read 12 mm off its rest on the
      strike's frame, then lost under the cue's follow-through, was given up as no start, and
      the whole shot was missed; colors seed 1602: a rack ball's track took a reading 190 mm
      off after a lost frame, lost it on a bare place and read it there again, not moving.
      Waiting longer judges more lost movers and holds a shot's first events back longer.
    * ``lost_hit_s``: the struck object lost in its smear since it left its rest, last seen no
      longer ago than this, hit the first object across its line (from its rest through that
      sighting) when that object or one of its pack (gaps of ``crowd_gap_mm``) is found off its
      rest by more than its radius with no seen mover to have hit it. The line is only as good
      as the one sighting: longer lets the striker's guessed line reach farther from where it
      went; shorter gives up on the hit sooner (a carrom break: the striker read once, 27 mm up
      from its rest, then lost for two frames while the pack flew apart, seed 2702). A hit
      seen late, within as long, is the same hit. One never seen since it left its rest, when
      what it set moving is found within ``cue_lost_s``, hit first the object of that pack
      facing its rest (the nearest to it; carroms break, seed 3701).
    * ``knocked_gone``: an object knocked off its rest this shot and unseen since, for more than
      this many frames, is no party to a contact at the place it was knocked from (it left it):
      a ball rolling over that place later touches nothing (bar billiards seed 3901). Nor is one
      lost rolling away faster than ``knock_off_speed_mm_s`` that long ago: its place is the
      tracker's guess (bar billiards seed 4601: the white, read once on its way off the table,
      was "hit" where its track was held at the cushion). Fewer
      drops contacts of a pack hit in a chain, a piece lost in its smear touching the next one
      right beside its place (carrom development breaks: 3 contacts at 0 frames); more lets
      a late pass over the place count as a hit again.
    * ``struck_still_s``: how long an object must have been on the table without moving fast
      before its moving off can start a shot. A piece
      carried in by a hand (the carrom striker set on its baseline, a ball put in the D) moves
      fast while it is seen in the hand; no one strikes an object within a fraction of a second
      of letting go of it. Longer ignores slower placing; shorter allows quicker strikes after a
      placement. ``hidden_strike_s``: how long before the strike the carrom striker may have
      been out of sight (the flicking finger hides it as it is aimed); one seen last longer ago
      and found elsewhere was moved by a hand, not struck. ``cue_lost_s``: how long the pool cue
      ball may have been lost when the first ball it set moving is seen, and still be the struck
      ball (a cue strikes only the cue ball; a break's crosses 1.4 m of table in its smear in
      0.2 s, colors seed 3601), whether it is seen again on that frame or not; longer, a hand
      has it. Any other object is in view at the
      strike (a cue meets a ball from the side) and may then be lost in its own smear for
      ``smear_strike_s`` at most; one that reappears elsewhere after an arm or hand hid it for
      longer was moved by that hand, or is not a ball (a white cue tip drawn back and pushed
      forward), unless it rolls straight away from where it lay (``hidden_run``). Longer keeps
      harder shots whose smear is lost longer; shorter rejects more hands.
      ``struck_seen``: the share of the frames of ``struck_still_s`` before the strike on which
      such an object must have been seen: a ball lies in plain view before it is struck, while
      something seen now and then (a cue tip, a knuckle) is not a ball at rest.
    * ``hidden_run`` and ``hidden_line_r``: a ball hidden at rest for longer than ``smear_strike_s``
      (an arm over it, the player bent over the shot) and seen again rolling was struck while
      hidden when ``hidden_run`` sightings in a row take it straight away from its rest, fast
      enough for ``start_speed``, on a line that runs back through the rest within
      ``hidden_line_r`` of its radius (:func:`~tableref.vision.extract_strike.hidden_strike`); the
      shot starts then, dated back along that line with the speed and slowing the sightings show
      (taken as at most ``slide_mm_s2``, about a fifth of gravity: cloth's sliding friction; a
      measured slowing beyond it is noise). A hand sets a ball down at rest, and a ball
      carried reappears where the hand lets go, not on a line from where it lay. More sightings
      (or a narrower line) admit fewer hand rolls and cue tips; the shot's events before the
      last of them are lost (contacts and cushions while it was hidden are lost anyway).
    * ``lost_strike_mm``: a ball lost from its rest on the frame another ball, no farther than
      this from it, starts moving away from it was struck and hit that ball within the frame (see
      :mod:`~tableref.vision.extract_strike`). Longer credits harder shots across more of the
      table; shorter keeps a ball hidden by a hand at that moment from taking the shot.
      ``bare_strike_s`` and ``fastest_mm_s``: a ball lost from its rest while its place was seen
      bare (``Track.lost_bare``: no arm or cue over it) up to this long before others start moving
      away from it was struck: a break struck at 10 m/s is a smear too faint to see for frames.
      It may lie as far from a mover as ``lost_strike_mm`` plus ``fastest_mm_s`` (about the
      hardest break) times the time it has been unseen. Longer credits more lost strikes; shorter
      keeps a ball the detector merely missed for a while from taking a shot it did not play.
    * ``crowd_gap_mm``: a mover that rested within this gap of another object (a ball in a rack
      or a cluster) starts a shot only once the next frame confirms it: it is then farther
      from its rest, by more than ``still_mm``, than it was on the frame it seemed to start (the
      shot and that frame's events are then reported one frame late, with their own times).
      The detector reads the circles of touching balls from their shared outline, and a small
      change in that outline (the background learning, a shadow) shifts several of them at
      once by a fraction of a radius: a re-reading that jumps once and stays, where a struck
      ball keeps going. Larger defers more starts by a frame; smaller lets more re-readings of
      a cluster start false shots (and the true one that follows is then missed).
      ``jitter_r``: a lone mover no farther than this many of its radii from its rest waits for the
      same confirmation. A ball at rest whose outline is read two ways (its shaded side merged
      with the cloth on one frame, not on the next: a violet ball on a grey cloth) seems to jump
      by a third of its radius and back, fast enough for ``start_speed``; a cue lying across a
      ball while the player aims shifts its circle by three quarters of a radius for as long as
      it lies there. A struck ball keeps going. A ball struck so softly that it moves less than
      this in its first frame (about 850 mm/s for a pool ball at 30 frames a second, or struck
      late in the frame) is reported a frame late, with its own time. Larger defers more starts;
      smaller lets more re-readings start false shots.
    * ``warmup_s``: objects already on the table when the video starts are not ``placed``; what
      appears after this long was put there by hand.
    * ``contact_tol_mm``: how close two extrapolated paths must pass to count as touching, beyond
      the sum of radii; covers detection noise. Larger finds glancing kisses, smaller avoids
      near-misses counted as contacts.
    * ``turn_deg`` and ``speed_change``: how much a velocity must turn, or its speed change
      (fraction), for a collision to be believed. Guards against noise on straight rolls.
    * ``vanish_speed``: a resting object lost on the very frame a moving one's path sweeps over
      its place was hit (lost at once in its smear, or knocked off the board) when the mover goes
      at least this fast (mm/s): such a hit sends it off faster than the detector can follow.
      Slower, the loss is more likely a hand reaching over it, read as a moving "ball" beside it.
    * ``separation_mm``: hysteresis: a pair (or ball and cushion) must separate this far beyond
      touching before a new contact between them is reported.
    * ``cushion_tol_mm``: how close to a cushion's nose a ball's path must come to count, and
      ``cushion_tol_step`` more for each millimetre the ball came in by over a frame, up to half
      of ``cushion_tol_mm`` more (see :func:`~tableref.vision.extract_cushions.tolerance`): a
      fast ball's reading strays further (the centre of its smear; a ball driven into a cushion
      rides up it and rises off the cloth, and seen from above its place is read towards the
      camera). Bar billiards seed 1602 (ball leaves the table): a white that came in 33 mm a
      frame, hit the top cushion and flew over it turned 11.6 mm beyond its radius, and its touch
      was found four frames late, where it crossed the nose in the air. A flat 13 mm found it
      too, but also took a slow ball's 3 mm jitter 12.8 mm from the nose for a bounce five frames
      before it got there (up and down seed 3501, weak break).
    * ``bounce_eps_mm``: how much nearer, then farther, a ball must get from a cushion line (over
      one frame, or three for a slow ball) for a bounce; above detection noise, below the step of
      the slowest ball that still reaches a cushion. ``bounce_gap_s``: two bounces of one ball off
      one cushion closer than this are one bounce (a ball cannot leave and come back that fast).
      ``unseen_bounce_frames``: the longest gap in a ball's sightings across which a bounce is
      inferred (a hard-driven ball lost in its smear until it comes off the cushion); longer
      gaps leave too many paths open and would report bounces that did not happen.
    * ``creep_gap_mm``, ``creep_approach_mm``, ``creep_frames``, ``still_noise_mm``,
      ``creep_speed_mm_s``: a ball rolling slowly into a cushion stops against it or comes back a
      millimetre, too little for ``bounce_eps_mm``. One that came steadily closer (no step back
      by more than ``still_noise_mm``) by ``creep_approach_mm`` within its last ``creep_frames``
      sightings, to within ``creep_gap_mm`` of touching, no faster than ``creep_speed_mm_s``
      across the cushion on its last step in, and then no closer, touched it (read even once the
      ball counts as still; a faster ball bounces off visibly, and one rolling along a cushion
      after a bounce is no new touch). A larger gap credits balls that stopped short of the cushion (and
      answers for a calibration that misplaces the nose); a smaller one needs positions better
      than the detector's (about half a millimetre on a bar-billiards table, two on a pool table).
    * ``knock_reach_mm``: how far along the line of centres from where it rested a hole may lie
      for an object knocked off its rest and never seen again to have gone into it (see
      :func:`~tableref.vision.extract_pots.knocked_into`). Longer credits pots from farther; shorter trusts the line
      less far (a glancing hit, the object deflected on its way).
    * ``knock_off_speed_mm_s``: an object knocked off its rest at least this fast (the hitter's
      speed) along a line that reaches the surface's edge within ``knock_reach_mm``, and never
      seen again, left the table (see :func:`~tableref.vision.extract_pots.knocked_off`). The
      tracker's own leaving speed: slower, it would have been seen rolling to the cushion.
    * ``moved_mm``: a resting object displaced more than this without a shot was moved by hand.
    * ``off_margin_mm``: how far beyond a cushion's nose a ball's centre must be to have left the
      playing surface (a ball pressed into a cushion never gets there).
    * ``pin_confirm_frames`` and ``pin_window_frames``: a pin must look fallen on this many
      frames within that many before ``pin_fall``, dated to the first of them. A ball rolling
      over or past a fallen pin hides and breaks up its look for a few frames, so the readings
      need not be consecutive; a pin never stands up by itself, so a standing reading in between
      does not undo the fall. A longer window confirms a fall through a longer occlusion; a
      shorter one is safer against a standing pin misread now and then (a ball beside it).
      Twelve frames (0.4 s): the ball that knocks a pin down often comes to rest against its
      place, and the part of the place it leaves in view can match the standing look for a few
      frames before the ball hides it (bar billiards seed 3402: fallen twice, then ten frames
      of standing and hidden readings; with eight, the fall was dated 11 frames late).
    * ``pin_slide_mm``: a standing pin read this much farther from one frame to the next is
      sliding, and a fall seen within ``pin_window_frames`` of the start of the slide is dated
      to it (see ``_pin_slide``). A still pin's reading keeps its place to the pixel; larger
      misses slow slides, smaller takes a pixel's jitter beside a passing ball for a slide.
    * ``pin_moved_mm``: a standing pin this far from where it stood after a shot has moved. The
      pin watcher finds a standing pin to the pixel, 2.2 to 4 mm on the cloth for a 1280-pixel
      view of the table: more than one pixel's step, so that a pixel of jitter is no move. With
      8, moves of 5 to 8 mm were missed (bar billiards 3801: read 5.4 mm); with 4 (under a
      pixel at the far end of a wide view), two more of the development seeds' nudges were found
      and no false move.
    * ``pin_seen_mm``: where the camera first sees a pin standing is its place, when that is
      within this distance of its spot: pins stand on their spots when play starts, and a
      calibration a couple of centimetres off (a venue's automatic one) must not make every pin
      "moved" at the first rest. Farther than this from its spot, the spot is the reference.
    """

    start_speed: float = 250.0
    rest_speed: float = 60.0
    still_mm: float = 4.0
    still_smoothing: float = 0.35
    moving_window_s: float = 0.12
    rest_s: float = 0.4
    hand_still_s: float = 0.15
    carry_gain: float = 1.5
    carry_wait: int = 4
    lost_hit_s: float = 0.1
    knocked_gone: int = 3
    struck_still_s: float = 0.25
    hidden_strike_s: float = 0.2
    cue_lost_s: float = 0.3
    smear_strike_s: float = 0.05
    struck_seen: float = 0.6
    hidden_run: int = 4
    hidden_line_r: float = 1.0
    slide_mm_s2: float = 2000.0
    crowd_gap_mm: float = 30.0
    jitter_r: float = 1.0
    warmup_s: float = 0.5
    lost_strike_mm: float = 600.0
    bare_strike_s: float = 0.2
    fastest_mm_s: float = 12000.0
    contact_tol_mm: float = 6.0
    turn_deg: float = 12.0
    speed_change: float = 0.15
    vanish_speed: float = 1500.0
    separation_mm: float = 8.0
    cushion_tol_mm: float = 10.0
    cushion_tol_step: float = 0.1
    creep_gap_mm: float = 2.0
    creep_approach_mm: float = 4.0
    creep_frames: int = 8
    creep_speed_mm_s: float = 150.0
    still_noise_mm: float = 0.6
    bounce_eps_mm: float = 2.5
    bounce_gap_s: float = 0.2
    unseen_bounce_frames: int = 5
    moved_mm: float = 25.0
    knock_reach_mm: float = 400.0
    knock_off_speed_mm_s: float = 600.0
    off_margin_mm: float = 5.0
    pin_confirm_frames: int = 3
    pin_window_frames: int = 12
    pin_slide_mm: float = 3.0
    pin_moved_mm: float = 5.0
    pin_seen_mm: float = 40.0
