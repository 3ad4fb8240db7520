"""Reading cards: the trained models applied to found cards and to corner-index proposals.

:class:`CardReader` owns the two classifiers (``models/cards/card_cnn.onnx``, a small CNN, reads a
whole card from its rectified image, with the older perceptron ``card.npz`` over hand-made features
used where no CNN is shipped; ``models/cards/index_cnn.onnx``, a small CNN, reads
a single corner index, with the older perceptron ``index.npz`` used where no CNN is shipped) and
turns their outputs into :class:`CardObservation` records, the per-frame unit the
detector hands to the trick builder. An observation keeps the full probabilities, not only the
best label, so the tracker can add up evidence over many frames and keep a card that has already
been played from being read again elsewhere.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from tableref.errors import UserError
from tableref.vision.cards_cnn import CARD_CNN_CROP, OnnxHeads, crop_index, preprocess
from tableref.vision.cards_court_suit import CourtSuitReader, asked, with_court_suits
from tableref.vision.cards_features import card_descriptor, index_features_many, rectify
from tableref.vision.cards_index import Cropper, IndexProposal, find_glyphs, propose
from tableref.vision.cards_model import MLP
from tableref.vision.cards_proposer import IndexProposer, proposals_from_boxes

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

#: Ranks as the card models name them (the ace is written ``A``, ten ``10``).
RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
#: The 52 card labels, rank then suit, in a fixed order: index ``r * 4 + s``.
LABELS: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
BACK = "back"
NONE = "none"
#: The card model's heads: rank (plus a card back, plus "not a card": a hand, a sleeve), suit.
CARD_HEADS: tuple[tuple[str, ...], ...] = ((*RANKS, BACK, NONE), SUITS)
#: The index model's heads: rank (plus "not an index"), suit.
INDEX_HEADS: tuple[tuple[str, ...], ...] = ((*RANKS, NONE), SUITS)

DEFAULT_MODEL_DIR = Path(__file__).resolve().parents[1] / "models" / "cards"


def label_logp(rank_p: F32, suit_p: F32) -> F32:
    """Log-probabilities of the 52 labels (in :data:`LABELS` order) from a rank and a suit distribution.

    The ranks are renormalised: these are the odds of each card *given* that a card face is seen
    (whether it is one at all is the rank head's ``back`` and ``none``, kept apart).
    """
    ranks = np.asarray(rank_p[: len(RANKS)], np.float64)
    r = np.log(ranks / max(float(ranks.sum()), 1e-9) + 1e-6)
    s = np.log(np.asarray(suit_p, np.float64) + 1e-6)
    return np.asarray((r[:, None] + s[None, :]).ravel(), np.float32)


@dataclass(frozen=True)
class CardObservation:
    """One card seen in one frame.

    ``corners_px`` are image pixels (clockwise, first side short); ``centre_mm``/``angle`` are table
    millimetres and degrees (of the long axis, modulo 180) when a calibration is known.
    ``logp`` holds the log-probability of each of the 52 :data:`LABELS` (given a face is seen);
    ``p_back`` the chance the card is face down, ``p_none`` the chance it is no card at all (a hand);
    ``face_fraction`` how much of the card face was seen (the rest hidden).
    ``source`` is ``card`` (a card outline read whole) or ``index`` (a corner index read alone).
    ``fresh`` is False when the card lay exactly as in the previous frame and its reading was
    carried over rather than repeated (it is then no new evidence).
    """

    corners_px: F64
    centre_px: tuple[float, float]
    logp: F32
    p_back: float
    face_fraction: float = 1.0
    p_none: float = 0.0
    centre_mm: tuple[float, float] | None = None
    angle: float | None = None
    corners_mm: F64 | None = None
    source: str = "card"
    index_boxes: tuple[tuple[float, float, float, float], ...] = field(default_factory=tuple)
    fresh: bool = True  # False: the reading was carried over from an identical view in an earlier frame

    @property
    def face_up(self) -> bool:
        return self.p_back < 0.5

    @property
    def best(self) -> tuple[str, float]:
        """The most likely label and its probability."""
        k = int(np.argmax(self.logp))
        return LABELS[k], float(math.exp(float(self.logp[k])))

    @property
    def area_px(self) -> float:
        q = self.corners_px
        return 0.5 * abs(float(np.dot(q[:, 0], np.roll(q[:, 1], -1)) - np.dot(q[:, 1], np.roll(q[:, 0], -1))))


@dataclass(frozen=True)
class IndexHit:
    """A corner index read in the image: where, which way up, how big, and its reading."""

    proposal: IndexProposal
    logp: F32
    p_index: float
    #: The learned proposer's score for the box this reading lies in (0: in none, or no proposer).
    box_score: float = 0.0

    @property
    def best(self) -> tuple[str, float]:
        k = int(np.argmax(self.logp))
        return LABELS[k], float(math.exp(float(self.logp[k])))


class CardReader:
    """The trained card and index classifiers, loaded once (see the module docstring).

    Whole cards are read by the CNN ``card_cnn.onnx`` and corner indices by ``index_cnn.onnx`` when
    the model folder has them (see ``cards_cnn``), otherwise by the perceptrons ``card.npz`` and
    ``index.npz``. ``backend`` picks how the CNNs run (``auto``: onnxruntime when installed, else
    OpenCV DNN).
    """

    def __init__(self, model_dir: str | Path | None = None, *, backend: str = "auto",
                 learned_proposals: bool = True) -> None:
        self.model_dir = Path(model_dir) if model_dir is not None else DEFAULT_MODEL_DIR
        self.backend = backend
        self.learned_proposals = learned_proposals
        self._proposer: IndexProposer | None | bool = None
        cnn = self.model_dir / "card_cnn.onnx"
        self.card_model: MLP | OnnxHeads = (_load_cnn(cnn, CARD_HEADS, backend) if cnn.is_file()
                                            else _load(self.model_dir / "card.npz", CARD_HEADS))
        self._index_model: MLP | OnnxHeads | None = None
        self._court_suit: CourtSuitReader | None | bool = None

    @property
    def index_model(self) -> MLP | OnnxHeads:
        """The index classifier, loaded when first needed (calibrated overhead play never needs it)."""
        if self._index_model is None:
            cnn = self.model_dir / "index_cnn.onnx"
            if cnn.is_file():
                self._index_model = _load_cnn(cnn, INDEX_HEADS, self.backend)
            else:
                self._index_model = _load(self.model_dir / "index.npz", INDEX_HEADS)
        return self._index_model

    @property
    def court_suit(self) -> CourtSuitReader | None:
        """The spade-or-club reader of black court cards (``court_suit_cnn.onnx``), when shipped; loaded once."""
        if self._court_suit is None:
            path = self.model_dir / "court_suit_cnn.onnx"
            self._court_suit = CourtSuitReader(path, backend=self.backend) if path.is_file() else False
        return self._court_suit or None

    @property
    def proposer(self) -> IndexProposer | None:
        """The learned index proposer (``index_proposals.onnx``), when shipped and wanted; loaded once."""
        if self._proposer is None:
            path = self.model_dir / "index_proposals.onnx"
            self._proposer = (IndexProposer(path, backend=self.backend)
                              if self.learned_proposals and path.is_file() else False)
        return self._proposer or None

    def read_quads(self, image: U8, quads: Sequence[F64]) -> list[tuple[F32, float, float]]:
        """(52-label log-probabilities, chance of a back, chance of no card) for each quad (image pixels)."""
        if not quads:
            return []
        if isinstance(self.card_model, OnnxHeads):
            crops = np.stack([rectify(image, q, CARD_CNN_CROP) for q in quads])
            rank_p, suit_p = self.card_model.predict(preprocess(crops, CARD_CNN_CROP))
        else:
            rank_p, suit_p = self.card_model.predict(np.stack([card_descriptor(image, q) for q in quads]))
        if self.court_suit is not None:
            # a black court card's spade or club: the corner reader splits the black share
            picked = np.flatnonzero(asked(rank_p, suit_p, RANKS, SUITS))
            if picked.size:
                p_club = self.court_suit.p_club(image, [quads[int(k)] for k in picked])
                suit_p = with_court_suits(suit_p, picked, p_club, SUITS)
        return [(label_logp(r, s), float(r[-2]), float(r[-1])) for r, s in zip(rank_p, suit_p, strict=True)]

    def read_indices(self, image: U8, min_glyph: float = 7.0, min_p: float = 0.5,
                     max_proposals: int = 4000) -> list[IndexHit]:
        """Corner indices anywhere in ``image`` whose reading is at least ``min_p`` likely.

        Proposals come from the glyph search and, when shipped, from the learned proposer
        (``cards_proposer``); the vote keeps the surest reading of each print whichever proposed it.
        """
        proposals = propose(find_glyphs(image, min_size=min_glyph))[:max_proposals]
        where: list[int] | None = None
        scores: F32 | None = None
        if self.proposer is not None:
            boxes = self.proposer.boxes(image)
            proposals += proposals_from_boxes(image, boxes)
            where = box_of(proposals, boxes.boxes)
            scores = boxes.scores
        if not proposals:
            return []
        cropper = Cropper(image)
        model = self.index_model
        if isinstance(model, OnnxHeads):
            rank_p, suit_p = model.predict(preprocess(np.stack([crop_index(cropper, p) for p in proposals])))
            rank_p, suit_p = _second_looks(model, cropper, proposals, rank_p, suit_p)
        else:
            feats = index_features_many([cropper.crop(p) for p in proposals],
                                        [cropper.glyph(p, "top") for p in proposals],
                                        [cropper.glyph(p, "bottom") for p in proposals])
            rank_p, suit_p = model.predict(feats)
        return _vote(proposals, rank_p, suit_p, min_p, where, scores)


#: Proposals the CNN finds at least this likely to be an index are read again from shifted crops.
SECOND_LOOK_P = 0.3
#: The second looks: (scale, shift across the index in index widths). A misreading that holds
#: for one exact crop only (a 6 read as an 8 where an edge of the next card cuts in, a suit read
#: from a half-seen glyph) rarely holds for all five; a true reading does.
SECOND_LOOKS: tuple[tuple[float, float], ...] = ((0.9, 0.0), (1.1, 0.0), (1.0, 0.06), (1.0, -0.06))


def _second_looks(model: OnnxHeads, cropper: Cropper, proposals: Sequence[IndexProposal], rank_p: F32,
                  suit_p: F32) -> tuple[F32, F32]:
    """The CNN's probabilities averaged over :data:`SECOND_LOOKS` for the likely indices.

    Why: on the photos' validation groups (never trained on by the CNN) the average kept every
    card read right and halved the false cards (0.219 -> 0.123 a photo), for about 60 ms a photo;
    the confident misreadings of crops cut a little off their print do not survive the average.
    Only proposals the first look finds :data:`SECOND_LOOK_P` likely to be an index are looked at
    again, a few dozen of the thousands a photo gives.
    """
    picked = np.flatnonzero(1.0 - rank_p[:, -1] >= SECOND_LOOK_P)
    if picked.size == 0:
        return rank_p, suit_p
    rank_sum, suit_sum = rank_p[picked].copy(), suit_p[picked].copy()
    for scale, across in SECOND_LOOKS:
        views = []
        for k in picked:
            p = proposals[int(k)]
            rx, ry = -p.down[1], p.down[0]  # right of an upright index, in the image
            moved = IndexProposal(p.cx + rx * across * p.width, p.cy + ry * across * p.width, p.down,
                                  p.height * scale, p.width * scale, p.light)
            views.append(crop_index(cropper, moved))
        r, s = model.predict(preprocess(np.stack(views)))
        rank_sum += r
        suit_sum += s
    rank_p, suit_p = rank_p.copy(), suit_p.copy()
    rank_p[picked] = rank_sum / (len(SECOND_LOOKS) + 1)
    suit_p[picked] = suit_sum / (len(SECOND_LOOKS) + 1)
    return rank_p, suit_p


def box_of(proposals: Sequence[IndexProposal], boxes: F32) -> list[int]:
    """For each proposal, the learned proposer's box its centre lies in (the smallest), or -1."""
    if len(boxes) == 0:
        return [-1] * len(proposals)
    b = np.asarray(boxes, np.float64)
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    out = []
    for p in proposals:
        inside = np.flatnonzero((b[:, 0] <= p.cx) & (p.cx <= b[:, 2]) & (b[:, 1] <= p.cy) & (p.cy <= b[:, 3]))
        out.append(int(inside[np.argmin(area[inside])]) if inside.size else -1)
    return out


#: Two index readings whose centres are closer than this many index heights may be of one print.
SAME_PRINT = 0.45
#: Two readings that disagree are of one print only when also closer than this many index widths
#: across the index (beside it): in a dense fan the next card's index lies half a height away,
#: beside this one. On the photos' training side (491 photos, 994 cards) suppressing by distance
#: alone lost fan indices (925 read right, 0.098 false cards a photo); 0.5 wide: 929, 0.100
#: (0.45: 932, 0.112; 0.4: 933, 0.134); the validation groups read the same with 0.5 or 0.6.
ACROSS = 0.5


def _vote(proposals: Sequence[IndexProposal], rank_p: F32, suit_p: F32, min_p: float,
          where: Sequence[int] | None = None, box_scores: F32 | None = None) -> list[IndexHit]:
    """One reading per index: of overlapping proposals (a pair of glyphs, a single glyph, either way
    up, all looking at the same print) the most confident one speaks (:func:`_same_print`).

    ``where``: each proposal's box from the learned proposer (-1 for none). Two readings in two
    different boxes are two prints, however close: the network was taught the separate indices of
    dense fans, where the distance rule alone lets the surer neighbour silence an index.
    """
    p_index = 1.0 - rank_p[:, -1]
    hits = []
    for k, p in enumerate(proposals):
        logp = label_logp(rank_p[k], suit_p[k])
        if float(p_index[k]) * float(np.exp(logp.max())) >= min_p:
            box = where[k] if where is not None else -1
            score = float(box_scores[box]) if box >= 0 and box_scores is not None else 0.0
            hits.append((IndexHit(p, logp, float(p_index[k]), score), box))
    hits.sort(key=lambda hb: -hb[0].p_index * hb[0].best[1])
    kept: list[tuple[IndexHit, int]] = []
    for h, box in hits:
        q = h.proposal
        if any((box < 0 or kb < 0 or box == kb) and _same_print(q, k.proposal, k.best[0] == h.best[0])
               for k, kb in kept):
            continue
        kept.append((h, box))
    return [h for h, _ in kept]


def _same_print(a: IndexProposal, b: IndexProposal, agree: bool) -> bool:
    """Whether proposal ``a`` looks at the print that ``b`` (kept, surer) was read from.

    ``agree``: they read the same card. Near and agreeing is one print; near and disagreeing is
    one print only when ``a`` lies along ``b`` (half an index, the other way up), not beside it
    (the next index of a fan): see :data:`SAME_PRINT` and :data:`ACROSS`.
    """
    dx, dy = a.cx - b.cx, a.cy - b.cy
    h = max(a.height, b.height)
    if math.hypot(dx, dy) >= SAME_PRINT * h:
        return False
    if agree:
        return True
    across = abs(dx * -b.down[1] + dy * b.down[0])
    return across < ACROSS * max(a.width, b.width)


def _load_cnn(path: Path, heads: tuple[tuple[str, ...], ...], backend: str) -> OnnxHeads:
    model = OnnxHeads(path, backend=backend)
    if model.heads != heads:
        script = "train_cards_card_cnn.py" if heads == CARD_HEADS else "train_cards_cnn.py"
        raise UserError(f"the card CNN {str(path)!r} was trained for other classes; retrain it with scripts/{script}")
    return model


def _load(path: Path, heads: tuple[tuple[str, ...], ...]) -> MLP:
    model = MLP.load(path)
    if model.heads != heads:
        raise UserError(f"the card model {str(path)!r} was trained for other classes; retrain with scripts/train_cards.py")
    return model


