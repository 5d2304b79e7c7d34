"""Don Carlo rules: setup, turns, the blocked procedure, the end and the final scoring.

Spec: ../shared/rules/don-carlo.md (rules version 1). Section numbers below refer to it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from random import Random
from typing import Any, Final

from tablero.core.errors import ErrorCode, IllegalActionError
from tablero.core.events import Event
from tablero.core.messages import Catalogue, Message
from tablero.core.protocol import CHANCE, Game, OptionSpec, Player, Result, Viewer, check_start_seat, parse_start_seat
from tablero.games.doncarlo import data
from tablero.games.doncarlo.actions import DRAWS, PLAYS, STARTS, DonCarloAction, Draw, Play, StartSeat, parse
from tablero.games.doncarlo.data import CODES, COUNTRIES, FAMILY_COUNTS, HAND_SIZE
from tablero.games.doncarlo.state import BLOCKED_DRAW, DEAL, OVER, PLAY, REFILL, START, DonCarloState

# ---------------------------------------------------------------------------- tables
POW5: Final = tuple(5**v for v in range(7))
CODE_ITEMS: Final = tuple(tuple((v, c.count(v)) for v in sorted(set(c))) for c in CODES)
CODE_KEY: Final = tuple(sum(POW5[v] for v in c) for c in CODES)
CODE_SUM: Final = tuple(sum(c) for c in CODES)
CODE_LEN: Final = tuple(len(c) for c in CODES)
CODE_BONUS: Final = tuple(data.code_bonus(c) for c in CODES)
FAMILY_SIZE: Final = sum(FAMILY_COUNTS)


def _country_of_sum(players: int) -> tuple[int, ...]:
    """Per code index: the country index it goes to with this player count, or -1."""
    in_play = data.countries_in_play(players)
    by_sum = {s: i for i in in_play for s in COUNTRIES[i].sums}
    return tuple(by_sum.get(s, -1) for s in CODE_SUM)


CODE_COUNTRY: Final = {n: _country_of_sum(n) for n in (2, 3, 4)}
_CANDIDATES: dict[int, dict[int, tuple[int, ...]]] = {2: {}, 3: {}, 4: {}}


def candidates(players: int, hand: Sequence[int], key: int) -> tuple[int, ...]:
    """Codes (indices) formable from ``hand`` whose sum a country in play accepts (§3.2 1-3)."""
    cache = _CANDIDATES[players]
    found = cache.get(key)
    if found is None:
        country = CODE_COUNTRY[players]
        found = tuple(
            i for i, items in enumerate(CODE_ITEMS)
            if country[i] >= 0 and all(hand[v] >= k for v, k in items)
        )
        cache[key] = found
    return found


def legal_codes(players: int, hand: Sequence[int], key: int, used: bytearray) -> tuple[Play, ...]:
    """The legal plays of a hand: formable, accepted sum, unused by anyone (§3.2)."""
    return tuple([PLAYS[i] for i in candidates(players, hand, key) if not used[i]])


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
        out[name.strip().lower()] = int(value)
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


def _illegal(msg: str, code: ErrorCode = ErrorCode.ILLEGAL) -> IllegalActionError:
    return IllegalActionError(msg, code=code)


# ---------------------------------------------------------------------------- the game
class DonCarlo(Game[DonCarloState, DonCarloAction, Any]):
    """Don Carlo (Kramer, Lach & Rapp; moses. 2020), 2–4 players.

    | | |
    |---|---|
    | decisions | ``PLAY(code)`` only (§11); a single legal code is a forced step |
    | chance | every card drawn (initial hands, refills, blocked draws), the start seat |
    | hidden | hands (except the known multiset K), deck order (from everyone) |
    | rules versions | 1: don-carlo.md rules version 1 |
    """

    id = "don-carlo"
    title = "Don Carlo"
    rules_version = data.RULES_VERSION
    data_version = data.DATA_VERSION
    min_players = 2
    max_players = 4
    options = OPTIONS

    # ------------------------------------------------------------------ setup (§4)
    def new_initial_state(self, players: int, options: Mapping[str, object] | None = None) -> DonCarloState:
        opts = self.resolve_options(players, options)
        s = DonCarloState()
        s.n = players
        s.countries = data.countries_in_play(players)
        pts = opts["country_points"]
        s.points = tuple(int(pts[c.id]) for c in COUNTRIES)
        s.tie_rule = str(opts["majority_tie"])
        start = opts["start_seat"]
        s.start_option = None if start == "random" else int(start)
        s.hand = [[0] * 7 for _ in range(players)]
        s.hand_key = [0] * players
        s.hand_size = [0] * players
        s.deck = [list(FAMILY_COUNTS) for _ in range(players)]
        s.deck_size = [FAMILY_SIZE] * players
        s.known = [[0] * 7 for _ in range(players)]
        s.used = bytearray(len(CODES))
        s.agents = [[] for _ in COUNTRIES]
        s.influence = [0] * players
        s.bonus = [0] * players
        s.country_points = [0] * players
        s.out = [False] * players
        s.phase = DEAL
        s.turn = 0
        s.start_seat = -1
        s.blocked = False
        s.legal = ()
        s.actors = (CHANCE,)
        s.plays = 0
        return s

    def max_game_length(self, players: int) -> int:
        # every card is drawn once; every play uses at least one card; one start entry
        return 2 * FAMILY_SIZE * players + 1

    # ------------------------------------------------------------------ flow
    def to_act(self, state: DonCarloState) -> tuple[Player, ...]:
        return state.actors

    def legal_actions(self, state: DonCarloState, player: Player) -> Sequence[DonCarloAction]:
        if state.phase == PLAY and player == state.turn:
            return state.legal
        return ()

    def chance_outcomes(self, state: DonCarloState) -> Sequence[tuple[DonCarloAction, float]]:
        if state.phase == START:
            return [(STARTS[i], 1.0 / state.n) for i in range(state.n)]
        if state.phase in (DEAL, REFILL, BLOCKED_DRAW):
            deck, size = state.deck[state.turn], state.deck_size[state.turn]
            return [(DRAWS[v], c / size) for v, c in enumerate(deck) if c]
        return []

    def sample_chance(self, state: DonCarloState, rng: Random) -> DonCarloAction:
        if state.phase == START:
            return STARTS[rng.randrange(state.n)]
        deck = state.deck[state.turn]
        r = rng.randrange(state.deck_size[state.turn])
        for v, c in enumerate(deck):
            if r < c:
                return DRAWS[v]
            r -= c
        raise AssertionError("deck counts out of step with deck size")

    def apply(self, state: DonCarloState, player: Player, action: DonCarloAction,
              events: list[Event] | None = None) -> None:
        phase = state.phase
        if phase == PLAY:
            if player != state.turn:
                raise _illegal(f"seat {player} cannot act: it is seat {state.turn}'s turn",
                               ErrorCode.NOT_YOUR_TURN)
            if action not in state.legal:
                raise _illegal(self._why_illegal(state, action))
            self._play(state, action.code, events)
            return
        if player != CHANCE or phase == OVER:
            raise _illegal(
                "the game is over" if phase == OVER
                else f"seat {player} cannot act now: a card is being drawn",
                ErrorCode.NOT_YOUR_TURN,
            )
        if phase == START:
            if type(action) is not StartSeat or action.seat >= state.n:
                raise _illegal(f"{action.to_text()!r} is not a start seat for {state.n} players")
            state.start_seat = action.seat
            if events is not None:
                events.append(Event(Message("dc.start", seat=action.seat)))
            self.begin_turn(state, action.seat, events)
            return
        if type(action) is not Draw or not state.deck[state.turn][action.value]:
            raise _illegal(f"{action.to_text()!r} cannot be drawn: no such card in the deck")
        self._draw(state, action.value, events)

    def _why_illegal(self, state: DonCarloState, action: DonCarloAction) -> str:
        if type(action) is not Play:
            return f"{action.to_text()!r} is not a play; it is seat {state.turn}'s turn to send an agent"
        p, code = state.turn, action.code
        text = action.to_text()
        if not all(state.hand[p][v] >= k for v, k in CODE_ITEMS[code]):
            return f"cannot play {text!r}: those cards are not all in the hand"
        if CODE_COUNTRY[state.n][code] < 0:
            return f"cannot play {text!r}: no country in play accepts the digit sum {CODE_SUM[code]}"
        if state.used[code]:
            return f"cannot play {text!r}: this code name has been used already"
        return f"cannot play {text!r} now"

    # ------------------------------------------------------------------ transitions
    def _draw(self, s: DonCarloState, v: int, events: list[Event] | None) -> None:
        p = s.turn
        s.deck[p][v] -= 1
        s.deck_size[p] -= 1
        s.hand[p][v] += 1
        s.hand_key[p] += POW5[v]
        s.hand_size[p] += 1
        phase = s.phase
        if phase == BLOCKED_DRAW:  # drawn in the open (§5.3 step 2)
            s.known[p][v] += 1
            if events is not None:
                events.append(Event(Message("dc.draw.open", seat=p, value=v)))
            s.legal = legal_codes(s.n, s.hand[p], s.hand_key[p], s.used)
            if s.legal:
                s.phase = PLAY
                s.actors = (p,)
            elif not s.deck_size[p]:
                self._make_out(s, p, events)
                self._next_turn(s, events)
            return
        if events is not None:
            events.append(Event(Message("dc.draw", seat=p, value=v), frozenset((p,)),
                                Message("dc.draw.hidden", seat=p)))
        if phase == DEAL:
            if s.hand_size[p] == HAND_SIZE:
                if p + 1 < s.n:
                    s.turn = p + 1
                elif s.start_option is None:
                    s.phase = START
                else:
                    s.start_seat = s.start_option
                    self.begin_turn(s, s.start_option, events)
            return
        # REFILL (§5.1 step 4)
        if s.hand_size[p] >= HAND_SIZE or not s.deck_size[p]:
            self._next_turn(s, events)

    def begin_turn(self, s: DonCarloState, p: int, events: list[Event] | None) -> None:
        """Start of p's turn: play if he can, else the blocked procedure (§5.1, §5.3).

        Public so that scenario builders (``setup.py``) can start a turn the way the rules do.
        """
        while True:
            s.turn = p
            s.legal = legal_codes(s.n, s.hand[p], s.hand_key[p], s.used)
            if s.legal:
                s.phase = PLAY
                s.blocked = False
                s.actors = (p,)
                return
            # Blocked: reveal the whole hand (§5.3 step 1).
            s.blocked = True
            s.known[p] = s.hand[p][:]
            if events is not None:
                events.append(Event(
                    Message("dc.blocked", seat=p, hand=_values(s.hand[p])) if s.hand_size[p]
                    else Message("dc.blocked.empty", seat=p)
                ))
            if s.deck_size[p]:
                s.phase = BLOCKED_DRAW
                s.actors = (CHANCE,)
                return
            self._make_out(s, p, events)
            nxt = self._next_seat(s, p)
            if nxt < 0:
                self._finish(s, events)
                return
            p = nxt

    def _make_out(self, s: DonCarloState, p: int, events: list[Event] | None) -> None:
        s.out[p] = True
        s.blocked = False
        if events is not None:
            events.append(Event(Message("dc.out", seat=p, score=s.score(p))))

    def _next_seat(self, s: DonCarloState, p: int) -> int:
        """The next seat clockwise after p that is not out, or -1 if everyone is out."""
        n = s.n
        for i in range(1, n + 1):
            q = (p + i) % n
            if not s.out[q]:
                return q
        return -1

    def _next_turn(self, s: DonCarloState, events: list[Event] | None) -> None:
        nxt = self._next_seat(s, s.turn)
        if nxt < 0:
            self._finish(s, events)
        else:
            self.begin_turn(s, nxt, events)

    def _play(self, s: DonCarloState, code: int, events: list[Event] | None) -> None:
        """§5.1 effects 1-4."""
        p = s.turn
        hand = s.hand[p]
        known = s.known[p]
        for v, k in CODE_ITEMS[code]:
            hand[v] -= k
            if known[v]:
                known[v] = known[v] - k if known[v] > k else 0
        s.hand_key[p] -= CODE_KEY[code]
        s.hand_size[p] -= CODE_LEN[code]
        s.used[code] = 1
        country = CODE_COUNTRY[s.n][code]
        agents = s.agents[country]
        agents.append((p, code))
        gain = len(agents)
        bonus = CODE_BONUS[code]
        s.influence[p] += gain
        s.bonus[p] += bonus
        s.plays += 1
        s.blocked = False
        if events is not None:
            events.append(Event(Message(
                "dc.play", seat=p, code=PLAYS[code].to_text(),
                country=Message(f"dc.country.{COUNTRIES[country].id}"), influence=gain, bonus=bonus,
            )))
        if s.hand_size[p] < HAND_SIZE and s.deck_size[p]:
            s.phase = REFILL
            s.actors = (CHANCE,)
        else:
            self._next_turn(s, events)

    def _finish(self, s: DonCarloState, events: list[Event] | None) -> None:
        """End of game (§6) and final scoring (§7)."""
        s.phase = OVER
        s.actors = ()
        s.legal = ()
        s.blocked = False
        for c, pts, winners in majorities(s):
            for w in winners:
                s.country_points[w] += pts
            if events is not None:
                events.append(Event(Message(
                    "dc.majority", country=Message(f"dc.country.{COUNTRIES[c].id}"),
                    seats=tuple(winners), points=pts,
                ) if winners else Message(
                    "dc.majority.none", country=Message(f"dc.country.{COUNTRIES[c].id}"),
                )))
        if events is not None:
            res = self.result(s)
            assert res is not None
            events.append(Event(Message("dc.final", scores=tuple(int(x) for x in res.scores),
                                        seats=res.winners)))

    def result(self, state: DonCarloState) -> Result | None:
        if state.phase != OVER:
            return None
        return Result.from_scores([float(state.score(p)) for p in range(state.n)])

    # ------------------------------------------------------------------ information
    def observe(self, state: DonCarloState, viewer: Viewer) -> Any:
        from tablero.games.doncarlo.view import observe

        return observe(state, viewer)

    def determinize(self, view: Any, viewer: Player, rng: Random) -> DonCarloState:
        from tablero.games.doncarlo.view import determinize

        return determinize(self, view, viewer, rng)

    def score_of(self, view: Any, seat: int) -> float:
        return float(view.scores[seat])

    # ------------------------------------------------------------------ text
    def parse_action(self, state: DonCarloState, player: Player, text: str) -> DonCarloAction:
        return parse(text)

    def describe(self, state: DonCarloState, player: Player, action: DonCarloAction,
                 viewer: Viewer) -> Message:
        from tablero.games.doncarlo.text import describe

        return describe(state, player, action, viewer)

    def catalogue(self) -> Catalogue:
        from tablero.games.doncarlo.text import CATALOGUE

        return CATALOGUE

    def table_data(self) -> dict[str, Any]:
        from tablero.games.doncarlo.data import table_data

        return table_data()

    def render(self, view: Any, tr: Callable[[Message], str]) -> str:
        from tablero.games.doncarlo.text import render

        return render(view, tr)


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


def _values(counts: Sequence[int]) -> tuple[int, ...]:
    return tuple(v for v, c in enumerate(counts) for _ in range(c))


GAME: Final = DonCarlo()
