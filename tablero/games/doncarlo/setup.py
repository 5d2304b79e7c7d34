"""Scenario builder: a Don Carlo position written down in a few lines (the game's "FEN").

Test scenarios (spec §12) say things like "A's hand {0, 0, 0, 0}; Protzland holds 3 agents;
A is to move". :func:`scenario` turns such a description into a :class:`DonCarloState` at
the start of the turn of seat ``turn``: it runs the rules' own turn-start logic, so a hand
without a legal code is revealed at once and the state waits for the open draws
(``BLOCKED_DRAW``), a blocked seat with an empty deck is out at once, and a hand with a
legal code waits for ``PLAY``. Forced draws are then applied as chance actions::

    s = scenario(hands={0: [0, 0, 0, 0]})
    GAME.apply(s, CHANCE, DRAWS[5])      # GAME from tablero.games.doncarlo.rules

Everything not given is filled in consistently where possible: every seat's hand + deck +
agents' cards equal his family (``FAMILY_COUNTS`` of the table's data, ``options["data"]``).
A seat with no hand given holds up to a hand's size (four) of cards taken round-robin from the
values 1, 2, 3, 4, 5, 6, 0 of what is left of his family; a deck not given is the rest of the
family. A seat that is out holds nothing
and has an empty deck unless told otherwise. Influence and bonus points are recomputed
from the agents unless given. No randomness is used.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from tablero.core.events import Event
from tablero.core.protocol import data_overrides, resolve_options
from tablero.games.doncarlo.actions import Play, parse
from tablero.games.doncarlo.data import ALL_CODES, COUNTRY_INDEX, DATA_SPECS, VALUES, code_text, tables
from tablero.games.doncarlo.engine import OPTIONS, begin_turn, new_state
from tablero.games.doncarlo.state import DonCarloState

DEFAULT_HAND_ORDER: Final = (1, 2, 3, 4, 5, 6, 0)
"""Values a default hand is taken from, round-robin, while the family has them."""


def play(text: str) -> Play:
    """The interned ``Play`` action of a code's wire text (values in any order)."""
    action = parse(text)
    if not isinstance(action, Play):
        raise ValueError(f"{text!r} is not a code name")
    return action


def checked_options(players: int, options: Mapping[str, object] | None) -> dict[str, object]:
    """``options`` read and checked by Don Carlo's option specs, as ``Game.resolve_options`` does.

    Raises ``TableroError`` for a player count out of 2-4, ``OptionError`` for a bad option
    (``DataError`` for bad data overrides).
    """
    return resolve_options("don-carlo", 2, 4, OPTIONS, players, options, DATA_SPECS)


def _counts(values: Iterable[int], what: str) -> list[int]:
    out = [0] * len(VALUES)
    for v in values:
        if not 0 <= v < len(VALUES):
            raise ValueError(f"{what}: card value {v} is not 0-6")
        out[v] += 1
    return out


def _seat_map(n: int, given: Mapping[int, Sequence[int]] | None, what: str) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for seat, values in (given or {}).items():
        if not 0 <= seat < n:
            raise ValueError(f"{what}: no seat {seat} with {n} players")
        out[seat] = _counts(values, f"{what} of seat {seat}")
    return out


def scenario(
    players: int = 4,
    *,
    hands: Mapping[int, Sequence[int]] | None = None,
    decks: Mapping[int, Sequence[int]] | None = None,
    agents: Mapping[str, Sequence[tuple[int, str]]] | None = None,
    used: Sequence[str] = (),
    known: Mapping[int, Sequence[int]] | None = None,
    influence: Mapping[int, int] | None = None,
    bonus: Mapping[int, int] | None = None,
    out: Iterable[int] = (),
    turn: int = 0,
    options: Mapping[str, object] | None = None,
    strict: bool = True,
    events: list[Event] | None = None,
) -> DonCarloState:
    """Build a state at the start of seat ``turn``'s turn.

    ``hands``/``decks``/``known``: card values per seat (a deck's order does not exist: each
    draw is a chance action). ``agents``: per country id, ``(seat, code)`` pairs in the order
    sent. ``used``: further used codes, each placed as an agent in its country, of the first
    seat clockwise after ``turn`` (``turn`` itself last) whose family still has the cards.
    ``influence``/``bonus``: override the values recomputed from the agents. ``out``: seats
    already out. ``options`` as for a new game; the recorded start seat is the ``start_seat``
    option, or ``turn`` when it is random. ``events`` receives the log of the turn start
    (reveals, seats going out, the final scoring if everyone is out).

    With ``strict`` (the default) a seat may never hold more cards of a value than his family
    has (hand + deck + agents); ``strict=False`` allows physically impossible positions,
    e.g. more used codes than the families' cards could have formed.
    Raises ``ValueError`` for an inconsistent description, ``OptionError`` for bad options.
    """
    opts = checked_options(players, options)
    s = new_state(players, opts, tables(data_overrides("don-carlo", DATA_SPECS, opts)))
    t = s.data
    family = t.FAMILY_COUNTS
    n = s.n
    out_seats = set(out)
    if any(not 0 <= p < n for p in out_seats):
        raise ValueError(f"out: seats are 0-{n - 1}")
    if not 0 <= turn < n or turn in out_seats:
        raise ValueError(f"turn: seat {turn} cannot start a turn (players {n}, out {sorted(out_seats)})")
    hand = _seat_map(n, hands, "hand")
    deck = _seat_map(n, decks, "deck")
    taken = [[0] * len(VALUES) for _ in range(n)]  # agents' cards per seat
    seen: set[int] = set()

    def place(country: int, seat: int, code: int) -> None:
        if code in seen:
            raise ValueError(f"code {code_text(ALL_CODES[code])} is used twice")
        if code not in t.codes:
            raise ValueError(f"code {code_text(ALL_CODES[code])}: no family of this table can form it")
        seen.add(code)
        s.agents[country].append((seat, code))
        s.used[code] = 1
        for v in ALL_CODES[code]:
            taken[seat][v] += 1

    for cid, placed in (agents or {}).items():
        if cid not in COUNTRY_INDEX or COUNTRY_INDEX[cid] not in s.countries:
            raise ValueError(f"agents: {cid!r} is not a country in play with {n} players")
        ci = COUNTRY_INDEX[cid]
        for seat, text in placed:
            code = play(text).code
            if not 0 <= seat < n:
                raise ValueError(f"agents: no seat {seat} with {n} players")
            if t.code_country[n][code] != ci:
                raise ValueError(f"agents: code {text} does not go to {cid}")
            place(ci, seat, code)

    def spare(p: int) -> list[int]:
        h, d = hand.get(p), deck.get(p)
        return [
            family[v] - taken[p][v] - (h[v] if h else 0) - (d[v] if d else 0)
            for v in range(len(VALUES))
        ]

    order = [(turn + i) % n for i in range(1, n + 1)]
    for text in used:
        code = play(text).code
        country = t.code_country[n][code]
        if country < 0:
            raise ValueError(f"used: no country in play accepts code {text}")
        need = _counts(ALL_CODES[code], "used")
        owner = next((p for p in order if all(a >= b for a, b in zip(spare(p), need, strict=True))), -1)
        if owner < 0:
            if strict:
                raise ValueError(f"used: no family has the cards left to have formed {text}")
            owner = order[0]
        place(country, owner, code)

    for p in range(n):
        if p not in hand:
            cards = [0] * len(VALUES)
            if p not in out_seats:
                rest = spare(p)
                while sum(cards) < t.HAND_SIZE and any(rest[v] > cards[v] for v in DEFAULT_HAND_ORDER):
                    for v in DEFAULT_HAND_ORDER:
                        if rest[v] > cards[v] and sum(cards) < t.HAND_SIZE:
                            cards[v] += 1
            hand[p] = cards
        if p not in deck:
            deck[p] = [0] * len(VALUES) if p in out_seats else [max(0, c) for c in spare(p)]
        if strict:
            for v, c in enumerate(spare(p)):
                if c < 0:
                    raise ValueError(
                        f"seat {p} would have {family[v] - c} cards of value {v} "
                        f"(hand, deck and agents); a family has {family[v]}"
                    )

    k = _seat_map(n, known, "known")
    for p in range(n):
        s.hand[p] = hand[p]
        s.hand_key[p] = sum(c * t.pow[v] for v, c in enumerate(hand[p]))
        s.hand_size[p] = sum(hand[p])
        s.deck[p] = deck[p]
        s.deck_size[p] = sum(deck[p])
        s.known[p] = k.get(p, [0] * len(VALUES))
        if any(a > b for a, b in zip(s.known[p], hand[p], strict=True)):
            raise ValueError(f"known: seat {p}'s known cards are not all in his hand")
        s.out[p] = p in out_seats
    s.plays = len(seen)
    s.influence = [0] * n
    s.bonus = [0] * n
    for c in s.countries:
        for position, (seat, code) in enumerate(s.agents[c], start=1):
            s.influence[seat] += position
            s.bonus[seat] += t.code_bonus[code]
    for p, value in (influence or {}).items():
        s.influence[p] = value
    for p, value in (bonus or {}).items():
        s.bonus[p] = value
    s.start_seat = turn if s.start_option is None else s.start_option
    s.round = 1  # a position counts its rounds (the log's sections) from its own first turn
    begin_turn(s, turn, events)
    return s
