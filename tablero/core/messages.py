"""Words as data: a message id with parameters, rendered per language from catalogues.

Rules code never builds sentences. It emits ``Message("dc.play", seat=0, code="1/1/4")``;
the terminal, the web app and the logs render that with a :class:`Translator` for German or
English. Catalogues are plain ``{language: {message_id: template}}`` mappings that each
game keeps beside its rules (``text.py``).

Rendering conventions for parameter values:

* a nested :class:`Message` is rendered first (country names, card names, ...);
* an ``int`` under a key that is ``seat`` or ends in ``_seat`` is a seat number, rendered as
  that seat's name;
* a tuple is rendered item by item and joined with ", " (under ``seats`` / ``*_seats``: names);
* anything else is ``str()``-ed.

Templates (the same syntax in ``static/boardkit.js`` ``renderMessage``):

* ``{x}`` is the rendered value of parameter ``x``; ``{{`` and ``}}`` are literal braces.
* ``{n:plural:ONE|OTHER}`` is ONE if the raw value of ``n`` is 1 (the number 1 or the string
  "1"; a tuple counts its items), else OTHER; ``#`` inside them is that number.
  ``"{seat} places {n:plural:a caballero|# caballeros}"``.
* ``{x:select:K1=TEXT|K2=TEXT|other=TEXT}`` picks by the raw value of ``x``: a nested
  message's id, else ``str(value)`` (``True``/``False`` for booleans); ``other`` is the
  fallback, also for a parameter the message does not carry (an optional flag).
  ``"{area:select:eg.area.castillo=ins Castillo|other=nach {area}}"``.
* The texts of a plural or select may hold any template (other ``{param}``, another plural
  or select); their braces must balance. Outside a plural, ``#`` is a plain character.
* A plain field keeps ``str.format``'s conversion and spec here (``{text!r}``, ``{n:>3}``: the
  terminal's words use them); boardkit.js shows the plain value.
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
        "core.result.winners": "{seats:plural:Winner|Winners}: {seats}",
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


# ---------------------------------------------------------------------------- templates
@dataclass(frozen=True, slots=True)
class _Field:
    name: str
    conversion: str = ""
    """``r``, ``s`` or ``a`` as in ``str.format`` (``{text!r}``); JavaScript shows the plain value."""
    spec: str = ""
    """A ``str.format`` spec (``{n:>3}``), applied to the raw value; JavaScript ignores it."""


@dataclass(frozen=True, slots=True)
class _Plural:
    name: str
    one: tuple[_Node, ...]
    other: tuple[_Node, ...]


@dataclass(frozen=True, slots=True)
class _Select:
    name: str
    cases: tuple[tuple[str, tuple[_Node, ...]], ...]
    other: tuple[_Node, ...]


@dataclass(frozen=True, slots=True)
class _Hash:
    """``#`` in the text of a plural: the number."""


_Node = str | _Field | _Plural | _Select | _Hash
_HASH = _Hash()


def _closing(text: str, i: int) -> int:
    """Index of the ``}`` that closes the ``{`` at ``i`` (braces nest)."""
    depth = 0
    for j in range(i, len(text)):
        c = text[j]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if not depth:
                return j
    raise ValueError(f"unclosed '{{' at {i} in {text!r}")


def _split_top(body: str, sep: str) -> list[str]:
    """``body`` split at each ``sep`` outside braces."""
    parts: list[str] = []
    depth = 0
    start = 0
    for j, c in enumerate(body):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == sep and not depth:
            parts.append(body[start:j])
            start = j + 1
    parts.append(body[start:])
    return parts


def _parse_field(content: str) -> _Node:
    name, sep, rest = content.partition(":")
    name, bang, conversion = name.partition("!")
    if not name.isidentifier() or (bang and conversion not in ("r", "s", "a")):
        raise ValueError(f"bad placeholder {{{content}}}")
    if not sep or bang:
        return _Field(name, conversion, rest)
    kind, _, body = rest.partition(":")
    if kind == "plural":
        texts = _split_top(body, "|")
        if len(texts) != 2:
            raise ValueError(f"{{{content}}}: a plural needs ONE|OTHER")
        return _Plural(name, parse_template(texts[0], branch=True), parse_template(texts[1], branch=True))
    if kind == "select":
        cases: list[tuple[str, tuple[_Node, ...]]] = []
        other: tuple[_Node, ...] | None = None
        for part in _split_top(body, "|"):
            key, eq, text = part.partition("=")
            if not eq or "{" in key:
                raise ValueError(f"{{{content}}}: a select case is KEY=TEXT, not {part!r}")
            nodes = parse_template(text, branch=True)
            if key.strip() == "other":
                other = nodes
            else:
                cases.append((key.strip(), nodes))
        if other is None:
            raise ValueError(f"{{{content}}}: a select needs an other=TEXT case")
        return _Select(name, tuple(cases), other)
    if kind.startswith(("plural", "select")) or "{" in rest:
        raise ValueError(f"{{{content}}}: a plural or select is {{name:plural:…}} / {{name:select:…}}")
    format("", rest)  # a str.format spec, else ValueError
    return _Field(name, "", rest)


def parse_template(text: str, *, branch: bool = False) -> tuple[_Node, ...]:
    """A template as literal texts and placeholders; raises ``ValueError`` if malformed.

    ``branch`` is true for the texts inside a plural or select, where ``#`` is the number.
    """
    nodes: list[_Node] = []
    buf: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "{" or c == "}":
            if text.startswith(c + c, i):
                buf.append(c)
                i += 2
                continue
            if c == "}":
                raise ValueError(f"single '}}' at {i} in {text!r}")
            j = _closing(text, i)
            if buf:
                nodes.append("".join(buf))
                buf = []
            nodes.append(_parse_field(text[i + 1 : j]))
            i = j + 1
        elif c == "#" and branch:
            if buf:
                nodes.append("".join(buf))
                buf = []
            nodes.append(_HASH)
            i += 1
        else:
            buf.append(c)
            i += 1
    if buf:
        nodes.append("".join(buf))
    return tuple(nodes)


def template_fields(text: str) -> set[str]:
    """Every parameter a template uses, inside plurals and selects too (raises ``ValueError``)."""
    out: set[str] = set()
    stack = list(parse_template(text))
    while stack:
        node = stack.pop()
        if isinstance(node, _Field):
            out.add(node.name)
        elif isinstance(node, _Plural):
            out.add(node.name)
            stack.extend(node.one + node.other)
        elif isinstance(node, _Select):
            out.add(node.name)
            stack.extend(node.other)
            for _, nodes in node.cases:
                stack.extend(nodes)
    return out


def _number_text(v: Param) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _is_one(v: Param) -> bool:
    if isinstance(v, tuple):
        return len(v) == 1
    if isinstance(v, bool):
        return False
    if isinstance(v, (int, float)):
        return v == 1
    return v == "1"


def _count_text(v: Param) -> str:
    if isinstance(v, tuple):
        return str(len(v))
    if v is None or isinstance(v, Message):
        return ""
    return _number_text(v)


def _select_key(v: Param) -> str:
    if isinstance(v, Message):
        return v.id
    if v is None or isinstance(v, tuple):
        return ""
    return _number_text(v)


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
        self._parsed: dict[str, tuple[_Node, ...]] = {}

    def seat(self, seat: int) -> str:
        if 0 <= seat < len(self.seat_names):
            return self.seat_names[seat]
        return self(Message("core.seat", n=seat + 1))

    def __call__(self, msg: Message) -> str:
        template = self.table.get(msg.id)
        if template is None:
            args = ", ".join(f"{k}={self._value(k, v)}" for k, v in msg.params)
            return f"{msg.id}({args})"
        nodes = self._parsed.get(template)
        if nodes is None:
            nodes = self._parsed[template] = parse_template(template)
        if len(nodes) == 1 and isinstance(nodes[0], str):
            return nodes[0]
        raw = dict(msg.params)
        return self._render(nodes, raw, {}, None)

    def _render(self, nodes: tuple[_Node, ...], raw: dict[str, Param], done: dict[str, str],
                number: str | None) -> str:
        out: list[str] = []
        for node in nodes:
            if isinstance(node, str):
                out.append(node)
            elif isinstance(node, _Field):
                if node.conversion or node.spec:
                    out.append(self._formatted(node, raw[node.name]))
                    continue
                text = done.get(node.name)
                if text is None:
                    text = done[node.name] = self._value(node.name, raw[node.name])
                out.append(text)
            elif isinstance(node, _Plural):
                v = raw[node.name]
                out.append(self._render(node.one if _is_one(v) else node.other, raw, done, _count_text(v)))
            elif isinstance(node, _Select):
                key = _select_key(raw.get(node.name))
                chosen = next((nodes for k, nodes in node.cases if k == key), node.other)
                out.append(self._render(chosen, raw, done, number))
            else:
                out.append("#" if number is None else number)
        return "".join(out)

    def _formatted(self, node: _Field, v: Param) -> str:
        """``{x!r}`` / ``{x:>3}`` as ``str.format`` writes them (names and messages rendered first)."""
        value: object = v
        if isinstance(v, (Message, tuple)) or (
                isinstance(v, int) and (node.name == "seat" or node.name.endswith("_seat"))):
            value = self._value(node.name, v)
        if node.conversion == "r":
            value = repr(value)
        elif node.conversion == "a":
            value = ascii(value)
        elif node.conversion == "s":
            value = str(value)
        return format(value, node.spec)

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
        if isinstance(v, float):
            return _number_text(v)  # 2.0 as "2", as JavaScript writes it
        return "" if v is None else str(v)
