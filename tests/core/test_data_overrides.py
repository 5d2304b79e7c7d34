"""Data overrides (``--data NAME=VALUE``): checked against a game's DataSpecs, carried in the
options under the reserved key, absent from the options of a game without overrides."""

from __future__ import annotations

import pytest

from tablero.core.errors import DataError, OptionError
from tablero.core.protocol import DATA_OPTION, DataSpec, resolve_data, resolve_options

SPECS = (
    DataSpec(name="GOAL", default=50, help="points to win", low=10, high=200),
    DataSpec(name="TAKEN", default=(0, 6, 5, 5), help="per card", low=0, high=9),
    DataSpec(name="SCORING", default=frozenset({3, 6, 9}), help="rounds", low=1, high=9,
             check=lambda v: None if v else (_ for _ in ()).throw(ValueError("at least one round"))),
)


def test_text_and_json_values_are_parsed_to_the_kind_of_the_default() -> None:
    got = resolve_data("toy", SPECS, {"GOAL": "40", "TAKEN": "1,2,3,4", "SCORING": [9, 3]})
    assert got == {"GOAL": 40, "TAKEN": (1, 2, 3, 4), "SCORING": frozenset({3, 9})}
    assert resolve_data("toy", SPECS, {"TAKEN": [1, 2, 3, 4]})["TAKEN"] == (1, 2, 3, 4)


@pytest.mark.parametrize(("overrides", "words"), [
    ({"GOLD": "3"}, "no overridable data value 'GOLD'"),
    ({"GOAL": "x"}, "whole number"),
    ({"GOAL": True}, "whole number"),
    ({"GOAL": "5"}, "out of range 10..200"),
    ({"GOAL": "40,50"}, "one whole number"),
    ({"TAKEN": "1,2,3"}, "takes 4 numbers"),
    ({"SCORING": ""}, "at least one round"),
    ("GOAL=3", "NAME=VALUE"),
])
def test_bad_overrides_are_refused_with_a_clear_error(overrides: object, words: str) -> None:
    with pytest.raises(DataError, match=words):
        resolve_data("toy", SPECS, overrides)


def test_options_carry_resolved_overrides_only_when_there_are_any() -> None:
    plain = resolve_options("toy", 2, 4, (), 3, {}, SPECS)
    assert DATA_OPTION not in plain
    opts = resolve_options("toy", 2, 4, (), 3, {DATA_OPTION: {"SCORING": "9,3"}}, SPECS)
    assert opts[DATA_OPTION] == {"SCORING": [3, 9]}
    # resolving again (a record's options, a stored game's) gives the same
    assert resolve_options("toy", 2, 4, (), 3, opts, SPECS) == opts
    with pytest.raises(OptionError):  # a DataError is an OptionError: every caller already shows it
        resolve_options("toy", 2, 4, (), 3, {DATA_OPTION: {"GOAL": "1"}}, SPECS)
