"""El Grande actions: one frozen, interned dataclass with a kind and up to three int arguments.

Every decision of §14 and every chance outcome of §5.1 is one ``EGAction``. The wire text is
the kind followed by its arguments written as stable tokens (area ids, card ids, seats,
values): ``power 13``, ``place castilla_la_vieja``, ``move galicia 1 castillo``,
``take 2E``, ``disk sevilla``, ``reveal 3F``.

Also here: what the other seats see of an action (:func:`redact`, with :class:`Hidden` for a
secret disk or take-back) and the fixed action spaces (:func:`seat_codec`, :func:`chance_codec`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any, Final

from tablero.core.codec import TableCodec
from tablero.core.errors import ActionParseError
from tablero.core.messages import Message
from tablero.games.elgrande.data import (
    AREA_IDS,
    AREA_INDEX,
    CARD_INDEX,
    CARD_TYPES,
    NUM_AREAS,
    NUM_REGIONS,
    POWER_CABALLEROS,
    POWER_VALUES,
    TILES,
    Tables,
    card_amounts,
)


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

# Argument names in ``to_json`` per kind (the order of ``a``, ``b``, ``c``).
_NAMES: Final[dict[Kind, tuple[str, ...]]] = {
    Kind.DEAL: ("area",), Kind.START: ("seat",), Kind.REVEAL: ("card",), Kind.POWER: ("value",),
    Kind.INTAKE: ("count",), Kind.INTAKE_FROM: ("area",), Kind.TAKE: ("card",), Kind.PLACE: ("area",),
    Kind.SELECT: ("area",), Kind.SELECT_OPPONENT: ("owner", "area"), Kind.MOVE: ("from", "owner", "to"),
    Kind.PLACE_EXTRA: ("area",), Kind.SCORE: ("area",), Kind.PLACE_TILE: ("tile", "area"),
    Kind.MOVE_TILE: ("tile", "area"), Kind.KING_TO: ("area",), Kind.GRANDE: ("area",),
    Kind.TAKE_BACK: ("value",), Kind.RETURN_FROM: ("from",), Kind.DISK: ("area",),
}


@dataclass(frozen=True, slots=True)
class EGAction:
    kind: Kind
    a: int = -1
    b: int = -1
    c: int = -1

    def to_text(self) -> str:
        parts = [self.kind.value]
        parts.extend(str(x) for x in self._tokens())
        return " ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "move", "from": "galicia", "owner": 1, "to": "castillo"}``: areas and
        cards by their ids (``court`` for the court), seats and numbers as ints."""
        out: dict[str, Any] = {"kind": self.kind.value}
        out.update(zip(_NAMES.get(self.kind, ()), self._tokens(), strict=True))
        return out

    def _tokens(self) -> list[str | int]:
        out: list[str | int] = []
        for t, x in zip(_ARGS.get(self.kind, ""), (self.a, self.b, self.c), strict=False):
            if t == "a":
                out.append(AREA_IDS[x])
            elif t == "c":
                out.append(CARD_TYPES[x].id)
            elif t == "r":
                out.append("court" if x < 0 else AREA_IDS[x])
            else:
                out.append(x)
        return out


@dataclass(frozen=True, slots=True)
class Hidden:
    """What the other seats see of a secret action: its kind only (a bare ``disk``, ``take_back``)."""

    kind: Kind

    def to_text(self) -> str:
        return self.kind.value

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value}


SECRET_KINDS: Final = frozenset({Kind.DISK, Kind.TAKE_BACK})
"""Actions whose arguments only the actor sees: the secret disk (§8.5) and the value taken
back with 4E (§9.4)."""


def redact(player: int, action: EGAction, viewer: int | None) -> EGAction | Hidden:
    """What ``viewer`` sees of ``player`` taking ``action``: everything, except that a secret
    disk and a 4E take-back show to everyone but the actor as their bare kind.

    The one redaction of El Grande (``Game.redact_action``, the view's ``last``, ``describe``
    and the private log lines all follow it). It depends on the action alone, never on the
    position, so it holds for the state before and after the action alike.
    """
    if action.kind in SECRET_KINDS and viewer != player:
        return Hidden(action.kind)
    return action


def hidden_message(player: int, seen: Hidden) -> Message:
    """How a secret action of ``player`` reads for the others (``eg.disk.hidden``, …): its log
    line and its description."""
    return Message(f"eg.{seen.kind.value}.hidden", seat=player)


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


def card_message(c: int, tables: Tables) -> Message:
    """The name of card type ``c`` as the table plays it: ``eg.card.<id>``, or ``eg.card_n.<id>``
    with the table's number where a data override changes the number in the name (1A "up to 5")."""
    cid = CARD_TYPES[c].id
    n = card_amounts(tables).get(cid)
    return Message(f"eg.card.{cid}") if n is None else Message(f"eg.card_n.{cid}", n=n)


# ---------------------------------------------------------------------------- action spaces
_TAIL: Final = (Kind.STOP,)
"""Kinds numbered after all others: ``stop`` follows the moves, extra placements and intakes it
ends, as the legal actions list it."""


def _seat_actions(players: int, intake_max: int) -> list[EGAction]:
    """Every seat decision with ``players`` seats, in the order each phase lists its actions
    (intakes up to ``intake_max`` caballeros).

    Kinds come in declaration order (``stop`` last), arguments ascending within a kind, except
    the scoreboards: by tile, then place-or-move, then region (4A lists each tile's actions
    together). So every phase's legal actions, generated in their natural order, are sorted by
    index.
    """
    regions = range(NUM_REGIONS)
    areas = range(NUM_AREAS)
    seats = range(players)
    by_kind: dict[Kind, list[EGAction]] = {
        Kind.POWER: [act(Kind.POWER, v) for v in POWER_VALUES],
        Kind.INTAKE: [act(Kind.INTAKE, i) for i in range(intake_max + 1)],
        Kind.INTAKE_FROM: [act(Kind.INTAKE_FROM, r) for r in regions],
        Kind.TAKE: [act(Kind.TAKE, c) for c in range(len(CARD_TYPES))],
        Kind.PLACE: [act(Kind.PLACE, a) for a in areas],
        Kind.SELECT: [act(Kind.SELECT, r) for r in regions],
        Kind.SELECT_OPPONENT: [act(Kind.SELECT_OPPONENT, q, r) for q in seats for r in regions],
        Kind.MOVE: [act(Kind.MOVE, src, q, dst) for src in regions for q in seats for dst in areas
                    if dst != src],
        Kind.PLACE_EXTRA: [act(Kind.PLACE_EXTRA, a) for a in areas],
        Kind.SCORE: [act(Kind.SCORE, a) for a in areas],
        Kind.PLACE_TILE: [act(k, t, r) for t in range(len(TILES)) for k in (Kind.PLACE_TILE, Kind.MOVE_TILE)
                          for r in regions],
        Kind.MOVE_TILE: [],
        Kind.KING_TO: [act(Kind.KING_TO, r) for r in regions],
        Kind.GRANDE: [act(Kind.GRANDE, r) for r in regions],
        Kind.TAKE_BACK: [act(Kind.TAKE_BACK, v) for v in POWER_VALUES],
        Kind.RETURN_FROM: [act(Kind.RETURN_FROM, r) for r in range(-1, NUM_REGIONS)],
        Kind.DISK: [act(Kind.DISK, r) for r in regions],
    }
    out: list[EGAction] = []
    for kind in [*(k for k in Kind if k not in _TAIL), *_TAIL]:
        if kind in (Kind.DEAL, Kind.START, Kind.REVEAL):
            continue
        out.extend(by_kind.get(kind, [act(kind)]))
    return out


@cache
def seat_codec(players: int, intake_max: int = max(POWER_CABALLEROS)) -> TableCodec[EGAction]:
    """The fixed action space of the seats' decisions: options change nothing in it but the
    largest intake (a data override of ``POWER_CABALLEROS`` may raise it above 6)."""
    return TableCodec(_seat_actions(players, intake_max))


@cache
def chance_codec(players: int) -> TableCodec[EGAction]:
    """The fixed space of chance outcomes: region cards, start seats, cards of stacks 1-4."""
    return TableCodec([
        *(act(Kind.DEAL, r) for r in range(NUM_REGIONS)),
        *(act(Kind.START, p) for p in range(players)),
        *(act(Kind.REVEAL, c) for c, t in enumerate(CARD_TYPES) if t.stack <= 4),
    ])
