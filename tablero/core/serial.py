"""States to JSON and back, driven by the state class's type annotations.

A game state is plain annotated data (``__slots__`` with one annotation per field). The
annotation says how a field goes to JSON and comes back with the very same Python types:
tuples stay tuples, ``dict[int, …]`` keys come back as ints, ``bytearray`` as ``bytearray``,
frozen dataclasses and named tuples field by field, enums by value. A field annotated ``Any``
uses a tagged encoding that keeps lists, tuples, dicts, sets and bytes apart.

So a game gets ``state_to_json`` / ``state_from_json`` for free by annotating its state; a
field that cannot be encoded raises :class:`TypeError` naming it (then annotate it properly,
or override the two methods of :class:`~tablero.core.protocol.Game`).
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import types
import typing
from functools import cache
from typing import Any, Union, get_args, get_origin, get_type_hints

CACHE_FIELD = "legal_cache"
"""The core's per-state cache of legal actions (not part of the position)."""


_FIELDS: dict[type, tuple[tuple[str, Any], ...]] = {}


def state_fields(cls: type) -> tuple[tuple[str, Any], ...]:
    """The (name, annotation) of every field of a state class, in declaration order."""
    known = _FIELDS.get(cls)
    if known is not None:
        return known
    hints = get_type_hints(cls)
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        for name in getattr(klass, "__annotations__", {}):
            if name not in names and name != CACHE_FIELD and not name.startswith("__"):
                hint = hints.get(name)
                if get_origin(hint) is typing.ClassVar:
                    continue
                names.append(name)
    _FIELDS[cls] = out = tuple((n, hints[n]) for n in names)
    return out


def state_to_json(state: object, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """Every annotated field of ``state`` (but those in ``skip``) as JSON-ready data."""
    out: dict[str, Any] = {}
    for name, hint in state_fields(type(state)):
        if name in skip:
            continue
        try:
            value = getattr(state, name)
        except AttributeError as exc:
            raise TypeError(f"{type(state).__name__}.{name} is not set") from exc
        try:
            out[name] = dump(value, hint)
        except TypeError as exc:
            raise TypeError(f"{type(state).__name__}.{name}: {exc}") from exc
    return out


def state_from_json(cls: type[Any], data: dict[str, Any], skip: tuple[str, ...] = ()) -> Any:
    """A state of class ``cls`` rebuilt from :func:`state_to_json` output (the fields in
    ``skip`` are left for the caller to set)."""
    obj = object.__new__(cls)
    fields = tuple((n, h) for n, h in state_fields(cls) if n not in skip)
    missing = [n for n, _ in fields if n not in data]
    extra = sorted(set(data) - {n for n, _ in fields})
    if missing or extra:
        raise ValueError(f"state JSON does not fit {cls.__name__}: missing {missing}, unknown {extra}")
    for name, hint in fields:
        setattr(obj, name, load(data[name], hint))
    if hasattr(cls, "__slots__") and CACHE_FIELD in _all_slots(cls):
        setattr(obj, CACHE_FIELD, None)
    return obj


def _all_slots(cls: type) -> set[str]:
    out: set[str] = set()
    for klass in cls.__mro__:
        slots = getattr(klass, "__slots__", ())
        out.update((slots,) if isinstance(slots, str) else slots)
    return out


def canonical(data: Any) -> str:
    """Compact, key-sorted JSON text: equal states give equal text."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def stable_hash(data: Any) -> str:
    """A hash of JSON data that is the same on every machine and run (SHA-256, 16 hex digits)."""
    return hashlib.sha256(canonical(data).encode()).hexdigest()[:16]


def debug_text(data: dict[str, Any]) -> str:
    """One ``field: value`` line per field, for people reading a position."""
    width = max((len(k) for k in data), default=0)
    return "\n".join(f"{k.ljust(width)}  {json.dumps(v, ensure_ascii=False)}" for k, v in data.items())


def plain(value: Any) -> Any:
    """A view (or part of one) as JSON-ready data: dataclasses by field name, tuples as lists.

    Named tuples become lists too (boards read them by position); other values stay as they are.
    """
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


# ---------------------------------------------------------------------- by annotation
def _is_union(origin: Any) -> bool:
    return origin is Union or origin is types.UnionType


def dump(value: Any, hint: Any) -> Any:
    """``value`` (of type ``hint``) as JSON-ready data."""
    if hint is Any or hint is object:
        return dump_any(value)
    origin = get_origin(hint)
    if origin is typing.Literal:
        return value
    if _is_union(origin):
        if value is None:
            return None
        options = [a for a in get_args(hint) if a is not type(None)]
        if len(options) == 1:
            return dump(value, options[0])
        return dump_any(value)
    if origin in (list, tuple, set, frozenset):
        args = get_args(hint)
        if origin is tuple and args and (len(args) != 2 or args[1] is not Ellipsis):
            return [dump(v, a) for v, a in zip(value, args, strict=True)]
        item = args[0] if args else Any
        items = sorted(value) if origin in (set, frozenset) else value
        return [dump(v, item) for v in items]
    if origin is dict:
        kt, vt = get_args(hint) or (Any, Any)
        return [[dump(k, kt), dump(v, vt)] for k, v in value.items()]
    if isinstance(hint, type):
        if hint in (int, float, str, bool):
            return value
        if hint in (bytearray, bytes):
            return list(value)
        if issubclass(hint, enum.Enum):
            return value.value
        if dataclasses.is_dataclass(hint):
            return {f.name: dump(getattr(value, f.name), h)
                    for f, h in zip(dataclasses.fields(hint), _dc_hints(hint), strict=True)}
        if issubclass(hint, tuple) and hasattr(hint, "_fields"):
            hints = get_type_hints(hint)
            return {f: dump(getattr(value, f), hints.get(f, Any)) for f in hint._fields}
        if hasattr(hint, "__slots__") and get_type_hints(hint):
            return state_to_json(value)
    raise TypeError(f"cannot encode a value annotated {hint!r}")


def load(data: Any, hint: Any) -> Any:
    """The inverse of :func:`dump`."""
    if hint is Any or hint is object:
        return load_any(data)
    origin = get_origin(hint)
    if origin is typing.Literal:
        return data
    if _is_union(origin):
        if data is None:
            return None
        options = [a for a in get_args(hint) if a is not type(None)]
        if len(options) == 1:
            return load(data, options[0])
        return load_any(data)
    if origin in (list, tuple, set, frozenset):
        args = get_args(hint)
        if origin is tuple and args and (len(args) != 2 or args[1] is not Ellipsis):
            return tuple(load(v, a) for v, a in zip(data, args, strict=True))
        item = args[0] if args else Any
        return origin(load(v, item) for v in data)
    if origin is dict:
        kt, vt = get_args(hint) or (Any, Any)
        return {load(k, kt): load(v, vt) for k, v in data}
    if isinstance(hint, type):
        if hint is float:
            return float(data)
        if hint in (int, str, bool):
            return data
        if hint in (bytearray, bytes):
            return hint(data)
        if issubclass(hint, enum.Enum):
            return hint(data)
        if dataclasses.is_dataclass(hint):
            return hint(**{f.name: load(data[f.name], h)
                           for f, h in zip(dataclasses.fields(hint), _dc_hints(hint), strict=True)})
        if issubclass(hint, tuple) and hasattr(hint, "_fields"):
            hints = get_type_hints(hint)
            return hint(*(load(data[f], hints.get(f, Any)) for f in hint._fields))
        if hasattr(hint, "__slots__") and get_type_hints(hint):
            return state_from_json(hint, data)
    raise TypeError(f"cannot decode a value annotated {hint!r}")


@cache
def _dc_hints(cls: type) -> tuple[Any, ...]:
    hints = get_type_hints(cls)
    return tuple(hints[f.name] for f in dataclasses.fields(cls))


# ---------------------------------------------------------------------- untyped (Any)
def dump_any(value: Any) -> Any:
    """Tagged JSON for a value of unknown type: lists stay lists, every other container is tagged."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list):
        return [dump_any(v) for v in value]
    if isinstance(value, tuple):
        return {"tuple": [dump_any(v) for v in value]}
    if isinstance(value, dict):
        return {"dict": [[dump_any(k), dump_any(v)] for k, v in value.items()]}
    if isinstance(value, (set, frozenset)):
        return {type(value).__name__: [dump_any(v) for v in sorted(value)]}
    if isinstance(value, (bytes, bytearray)):
        return {type(value).__name__: list(value)}
    raise TypeError(f"cannot encode {type(value).__name__} {value!r} in an untyped field")


_TAGS: dict[str, Any] = {"tuple": tuple, "set": set, "frozenset": frozenset, "bytes": bytes, "bytearray": bytearray}


def load_any(data: Any) -> Any:
    if isinstance(data, list):
        return [load_any(v) for v in data]
    if isinstance(data, dict):
        ((tag, items),) = data.items()
        if tag == "dict":
            return {load_any(k): load_any(v) for k, v in items}
        if tag in ("bytes", "bytearray"):
            return _TAGS[tag](items)
        return _TAGS[tag](load_any(v) for v in items)
    return data
