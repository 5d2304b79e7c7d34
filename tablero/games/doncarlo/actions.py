"""Don Carlo actions: one player decision (PLAY a code) and two chance outcomes.

Actions are interned: ``PLAYS[i]`` is the one object for code ``i`` of ``data.ALL_CODES`` (the
codes of the usual family first, so ``data.CODES[i]`` too), so legality checks are identity checks
in the hot path. A table whose ``FAMILY_COUNTS`` are overridden forms another subset of them.
:class:`HiddenDraw` is no action of the game: it is what the other seats see of a private draw
(``Game.redact_action``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

from tablero.core.errors import ActionParseError
from tablero.games.doncarlo.data import ALL_CODES, code_text


@dataclass(frozen=True, slots=True, eq=False)
class Play:
    """``PLAY(code)``: send an agent; ``code`` indexes ``data.ALL_CODES``. Wire text ``1/1/4``.

    There is one object per code (``PLAYS``; copies and pickles come back as it), so equality
    is identity: the core's legality check, a membership test in the tuple of legal plays,
    compares no fields.
    """

    code: int

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return interned_play, (self.code,)

    def to_text(self) -> str:
        return CODE_TEXTS[self.code]

    def to_json(self) -> dict[str, Any]:
        return {"kind": "play", "code": CODE_TEXTS[self.code], "values": list(ALL_CODES[self.code])}


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the next card drawn from the current family deck has ``value``."""

    value: int

    def to_text(self) -> str:
        return f"draw {self.value}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "draw", "value": self.value}


@dataclass(frozen=True, slots=True)
class HiddenDraw:
    """What the other seats see of a private draw (initial hand, refill): a card, value unseen (§9)."""

    def to_text(self) -> str:
        return "draw"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "draw"}


@dataclass(frozen=True, slots=True)
class StartSeat:
    """Chance: the start seat when ``start_seat = random`` (§4)."""

    seat: int

    def to_text(self) -> str:
        return f"start {self.seat}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "start", "seat": self.seat}


DonCarloAction = Play | Draw | StartSeat

CODE_TEXTS: Final = tuple(code_text(c) for c in ALL_CODES)
CODE_BY_TEXT: Final = {t: i for i, t in enumerate(CODE_TEXTS)}
PLAYS: Final = tuple(Play(i) for i in range(len(ALL_CODES)))
DRAWS: Final = tuple(Draw(v) for v in range(7))
STARTS: Final = tuple(StartSeat(s) for s in range(4))
HIDDEN_DRAW: Final = HiddenDraw()


def interned_play(code: int) -> Play:
    """The one ``Play`` object of ``code``."""
    return PLAYS[code]


def parse(text: str) -> DonCarloAction:
    """Read a wire text: a code (``1/1/4``, any order of values), ``draw V`` or ``start S``."""
    t = text.strip().lower()
    if t.startswith("draw "):
        v = t[5:].strip()
        if v.isdigit() and int(v) < len(DRAWS):
            return DRAWS[int(v)]
        raise ActionParseError(f"cannot read {text!r}: a drawn card has a value 0-6")
    if t.startswith("start "):
        s = t[6:].strip()
        if s.isdigit() and int(s) < len(STARTS):
            return STARTS[int(s)]
        raise ActionParseError(f"cannot read {text!r}: the start seat is 0-3")
    parts = re.split(r"\s*[/,]\s*|\s+", t)
    if not t or not all(p.isdigit() for p in parts):
        raise ActionParseError(
            f"cannot read {text!r} as a code name: write card values joined by '/', like 1/1/4"
        )
    key = "/".join(str(v) for v in sorted(int(p) for p in parts))
    if key not in CODE_BY_TEXT:
        raise ActionParseError(
            f"{text!r} is no code name: a code has 1 to 4 cards with values 0-6"
        )
    return PLAYS[CODE_BY_TEXT[key]]
