"""Words for the lobby and the join page: options as people read them, seat names per language.

The option words live in each game's catalogue (``option.<name>`` a short label,
``option.<name>.help`` one sentence, ``option.<name>.<choice>`` a choice's label); where a word
is missing the engine's name stands in. The lobby draws its form from :func:`option_meta`
(one request, ``/api/meta?lang=``) and the join page tells an invited person the table's options
with :func:`option_words`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tablero.core.protocol import Game, OptionSpec, parse_start_seat
from tablero.server.i18n import UI
from tablero.server.payload import SEAT_LETTERS


def _words(game: Game[Any, Any, Any], lang: str) -> dict[str, str]:
    return dict(game.catalogue().get(lang, {}))


def _kind(o: OptionSpec) -> str:
    """How the form asks for an option: ``bool``, ``choice``, ``seat``, ``map`` or ``text``."""
    if isinstance(o.default, bool):
        return "bool"
    if o.choices:
        return "choice"
    if o.parse is parse_start_seat:
        return "seat"
    if isinstance(o.default, Mapping):
        return "map"
    return "text"


def _key_label(words: Mapping[str, str], name: str, key: str) -> str:
    """A map key's label (a country of Don Carlo's ``country_points``): the option's own word for it,
    else the catalogue's name of that thing (a plain key ``<prefix>.<kind>.<key>``), else the key."""
    own = words.get(f"option.{name}.{key}")
    if own:
        return own
    for k, v in words.items():
        parts = k.split(".")
        if len(parts) == 3 and parts[2] == key and "{" not in v:
            return v
    return key.replace("_", " ").capitalize()


def _json_value(value: object) -> object:
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, Mapping):
        return {str(k): _json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    return str(value)


def option_meta(game: Game[Any, Any, Any], lang: str) -> list[dict[str, Any]]:
    """Each option of ``game`` for the lobby's form, in ``lang``.

    ``{"name", "kind", "label", "help", "default", "choices", "choice_labels"}``, plus ``keys``
    (``[{"key", "label", "default"}]``) for a ``map`` option. ``choices`` are the values a
    ``choice`` offers; for a ``text`` option the values the catalogue names (the form adds a free
    field for anything else); for a ``seat`` option ``"random"`` (the form adds the seats).
    """
    words = _words(game, lang)
    out = []
    for o in game.options:
        kind = _kind(o)
        if kind == "choice":
            choices = list(o.choices)
        elif kind == "seat":
            choices = ["random"]
        elif kind == "text":
            named = [k.split(".", 2)[2] for k in words
                     if k.startswith(f"option.{o.name}.") and k.count(".") == 2 and not k.endswith(".help")]
            choices = ([str(o.default)] if isinstance(o.default, str) else []) + \
                [c for c in named if c != o.default]
        else:
            choices = []
        entry: dict[str, Any] = {
            "name": o.name,
            "kind": kind,
            "label": words.get(f"option.{o.name}") or o.name,
            "help": words.get(f"option.{o.name}.help") or o.help,
            "default": _json_value(o.default),
            "choices": choices,
            "choice_labels": {c: words.get(f"option.{o.name}.{c}") or c for c in choices},
        }
        if kind == "map" and isinstance(o.default, Mapping):
            entry["keys"] = [{"key": str(k), "label": _key_label(words, o.name, str(k)), "default": _json_value(v)}
                             for k, v in o.default.items()]
        out.append(entry)
    return out


def option_words(game: Game[Any, Any, Any], options: Mapping[str, object], names: Sequence[str],
                 lang: str) -> list[dict[str, str]]:
    """The table's options as sentences for people: ``[{"name", "label", "value"}]`` in ``lang``."""
    words = _words(game, lang)
    ui = UI[lang]
    out = []
    for o in game.options:
        value = options.get(o.name, o.default)
        kind = _kind(o)
        if kind == "bool":
            text = ui["lobby.yes"] if value else ui["lobby.no"]
        elif kind == "seat" and isinstance(value, int) and not isinstance(value, bool):
            text = names[value] if 0 <= value < len(names) else SEAT_LETTERS[value % len(SEAT_LETTERS)]
        elif kind == "map" and isinstance(value, Mapping):
            if isinstance(o.default, Mapping) and dict(value) == dict(o.default):
                text = ui["lobby.as_printed"]
            else:
                text = ", ".join(f"{_key_label(words, o.name, str(k))} {v}" for k, v in value.items())
        elif isinstance(value, (list, tuple)):
            text = ", ".join(words.get(f"option.{o.name}.{v}") or str(v) for v in value)
        else:
            text = words.get(f"option.{o.name}.{value}") or str(value)
        out.append({"name": o.name, "label": words.get(f"option.{o.name}") or o.name, "value": text})
    return out


def seat_name(name: str, seat: int, lang: str) -> str:
    """A seat's name as ``lang`` shows it: the chosen name, else "Player B" in that language.

    A person seat gets its name when the person joins (an invite is not a name); the creator's
    own seats get theirs in the lobby. Until then the seat is "Player B" ("Spieler B").
    """
    return name or UI[lang]["seat.unnamed"].format(letter=SEAT_LETTERS[seat])
