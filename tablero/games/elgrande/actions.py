"""El Grande actions: one frozen, interned dataclass with a kind and up to three int arguments.

Every decision of §14 and every chance outcome of §5.1 is one ``EGAction``. The wire text is
the kind followed by its arguments written as stable tokens (area ids, card ids, seats,
values): ``power 13``, ``place castilla_la_vieja``, ``move galicia 1 castillo``,
``take 2E``, ``disk sevilla``, ``reveal 3F``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from tablero.core.errors import ActionParseError
from tablero.games.elgrande.data import AREA_IDS, AREA_INDEX, CARD_INDEX, CARD_TYPES, NUM_REGIONS


class Kind(StrEnum):
    # chance
    DEAL = "deal"  # region card dealt (homes, then the King)
    START = "start"  # the start seat
    REVEAL = "reveal"  # a card turned up from a stack
    # decisions
    POWER = "power"
    INTAKE = "intake"
    INTAKE_FROM = "intake_from"
    STOP = "stop"
    TAKE = "take"
    ACTION_FIRST = "action_first"
    PLACE_FIRST = "place_first"
    PLACE = "place"
    END_PLACEMENT = "end_placement"
    DO_ACTION = "do_action"
    SKIP_ACTION = "skip_action"
    VETO = "veto"
    ALLOW = "allow"
    MODE_ALL_OUT = "mode_all_out"
    MODE_EXTRA = "mode_extra"
    SELECT = "select"  # a region (1A, 1I, 4C)
    SELECT_OPPONENT = "select_opponent"  # 2H: opponent seat, region
    MOVE = "move"  # source, colour, destination
    PLACE_EXTRA = "extra"
    SCORE = "score"  # 2E / 3H: an area
    PLACE_TILE = "tile"  # tile, region
    MOVE_TILE = "move_tile"  # tile, region
    KING_TO = "king"
    GRANDE = "grande"
    TAKE_BACK = "take_back"
    RETURN_FROM = "return"  # source: an area index, or -1 for the court
    DISK = "disk"


# Argument types per kind: a = area/region id, s = seat, v = number, c = card id, r = court-or-area
_ARGS: Final[dict[Kind, str]] = {
    Kind.DEAL: "a", Kind.START: "s", Kind.REVEAL: "c", Kind.POWER: "v", Kind.INTAKE: "v",
    Kind.INTAKE_FROM: "a", Kind.TAKE: "c", Kind.PLACE: "a", Kind.SELECT: "a",
    Kind.SELECT_OPPONENT: "sa", Kind.MOVE: "asa", Kind.PLACE_EXTRA: "a", Kind.SCORE: "a",
    Kind.PLACE_TILE: "va", Kind.MOVE_TILE: "va", Kind.KING_TO: "a", Kind.GRANDE: "a",
    Kind.TAKE_BACK: "v", Kind.RETURN_FROM: "r", Kind.DISK: "a",
}


@dataclass(frozen=True, slots=True)
class EGAction:
    kind: Kind
    a: int = -1
    b: int = -1
    c: int = -1

    def to_text(self) -> str:
        spec = _ARGS.get(self.kind, "")
        parts = [self.kind.value]
        for t, x in zip(spec, (self.a, self.b, self.c), strict=False):
            if t == "a":
                parts.append(AREA_IDS[x])
            elif t == "c":
                parts.append(CARD_TYPES[x].id)
            elif t == "r":
                parts.append("court" if x < 0 else AREA_IDS[x])
            else:
                parts.append(str(x))
        return " ".join(parts)


_CACHE: dict[tuple[Kind, int, int, int], EGAction] = {}


def act(kind: Kind, a: int = -1, b: int = -1, c: int = -1) -> EGAction:
    """The interned action (legality checks are then mostly identity checks)."""
    key = (kind, a, b, c)
    found = _CACHE.get(key)
    if found is None:
        found = _CACHE[key] = EGAction(kind, a, b, c)
    return found


def parse(text: str) -> EGAction:
    parts = text.strip().lower().split()
    if not parts:
        raise ActionParseError("empty action text")
    try:
        kind = Kind(parts[0])
    except ValueError:
        raise ActionParseError(
            f"cannot read {text!r}: unknown action {parts[0]!r}; actions are "
            + ", ".join(k.value for k in Kind)
        ) from None
    spec = _ARGS.get(kind, "")
    if len(parts) - 1 != len(spec):
        raise ActionParseError(f"cannot read {text!r}: {kind.value} takes {len(spec)} argument(s)")
    args: list[int] = []
    for t, token in zip(spec, parts[1:], strict=True):
        if t == "a":
            if token not in AREA_INDEX:
                raise ActionParseError(f"cannot read {text!r}: {token!r} is no region or the Castillo")
            args.append(AREA_INDEX[token])
        elif t == "r":
            if token == "court":
                args.append(-1)
            elif token in AREA_INDEX:
                args.append(AREA_INDEX[token])
            else:
                raise ActionParseError(f"cannot read {text!r}: {token!r} is neither 'court' nor a region")
        elif t == "c":
            card = token.upper()
            if card not in CARD_INDEX:
                raise ActionParseError(f"cannot read {text!r}: {token!r} is no action card id")
            args.append(CARD_INDEX[card])
        else:
            if not token.isdigit() or len(token) > 3:
                raise ActionParseError(f"cannot read {text!r}: {token!r} is not a number")
            args.append(int(token))
    return act(kind, *args)


REGION_RANGE: Final = range(NUM_REGIONS)
