"""Words as data: a message id with parameters, rendered per language from catalogues.

Rules code never builds sentences. It emits ``Message("dc.play", seat=0, code="1/1/4")``;
the terminal, the web app and the logs render that with a :class:`Translator` for German or
English. Catalogues are plain ``{language: {message_id: format_string}}`` mappings that each
game keeps beside its rules (``text.py``).

Rendering conventions for parameter values:

* a nested :class:`Message` is rendered first (country names, card names, ...);
* an ``int`` under a key that is ``seat`` or ends in ``_seat`` is a seat number, rendered as
  that seat's name;
* a tuple is rendered item by item and joined with ", ";
* anything else is ``str()``-ed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Union

Param = Union[str, int, float, bool, "Message", tuple["Param", ...], None]

LANGUAGES: tuple[str, ...] = ("en", "de")

Catalogue = Mapping[str, Mapping[str, str]]


@dataclass(frozen=True, slots=True, init=False)
class Message:
    """A message id plus parameters; immutable, comparable, JSON-serializable."""

    id: str
    params: tuple[tuple[str, Param], ...]

    def __init__(self, id: str, /, **params: Param) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "params", tuple(sorted(params.items())))

    def get(self, key: str) -> Param:
        for k, v in self.params:
            if k == key:
                return v
        raise KeyError(key)

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "params": {k: _param_json(v) for k, v in self.params}}

    @staticmethod
    def from_json(data: Mapping[str, object]) -> Message:
        raw = data.get("params", {})
        assert isinstance(raw, Mapping)
        return Message(str(data["id"]), **{str(k): _param_from_json(v) for k, v in raw.items()})

    def ids(self) -> list[str]:
        """This message's id and the ids of every nested message (for catalogue checks)."""
        out = [self.id]
        stack: list[Param] = [v for _, v in self.params]
        while stack:
            v = stack.pop()
            if isinstance(v, Message):
                out.extend(v.ids())
            elif isinstance(v, tuple):
                stack.extend(v)
        return out


def _param_json(v: Param) -> object:
    if isinstance(v, Message):
        return {"message": v.to_json()}
    if isinstance(v, tuple):
        return [_param_json(x) for x in v]
    return v


def _param_from_json(v: object) -> Param:
    if isinstance(v, dict) and "message" in v:
        return Message.from_json(v["message"])
    if isinstance(v, list):
        return tuple(_param_from_json(x) for x in v)
    assert v is None or isinstance(v, (str, int, float, bool))
    return v


CORE_CATALOGUE: Catalogue = {
    "en": {
        "core.seat": "Seat {n}",
        "core.chance": "Chance",
        "core.nobody": "nobody",
        "core.result.rank": "{rank}. {seat}: {score}",
        "core.result.winners": "Winner: {seats}",
        "core.spectator": "Spectator",
        "core.undo": "{seat} took back: {action}",
        "core.undo.plain": "{seat} took back a move",
    },
    "de": {
        "core.seat": "Platz {n}",
        "core.chance": "Zufall",
        "core.nobody": "niemand",
        "core.result.rank": "{rank}. {seat}: {score}",
        "core.result.winners": "Gewinner: {seats}",
        "core.spectator": "Zuschauer",
        "core.undo": "{seat} nimmt zurück: {action}",
        "core.undo.plain": "{seat} nimmt einen Zug zurück",
    },
}


class Translator:
    """Renders messages in one language with the given catalogues and seat names."""

    def __init__(
        self,
        lang: str,
        catalogues: Sequence[Catalogue],
        seat_names: Sequence[str] = (),
    ) -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
        self.lang = lang
        self.table: dict[str, str] = {}
        for cat in (CORE_CATALOGUE, *catalogues):
            self.table.update(cat.get(lang, {}))
        self.seat_names = list(seat_names)

    def seat(self, seat: int) -> str:
        if 0 <= seat < len(self.seat_names):
            return self.seat_names[seat]
        return self(Message("core.seat", n=seat + 1))

    def __call__(self, msg: Message) -> str:
        template = self.table.get(msg.id)
        values = {k: self._value(k, v) for k, v in msg.params}
        if template is None:
            args = ", ".join(f"{k}={v}" for k, v in values.items())
            return f"{msg.id}({args})"
        return template.format(**values)

    def _value(self, key: str, v: Param) -> str:
        if isinstance(v, Message):
            return self(v)
        if isinstance(v, bool):
            return str(v)
        if isinstance(v, int) and (key == "seat" or key.endswith("_seat")):
            return self.seat(v)
        if isinstance(v, tuple):
            if key == "seats" or key.endswith("_seats"):
                return ", ".join(self.seat(int(x)) for x in v if isinstance(x, int))
            return ", ".join(self._value("", x) for x in v)
        return "" if v is None else str(v)
