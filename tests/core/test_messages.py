"""The Translator's templates: plain fields, plural, select, escapes, and malformed templates."""

from __future__ import annotations

import pytest

from tablero.core.messages import Message, Translator, parse_template, template_fields

CAT = {
    "en": {
        "t.place": "{seat} places {n:plural:a caballero|# caballeros}",
        "t.count": "{seat} takes {n} {n:plural:caballero|caballeros}",
        "t.zero": "{seat} takes {n:select:0=no caballeros|1=a caballero|other={n} caballeros}",
        "t.area": "{seat} moves to {area:select:t.castillo=the Castillo|other={area}}",
        "t.own": "{seat} moves {own:select:True=one of their own|other=one of {owner_seat}'s} caballeros",
        "t.winners": "{seats:plural:Winner|Winners}: {seats}",
        "t.nested": "{n:plural:one {k:select:x=X #|other=Y #}|many {k:select:x=X #|other=Y #}}",
        "t.hash": "# {n:plural:#|#} {k:select:a=#|other=-}",
        "t.escape": "{{seat}} is {seat}; {{{n}}}",
        "t.inner": "{what} ({n:plural:one|#})",
        "t.repr": "{text!r} at {n:>3}",
        "t.castillo": "Castillo",
        "t.galicia": "Galicia",
    },
    "de": {
        "t.area": "{seat} zieht {area:select:t.castillo=ins Castillo|other=nach {area}}",
        "t.castillo": "Castillo",
        "t.galicia": "Galicien",
    },
}
EN = Translator("en", [CAT], ["Ana", "Ben", "Cleo"])
DE = Translator("de", [CAT], ["Ana", "Ben", "Cleo"])


def test_plural_chooses_one_for_exactly_one_and_hash_is_the_number() -> None:
    assert EN(Message("t.place", seat=0, n=1)) == "Ana places a caballero"
    assert EN(Message("t.place", seat=1, n=3)) == "Ben places 3 caballeros"
    assert EN(Message("t.place", seat=1, n=0)) == "Ben places 0 caballeros"
    assert EN(Message("t.count", seat=2, n=1)) == "Cleo takes 1 caballero"
    assert EN(Message("t.count", seat=2, n="1")) == "Cleo takes 1 caballero"
    assert EN(Message("t.count", seat=2, n=1.0)) == "Cleo takes 1 caballero"
    assert EN(Message("t.place", seat=0, n=2.0)) == "Ana places 2 caballeros"
    assert EN(Message("t.count", seat=2, n=True)) == "Cleo takes True caballeros"  # a flag is no number


def test_plural_of_a_tuple_counts_its_items() -> None:
    assert EN(Message("t.winners", seats=(1,))) == "Winner: Ben"
    assert EN(Message("t.winners", seats=(0, 2))) == "Winners: Ana, Cleo"
    assert Translator("en", [])(Message("core.result.winners", seats=(0, 1))) == "Winners: Seat 1, Seat 2"


def test_select_by_value_by_message_id_and_by_flag_with_other_as_fallback() -> None:
    assert [EN(Message("t.zero", seat=0, n=k)) for k in (0, 1, 4)] == [
        "Ana takes no caballeros", "Ana takes a caballero", "Ana takes 4 caballeros"]
    assert EN(Message("t.area", seat=0, area=Message("t.castillo"))) == "Ana moves to the Castillo"
    assert EN(Message("t.area", seat=0, area=Message("t.galicia"))) == "Ana moves to Galicia"
    assert DE(Message("t.area", seat=0, area=Message("t.castillo"))) == "Ana zieht ins Castillo"
    assert DE(Message("t.area", seat=0, area=Message("t.galicia"))) == "Ana zieht nach Galicien"
    assert EN(Message("t.own", seat=0, owner_seat=0, own=True)) == "Ana moves one of their own caballeros"
    assert EN(Message("t.own", seat=0, owner_seat=1, own=False)) == "Ana moves one of Ben's caballeros"
    # a select on a parameter the message does not carry takes ``other``
    assert EN(Message("t.own", seat=0, owner_seat=2)) == "Ana moves one of Cleo's caballeros"


def test_nested_texts_hash_and_escapes() -> None:
    assert EN(Message("t.nested", n=1, k="x")) == "one X 1"
    assert EN(Message("t.nested", n=5, k="z")) == "many Y 5"
    assert EN(Message("t.hash", n=2, k="a")) == "# 2 #"  # '#' is the number inside a plural only
    assert EN(Message("t.escape", seat=0, n=7)) == "{seat} is Ana; {7}"
    assert EN(Message("t.inner", what=Message("t.place", seat=1, n=1), n=1)) == "Ben places a caballero (one)"


def test_plain_fields_keep_str_format_conversions_and_specs() -> None:
    assert EN(Message("t.repr", text="zz", n=5)) == "'zz' at   5"


def test_unknown_message_falls_back_to_its_id_and_missing_field_raises() -> None:
    assert EN(Message("t.nope", seat=0, n=2)) == "t.nope(n=2, seat=Ana)"
    with pytest.raises(KeyError):
        EN(Message("t.place", seat=0))


@pytest.mark.parametrize("bad", [
    "{n:plural:a|b|c}", "{n:plural:a}", "{x:select:a=1|b=2}", "{x:select:a|other=b}", "{x:pluralx:a|b}",
    "open {x", "close } alone", "{x:select:{y}=1|other=2}", "{not a name}", "{x!q}",
])
def test_malformed_templates_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_template(bad)


def test_template_fields_include_those_inside_plurals_and_selects() -> None:
    assert template_fields(CAT["en"]["t.own"]) == {"seat", "own", "owner_seat"}
    assert template_fields(CAT["en"]["t.nested"]) == {"n", "k"}
    assert template_fields(CAT["en"]["t.escape"]) == {"seat", "n"}
