"""Scenario builder: a Mafia Legend position written down in a few lines (spec §20 notation).

:func:`scenario` builds a :class:`MafiaState` at the start of the turn of the player in position
``turn`` of the turn-order column: the rules' own turn start runs, so the step-1 decision is
open (or, for a player with sit-out counters, the turn is skipped as §7.1 says).
:func:`at_month_end` drops the open turn and starts the month end (ME1 … ME12) instead::

    s = scenario(row=["P1", "S2", "W3", "R4"], grid={1: {"k1": ["G5", "S:G2"]}})
    at_month_end(s)

Cards are given by id. A grid card is face down, seen only by its owner, with source hand;
the prefix ``S:`` marks a money card that came from behind the screen. Every card placed
anywhere (hands, screens, grid, attacks, characters, row, open job, completed jobs, events) is
taken out of its deck, so card conservation holds. Nothing is drawn at random: the decks keep
every other card as their unseen multisets. Raises ``ValueError`` for an impossible position.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from tablero.core.protocol import resolve_data
from tablero.games.mafia import data
from tablero.games.mafia.actions import FIELD_NAMES
from tablero.games.mafia.data import ACTIONS, CHARS, EVENTS, JOBS_BY_ID, MONEY
from tablero.games.mafia.engine import add_card, initial_state, run, start_month_end, update_powers
from tablero.games.mafia.state import DISC, SEEN_BY_ALL, AttackSlot, GridCard, MafiaState, Task

AttackSpec = tuple[str, int, bool, str] | tuple[str, int, bool, str, str]
"""``(card, attacker, face_up, timing)`` with timing ``"me"`` or ``"now"``, optionally a defence card."""

DEFAULT_FAMILIES: Final = ("moretti", "rinaldi", "orsini", "lombardo")
GAME_ID: Final = "mafia-legend"


def _deck_of(card: str) -> str:
    if card in MONEY:
        return "M"
    if card in ACTIONS:
        return "A"
    if card in CHARS:
        return "C"
    if card in JOBS_BY_ID:
        return "J"
    if card in EVENTS:
        return "E"
    raise ValueError(f"unknown card id {card!r}")


def _take(s: MafiaState, card: str, want: str | Iterable[str]) -> None:
    """Remove one copy of ``card`` from its deck; ``want`` names the allowed deck(s)."""
    deck = _deck_of(card)
    if deck not in ((want,) if isinstance(want, str) else tuple(want)):
        raise ValueError(f"card {card!r} cannot go there")
    d = s.decks[deck]
    if d.get(card, 0) <= 0:
        raise ValueError(f"no copy of {card!r} left in the game")
    d[card] -= 1
    if not d[card]:
        del d[card]


def _seat(s: MafiaState, seat: int, what: str) -> int:
    if not 0 <= seat < s.n:
        raise ValueError(f"{what}: no seat {seat} with {s.n} players")
    return seat


def scenario(
    players: int = 4,
    *,
    families: Sequence[str] = DEFAULT_FAMILIES,
    variant: str = "advanced",
    missions: Mapping[int, str] | None = None,
    bonus_basis: str = "month",
    order: Sequence[int] | None = None,
    month: int = 1,
    phase: int = 1,
    turn: int = 0,
    hands: Mapping[int, Sequence[str]] | None = None,
    screens: Mapping[int, Sequence[str]] | None = None,
    vp: Mapping[int, int] | None = None,
    chars: Mapping[int, Sequence[str]] | None = None,
    sets: Mapping[int, Sequence[str]] | None = None,
    acquired: Mapping[int, int] | None = None,
    jobs_done: Mapping[int, Sequence[str]] | None = None,
    row: Sequence[str] = ("P1", "S2", "W3", "R4"),
    job: str = "J05",
    grid: Mapping[int, Mapping[str, Sequence[str]]] | None = None,
    atk: Mapping[int, AttackSpec] | None = None,
    protect: Iterable[int] = (),
    events: Sequence[str] = (),
    next_events: Sequence[str] = (),
    discs: Mapping[int, int] | None = None,
    ashtray: int = 0,
    sitout: Mapping[int, int] | None = None,
    used: Iterable[int] = (),
    job_done_month: bool = False,
    overrides: Mapping[str, object] | None = None,
) -> MafiaState:
    """Build a state at the start of the turn of ``order[turn]`` (month ``month``, phase ``phase``).

    ``hands``: action and money ids per seat (money ids go to the hand's money). ``screens``:
    money behind the screen. ``chars``: characters owned (powers are recomputed). ``row``: the
    character row K1–K4 (``""`` = empty slot). ``job``: the open job (``""`` = none).
    ``grid``: per seat, per field (``job``, ``k1`` … ``k4``) the cards oldest first.
    ``atk``: per target seat its attack card. ``protect``: seats with a disc in their own
    attack field (the disc is taken from their supply). ``events``: active this month.
    ``discs``: unused discs per seat (default 6, less one per ``protect`` disc; set after
    ``protect``). ``ashtray``: discs on the ashtray this month. ``used``: seats whose ability
    tile is flipped. ``missions``: mission per seat (turns the option on). ``overrides``: data
    overrides by name, as in the options' ``data`` (``{"BEGINNER_GOAL": 40}``), checked.
    """
    if players not in data.PLAYERS:
        raise ValueError(f"players: {players} is not one of {data.PLAYERS}")
    fams = tuple(families)[:players]
    if len(fams) != players or len(set(fams)) != players or not set(fams) <= set(data.FAMILIES):
        raise ValueError(f"families: give {players} different families from {', '.join(data.FAMILIES)}")
    if variant not in ("advanced", "beginner") or bonus_basis not in ("month", "total"):
        raise ValueError("variant: advanced or beginner; bonus_basis: month or total")
    if missions and variant == "beginner":
        raise ValueError("missions need the advanced game (§16)")
    tables = data.tables(resolve_data(GAME_ID, data.DATA_SPECS, overrides))
    s = initial_state(players, variant=variant, missions=bool(missions), start_seat=0, families=fams,
                      bonus_basis=bonus_basis, tables=tables)
    n = s.n
    s.decision, s.tasks, s.actors = None, [], ()
    s.order = list(range(n)) if order is None else list(order)
    if sorted(s.order) != list(range(n)):
        raise ValueError(f"order must list the seats 0-{n - 1} once each")
    if not 0 <= turn < n:
        raise ValueError(f"turn is a position 0-{n - 1} of the turn order")
    if not 1 <= month <= tables.MONTHS or not 1 <= phase <= tables.PHASES:
        raise ValueError(f"month 1-{tables.MONTHS}, phase 1-{tables.PHASES}")
    s.month, s.phase, s.turn_pos = month, phase, turn

    for seat, cards in (hands or {}).items():
        _seat(s, seat, "hands")
        for c in cards:
            _take(s, c, ("A", "M"))
            add_card(s.hand_m[seat] if c in MONEY else s.hand_a[seat], c)
    for seat, cards in (screens or {}).items():
        _seat(s, seat, "screens")
        for c in cards:
            _take(s, c, "M")
            add_card(s.screen[seat], c)
    for seat, v in (vp or {}).items():
        s.vp[_seat(s, seat, "vp")] = v
    for seat, owned in (chars or {}).items():
        _seat(s, seat, "chars")
        for c in owned:
            _take(s, c, "C")
            s.chars[seat].append(c)
    for seat, names in (sets or {}).items():
        s.sets[_seat(s, seat, "sets")] = list(names)
    for seat, k in (acquired or {}).items():
        s.acquired[_seat(s, seat, "acquired")] = k
    for seat, jobs in (jobs_done or {}).items():
        _seat(s, seat, "jobs_done")
        for j in jobs:
            _take(s, j, "J")
            s.jobs_done[seat].append(j)
    if len(row) != data.CHAR_COLUMNS:
        raise ValueError("row: give 4 slots")
    for k, c in enumerate(row):
        if c:
            _take(s, c, "C")
        s.row[k] = c
    if job:
        _take(s, job, "J")
    s.job = job
    s.job_done_month = job_done_month

    for seat, fields in (grid or {}).items():
        _seat(s, seat, "grid")
        for name, cards in fields.items():
            if name not in FIELD_NAMES:
                raise ValueError(f"grid: unknown field {name!r}")
            f = FIELD_NAMES.index(name)
            for text in cards:
                src, c = ("S", text[2:]) if text.startswith("S:") else ("H", text)
                if src == "S" and c not in MONEY:
                    raise ValueError(f"grid: only money comes from the screen, not {c!r}")
                _take(s, c, ("A", "M"))
                s.fields[seat][f].append(GridCard(c, src, 1 << seat))
    for seat in protect:
        _seat(s, seat, "protect")
        s.atk[seat] = AttackSlot(DISC, seat, True, "", "", SEEN_BY_ALL)
        s.discs[seat] -= 1
    for target, spec in (atk or {}).items():
        _seat(s, target, "atk")
        if s.atk[target] is not None:
            raise ValueError(f"atk: seat {target}'s attack field is not empty")
        card, attacker, up, timing = spec[0], spec[1], spec[2], spec[3]
        defence = spec[4] if len(spec) > 4 else ""
        _take(s, card, "A")
        if defence:
            _take(s, defence, "A")
        s.atk[target] = AttackSlot(card, _seat(s, attacker, "atk"), up, timing, defence,
                                    SEEN_BY_ALL if up else 1 << attacker)

    for e in events:
        _take(s, e, "E")
        s.this_events.append(e)
    for e in next_events:
        _take(s, e, "E")
        s.next_events.append(e)
    s.ashtray = ashtray
    for seat, k in (discs or {}).items():
        s.discs[_seat(s, seat, "discs")] = k
    for seat, k in (sitout or {}).items():
        s.sitout[_seat(s, seat, "sitout")] = k
    for seat in used:
        s.ability_used[_seat(s, seat, "used")] = True
    if missions:
        for seat, m in missions.items():
            if m not in data.MISSIONS or s.decks["X"].get(m, 0) <= 0:
                raise ValueError(f"missions: {m!r} is not available")
            del s.decks["X"][m]
            s.mission[_seat(s, seat, "missions")] = m

    update_powers(s, None)
    s.tasks.append(Task("turn"))
    s.legal_cache = None
    run(s, None)
    return s


def at_month_end(s: MafiaState) -> MafiaState:
    """Drop the open turn and run the month end from ME1 until its first decision or chance node."""
    s.decision, s.tasks, s.actors = None, [], ()
    s.step = s.played = 0
    start_month_end(s)
    s.touch()
    run(s, None)
    return s


__all__ = ["at_month_end", "scenario"]
