"""Don Carlo engine: code tables, options, setup, turns, the blocked procedure, the end and scoring.

Spec: ../shared/rules/don-carlo.md (rules version 1). Section numbers below refer to it.
Everything here works on :class:`DonCarloState` with the actions and data modules only; the
``Game`` façade (``rules.py``), the view, the texts and the scenario builder build on it.

The transitions fill the core's cache of legal actions (``state.legal_cache``) when they
open a ``PLAY`` decision: the turn start computes the legal codes anyway to tell a blocked
hand (§5.1), so ``Game.legal_actions`` then costs a lookup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from tablero.core.events import Event
from tablero.core.messages import Message
from tablero.core.protocol import (
    CHANCE,
    OptionSpec,
    Player,
    Result,
    Viewer,
    check_start_seat,
    parse_start_seat,
)
from tablero.games.doncarlo import data
from tablero.games.doncarlo.actions import (
    HIDDEN_DRAW,
    PLAYS,
    DonCarloAction,
    Draw,
    HiddenDraw,
    Play,
)
from tablero.games.doncarlo.data import ALL_CODES, COUNTRIES, DEFAULT_TABLES, Tables
from tablero.games.doncarlo.state import BLOCKED_DRAW, DEAL, OVER, PLAY, REFILL, START, DonCarloState

# ---------------------------------------------------------------------------- tables
# Per code index of ``data.ALL_CODES`` (the same at every table). What depends on a table's data
# (its countries, bonuses, hand keys: ``data.Tables``) is read from ``state.data``.
CODE_ITEMS: Final = tuple(tuple((v, c.count(v)) for v in sorted(set(c))) for c in ALL_CODES)
"""Per code index: its (value, copies) pairs."""
CODE_SUM: Final = tuple(sum(c) for c in ALL_CODES)
CODE_LEN: Final = tuple(len(c) for c in ALL_CODES)

# The usual game's tables under their old names (tests and docs; the rules read ``state.data``).
POW5: Final = DEFAULT_TABLES.pow
"""Weights of the base-5 hand key of the usual game: ``hand_key = sum(count[v] * POW5[v])``."""
CODE_KEY: Final = DEFAULT_TABLES.code_key
CODE_BONUS: Final = DEFAULT_TABLES.code_bonus
FAMILY_SIZE: Final = DEFAULT_TABLES.family_size
CODE_COUNTRY: Final = {n: DEFAULT_TABLES.code_country[n] for n in (2, 3, 4)}
"""The usual game: per player count, per code index, the country the code goes to, or -1."""
MAX_FAMILY_SIZE: Final = len(data.VALUES) * data.FAMILY_COUNT_HIGH
"""The largest family deck any table may have (``--data FAMILY_COUNTS``)."""


def candidates(t: Tables, players: int, hand: Sequence[int], key: int) -> tuple[int, ...]:
    """Codes (indices) formable from ``hand`` whose sum a country in play accepts (§3.2 1-3)."""
    table = t.candidates[players]
    found = table.get(key)
    if found is None:
        country = t.code_country[players]
        found = tuple(
            i for i in t.codes
            if country[i] >= 0 and all(hand[v] >= k for v, k in CODE_ITEMS[i])
        )
        table[key] = found
    return found


def legal_codes(t: Tables, players: int, hand: Sequence[int], key: int, used: bytearray) -> tuple[Play, ...]:
    """The legal plays of a hand, in code (= action index) order: formable, accepted sum, unused (§3.2)."""
    found = t.candidates[players].get(key)  # the common case, without a call
    if found is None:
        found = candidates(t, players, hand, key)
    return tuple([PLAYS[i] for i in found if not used[i]])


def has_legal_code(s: DonCarloState, p: int) -> bool:
    """Whether seat ``p``'s hand holds a legal code now (§3.2)."""
    used = s.used
    return any(not used[i] for i in candidates(s.data, s.n, s.hand[p], s.hand_key[p]))


def hand_known_to_all(s: DonCarloState, p: int) -> bool:
    """Whether every seat can tell seat ``p``'s whole hand from public facts (§9).

    True when the hand is its known multiset ``K`` (a blocked turn shows every card), when
    the deck is empty (the hand is then the family minus the agents), or when the cards not
    in ``K`` and not played are all of one value.
    """
    hand, known = s.hand[p], s.known[p]
    if s.hand_size[p] == sum(known) or not s.deck_size[p]:
        return True
    deck = s.deck[p]
    return sum(1 for v in range(7) if hand[v] - known[v] + deck[v]) <= 1


def hand_values(counts: Sequence[int]) -> tuple[int, ...]:
    """A multiset of card values (counts per value) as its sorted values."""
    return tuple(v for v, c in enumerate(counts) for _ in range(c))


# ---------------------------------------------------------------------------- options
def _parse_points(text: str) -> object:
    """``egoistrien:3,protzland:9`` (countries left out keep their default)."""
    out: dict[str, int] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        name, sep, value = part.partition(":")
        if not sep:
            name, sep, value = part.partition("=")
        if not sep or not value.strip().lstrip("-").isdigit():
            raise ValueError(f"expected country:points pairs, got {part!r}")
        out[name.strip().lower().replace(" ", "_")] = int(value)  # "Land 8" names land_8
    return out


def _check_points(value: object, players: int) -> object:
    if not isinstance(value, Mapping):
        raise ValueError("expected a mapping of country ids to points")
    out = {c.id: c.default_points for c in COUNTRIES}
    for k, v in value.items():
        if k not in out:
            raise ValueError(f"unknown country {k!r}; countries: {', '.join(data.COUNTRY_IDS)}")
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise ValueError(f"points for {k} must be a whole number >= 0")
        out[k] = v
    return out


def _check_tie(value: object, players: int) -> object:
    if value not in data.TIE_RULES:
        raise ValueError(f"choose one of {', '.join(data.TIE_RULES)}")
    return value


OPTIONS: Final = (
    OptionSpec(name="start_seat", default="random", parse=parse_start_seat, check=check_start_seat,
               help="first player: a seat number or 'random' (decision, §4)"),
    OptionSpec(name="country_points", default={c.id: c.default_points for c in COUNTRIES},
               parse=_parse_points, check=_check_points,
               help="majority points per country, e.g. protzland:7,land_8:8 (R: reconstructed)"),
    OptionSpec(name="majority_tie", default="all_full", parse=str, check=_check_tie,
               choices=data.TIE_RULES, help="tie rule for a country majority (§7)"),
)
"""The options of §10 (the façade's ``options``)."""


# ---------------------------------------------------------------------------- setup (§4)
def new_state(players: int, options: Mapping[str, object], tables: Tables = DEFAULT_TABLES) -> DonCarloState:
    """The state before the first draw, from resolved options (``Game.resolve_options``) and the
    table's data (``data.tables`` of its overrides)."""
    s = DonCarloState()
    s.data = tables
    s.n = players
    s.countries = tables.in_play[players]
    pts = options["country_points"]
    assert isinstance(pts, Mapping)
    s.points = tuple(int(pts[c.id]) for c in COUNTRIES)
    s.tie_rule = str(options["majority_tie"])
    start = options["start_seat"]
    s.start_option = start if isinstance(start, int) else None  # else "random"
    s.hand = [[0] * 7 for _ in range(players)]
    s.hand_key = [0] * players
    s.hand_size = [0] * players
    s.deck = [list(tables.FAMILY_COUNTS) for _ in range(players)]
    s.deck_size = [tables.family_size] * players
    s.known = [[0] * 7 for _ in range(players)]
    s.used = bytearray(tables.used_size)
    s.agents = [[] for _ in COUNTRIES]
    s.influence = [0] * players
    s.bonus = [0] * players
    s.country_points = [0] * players
    s.out = [False] * players
    s.phase = DEAL
    s.turn = 0
    s.start_seat = -1
    s.blocked = False
    s.actors = (CHANCE,)
    s.plays = 0
    s.round = 0
    s.legal_cache = None
    return s


# ---------------------------------------------------------------------------- transitions
def start_game(s: DonCarloState, seat: int, events: list[Event] | None) -> None:
    """The start seat is known (§4): his turn begins."""
    s.start_seat = seat
    if events is not None:
        events.append(Event(Message("dc.start", seat=seat)))
    count_round(s, seat, seat, events)
    begin_turn(s, seat, events)


def draw_card(s: DonCarloState, v: int, events: list[Event] | None) -> None:
    """The active (or dealt-to) seat draws a card of value ``v`` from his family deck."""
    p = s.turn
    t = s.data
    s.deck[p][v] -= 1
    s.deck_size[p] -= 1
    s.hand[p][v] += 1
    s.hand_key[p] += t.pow[v]
    s.hand_size[p] += 1
    phase = s.phase
    if phase == BLOCKED_DRAW:  # drawn in the open (§5.3 step 2)
        s.known[p][v] += 1
        if events is not None:
            events.append(Event(Message("dc.draw.open", seat=p, value=v), reveal=True))
        legal = legal_codes(t, s.n, s.hand[p], s.hand_key[p], s.used)
        if legal:
            s.phase = PLAY
            s.actors = (p,)
            s.legal_cache = (p, legal)
        elif not s.deck_size[p]:
            make_out(s, p, events)
            next_turn(s, events)
        return
    if events is not None:
        events.append(Event(Message("dc.draw", seat=p, value=v), frozenset((p,)),
                            Message("dc.draw.hidden", seat=p)))
    if phase == DEAL:  # a family smaller than a hand (--data) deals what it has
        if s.hand_size[p] >= t.HAND_SIZE or not s.deck_size[p]:
            if p + 1 < s.n:
                s.turn = p + 1
            elif s.start_option is None:
                s.phase = START
            else:
                s.start_seat = s.start_option
                count_round(s, s.start_option, s.start_option, events)
                begin_turn(s, s.start_option, events)
        return
    # REFILL (§5.1 step 4)
    if s.hand_size[p] >= t.HAND_SIZE or not s.deck_size[p]:
        next_turn(s, events)


def begin_turn(s: DonCarloState, p: int, events: list[Event] | None) -> None:
    """Start of p's turn: play if he can, else the blocked procedure (§5.1, §5.3).

    Whether a hidden hand holds a legal code is information (§5.3: "not being blocked
    reveals only that the hand holds a legal code"): a turn that opens with such a hand adds
    an event seen by nobody, flagged ``reveal``, so that no take-back reaches back over it.
    """
    t = s.data
    while True:
        s.turn = p
        legal = legal_codes(t, s.n, s.hand[p], s.hand_key[p], s.used)
        if legal:
            s.phase = PLAY
            s.blocked = False
            s.actors = (p,)
            s.legal_cache = (p, legal)
            if events is not None and not hand_known_to_all(s, p):
                events.append(Event(Message("dc.turn", seat=p), frozenset(), reveal=True))
            return
        # Blocked: reveal the whole hand (§5.3 step 1).
        s.blocked = True
        s.known[p] = s.hand[p][:]
        if events is not None:
            if s.hand_size[p]:
                events.append(Event(Message("dc.blocked", seat=p, hand=hand_values(s.hand[p])), reveal=True))
            else:  # nothing to show: hand and deck sizes are public
                events.append(Event(Message("dc.blocked.empty", seat=p)))
        if s.deck_size[p]:
            s.phase = BLOCKED_DRAW
            s.actors = (CHANCE,)
            return
        make_out(s, p, events)
        nxt = next_seat(s, p)
        if nxt < 0:
            finish(s, events)
            return
        count_round(s, p, nxt, events)
        p = nxt


def make_out(s: DonCarloState, p: int, events: list[Event] | None) -> None:
    """Seat ``p`` is out of the game (§5.4)."""
    s.out[p] = True
    s.blocked = False
    if events is not None:
        events.append(Event(Message("dc.out", seat=p, score=s.score(p))))


def next_seat(s: DonCarloState, p: int) -> int:
    """The next seat clockwise after p that is not out, or -1 if everyone is out."""
    n = s.n
    for i in range(1, n + 1):
        q = (p + i) % n
        if not s.out[q]:
            return q
    return -1


def next_turn(s: DonCarloState, events: list[Event] | None) -> None:
    """The turn passes clockwise (§5.1 step 5), or the game ends (§6)."""
    nxt = next_seat(s, s.turn)
    if nxt < 0:
        finish(s, events)
    else:
        count_round(s, s.turn, nxt, events)
        begin_turn(s, nxt, events)


def count_round(s: DonCarloState, p: int, nxt: int, events: list[Event] | None) -> None:
    """The turn passes from ``p`` to ``nxt`` (the first turn: from the start seat to itself).

    The rules have no rounds (§5); for the log's sections a round begins with the first turn
    and whenever the turn comes round past the start seat again (a seat's next turn included,
    when it is the only one left).
    """
    start, n = s.start_seat, s.n
    if s.round == 0 or (nxt - start) % n <= (p - start) % n:
        s.round += 1
        if events is not None:
            events.append(Event(Message("dc.round", round=s.round)))


def play_code(s: DonCarloState, code: int, events: list[Event] | None) -> None:
    """The active seat sends the agent ``code``: §5.1 effects 1-4."""
    p = s.turn
    t = s.data
    hand = s.hand[p]
    known = s.known[p]
    for v, k in CODE_ITEMS[code]:
        hand[v] -= k
        if known[v]:
            known[v] = known[v] - k if known[v] > k else 0
    s.hand_key[p] -= t.code_key[code]
    s.hand_size[p] -= CODE_LEN[code]
    s.used[code] = 1
    country = t.code_country[s.n][code]
    agents = s.agents[country]
    agents.append((p, code))
    gain = len(agents)
    bonus = t.code_bonus[code]
    s.influence[p] += gain
    s.bonus[p] += bonus
    s.plays += 1
    s.blocked = False
    if events is not None:
        events.append(Event(Message(
            "dc.play", seat=p, code=PLAYS[code].to_text(),
            country=Message(f"dc.country.{COUNTRIES[country].id}"), influence=gain, bonus=bonus,
        )))
    if s.hand_size[p] < t.HAND_SIZE and s.deck_size[p]:
        s.phase = REFILL
        s.actors = (CHANCE,)
    else:
        next_turn(s, events)


def finish(s: DonCarloState, events: list[Event] | None) -> None:
    """End of game (§6) and final scoring (§7)."""
    s.phase = OVER
    s.actors = ()
    s.blocked = False
    for c, pts, winners in majorities(s):
        for w in winners:
            s.country_points[w] += pts
        if events is not None:
            country = Message(f"dc.country.{COUNTRIES[c].id}")
            events.append(Event(
                Message("dc.majority", country=country, seats=tuple(winners), points=pts) if winners
                else Message("dc.majority.none", country=country)
            ))
    if events is not None:
        res = final_result(s)
        standings = tuple(Message("dc.standing", seat=p, points=int(res.scores[p]))
                          for p in sorted(range(s.n), key=lambda q: (res.ranks[q], q)))
        events.append(Event(Message("dc.final", scores=tuple(int(x) for x in res.scores),
                                    seats=res.winners, standings=standings)))


def final_result(s: DonCarloState) -> Result:
    """The result of a finished game: final scores (§7 step 5), shared ranks (§8)."""
    return Result.from_scores([float(s.score(p)) for p in range(s.n)])


def majorities(s: DonCarloState) -> list[tuple[int, int, tuple[int, ...]]]:
    """Final scoring of each country in play (§7): (country, points each, receiving seats).

    Empty countries score nothing; ties follow the ``majority_tie`` option.
    """
    out: list[tuple[int, int, tuple[int, ...]]] = []
    for c in s.countries:
        counts = [0] * s.n
        for seat, _ in s.agents[c]:
            counts[seat] += 1
        top = max(counts)
        if top == 0:
            out.append((c, 0, ()))
            continue
        leaders = tuple(p for p in range(s.n) if counts[p] == top)
        pts = s.points[c]
        if len(leaders) > 1:
            if s.tie_rule == "none":
                out.append((c, 0, ()))
                continue
            if s.tie_rule == "split_floor":
                pts = pts // len(leaders)
        out.append((c, pts, leaders))
    return out


# ---------------------------------------------------------------------------- information
def redact_action(s: DonCarloState, player: Player, action: DonCarloAction,
                  viewer: Viewer) -> DonCarloAction | HiddenDraw:
    """What ``viewer`` sees of ``player`` taking ``action`` in ``s`` (before it is applied).

    A private draw (an initial hand card, a refill) shows its value to the drawing seat
    only; every other viewer sees :data:`~tablero.games.doncarlo.actions.HIDDEN_DRAW`. Draws
    of a blocked turn are open (§5.3), plays and the start seat are public (§9).
    """
    if type(action) is Draw and s.phase != BLOCKED_DRAW and viewer != s.turn:
        return HIDDEN_DRAW
    return action


# ---------------------------------------------------------------------------- refusals
def not_to_act_reason(s: DonCarloState, player: Player) -> str:
    """Why ``player`` may not act now."""
    if s.phase == OVER:
        return "the game is over"
    if s.phase == PLAY:
        if player == CHANCE:
            return f"no card is drawn now: it is seat {s.turn}'s turn"
        return f"seat {player} cannot act: it is seat {s.turn}'s turn"
    return f"seat {player} cannot act now: a card is being drawn"


def illegal_reason(s: DonCarloState, action: DonCarloAction) -> str:
    """Why ``action`` is not legal for the seat (or chance) that is to act now."""
    text = action.to_text()
    if s.phase == START:
        return f"{text!r} is not a start seat for {s.n} players"
    if s.phase != PLAY:
        return f"{text!r} cannot be drawn: no such card in the deck"
    if type(action) is not Play:
        return f"{text!r} is not a play; it is seat {s.turn}'s turn to send an agent"
    p, code = s.turn, action.code
    if not all(s.hand[p][v] >= k for v, k in CODE_ITEMS[code]):
        return f"cannot play {text!r}: those cards are not all in the hand"
    if s.data.code_country[s.n][code] < 0:
        return f"cannot play {text!r}: no country in play accepts the digit sum {CODE_SUM[code]}"
    if s.used[code]:
        return f"cannot play {text!r}: this code name has been used already"
    return f"cannot play {text!r} now"
