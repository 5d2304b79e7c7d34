"""Don Carlo rules: the ``Game`` façade the registry imports.

Spec: ../shared/rules/don-carlo.md (rules version 1). The transitions, tables and options
live in :mod:`tablero.games.doncarlo.engine`; what a seat sees in :mod:`.view`; words and the
table picture in :mod:`.text`. This class ties them to the core protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from random import Random
from typing import Any, Final

from tablero.core.codec import TableCodec
from tablero.core.events import Event
from tablero.core.messages import Catalogue, Message
from tablero.core.protocol import Action, DataValue, Game, Player, Result, ScoreSheet, Viewer
from tablero.games.doncarlo import data, engine, sheet
from tablero.games.doncarlo.actions import DRAWS, PLAYS, STARTS, DonCarloAction, Draw, Play, StartSeat, parse
from tablero.games.doncarlo.engine import draw_card, play_code, start_game
from tablero.games.doncarlo.state import BLOCKED_DRAW, DEAL, OVER, PLAY, REFILL, START, DonCarloState
from tablero.games.doncarlo.text import CATALOGUE, describe_action, render_view
from tablero.games.doncarlo.view import DonCarloView, determinize_view, observe_state

DRAW_PHASES: Final = (DEAL, REFILL, BLOCKED_DRAW)
"""The chance nodes that draw a card from the active family's deck."""


@cache
def seat_actions(codes: tuple[int, ...]) -> TableCodec[DonCarloAction]:
    """Every ``PLAY(code)`` a family deck can form (§3.4), in code order: the usual game's 320
    codes of ``data.CODES``, index = code index, at any player count.

    Codes whose digit sum no country accepts with a player count are never legal there, but
    keep their index: one action space for every player count. A table with other
    ``FAMILY_COUNTS`` (``--data``) has the codes its family can form (``Tables.codes``).
    """
    return TableCodec(PLAYS[i] for i in codes)


@cache
def chance_actions(players: int) -> TableCodec[DonCarloAction]:
    """The start seats ``0 … players-1``, then a drawn card of each value 0-6 (``players + 7``)."""
    return TableCodec((*STARTS[:players], *DRAWS))


class DonCarlo(Game[DonCarloState, DonCarloAction, DonCarloView]):
    """Don Carlo (Kramer, Lach & Rapp; moses. 2020), 2–4 players.

    | | |
    |---|---|
    | decisions | ``PLAY(code)`` only (§11); a single legal code is a forced step where the hand is known to all |
    | chance | every card drawn (initial hands, refills, blocked draws), the start seat |
    | hidden | hands (except the known multiset K), deck order (from everyone) |
    | action spaces | seats: the 320 codes (a family's own codes); chance: ``players`` start seats + 7 card values |
    | rules versions | 1: don-carlo.md rules version 1 |
    """

    id = "don-carlo"
    title = "Don Carlo"
    rules_version = data.RULES_VERSION
    data_version = data.DATA_VERSION
    min_players = 2
    max_players = 4
    options = engine.OPTIONS
    data_specs = data.DATA_SPECS
    state_type = DonCarloState

    # ------------------------------------------------------------------ setup (§4)
    def new_initial_state(self, players: int, options: Mapping[str, object] | None = None) -> DonCarloState:
        opts = self.resolve_options(players, options)
        return engine.new_state(players, opts, data.tables(self.data_overrides(opts)))

    def max_game_length(self, players: int) -> int:
        # every card is drawn once; every play uses at least one card and a code of its own; one
        # start entry; for the largest family any table may have (--data FAMILY_COUNTS)
        draws = engine.MAX_FAMILY_SIZE * players
        return draws + min(draws, len(data.ALL_CODES)) + 1

    # ------------------------------------------------------------------ flow
    def to_act(self, state: DonCarloState) -> tuple[Player, ...]:
        return state.actors

    def generate_legal(self, state: DonCarloState, player: Player) -> Sequence[DonCarloAction]:
        p = state.turn
        return engine.legal_codes(state.data, state.n, state.hand[p], state.hand_key[p], state.used)

    def chance_outcomes(self, state: DonCarloState) -> Sequence[tuple[DonCarloAction, float]]:
        if state.phase == START:
            return [(STARTS[i], 1.0 / state.n) for i in range(state.n)]
        if state.phase in (DEAL, REFILL, BLOCKED_DRAW):
            deck, size = state.deck[state.turn], state.deck_size[state.turn]
            return [(DRAWS[v], c / size) for v, c in enumerate(deck) if c]
        return []

    def sample_chance(self, state: DonCarloState, rng: Random) -> DonCarloAction:
        """One chance outcome; a card is the ``rng.randrange(deck size)``-th of the deck by value.

        The index is drawn the way ``Random.randrange`` draws it (rejection sampling on
        ``getrandbits``: the very same numbers for the same RNG state) without its argument
        checks, which cost a tenth of a playout.
        """
        if state.phase == START:
            return STARTS[rng.randrange(state.n)]
        p = state.turn
        size = state.deck_size[p]
        getrandbits = rng.getrandbits
        k = size.bit_length()
        r = getrandbits(k)
        while r >= size:
            r = getrandbits(k)
        for v, c in enumerate(state.deck[p]):
            if r < c:
                return DRAWS[v]
            r -= c
        raise AssertionError("deck counts out of step with deck size")

    def is_chance_outcome(self, state: DonCarloState, action: DonCarloAction) -> bool:
        if type(action) is Draw:  # at a draw (deal, refill, blocked draw): a card still in the deck
            return (state.phase in DRAW_PHASES and 0 <= action.value < 7
                    and state.deck[state.turn][action.value] > 0)
        return state.phase == START and type(action) is StartSeat and 0 <= action.seat < state.n

    def always_asked(self, state: DonCarloState, player: Player) -> bool:
        """A play is put to the seat even with one legal code unless every seat knows his hand.

        Whether a hand forms exactly one legal code depends on its hidden cards: a play
        applied at once would tell the others so (issue 9). Where the whole hand is known to
        all (a blocked turn showed every card, the deck is empty, ...: see
        :func:`~tablero.games.doncarlo.engine.hand_known_to_all`), a single code is public
        knowledge too and stays a forced step (spec §0).
        """
        return state.phase == PLAY and player == state.turn and not engine.hand_known_to_all(state, player)

    def step(self, state: DonCarloState, player: Player, action: DonCarloAction,
             events: list[Event] | None) -> None:
        """A drawn card, a play or the start seat (``apply`` has checked it fits the phase)."""
        if type(action) is Draw:
            draw_card(state, action.value, events)
        elif type(action) is Play:
            play_code(state, action.code, events)
        else:
            assert type(action) is StartSeat
            start_game(state, action.seat, events)

    def explain_not_to_act(self, state: DonCarloState, player: Player) -> str:
        return engine.not_to_act_reason(state, player)

    def explain_illegal(self, state: DonCarloState, player: Player, action: DonCarloAction) -> str:
        return engine.illegal_reason(state, action)

    def result(self, state: DonCarloState) -> Result | None:
        if state.phase != OVER:
            return None
        return engine.final_result(state)

    def score_sheet(self, state: DonCarloState, log: Sequence[Message]) -> ScoreSheet | None:
        """Influence per country, run and triple bonuses, country majorities (:mod:`.sheet`)."""
        return sheet.score_sheet(state, log)

    # ------------------------------------------------------------------ action spaces
    def action_codec(self, players: int, options: Mapping[str, object] | None = None) -> TableCodec[DonCarloAction]:
        return seat_actions(data.tables(self.data_overrides(options)).codes)

    def chance_codec(self, players: int, options: Mapping[str, object] | None = None) -> TableCodec[DonCarloAction]:
        return chance_actions(players)

    # ------------------------------------------------------------------ information
    def view_seat(self, view: DonCarloView) -> Viewer:
        return None if view.private is None else view.private.seat

    def observe(self, state: DonCarloState, viewer: Viewer) -> DonCarloView:
        return observe_state(state, viewer)

    def determinize(self, view: DonCarloView, viewer: Player, rng: Random) -> DonCarloState:
        return determinize_view(view, viewer, rng)

    # ------------------------------------------------------------------ text
    def parse_action(self, state: DonCarloState, player: Player, text: str) -> DonCarloAction:
        return parse(text)

    def redact_action(self, state: DonCarloState, player: Player, action: DonCarloAction,
                      viewer: Viewer) -> Action:
        return engine.redact_action(state, player, action, viewer)

    def describe(self, state: DonCarloState, player: Player, action: DonCarloAction,
                 viewer: Viewer) -> Message:
        return describe_action(state, player, action, viewer)

    def catalogue(self) -> Catalogue:
        return CATALOGUE

    def starts_section(self, msg: Message) -> bool:
        """The line that opens a round ("Round 3"): the turn has come round past the start seat."""
        return msg.id == "dc.round"

    def table_data(self, options: Mapping[str, object] | None = None) -> dict[str, Any]:
        """Country facts and the card tables as a table with these options plays them."""
        return data.table_data(data.tables(self.data_overrides(options)))

    # ------------------------------------------------------------------ statistics
    def rounds(self, state: DonCarloState) -> int | None:
        """The rounds begun: +1 each time the turn comes round past the start seat (the log's sections)."""
        return state.round

    def seat_roles(self, state: DonCarloState) -> tuple[str, ...] | None:
        """Each seat's family colour (``red``, ``blue``, ``yellow``, ``green`` by seat)."""
        return data.FAMILY_COLOURS[:state.n]

    # ------------------------------------------------------------------ state JSON
    def data_tables(self, overrides: Mapping[str, DataValue]) -> data.Tables:
        """The table's values, shared by every state of a game with these overrides."""
        return data.tables(overrides)

    def render(self, view: DonCarloView, tr: Callable[[Message], str]) -> str:
        return render_view(view, tr)


GAME: Final = DonCarlo()
