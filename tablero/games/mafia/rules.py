"""Mafia Legend rules (spec: ../shared/rules/mafia-legend.md, a reconstruction; rules version 1).

The ``Game`` façade: options, the protocol methods, and where each is done — the flow in
``engine.py`` (a stack of tasks, one handler per step of the spec), the decisions in
``moves.py``, views and determinization in ``view.py``, words in ``text.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from random import Random
from typing import Any, Final

from tablero.core.codec import ActionCodec
from tablero.core.errors import OptionError
from tablero.core.events import Event
from tablero.core.messages import Catalogue, Message
from tablero.core.protocol import (
    CHANCE,
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
from tablero.games.mafia import data, engine, moves, sheet, text
from tablero.games.mafia.actions import MLAction, act, chance_actions, parse, seat_actions
from tablero.games.mafia.state import LastAction, MafiaState
from tablero.games.mafia.view import MafiaView, determinize, observe


# ---------------------------------------------------------------------------- options
def _parse_families(text: str) -> object:
    t = text.strip().lower()
    if t in ("choose", "seats"):
        return t
    return tuple(x.strip() for x in t.split(","))


def _check_families(value: object, players: int) -> object:
    if value == "choose":
        return value
    if value == "seats":  # given in seat order: A Moretti, B Rinaldi, C Orsini, D Lombardo
        return data.FAMILIES[:players]
    if isinstance(value, (list, tuple)):
        fams = tuple(str(x) for x in value)
        if len(fams) != players or len(set(fams)) != players or not set(fams) <= set(data.FAMILIES):
            raise ValueError(f"give {players} different families from {', '.join(data.FAMILIES)}")
        return fams
    raise ValueError("expected 'choose', 'seats' or a comma-separated list of families")


def _check_choice(choices: tuple[str, ...]) -> Callable[[object, int], object]:
    def check(value: object, players: int) -> object:
        if value not in choices:
            raise ValueError(f"choose one of {', '.join(choices)}")
        return value
    return check


def _check_bool(value: object, players: int) -> object:
    if not isinstance(value, bool):
        raise ValueError("expected true or false")
    return value


OPTIONS: Final = (
    OptionSpec(name="variant", default="advanced", parse=str, choices=("advanced", "beginner"),
               check=_check_choice(("advanced", "beginner")), help="advanced (every rule) or beginner (§16)"),
    OptionSpec(name="missions", default=False, parse=parse_bool, check=_check_bool,
               help="Godfather missions (advanced game only)"),
    OptionSpec(name="start_seat", default="random", parse=parse_start_seat, check=check_start_seat,
               help="first start player: a seat or 'random'"),
    OptionSpec(name="families", default="choose", parse=_parse_families, check=_check_families,
               help="'choose', 'seats' (in seat order) or one family per seat, e.g. moretti,rinaldi,orsini"),
    OptionSpec(name="bonus_basis", default="month", parse=str, choices=("month", "total"),
               check=_check_choice(("month", "total")), help="ME6 counts characters acquired this month or owned"),
)



_ROLLS: Final = frozenset(str(v) for v in range(1, data.DIE_SIDES + 1))


class Mafia(Game[MafiaState, MLAction, MafiaView]):
    """Mafia Legend (Bickmann; Eisenwald 2021), 3–4 players, from the reconstructed spec.

    | | |
    |---|---|
    | decisions | the catalogue of §18.1, lists split into single-card decisions |
    | chance | every card drawn (one node per card), each W8, the start seat |
    | hidden | hands, screens, face-down grid cards, missions, deck order, secret discards |
    | rules versions | 1: mafia-legend.md rules version 1 |
    """

    id = "mafia-legend"
    title = "Mafia Legend"
    rules_version = data.RULES_VERSION
    data_version = data.DATA_VERSION
    min_players = 3
    max_players = 4
    options = OPTIONS
    data_specs = data.DATA_SPECS
    state_type = MafiaState

    # ------------------------------------------------------------------ setup (§5.1)
    def resolve_options(self, players: int, options: Mapping[str, object] | None = None) -> dict[str, Any]:
        out = super().resolve_options(players, options)
        if out["missions"] and out["variant"] == "beginner":
            raise OptionError("option missions=true needs variant=advanced (§16)")
        return out

    def new_initial_state(self, players: int, options: Mapping[str, object] | None = None) -> MafiaState:
        o = self.resolve_options(players, options)
        return engine.initial_state(
            players, variant=str(o["variant"]), missions=bool(o["missions"]),
            start_seat=None if o["start_seat"] == "random" else int(o["start_seat"]),
            families=None if o["families"] == "choose" else tuple(o["families"]),
            bonus_basis=str(o["bonus_basis"]), tables=data.tables(self.data_overrides(o)))

    def max_game_length(self, players: int) -> int:
        return 30_000

    # ------------------------------------------------------------------ flow
    def to_act(self, state: MafiaState) -> tuple[Player, ...]:
        return state.actors

    def always_asked(self, state: MafiaState, player: Player) -> bool:
        """Steps 1–3 of a played turn and DEFEND are asked even with one option (§18.4): they
        exist by public facts only, and skipping them when a hidden card makes an option
        illegal would leak it (a seat without a covering defence card, a hand with nothing to
        play)."""
        d = state.decision
        return d is not None and d.kind in ("turn", "defend")

    def generate_legal(self, state: MafiaState, player: Player) -> Sequence[MLAction]:
        return moves.legal_actions(state, player)

    def chance_outcomes(self, state: MafiaState) -> Sequence[tuple[MLAction, float]]:
        s = state
        d = s.decision
        if d is None:
            return []
        if d.kind == "chance_start":
            return [(act("start", q), 1.0 / s.n) for q in range(s.n)]
        if d.kind == "chance_roll":
            return [(act("roll", v), 1.0 / data.DIE_SIDES) for v in range(1, data.DIE_SIDES + 1)]
        if d.kind == "chance_draw":
            deck = s.decks[d.deck]
            total = engine.count_cards(deck)
            return [(act("draw", c), deck[c] / total) for c in sorted(deck)]
        return []

    def sample_chance(self, state: MafiaState, rng: Random) -> MLAction:
        s = state
        d = s.decision
        assert d is not None
        if d.kind == "chance_start":
            return act("start", rng.randrange(s.n))
        if d.kind == "chance_roll":
            return act("roll", rng.randrange(data.DIE_SIDES) + 1)
        deck = s.decks[d.deck]
        r = rng.randrange(engine.count_cards(deck))
        for c in sorted(deck):
            r -= deck[c]
            if r < 0:
                return act("draw", c)
        raise AssertionError("deck counts out of step")

    def is_chance_outcome(self, state: MafiaState, action: MLAction) -> bool:
        d = state.decision
        if d is None or len(action.args) != 1:
            return False
        arg = action.args[0]
        if d.kind == "chance_start":
            return action.kind == "start" and arg in {str(q) for q in range(state.n)}
        if d.kind == "chance_roll":
            return action.kind == "roll" and arg in _ROLLS
        return d.kind == "chance_draw" and action.kind == "draw" and state.decks[d.deck].get(arg, 0) > 0

    def step(self, state: MafiaState, player: Player, action: MLAction, events: list[Event] | None) -> None:
        s = state
        public = moves.redact_action(s, player, action, None).to_text()
        if player == CHANCE:
            engine.apply_chance(s, action, events)
        else:
            moves.decide(s, player, action, events)
        s.last = LastAction(player, action.to_text(), public)
        engine.end_check(s, events)
        engine.run(s, events)

    def explain_not_to_act(self, state: MafiaState, player: Player) -> str:
        return "no chance event is due now" if player == CHANCE else f"seat {player} cannot act now"

    def explain_illegal(self, state: MafiaState, player: Player, action: MLAction) -> str:
        if player == CHANCE:
            return f"{action.to_text()!r} is not a possible chance outcome now"
        kind = state.decision.kind if state.decision is not None else "none"
        return f"{action.to_text()!r} is not legal for seat {player} now (decision: {kind})"

    def result(self, state: MafiaState) -> Result | None:
        s = state
        if not s.over:
            return None
        keys = [engine.tiebreak(s, q) for q in range(s.n)]
        ranks = tuple(1 + sum(1 for o in keys if o > k) for k in keys)
        return Result(scores=tuple(float(v) for v in s.vp), ranks=ranks, declared_winners=s.winners)

    def score_sheet(self, state: MafiaState, log: Sequence[Message]) -> ScoreSheet | None:
        """VP by source: jobs, gifts, sets, power cards, monthly bonus, scandals, magnifier (:mod:`.sheet`)."""
        return sheet.score_sheet(state, log)

    # ------------------------------------------------------------------ action spaces
    def action_codec(self, players: int, options: Mapping[str, object] | None = None) -> ActionCodec[MLAction]:
        """Every seat action (``actions.seat_actions``): the same for every option."""
        return seat_actions(players)

    def chance_codec(self, players: int, options: Mapping[str, object] | None = None) -> ActionCodec[MLAction]:
        """Every chance outcome (``actions.chance_actions``): the same for every option."""
        return chance_actions(players)

    # ------------------------------------------------------------------ information
    def view_seat(self, view: MafiaView) -> Viewer:
        return None if view.private is None else view.private.seat

    def observe(self, state: MafiaState, viewer: Viewer) -> MafiaView:
        return observe(state, viewer)

    def determinize(self, view: MafiaView, viewer: Player, rng: Random) -> MafiaState:
        return determinize(view, viewer, rng)

    # ------------------------------------------------------------------ text
    def parse_action(self, state: MafiaState, player: Player, text: str) -> MLAction:
        return parse(text)

    def redact_action(self, state: MafiaState, player: Player, action: MLAction, viewer: Viewer) -> MLAction:
        return moves.redact_action(state, player, action, viewer)

    def describe(self, state: MafiaState, player: Player, action: MLAction, viewer: Viewer) -> Message:
        return text.describe(state, player, action, viewer)

    def catalogue(self) -> Catalogue:
        return text.CATALOGUE

    def starts_section(self, msg: Message) -> bool:
        """The line that opens a month ("Month 3")."""
        return msg.id == "ml.month"

    def table_data(self, options: Mapping[str, object] | None = None) -> dict[str, Any]:
        """The card tables and overridable numbers as a table with these options plays them."""
        return data.table_data(data.tables(self.data_overrides(options)))

    # ------------------------------------------------------------------ statistics
    def rounds(self, state: MafiaState) -> int | None:
        """The months played: the month under way (the last month, once the game is over)."""
        return state.month

    def seat_roles(self, state: MafiaState) -> tuple[str, ...] | None:
        """Each seat's family id (``moretti`` ...), ``""`` while a seat has not chosen yet."""
        return tuple(state.family)

    # ------------------------------------------------------------------ state JSON
    def data_tables(self, overrides: Mapping[str, DataValue]) -> data.Tables:
        """The table's values, shared by every state of a game with these overrides."""
        return data.tables(overrides)

    def render(self, view: MafiaView, tr: Callable[[Message], str]) -> str:
        return text.render(view, tr)


GAME: Final = Mafia()
__all__ = ["GAME", "OPTIONS", "Mafia"]
