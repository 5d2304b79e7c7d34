"""Every read of an overridable data value goes through the table's data (``state.data``).

A data override (``--data NAME=VALUE``) only applies where the code reads the table's values; a
read of the module constant (``data.GOAL``, ``from .data import CARD_TYPES``) silently plays the
default. To find such reads in the rules, setup, views, words, score sheets and both bots, this
test changes every overridable value of a game's data module — and every alias an import made of
it — and plays games that give every spec's default as an override: they must play, show,
describe and score exactly as with the untouched modules. A direct read sees the changed value.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest

from tablero.bots.registry import make_bot
from tablero.core.match import Match, bot_rng
from tablero.core.messages import Translator
from tablero.core.protocol import DATA_OPTION, Game, data_json
from tablero.games.doncarlo import data as dc_data
from tablero.games.elgrande import data as eg_data
from tablero.games.mafia import data as ml_data
from tablero.registry import GAMES


def _bump(game: str, table: str, rows: tuple[Any, ...], fields: tuple[str, ...]) -> tuple[Any, ...]:
    """Rows of a data table with each of ``fields`` that a spec overrides (``TABLE.ID.FIELD``)
    changed (``None``, the "—", becomes 3)."""
    names = {s.name for s in GAMES[game].data_specs}
    out = []
    for r in rows:
        change: dict[str, Any] = {}
        for f in fields:
            if f"{table}.{r.id}.{f}" not in names:
                continue
            v = getattr(r, f)
            if v is None:
                change[f] = 3
            elif isinstance(v, bool):
                change[f] = not v
            elif isinstance(v, int):
                change[f] = v + 1
        out.append(dataclasses.replace(r, **change) if change else r)
    return tuple(out)


GAME_ML = "mafia-legend"


def _mafia() -> dict[str, Any]:
    d = ml_data
    out: dict[str, Any] = {}
    for spec in d.DATA_SPECS:
        if "." not in spec.name and isinstance(spec.default, int):
            assert spec.high is not None
            out[spec.name] = spec.default + 1 if spec.default < spec.high else spec.default - 1
    out["PAYDAY_MONTHS"] = frozenset({2, 5, 8})
    acts = _bump(GAME_ML, "ACTIONS", d.ACTION_CARDS, ("count", "strength", "stars", "fist", "dollar", "dice"))
    chars = _bump(GAME_ML, "CHARACTERS", d.CHARACTERS,
                  ("influence", "bribe", "blackmail", "dollars", "gift", "four_only"))
    jobs = _bump(GAME_ML, "JOBS", d.JOBS, ("dice_sum", "ep", "dollar", "failure"))
    out.update(ACTION_CARDS=acts, ACTIONS={c.id: c for c in acts}, CHARACTERS=chars, CHARS={c.id: c for c in chars},
               JOBS=jobs, JOBS_BY_ID={j.id: j for j in jobs},
               POWERS=_bump(GAME_ML, "POWERS", d.POWERS, ("threshold", "vp")),
               MONEY_COUNTS={g: k + 1 for g, k in d.MONEY_COUNTS.items()})
    return out


def _el_grande() -> dict[str, Any]:
    d = eg_data
    return {
        "REGIONS": tuple(dataclasses.replace(r, values=(r.values[0] + 2, r.values[1] + 1, r.values[2]))
                         for r in d.REGIONS),
        "POWER_CABALLEROS": tuple(min(x + 1, 6) if i else 0 for i, x in enumerate(d.POWER_CABALLEROS)),
        "CARD_TYPES": _bump("el-grande", "CARD_TYPES", d.CARD_TYPES, ("count",)),
        "REGION_MOVES": d.REGION_MOVES + 1,
        "MOVE_BUDGETS": {c: (mode, k + 1) for c, (mode, k) in d.MOVE_BUDGETS.items()},
        "EXTRA_PLACEMENT": d.EXTRA_PLACEMENT + 1,
        "SECRET_RETURN": d.SECRET_RETURN + 1,
        "CLASS_SCORINGS": {**d.CLASS_SCORINGS, "3C": frozenset(x + 1 for x in d.CLASS_SCORINGS["3C"])},
    }


def _don_carlo() -> dict[str, Any]:
    d = dc_data
    return {
        "FAMILY_COUNTS": tuple(x + 1 for x in d.FAMILY_COUNTS),
        "HAND_SIZE": d.HAND_SIZE + 1,
        "RUN_BONUS": d.RUN_BONUS + 3,
        "TRIPLE_BONUS": d.TRIPLE_BONUS + 3,
        "SUM_BOUNDS": (1, 3, 5, 6, 7, 8, 9, 12),
        "COUNTRIES": tuple(dataclasses.replace(c, sums=frozenset(x + 1 for x in c.sums), players=frozenset({2, 3, 4}))
                           for c in d.COUNTRIES),
    }


CHANGES: dict[str, tuple[ModuleType, Callable[[], dict[str, Any]], tuple[str, ...]]] = {
    # game: (data module, its overridable values changed, its caches of tables built from the module)
    "don-carlo": (dc_data, _don_carlo, ()),  # (its default tables are one object built at import)
    "el-grande": (eg_data, _el_grande, ("_build", "card_amounts")),
    "mafia-legend": (ml_data, _mafia, ("_tables",)),
}
CASES: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "don-carlo": [(3, {})],
    "el-grande": [(4, {"short_game": True})],
    "mafia-legend": [(3, {"variant": "beginner"}), (4, {"missions": True})],
}


def _clear(module: ModuleType, caches: tuple[str, ...]) -> None:
    for name in caches:
        getattr(module, name).cache_clear()


@pytest.fixture
def change_module(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], int]]:
    """Change a game's overridable module values, and every alias of them in tablero's modules."""
    touched: list[tuple[ModuleType, tuple[str, ...]]] = []

    def change(gid: str) -> int:
        module, changes, caches = CHANGES[gid]
        aliases = 0
        for name, new in changes().items():
            old = getattr(module, name)
            for mod in list(sys.modules.values()):
                if not getattr(mod, "__name__", "").startswith("tablero"):
                    continue
                for attr, value in list(vars(mod).items()):
                    if value is old and attr == name:
                        monkeypatch.setattr(mod, attr, new)
                        aliases += 1
        _clear(module, caches)  # tables are built anew from the changed module
        touched.append((module, caches))
        return aliases

    yield change
    monkeypatch.undo()
    for module, caches in touched:
        _clear(module, caches)  # nothing built from the changed module outlives the test


def _difference(a: str, b: str) -> str:
    """Where two items of a trace differ: the path to the first differing JSON value, or the lines."""
    try:
        x, y = json.loads(a), json.loads(b)
    except ValueError:
        diff = [(u, v) for u, v in zip(a.splitlines(), b.splitlines(), strict=False) if u != v]
        return f"{diff[0][0]!r} became {diff[0][1]!r}" if diff else f"{a[-300:]!r} became {b[-300:]!r}"
    path = ""
    while isinstance(x, (dict, list)) and type(x) is type(y) and len(x) == len(y):
        keys = sorted(x) if isinstance(x, dict) else range(len(x))
        k = next((k for k in keys if x[k] != y[k]), None)
        if k is None:
            break
        path, x, y = f"{path}/{k}", x[k], y[k]
    return f"at {path or '/'}: {json.dumps(x)[:300]} became {json.dumps(y)[:300]}"


def _trace(game: Game[Any, Any, Any], players: int, options: dict[str, Any], seed: int) -> list[str]:
    """What a game with greedy and random bots shows: the record, views, pictures and words of the
    options in both languages along the way, the logs, the score sheet and the table's data."""
    opts = {**options, DATA_OPTION: {s.name: data_json(s.default) for s in game.data_specs}}
    m = Match(game, [f"P{i}" for i in range(players)], options=opts, seed=seed)
    bots = {p: make_bot("greedy" if p == 0 else "random", game.id) for p in range(players)}
    rngs = {p: bot_rng(seed, p) for p in range(players)}
    trs = [Translator(lang, [game.catalogue()]) for lang in ("en", "de")]
    out: list[str] = []
    step = 0
    while not m.is_over():
        p = m.pending()[0]
        view, legal = m.view(p), m.legal(p)
        if step % 5 == 0:
            tr = trs[step % 2]
            out += [json.dumps(view.to_json(), sort_keys=True, default=str), game.render(view, tr),
                    " | ".join(tr(m.describe(p, a, p)) for a in legal)]
        m.act(p, bots[p].choose(view, legal, rngs[p]))
        step += 1
    out.append(json.dumps(m.record.to_json(), sort_keys=True, default=str))
    for viewer in [*range(players), None]:
        out.append("\n".join(trs[0](msg) for msg in m.log(viewer)))
    sheet = game.score_sheet(m.state, m.log(None))
    out.append(json.dumps(None if sheet is None else sheet.to_json(), sort_keys=True, default=str))
    out.append(json.dumps(game.table_data(m.options), sort_keys=True, default=str))
    return out


@pytest.mark.parametrize("gid", sorted(CHANGES))
def test_no_code_reads_an_overridable_module_value(gid: str, change_module: Callable[[str], int]) -> None:
    game = GAMES[gid]
    assert game.data_specs
    cases = [(players, options, seed) for players, options in CASES[gid] for seed in (1, 2)]
    usual = [_trace(game, *case) for case in cases]
    assert change_module(gid) >= len(CHANGES[gid][1]())  # the module's own names at least
    for case, before in zip(cases, usual, strict=True):
        after = _trace(game, *case)
        first = next((i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b), None)
        assert first is None, (
            f"{gid} {case}: with the data module's values changed, a game given the defaults as overrides "
            f"differs at item {first} of its trace: some code reads a module constant instead of state.data: "
            f"{_difference(before[first], after[first])}")


def test_the_changed_values_reach_what_reads_the_module(change_module: Callable[[str], int]) -> None:
    """The check's own check: a value not given as an override comes from the changed module (so a
    direct read of it would see the change and make the game differ)."""
    game = GAMES["mafia-legend"]
    given = {s.name: data_json(s.default) for s in game.data_specs if s.name != "BEGINNER_GOAL"}
    change_module("mafia-legend")
    usual = next(sp.default for sp in game.data_specs if sp.name == "BEGINNER_GOAL")
    assert ml_data.BEGINNER_GOAL not in (usual, None)
    s = game.new_initial_state(3, {"variant": "beginner", DATA_OPTION: given})
    assert s.goal == s.data.BEGINNER_GOAL == ml_data.BEGINNER_GOAL
    assert s.data.JOBS_BY_ID["J01"].ep == next(sp.default for sp in game.data_specs if sp.name == "JOBS.J01.ep")
