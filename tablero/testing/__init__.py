"""Shipped test helpers: the toy game, random playouts and the conformance suite.

``tablero.testing.strategies`` (hypothesis strategies) is not imported here, so that this
package works without hypothesis installed.
"""

from tablero.testing.conformance import (
    ActionPool,
    PlayoutReport,
    Texts,
    check_action_text,
    check_catalogue,
    check_clone,
    check_describe,
    check_determinize,
    check_events,
    check_flow,
    check_illegal_actions,
    check_match,
    check_metadata,
    check_no_leak,
    check_overrides,
    check_playout,
    check_result,
    check_views,
    data_variations,
    fingerprint,
    play_match,
    run_conformance,
)
from tablero.testing.playouts import RandomChooser, Step, choose_step, final_state, random_playout
from tablero.testing.toygame import GAME as TOY_GAME
from tablero.testing.toygame import ToyGame

__all__ = [
    "TOY_GAME",
    "ActionPool",
    "PlayoutReport",
    "RandomChooser",
    "Step",
    "Texts",
    "ToyGame",
    "check_action_text",
    "check_catalogue",
    "check_clone",
    "check_describe",
    "check_determinize",
    "check_events",
    "check_flow",
    "check_illegal_actions",
    "check_match",
    "check_metadata",
    "check_no_leak",
    "check_overrides",
    "check_playout",
    "check_result",
    "check_views",
    "choose_step",
    "data_variations",
    "final_state",
    "fingerprint",
    "play_match",
    "random_playout",
    "run_conformance",
]
