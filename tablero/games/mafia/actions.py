"""Mafia Legend actions: a kind word and string arguments, interned; and their integer spaces.

Wire texts (§18.1, split into single decisions where the spec's actions carry lists):
``family moretti``, ``disc protect``, ``to_hand G2`` / ``to_screen G3`` (one money card per
decision, before the first card play), ``play A04 hand atk:2`` (face down),
``play A01 hand atk:2 up now``, ``play G3 screen k1``, ``play D02 hand atk:0`` (a defence card
onto the attack in one's own attack field), ``end_plays``, ``job_attempt`` / ``job_skip``,
``ability spitzel``, ``spitzel_column k2``, ``spitzel_take k2 G3 screen``, ``spitzel_done``,
``guardian yes``, ``defend D02`` / ``no_defence``, ``raid k1``, ``hit P4``, ``hand_over W3``,
``job_roll`` / ``job_abandon``, ``reroll 0,2`` / ``no_reroll``, ``family_ties yes``,
``choose_event EV01``, ``a_draw yes``, ``discard A04 hand`` (hand limit, public),
``set_aside A04 hand`` (a secret discard of a simultaneous step: magnifier, EV08), ``politik 1``.
Chance: ``start 2``, ``draw G2``, ``roll 7``.

What another seat sees of a secret action is the same kind with the hidden arguments left out
(``play hand atk:2``, ``to_hand``, ``spitzel_take k2 hand``, ``set_aside``, ``draw``): see
``moves.redact_action``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any, Final

from tablero.core.codec import TableCodec
from tablero.core.errors import ActionParseError
from tablero.games.mafia import data

KINDS: Final = frozenset({
    "start", "draw", "roll", "family", "disc", "to_hand", "to_screen", "play", "end_plays",
    "job_attempt", "job_skip", "ability", "spitzel_column", "spitzel_take", "spitzel_done",
    "guardian", "defend", "no_defence", "raid", "hit", "hand_over", "job_roll", "job_abandon",
    "reroll", "no_reroll", "family_ties", "choose_event", "a_draw", "discard", "set_aside", "politik",
})

MONEY_MOVES: Final = frozenset({"to_hand", "to_screen"})
"""The kinds that move one money card between screen and hand (§7.2): the same decision comes
again after them."""

FIELD_NAMES: Final = ("job", "k1", "k2", "k3", "k4")
"""The wire names of a seat's job field and character fields K1-K4 (field index 0-4)."""
JOB_FIELD: Final = 0
"""The field index of the job field (K1-K4 are 1-4)."""
DISC_CHOICES: Final = ("none", "ashtray_money", "ashtray_actions", "protect")
ABILITIES: Final = ("geldwaesche", "spitzel", "grossoffensive")
SPITZEL_COLUMNS: Final = ("atk", *FIELD_NAMES)

_ARG_NAMES: Final[dict[tuple[str, int], tuple[str, ...]]] = {
    ("start", 1): ("seat",), ("draw", 1): ("card",), ("roll", 1): ("value",),
    ("family", 1): ("family",), ("disc", 1): ("where",), ("to_hand", 1): ("card",),
    ("to_screen", 1): ("card",), ("play", 3): ("card", "source", "field"),
    ("play", 5): ("card", "source", "field", "face", "timing"), ("play", 2): ("source", "field"),
    ("ability", 1): ("ability",), ("spitzel_column", 1): ("column",),
    ("spitzel_take", 3): ("field", "card", "to"), ("spitzel_take", 2): ("field", "to"),
    ("guardian", 1): ("answer",), ("family_ties", 1): ("answer",), ("a_draw", 1): ("answer",),
    ("defend", 1): ("card",), ("raid", 1): ("field",), ("hit", 1): ("card",),
    ("hand_over", 1): ("card",), ("reroll", 1): ("dice",), ("choose_event", 1): ("card",),
    ("discard", 2): ("card", "source"), ("set_aside", 2): ("card", "source"),
    ("politik", 1): ("position",),
}
"""Argument names per (kind, number of arguments); the short forms are what other seats see."""
_INT_ARGS: Final = frozenset({"seat", "value", "position"})


@dataclass(frozen=True, slots=True)
class MLAction:
    kind: str
    args: tuple[str, ...] = ()

    def to_text(self) -> str:
        return " ".join((self.kind, *self.args))

    def to_json(self) -> dict[str, Any]:
        """``{"kind": …, <argument>: …}``; a face-up play has ``face_up`` and ``timing``."""
        out: dict[str, Any] = {"kind": self.kind}
        names = _ARG_NAMES.get((self.kind, len(self.args)), tuple(f"arg{i}" for i in range(len(self.args))))
        for name, value in zip(names, self.args, strict=True):
            if name == "face":
                out["face_up"] = value == "up"
            elif name == "dice":
                out[name] = [int(i) for i in value.split(",")]
            elif name in _INT_ARGS and value.isdigit():
                out[name] = int(value)
            else:
                out[name] = value
        if self.kind == "play" and "field" in out:
            out.setdefault("face_up", False)
        return out


_CARD_ID: Final = re.compile(r"(?i)[ADT]\d\d|G\d|EV\d\d|[PSWRB]\d|J\d\d|M\d\d")

_CACHE: dict[tuple[str, tuple[str, ...]], MLAction] = {}


_FAST: dict[tuple[str, tuple[str | int, ...]], MLAction] = {}


def act(kind: str, *args: str | int) -> MLAction:
    """The interned action (int arguments are written as text)."""
    found = _FAST.get((kind, args))
    if found is None:
        text_args = tuple(str(a) for a in args)
        found = _CACHE.get((kind, text_args))
        if found is None:
            found = _CACHE[(kind, text_args)] = MLAction(kind, text_args)
        _FAST[(kind, args)] = found
    return found


def parse(text: str) -> MLAction:
    parts = text.strip().split()
    if not parts:
        raise ActionParseError("empty action text")
    kind = parts[0].lower()
    if kind not in KINDS:
        raise ActionParseError(f"cannot read {text!r}: unknown action {parts[0]!r}")
    args = []
    for p in parts[1:]:
        if len(p) > 20 or not all(ch.isalnum() or ch in ":,_" for ch in p):
            raise ActionParseError(f"cannot read {text!r}: bad token {p!r}")
        args.append(p.upper() if _CARD_ID.fullmatch(p) else p.lower())
    return act(kind, *args)


# ---------------------------------------------------------------------------- integer spaces
def reroll_subsets(dice: int) -> list[tuple[int, ...]]:
    """The non-empty subsets of ``range(dice)``, by size, then in lexical order."""
    return [c for k in range(1, dice + 1) for c in combinations(range(dice), k)]


def reroll_text(subset: tuple[int, ...]) -> str:
    return ",".join(str(i) for i in subset)


@cache
def seat_actions(players: int) -> TableCodec[MLAction]:
    """Every seat action of a game with ``players`` seats, in the order legal actions are listed.

    The space is the same for every option (beginner games use part of it). Nothing in it is
    unbounded: every list of the spec is split into single-card decisions; ``politik`` names a
    position 1…players; ``reroll`` names a non-empty subset of the dice of one job roll, and a
    roll has at most ``data.MAX_DICE`` (6) dice — the dice of a job attempt are capped at
    ``MAX_DICE`` (App. D, §9.2) and Gezinkte Würfel rerolls some of them, never adds any — so
    there are 63 subsets. Sizes: 3 players 724 actions, 4 players 763.
    """
    n = players
    out: list[MLAction] = [act("family", f) for f in data.FAMILIES]
    out += [act("disc", w) for w in DISC_CHOICES]
    for card in data.ACTION_CARDS:
        c = card.id
        if card.kind == "attack":
            for q in range(n):
                out.append(act("play", c, "hand", f"atk:{q}"))
                if card.eye:
                    out += [act("play", c, "hand", f"atk:{q}", "up", "now"),
                            act("play", c, "hand", f"atk:{q}", "up", "me")]
        elif card.kind == "defence":
            out += [act("play", c, "hand", f"atk:{q}") for q in range(n)]
        if card.kind != "defence":
            out += [act("play", c, "hand", f) for f in FIELD_NAMES]
    for source in ("hand", "screen"):
        for g in sorted(data.MONEY):
            out += [act("play", g, source, f) for f in FIELD_NAMES[1:]]
    out += [act("end_plays"), act("job_attempt"), act("job_skip")]
    out += [act("to_hand", g) for g in sorted(data.MONEY)]
    out += [act("to_screen", g) for g in sorted(data.MONEY)]
    out += [act("ability", a) for a in ABILITIES]
    out += [act("spitzel_column", c) for c in SPITZEL_COLUMNS]
    for q in range(n):
        out += [act("spitzel_take", f"atk:{q}", card.id, "hand") for card in data.ACTION_CARDS
                if card.kind == "attack"]
    for f in FIELD_NAMES:
        for c in sorted({*data.ACTIONS, *data.MONEY}):
            if c in data.MONEY:
                if f != "job":
                    out += [act("spitzel_take", f, c, "hand"), act("spitzel_take", f, c, "screen")]
            elif data.ACTIONS[c].kind != "defence":
                out.append(act("spitzel_take", f, c, "hand"))
    out.append(act("spitzel_done"))
    out += [act("guardian", "yes"), act("guardian", "no")]
    out += [act("defend", card.id) for card in data.ACTION_CARDS if card.kind == "defence"]
    out.append(act("no_defence"))
    out += [act("raid", f) for f in FIELD_NAMES]
    chars = sorted(data.CHARS)
    out += [act("hit", c) for c in chars]
    out += [act("hand_over", c) for c in chars]
    out += [act("job_roll"), act("job_abandon")]
    out += [act("reroll", reroll_text(sub)) for sub in reroll_subsets(data.MAX_DICE)]
    out.append(act("no_reroll"))
    out += [act("family_ties", "yes"), act("family_ties", "no")]
    out += [act("choose_event", e) for e in sorted(data.EVENTS)]
    out += [act("a_draw", "yes"), act("a_draw", "no")]
    out += [act("discard", card.id, "hand") for card in data.ACTION_CARDS]
    out += [act("set_aside", c, "hand") for c in sorted({*data.ACTIONS, *data.MONEY})]
    out += [act("set_aside", g, "screen") for g in sorted(data.MONEY)]
    out += [act("politik", i + 1) for i in range(n)]
    return TableCodec(out)


@cache
def chance_actions(players: int) -> TableCodec[MLAction]:
    """Every chance outcome: ``start`` a seat, ``roll`` 1-8, ``draw`` any card id of any deck.

    Draw outcomes are numbered in card-id order, the order ``chance_outcomes`` lists them.
    Sizes: 3 players 133 outcomes, 4 players 134.
    """
    ids = sorted({*data.ACTIONS, *data.MONEY, *data.CHARS, *data.JOBS_BY_ID, *data.EVENTS, *data.MISSIONS})
    return TableCodec([*(act("start", q) for q in range(players)),
                       *(act("roll", v) for v in range(1, data.DIE_SIDES + 1)),
                       *(act("draw", c) for c in ids)])
