"""Mafia Legend actions: a kind word and string arguments, interned.

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
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from tablero.core.errors import ActionParseError

KINDS: Final = frozenset({
    "start", "draw", "roll", "family", "disc", "to_hand", "to_screen", "play", "end_plays",
    "job_attempt", "job_skip", "ability", "spitzel_column", "spitzel_take", "spitzel_done",
    "guardian", "defend", "no_defence", "raid", "hit", "hand_over", "job_roll", "job_abandon",
    "reroll", "no_reroll", "family_ties", "choose_event", "a_draw", "discard", "set_aside", "politik",
})


@dataclass(frozen=True, slots=True)
class MLAction:
    kind: str
    args: tuple[str, ...] = ()

    def to_text(self) -> str:
        return " ".join((self.kind, *self.args))

    def arg(self, i: int) -> str:
        return self.args[i] if i < len(self.args) else ""


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
