"""The lobby's advanced section: a game's overridable rules data, in words, and a table's changes.

A game lists the values of its data module that a table may play with changed
(:attr:`Game.data_specs`, see :class:`~tablero.core.protocol.DataSpec`); a table carries its
changes in its options under ``"data"`` (:data:`~tablero.core.protocol.DATA_OPTION`). The
words come from the game's catalogue: ``data.<NAME>`` is a value's label, ``data.<NAME>.help``
an optional sentence, ``data.<NAME>.rule`` what the game's own check asks of the whole value
(said when the server refuses one). A field of one table row, named ``TABLE.ID.FIELD``, shares
the words ``data.<TABLE>.<FIELD>`` (``.help``, ``.rule``) with the row as their ``{id}``
parameter: the row's name where the catalogue has ``data.<TABLE>.name`` (a template naming a
row from its raw ``{id}``, e.g. a select of region names), else the raw id. Where a label is
missing the data module's name stands in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablero.core.messages import Message, Param, Translator
from tablero.core.protocol import DATA_OPTION, DataSpec, Game, data_json


def _key(name: str, tr: Translator) -> tuple[str, dict[str, Param]]:
    """The catalogue key of a spec's label and its parameters (a row field: the row, named by
    ``data.<TABLE>.name`` where the catalogue has it, else its raw id)."""
    parts = name.split(".")
    if len(parts) >= 3:
        table, row = parts[0], ".".join(parts[1:-1])
        named = f"data.{table}.name"
        return f"data.{table}.{parts[-1]}", {"id": Message(named, id=row) if named in tr.table else row}
    return f"data.{name}", {}


def data_label(spec: DataSpec, tr: Translator) -> str:
    """A spec's label in ``tr``'s language (the catalogue's ``data.<NAME>``), else its name."""
    key, params = _key(spec.name, tr)
    if key not in tr.table:
        return spec.name
    return tr(Message(key, **params))


def value_text(value: object, sep: str = ",") -> str:
    """A data value as text: ``40``, ``6,5,5,4`` (what ``--data`` and the lobby's fields take)."""
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else list(value)
        return sep.join(str(v) for v in items)
    return str(value)


def data_meta(game: Game[Any, Any, Any], lang: str) -> list[dict[str, Any]]:
    """Each overridable value of ``game`` for the lobby, in ``lang``: ``DataSpec.to_json()`` plus
    ``label`` (the catalogue's word), ``about`` (the catalogue's ``data.<NAME>.help``; in English
    the spec's own help where the catalogue has none), ``rule`` (the catalogue's
    ``data.<NAME>.rule``: what the game's own check asks of the whole value — the spec's ``check``
    or one across values —, which the lobby says in its language when the server refuses a value
    for it; "" for none) and ``text`` (the usual value as the field takes it, ``6,5,5,4``)."""
    tr = Translator(lang, [game.catalogue()])
    out = []
    for spec in game.data_specs:
        key, params = _key(spec.name, tr)
        about = tr(Message(key + ".help", **params)) if key + ".help" in tr.table else (
            spec.help if lang == "en" else "")
        rule = tr(Message(key + ".rule", **params)) if key + ".rule" in tr.table else ""
        out.append({**spec.to_json(), "label": data_label(spec, tr), "about": about, "rule": rule,
                    "text": value_text(data_json(spec.default))})
    return out


def data_changes(game: Game[Any, Any, Any], options: Mapping[str, object] | None,
                 tr: Translator) -> list[dict[str, str]]:
    """The rules data a table plays with changed, in words: ``[{"name", "label", "value", "usual"}]``
    (values as text, ``6, 5, 5, 4``), in the order of the game's specs; [] for a table without.
    A value given that equals the usual one (the API takes it) changes nothing and is left out."""
    changed = (options or {}).get(DATA_OPTION)
    if not isinstance(changed, Mapping) or not changed:
        return []
    out = []
    for spec in game.data_specs:
        if spec.name not in changed:
            continue
        value, usual = value_text(changed[spec.name], ", "), value_text(data_json(spec.default), ", ")
        if value != usual:
            out.append({"name": spec.name, "label": data_label(spec, tr), "value": value, "usual": usual})
    return out
