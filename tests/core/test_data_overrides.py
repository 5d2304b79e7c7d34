"""Data overrides (``--data NAME=VALUE``): checked against a game's DataSpecs, carried in the
options under the reserved key, absent from the options of a game without overrides."""

from __future__ import annotations

import pytest

from tablero.core.errors import DataError, OptionError
from tablero.core.protocol import DATA_OPTION, DataSpec, data_names, resolve_data, resolve_options

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


ROWS = (
    *(DataSpec(name=f"CARDS.C{i:02d}.{f}", default=1, help="a card's number", low=0, high=9)
      for i in range(1, 31) for f in ("count", "fist")),
    DataSpec(name="GOAL", default=50, help="points to win", low=10, high=200),
)


@pytest.mark.parametrize(("name", "hint"), [
    ("goal", "did you mean GOAL?"),  # the case
    ("CARDS.C05.fists", "did you mean CARDS.C05.fist?"),  # a known row's field
    ("CARDS.C5.fist", "CARDS.C05.fist?"),
    ("NOTHING_LIKE_IT", None),
])
def test_an_unknown_name_is_answered_with_the_closest_names_and_a_short_list(name: str, hint: str | None) -> None:
    with pytest.raises(DataError) as info:
        resolve_data("toy", ROWS, {name: 1})
    text = str(info.value)
    assert f"no overridable data value {name!r}" in text
    assert ("did you mean" in text and hint in text) if hint else "did you mean" not in text
    # sixty card fields are listed as one table, not one by one
    assert text.endswith("known: GOAL; CARDS.ID.FIELD (ID C01 … C30, 30 of them; FIELD count, fist)")
    assert data_names(SPECS) == "GOAL, TAKEN, SCORING"
    assert data_names(()) == "none"
