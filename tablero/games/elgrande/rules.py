"""El Grande rules: the ``Game`` façade the registry imports.

Spec: ../shared/rules/el-grande.md (rules version 1). The transitions live in
:mod:`tablero.games.elgrande.engine` (scorings in :mod:`.scoring`); what a seat may know in
:mod:`.view`; words and the table picture in :mod:`.text`; the action space and the one
redaction in :mod:`.actions`. This class ties them to the core protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from random import Random
from typing import Any, Final

from tablero.core.codec import TableCodec
from tablero.core.errors import TableroError
from tablero.core.events import Event
from tablero.core.messages import Catalogue, Message
from tablero.core.protocol import (
    CHANCE,
    Action,
    DataValue,
    Game,
    OptionSpec,
    Player,
    Result,
    ScoreSheet,
    Viewer,
    check_start_seat,
    parse_bool,
    parse_start_seat,
)
from tablero.games.elgrande import actions, data, engine, sheet
from tablero.games.elgrande.actions import EGAction, parse, redact
from tablero.games.elgrande.state import DEAL, PHASE_NAMES, POWER, START, ElGrandeState
from tablero.games.elgrande.text import CATALOGUE, describe, render
from tablero.games.elgrande.view import ElGrandeView, determinize, observe


def _check_bool(value: object, players: int) -> object:
    if not isinstance(value, bool):
        raise ValueError("expected true or false")
    return value


OPTIONS: Final = (
    OptionSpec(name="short_game", default=False, parse=parse_bool, check=_check_bool,
               help="the official 6-round game: rounds 1, 4 and 7 are skipped (§12)"),
    OptionSpec(name="start_seat", default="random", parse=parse_start_seat, check=check_start_seat,
               help="seat that plays the first power card: a seat number or 'random' (§4)"),
    OptionSpec(name="castillo_open", default=False, parse=parse_bool, check=_check_bool,
               help="show the running Castillo counts (they are public either way, §13)"),
)


def _phase_name(s: ElGrandeState) -> str:
    return f"phase: {PHASE_NAMES[s.phase]}"


class ElGrande(Game[ElGrandeState, EGAction, ElGrandeView]):
    """El Grande (Kramer & Ulrich; Hans im Glück 1995), 2–5 players.

    | | |
    |---|---|
    | decisions | power cards, intake, action card, order, each placement, Veto!, |
    | | every sub-choice of the 33 card types, secret disks (§14) |
    | chance | region cards at setup, each card turned up from stacks 1–4, the start seat |
    | hidden | secret disks until the reveal; the power card taken back with 4E; stack order |
    | rules versions | 1: el-grande.md rules version 1 |
    """

    id = "el-grande"
    title = "El Grande"
    rules_version = data.RULES_VERSION
    data_version = data.DATA_VERSION
    min_players = 2
    max_players = 5
    options = OPTIONS
    data_specs = data.DATA_SPECS
    state_type = ElGrandeState

    # ------------------------------------------------------------------ setup (§5)
    def resolve_options(self, players: int, options: Mapping[str, object] | None = None) -> dict[str, Any]:
        """The core's resolution, then the data overrides checked together (DataError): no region
        left without neighbours, every stack of 1-4 with a card for each round."""
        opts = super().resolve_options(players, options)
        data.tables(self.data_overrides(opts))
        return opts

    def new_initial_state(self, players: int, options: Mapping[str, object] | None = None) -> ElGrandeState:
        opts = self.resolve_options(players, options)
        start = opts["start_seat"]
        return engine.new_state(players, short_game=bool(opts["short_game"]),
                                castillo_open=bool(opts["castillo_open"]),
                                start_option=None if start == "random" else int(start),
                                tables=data.tables(self.data_overrides(opts)))

    def max_game_length(self, players: int) -> int:
        return 4000

    # ------------------------------------------------------------------ flow
    def to_act(self, state: ElGrandeState) -> tuple[Player, ...]:
        return state.actors

    def generate_legal(self, state: ElGrandeState, player: Player) -> Sequence[EGAction]:
        return tuple(engine.legal_actions(state, player))

    def chance_outcomes(self, state: ElGrandeState) -> Sequence[tuple[EGAction, float]]:
        return engine.chance_outcomes(state)

    def sample_chance(self, state: ElGrandeState, rng: Random) -> EGAction:
        return engine.sample_chance(state, rng)

    def is_chance_outcome(self, state: ElGrandeState, action: EGAction) -> bool:
        return engine.is_chance_outcome(state, action)

    def always_asked(self, state: ElGrandeState, player: Player) -> bool:
        """True in the power-card phase for a seat that has taken a card back with 4E.

        Which value went back to his hand is his secret (§13): the others cannot tell how many
        of his cards are still playable this round (one left, or two of which the others have
        played one this round?), so a forced step applied at once would tell them. Everywhere
        else the number of options follows from public facts (the board, the public power log,
        who has committed), so a single option is applied at once.
        """
        return state.phase == POWER and 0 in state.power_log[player]

    def step(self, state: ElGrandeState, player: Player, action: EGAction, events: list[Event] | None) -> None:
        engine.step(state, player, action, events)

    def explain_not_to_act(self, state: ElGrandeState, player: Player) -> str:
        if player == CHANCE:
            return f"no chance event is due now ({_phase_name(state)})"
        return f"seat {player} cannot act now ({_phase_name(state)})"

    def explain_illegal(self, state: ElGrandeState, player: Player, action: EGAction) -> str:
        if player == CHANCE:
            return f"{action.to_text()!r} is not a possible chance outcome now"
        return f"{action.to_text()!r} is not legal for seat {player} now ({_phase_name(state)})"

    # ------------------------------------------------------------------ results
    def result(self, state: ElGrandeState) -> Result | None:
        return engine.result(state)

    def score_sheet(self, state: ElGrandeState, log: Sequence[Message]) -> ScoreSheet | None:
        """Each general scoring per area with the King's and Grande bonuses, each scoring card (:mod:`.sheet`)."""
        return sheet.score_sheet(state, log)

    # ------------------------------------------------------------------ action spaces
    def action_codec(self, players: int, options: Mapping[str, object] | None = None) -> TableCodec[EGAction]:
        """Every seat decision for ``players`` seats: see ``actions``. Options change nothing in
        it but a data override of ``POWER_CABALLEROS`` above 6, which adds the larger intakes."""
        self._check_players(players)
        cab = data.tables(self.data_overrides(options)).POWER_CABALLEROS
        return actions.seat_codec(players, max(*data.POWER_CABALLEROS, *cab))

    # ------------------------------------------------------------------ positions
    def data_tables(self, overrides: Mapping[str, DataValue]) -> data.Tables:
        """The table's values, shared by every state of a game with these overrides."""
        return data.tables(overrides)

    def chance_codec(self, players: int, options: Mapping[str, object] | None = None) -> TableCodec[EGAction]:
        self._check_players(players)
        return actions.chance_codec(players)

    def _check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise TableroError(f"{self.id} takes {self.min_players}-{self.max_players} players, not {players}")

    # ------------------------------------------------------------------ information
    def view_seat(self, view: ElGrandeView) -> Viewer:
        return None if view.private is None else view.private.seat

    def observe(self, state: ElGrandeState, viewer: Viewer) -> ElGrandeView:
        return observe(state, viewer)

    def determinize(self, view: ElGrandeView, viewer: Player, rng: Random) -> ElGrandeState:
        return determinize(view, viewer, rng)

    # ------------------------------------------------------------------ text
    def parse_action(self, state: ElGrandeState, player: Player, text: str) -> EGAction:
        return parse(text)

    def redact_action(self, state: ElGrandeState, player: Player, action: EGAction, viewer: Viewer) -> Action:
        """A secret disk and a 4E take-back show to all but the actor as ``disk`` / ``take_back``."""
        return redact(player, action, viewer)

    def describe(self, state: ElGrandeState, player: Player, action: EGAction, viewer: Viewer) -> Message:
        return describe(player, action, viewer, state.data)

    def catalogue(self) -> Catalogue:
        return CATALOGUE

    def starts_section(self, msg: Message) -> bool:
        """The line that opens a round ("Round 3")."""
        return msg.id == "eg.round"

    def table_data(self, options: Mapping[str, object] | None = None) -> dict[str, Any]:
        """Region values, borders, card counts and power-card table as the table plays them
        (its data overrides applied; they are listed under ``overrides``)."""
        return data.table_data(data.tables(self.data_overrides(options)))

    def rounds(self, state: ElGrandeState) -> int | None:
        """Rounds begun (a finished game: 9, or 6 in the short game); 0 before the first."""
        return 0 if state.phase in (DEAL, START) and state.ri == 0 else state.ri + 1

    def seat_roles(self, state: ElGrandeState) -> tuple[str, ...] | None:
        """Each seat's colour (``data.COLOURS``: seat 0 yellow, 1 red, ...)."""
        return data.COLOURS[: state.n]

    def render(self, view: ElGrandeView, tr: Callable[[Message], str]) -> str:
        return render(view, tr)


GAME: Final = ElGrande()
