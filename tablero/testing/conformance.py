"""The conformance suite: checks every game must pass, in random playouts and through the driver.

Each check takes a game and raises ``AssertionError`` with a clear message on failure; they
never merely warn. :func:`run_conformance` runs them all for one (game, players, seed):

* :func:`check_metadata` — ids and versions, player counts, default options, and the
  catalogue (:func:`check_catalogue`: both languages, the same ids and the same placeholders).
* :func:`check_playout` — a random legal playout (:mod:`tablero.testing.playouts`) that at
  every step runs :func:`check_flow` (to_act, legal actions, chance outcomes, termination,
  result), :func:`check_action_text` (wire texts round-trip, junk is refused),
  :func:`check_illegal_actions` (rejected with ``IllegalActionError``, state unchanged),
  :func:`check_clone` (clones are independent both ways), :func:`check_views` (views are
  deterministic, JSON-serializable, hold no references into the state, render in both
  languages), :func:`check_describe`, :func:`check_events`, and every ``leak_every`` steps
  :func:`check_determinize` and :func:`check_no_leak`.
  Also at every step: :func:`check_action_space` (legal actions and chance outcomes encode into
  the fixed codecs and decode back; legal actions sorted by index), :func:`check_forced_step`
  (a forced step applied at once tells no other seat anything: in states determinized for
  them the seat has one option too), :func:`check_commitments` (the commitment-variation
  test: while several seats commit in secret, one seat's choice changes nothing another
  viewer sees, its log or its legal actions), and with the leak checks
  :func:`check_state_json` (JSON in and out, stable hash, debug text).
* :func:`check_match` — the match driver with seeded random bots: forced steps are never
  asked, the same seed gives the same record and logs, the record round-trips through JSON,
  ``Match.from_record`` and ``replay`` rebuild the same views, records of other versions are
  refused, a match rebuilt from half a record plays on, and a match started from that
  position (``Match.from_state``, a record with a ``setup`` header) plays on and replays.
* :func:`check_takebacks` — with take-backs allowed, re-dealing what a seat may not see and
  replaying its own moves since its checkpoint leaves its view and log unchanged (a take-back
  closes at every reveal).

**The no-leak test** compares views and logs as values, never by searching strings. For a
step ``(actor, a)`` in state ``s`` it builds states a viewer ``v`` cannot tell apart from the
result of the true step, and requires that what ``v`` is *told* agrees with what ``v`` *sees*:

* L1 (the log tells no more than the view): for ``t = s + a`` and ``t' = s2 + b``, where ``s2``
  is ``s`` itself or ``determinize(observe(s, p), p)`` and ``b`` is ``a``, another option of
  the actor, or a chance outcome sampled in ``s2``: if ``observe(t, v) == observe(t', v)`` then
  ``v``'s events of the two steps and ``describe(…, v)`` of the two actions are equal. This
  catches a log line or description that reveals a hidden card, bid or draw (it also flags a
  view that omits public facts the log states: the view must hold everything a viewer knows).
* L2 (no silent private information): if the spectator cannot tell ``t`` from ``t'`` and seat
  ``p`` was shown the same events, then ``observe(t, p) == observe(t', p)``: a seat learns a
  hidden fact only through an event addressed to it (or its own choice). This catches a view
  that shows a seat something private of another seat, even when ``determinize`` is written
  to reproduce whatever the view shows.

A literal "``observe(s + a, p) == observe(s2 + a, p)``" is *not* asserted: a step may reveal
hidden information (a blocked Don Carlo hand, the toy game's bids, every hand at the end), and
then the two results differ legitimately.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

from tablero.core.errors import ActionParseError, DataError, IllegalActionError, RecordError, TableroError
from tablero.core.events import Event, visible_log
from tablero.core.match import Match, bot_rng, replay
from tablero.core.messages import CORE_CATALOGUE, LANGUAGES, Message, Translator, template_fields
from tablero.core.protocol import CHANCE, DATA_OPTION, DataSpec, DataValue, Game, Player, Result, Viewer, data_json
from tablero.core.record import GameRecord
from tablero.core.rng import derive_seed
from tablero.testing.playouts import RandomChooser, choose_step, random_playout

AnyGame = Game[Any, Any, Any]

JUNK_TEXTS: tuple[str, ...] = (
    "", "   ", "\x00", "\n", "⁂⁂⁂", "}{", "not an action at all ⁂", "-", "💥 999999999999",
)
"""Texts no game's ``parse_action`` may accept."""

SEAT_NAMES: tuple[str, ...] = ("Ada", "Bea", "Cem", "Dora", "Emil", "Fay", "Gus", "Hal")


# ============================================================================ helpers
def _viewers(players: int) -> list[Viewer]:
    return [*range(players), None]


def _text(action: Any) -> str:
    try:
        return repr(action.to_text())
    except Exception:  # the failure to report may be this very action
        return repr(action)


def _who(actor: Player) -> str:
    return "CHANCE" if actor == CHANCE else f"seat {actor}"


def _diff(a: Any, b: Any) -> str:
    """A short description of how two views differ (by their JSON fields)."""
    try:
        ja, jb = a.to_json(), b.to_json()
    except Exception:
        return f"{a!r} != {b!r}"
    if not (isinstance(ja, dict) and isinstance(jb, dict)):
        return f"{ja!r} != {jb!r}"
    keys = sorted(set(ja) | set(jb))
    parts = [f"{k}: {ja.get(k)!r} != {jb.get(k)!r}" for k in keys if ja.get(k) != jb.get(k)]
    if not parts:
        return f"{a!r} != {b!r} (equal JSON)"
    text = "; ".join(parts)
    return text if len(text) < 1500 else text[:1500] + " …"


def has_state_eq(state: Any) -> bool:
    """Whether the state class defines its own ``__eq__`` (then clones are compared with ==)."""
    return any("__eq__" in vars(k) for k in type(state).__mro__[:-1])


def options_of(game: AnyGame, state: Any, actor: Player) -> list[Any]:
    """The legal actions of ``actor``, or the chance outcomes for CHANCE."""
    if actor == CHANCE:
        return [a for a, _ in game.chance_outcomes(state)]
    return list(game.legal_actions(state, actor))


def fingerprint(game: AnyGame, state: Any, players: int) -> tuple[Any, ...]:
    """Everything observable about a state: to_act, every view, every option (with weights)."""
    actors = tuple(game.to_act(state))
    views = tuple(game.observe(state, v) for v in _viewers(players))
    opts = tuple(
        tuple(game.chance_outcomes(state)) if p == CHANCE else tuple(game.legal_actions(state, p))
        for p in actors
    )
    return actors, views, opts


def _fingerprint_diff(a: tuple[Any, ...], b: tuple[Any, ...]) -> str:
    if a[0] != b[0]:
        return f"to_act {a[0]} != {b[0]}"
    for i, (va, vb) in enumerate(zip(a[1], b[1], strict=True)):
        if va != vb:
            who = "spectator" if i == len(a[1]) - 1 else f"seat {i}"
            return f"view of {who}: {_diff(va, vb)}"
    return f"options {a[2]} != {b[2]}"


def _same_state(game: AnyGame, players: int, before: tuple[Any, ...], snapshot: Any,
                state: Any) -> str | None:
    """None if ``state`` still matches ``before`` (a fingerprint) and ``snapshot`` (a clone)."""
    now = fingerprint(game, state, players)
    if now != before:
        return _fingerprint_diff(before, now)
    if has_state_eq(state) and state != snapshot:
        return "the state compares unequal (==) to a clone taken before"
    return None


def _apply_clone(game: AnyGame, state: Any, actor: Player, action: Any) -> tuple[Any, list[Event]]:
    after = state.clone()
    events: list[Event] = []
    game.apply(after, actor, action, events)
    return after, events


def _log(events: Sequence[Event], viewer: Viewer) -> list[Message | None]:
    """What ``viewer`` gets of each event (None where it gets nothing)."""
    return [e.for_viewer(viewer) for e in events]


class ActionPool:
    """Actions seen during a playout (decisions and chance outcomes), to probe illegal moves."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str], Any] = {}

    def add(self, actions: Iterable[Any]) -> None:
        for a in actions:
            self._seen.setdefault((type(a).__qualname__, a.to_text()), a)

    def sample(self, rng: Random, k: int, exclude: Sequence[Any] = ()) -> list[Any]:
        cands = [a for a in self._seen.values() if a not in exclude]
        return rng.sample(cands, min(k, len(cands)))

    def __len__(self) -> int:
        return len(self._seen)


class Texts:
    """Catalogue look-ups and translators for one game (both languages, with and without names)."""

    def __init__(self, game: AnyGame, players: int) -> None:
        self.game = game
        cat = game.catalogue()
        self.known = {
            lang: set(CORE_CATALOGUE.get(lang, {})) | set(cat.get(lang, {})) for lang in LANGUAGES
        }
        self.translators = [Translator(lang, [cat]) for lang in LANGUAGES] + [
            Translator(lang, [cat], SEAT_NAMES[:players]) for lang in LANGUAGES
        ]

    def check_message(self, msg: Any, what: str) -> None:
        if not isinstance(msg, Message):
            raise AssertionError(f"{what}: expected a Message, got {type(msg).__name__} {msg!r}")
        for lang in LANGUAGES:
            missing = [i for i in msg.ids() if i not in self.known[lang]]
            if missing:
                raise AssertionError(
                    f"{what}: message id(s) {missing} of {msg!r} missing from the {lang!r} catalogue"
                )
        for tr in self.translators:
            try:
                out = tr(msg)
            except Exception as exc:
                raise AssertionError(
                    f"{what}: {msg!r} does not render in {tr.lang!r}: {type(exc).__name__}: {exc}"
                ) from exc
            if not isinstance(out, str):
                raise AssertionError(f"{what}: {msg!r} rendered to {type(out).__name__}, not str")
        try:
            back = Message.from_json(json.loads(json.dumps(msg.to_json())))
        except Exception as exc:
            raise AssertionError(f"{what}: {msg!r} is not JSON-serializable: {exc}") from exc
        if back != msg:
            raise AssertionError(f"{what}: {msg!r} does not round-trip through JSON: {back!r}")


def _template_fields(template: str) -> set[str]:
    return template_fields(template)


# ============================================================================ game-level checks
def check_catalogue(game: AnyGame) -> None:
    """Both languages present, with the same message ids and the same placeholders per id."""
    cat = game.catalogue()
    for lang in LANGUAGES:
        if lang not in cat:
            raise AssertionError(f"{game.id}: the catalogue has no {lang!r} entries")
    base = LANGUAGES[0]
    for lang in LANGUAGES[1:]:
        only_base = sorted(set(cat[base]) - set(cat[lang]))
        only_lang = sorted(set(cat[lang]) - set(cat[base]))
        if only_base or only_lang:
            raise AssertionError(
                f"{game.id}: catalogue ids differ: only in {base!r}: {only_base}; "
                f"only in {lang!r}: {only_lang}"
            )
    for mid in cat[base]:
        try:
            fields = {lang: _template_fields(cat[lang][mid]) for lang in LANGUAGES}
        except ValueError as exc:
            raise AssertionError(f"{game.id}: template {mid!r} is not a valid template: {exc}") from exc
        if len({frozenset(f) for f in fields.values()}) > 1:
            raise AssertionError(
                f"{game.id}: template {mid!r} uses other placeholders per language: {fields}"
            )


def check_metadata(game: AnyGame) -> None:
    """Ids, versions, player range, default options for every count, refused counts, catalogue."""
    for attr in ("id", "title", "rules_version", "data_version"):
        value = getattr(game, attr, None)
        if not isinstance(value, str) or not value:
            raise AssertionError(f"{game!r}: {attr} must be a non-empty string, not {value!r}")
    if not 1 <= game.min_players <= game.max_players:
        raise AssertionError(f"{game.id}: bad player range {game.min_players}-{game.max_players}")
    for n in range(game.min_players, game.max_players + 1):
        game.resolve_options(n)
        if game.max_game_length(n) <= 0:
            raise AssertionError(f"{game.id}: max_game_length({n}) must be positive")
    for n in (game.min_players - 1, game.max_players + 1):
        try:
            game.new_initial_state(n)
        except TableroError:
            pass
        except Exception as exc:
            raise AssertionError(
                f"{game.id}: {n} players raised {type(exc).__name__} instead of a TableroError"
            ) from exc
        else:
            raise AssertionError(f"{game.id}: new_initial_state accepted {n} players")
    check_catalogue(game)
    check_data_specs(game)


def check_data_specs(game: AnyGame) -> None:
    """Every data spec (``--data NAME``): a unique name, a default inside its own range that
    reads back from its JSON form, accepted as an override by every player count, and words
    for the lobby in the catalogue (``data.NAME``, for a table field ``data.TABLE.FIELD``)."""
    names = [d.name for d in game.data_specs]
    if len(set(names)) != len(names):
        raise AssertionError(f"{game.id}: data spec names repeat: {sorted(n for n in names if names.count(n) > 1)}")
    catalogue = game.catalogue()
    for spec in game.data_specs:
        try:
            back = spec.parse(data_json(spec.default))
        except TableroError as exc:
            raise AssertionError(f"{game.id}: data {spec.name}'s own default is refused: {exc}") from exc
        if back != spec.default:
            raise AssertionError(f"{game.id}: data {spec.name}'s default reads back as {back!r}")
        for n in range(game.min_players, game.max_players + 1):
            opts = game.resolve_options(n, {DATA_OPTION: {spec.name: data_json(spec.default)}})
            if game.data_overrides(opts) != {spec.name: spec.default}:
                raise AssertionError(f"{game.id}: data {spec.name} is not kept in the resolved options")
        parts = spec.name.split(".")
        key = "data." + (spec.name if len(parts) == 1 else f"{parts[0]}.{parts[-1]}")
        for lang in LANGUAGES:
            if key not in catalogue.get(lang, {}):
                raise AssertionError(f"{game.id}: no words for data {spec.name} ({key!r}) in {lang!r}")


def data_variations(spec: DataSpec) -> list[DataValue]:
    """Valid values next to a spec's default (one step down or up, in range, passing ``check``):
    what the conformance suite plays games with."""
    low = -(10**9) if spec.low is None else spec.low
    high = 10**9 if spec.high is None else spec.high
    d = spec.default
    tries: list[object] = []
    if isinstance(d, int):
        tries = [d - 1, d + 1]
    elif isinstance(d, tuple):
        for i in range(len(d)):
            for step in (-1, 1):
                tries.append((*d[:i], d[i] + step, *d[i + 1:]))
    else:
        members = sorted(d)
        tries.extend(sorted(d - {m}) for m in members)
        tries.extend([sorted(d | {v}) for v in range(low, min(high, low + 20) + 1) if v not in d][:3])
    out: list[DataValue] = []
    for value in tries:
        items = [value] if isinstance(value, int) else list(value)  # type: ignore[call-overload]
        if any(not low <= v <= high for v in items):
            continue
        try:
            parsed = spec.parse(value)
        except TableroError:
            continue
        if parsed != d and parsed not in out:
            out.append(parsed)
    return out


def check_overrides(game: AnyGame, players: int, seed: int, *, specs: int | None = None,
                    options: Mapping[str, object] | None = None) -> int:
    """Games with data overrides: for ``specs`` data values drawn at random (all with None), a
    value next to the default; a match of random bots with it ends within ``max_game_length``,
    its record carries the override and replays to the same game. On the way every legal action
    lies in the action space of the table's options, and at a few states the determinized states
    (decisions 1, 2, 4, 8, ...) and the state's JSON (decisions 1, 8, 64, ...) keep the table's
    data; the initial state's hash differs from the usual game's (its JSON carries the override),
    and ``table_data`` takes the options. Returns the games played."""
    rng = Random(derive_seed(seed, "overrides"))
    chosen = list(game.data_specs)
    if specs is not None and specs < len(chosen):
        chosen = rng.sample(chosen, specs)
    played = 0
    for spec in chosen:
        values = data_variations(spec)
        if not values:
            continue
        value = values[rng.randrange(len(values))]
        opts = {**(options or {}), DATA_OPTION: {spec.name: data_json(value)}}
        where = f"{game.id}, {players} players, seed {seed}, data {spec.name}={data_json(value)}"
        try:
            m = Match(game, list(SEAT_NAMES[:players]), options=opts, seed=seed)
            usual = game.new_initial_state(players, options)
            if game.state_hash(usual) == game.state_hash(game.new_initial_state(players, opts)):
                raise AssertionError("the initial state's hash is the usual game's: its JSON does not carry the data")
            json.dumps(game.table_data(m.options))
            play_on(m, before_each=_sampled_checks(game, players, rng))
            if m.result() is None:
                raise AssertionError("the match did not end")
            if m.record.options.get(DATA_OPTION) != {spec.name: data_json(value)}:
                raise AssertionError(f"the record's options do not carry the override: {m.record.options}")
            rebuilt = Match.from_record(game, GameRecord.from_json(json.loads(m.record.dumps())))
            _same_match(game, m, rebuilt, "Match.from_record")
            check_state_json(game, m.state, players)
            if not played:
                _check_refused_records(game, m.record, spec)
        except AssertionError as exc:
            raise AssertionError(f"{where}: {exc}") from exc
        except Exception as exc:
            raise AssertionError(f"{where}: {type(exc).__name__}: {exc}") from exc
        played += 1
    return played


def _check_refused_records(game: AnyGame, record: GameRecord, spec: DataSpec) -> None:
    """A record whose overrides cannot apply (an unknown name, a value out of range) is refused
    by ``Match.from_record`` with a DataError that names the value."""
    unknown = f"{spec.name}_UNKNOWN"
    bad: list[tuple[dict[str, object], str]] = [({**record.options[DATA_OPTION], unknown: 1}, unknown)]
    outside = spec.high + 1 if spec.high is not None else None if spec.low is None else spec.low - 1
    if outside is not None:
        bad.append(({spec.name: outside if spec.kind == "int" else [outside]}, spec.name))
    for overrides, named in bad:
        raw = record.to_json()
        raw["options"][DATA_OPTION] = overrides
        try:
            Match.from_record(game, GameRecord.from_json(raw))
        except DataError as exc:
            if named not in str(exc):
                raise AssertionError(f"a record with data {overrides} is refused without naming {named}: "
                                     f"{exc}") from exc
            continue
        raise AssertionError(f"a record with data {overrides} is not refused (DataError)")


def _sampled_checks(game: AnyGame, players: int, rng: Random) -> Callable[[Match[Any, Any, Any]], None]:
    """Checks before each decision of a match: its action space (with the match's options) every
    time, determinize at decisions 1, 2, 4, 8, ... and the state's JSON at 1, 8, 64, ..."""
    count = 0

    def check(match: Match[Any, Any, Any]) -> None:
        nonlocal count
        check_action_space(game, match.state, players, match.options)
        count += 1
        if count & (count - 1) == 0:
            check_determinize(game, match.state, players, rng)
            if count.bit_length() % 3 == 1:
                check_state_json(game, match.state, players)

    return check


# ============================================================================ per-state checks
def check_flow(game: AnyGame, state: Any, players: int, rng: Random) -> None:
    """to_act / terminal / result agree; seats to act have options; chance is a distribution."""
    actors = tuple(game.to_act(state))
    terminal = game.is_terminal(state)
    if terminal != (not actors):
        raise AssertionError(f"is_terminal is {terminal} but to_act is {actors}")
    check_result(game, state, players)
    if not actors:
        return
    if CHANCE in actors:
        if actors != (CHANCE,):
            raise AssertionError(f"CHANCE must act alone, but to_act is {actors}")
        outcomes = list(game.chance_outcomes(state))
        if not outcomes:
            raise AssertionError("a chance node without chance outcomes")
        total = 0.0
        for a, p in outcomes:
            if not (isinstance(p, (int, float)) and p > 0 and math.isfinite(p)):
                raise AssertionError(f"chance outcome {_text(a)} has probability {p!r}")
            total += p
        if abs(total - 1.0) > 1e-9:
            raise AssertionError(f"chance probabilities sum to {total}, not 1")
        acts = [a for a, _ in outcomes]
        texts = [a.to_text() for a in acts]
        if len(set(texts)) != len(texts):
            raise AssertionError(f"duplicate chance outcomes: {texts}")
        for _ in range(2):
            drawn = game.sample_chance(state, rng)
            if drawn not in acts:
                raise AssertionError(f"sample_chance drew {_text(drawn)}, not among the outcomes {texts}")
        return
    if len(set(actors)) != len(actors) or not all(isinstance(p, int) and 0 <= p < players for p in actors):
        raise AssertionError(f"to_act {actors} must name distinct seats 0-{players - 1}")
    for p in actors:
        legal = list(game.legal_actions(state, p))
        if not legal:
            raise AssertionError(f"seat {p} is to act but has no legal action")
        texts = [a.to_text() for a in legal]
        if len(set(texts)) != len(texts):
            raise AssertionError(f"seat {p} has duplicate legal actions: {texts}")


def check_result(game: AnyGame, state: Any, players: int) -> None:
    """``result`` is None until the end, then has one score per seat and consistent ranks."""
    res = game.result(state)
    if not game.is_terminal(state):
        if res is not None:
            raise AssertionError(f"result {res} before the end of the game")
        return
    if not isinstance(res, Result):
        raise AssertionError(f"no Result at the end of the game (got {res!r})")
    if len(res.scores) != players or len(res.ranks) != players:
        raise AssertionError(f"result {res} must have {players} scores and ranks")
    if not all(isinstance(x, (int, float)) and math.isfinite(x) for x in res.scores):
        raise AssertionError(f"result scores must be finite numbers: {res.scores}")
    # Ranks follow the scores; equal scores may be told apart by a game's tie-breakers, and
    # every rank counts the players above it ("1, 1, 3").
    for a in range(players):
        above = sum(1 for b in range(players) if res.ranks[b] < res.ranks[a])
        if res.ranks[a] != above + 1:
            raise AssertionError(f"ranks {res.ranks} are not shared ranks of the form 1, 1, 3")
        for b in range(players):
            if res.scores[a] > res.scores[b] and not res.ranks[a] < res.ranks[b]:
                raise AssertionError(f"ranks {res.ranks} do not follow the scores {res.scores}")
    if any(w not in range(players) for w in res.winners):
        raise AssertionError(f"winners {res.winners} are not seats")
    if not res.winners and res.declared_winners is None:
        raise AssertionError(f"result {res} has no winner (only a game's own rule may declare none)")


def check_action_text(game: AnyGame, state: Any) -> None:
    """Every option's wire text reads back to the same action; junk raises ActionParseError."""
    actors = tuple(game.to_act(state))
    for actor in actors:
        for a in options_of(game, state, actor):
            text = a.to_text()
            if not isinstance(text, str) or not text.strip() or "\n" in text:
                raise AssertionError(f"{_who(actor)}: wire text {text!r} of {a!r} must be one non-empty line")
            try:
                back = game.parse_action(state, actor, text)
            except TableroError as exc:
                raise AssertionError(
                    f"{_who(actor)}: the wire text {text!r} of {a!r} does not parse: {exc}"
                ) from exc
            if back != a:
                raise AssertionError(f"{_who(actor)}: {text!r} parses to {back!r}, not {a!r}")
    for actor in actors or (0,):
        for junk in JUNK_TEXTS:
            try:
                got = game.parse_action(state, actor, junk)
            except ActionParseError:
                continue
            except Exception as exc:
                raise AssertionError(
                    f"parse_action({junk!r}) raised {type(exc).__name__} instead of ActionParseError: {exc}"
                ) from exc
            raise AssertionError(f"parse_action({junk!r}) accepted junk as {got!r}")


def check_illegal_actions(game: AnyGame, state: Any, players: int, pool: ActionPool, rng: Random,
                          *, samples: int = 3) -> None:
    """Illegal actions raise IllegalActionError and change nothing.

    Probes: an action of another state or seat, a seat that is not to act (or out of range),
    CHANCE at a decision, a seat at a chance node, anything once the game is over.
    """
    actors = tuple(game.to_act(state))
    probes: list[tuple[Player, Any, str]] = []
    if not actors:
        for p in (CHANCE, *range(players)):
            probes += [(p, a, "the game is over") for a in pool.sample(rng, samples)]
    elif actors[0] == CHANCE:
        outcomes = options_of(game, state, CHANCE)
        probes += [(CHANCE, a, "not a chance outcome here") for a in pool.sample(rng, samples, outcomes)]
        probes += [(p, outcomes[0], "a seat acting at a chance node") for p in range(players)]
    else:
        first = list(game.legal_actions(state, actors[0]))
        for p in actors:
            legal = list(game.legal_actions(state, p))
            probes += [(p, a, f"not legal for seat {p}") for a in pool.sample(rng, samples, legal)]
        probes += [(q, first[0], f"seat {q} is not to act") for q in range(players) if q not in actors]
        probes.append((CHANCE, first[0], "CHANCE acting at a decision"))
    if pool:
        probes.append((players, pool.sample(rng, 1)[0], "a seat out of range"))
    for actor, action, why in probes:
        trial = state.clone()
        before = fingerprint(game, trial, players)
        try:
            game.apply(trial, actor, action)
        except IllegalActionError:
            pass
        except Exception as exc:
            raise AssertionError(
                f"illegal {_who(actor)} {_text(action)} ({why}) raised {type(exc).__name__} "
                f"instead of IllegalActionError: {exc}"
            ) from exc
        else:
            raise AssertionError(f"apply accepted an illegal action: {_who(actor)} {_text(action)} ({why})")
        problem = _same_state(game, players, before, state, trial)
        if problem:
            raise AssertionError(
                f"the rejected {_who(actor)} {_text(action)} ({why}) changed the state: {problem}"
            )


def check_clone(game: AnyGame, state: Any, players: int, rng: Random) -> None:
    """A clone equals its original, and applying an action to it leaves the original unchanged."""
    before = fingerprint(game, state, players)
    c = state.clone()
    if c is state or type(c) is not type(state):
        raise AssertionError(f"clone() returned {'the state itself' if c is state else type(c).__name__}")
    cloned = fingerprint(game, c, players)
    if cloned != before:
        raise AssertionError(f"a clone differs from its original: {_fingerprint_diff(before, cloned)}")
    if has_state_eq(state) and c != state:
        raise AssertionError("a clone compares unequal (==) to its original")
    snapshot = state.clone()
    step = choose_step(game, c, rng, rng)
    if step is not None:
        game.apply(c, *step, [])
        problem = _same_state(game, players, before, snapshot, state)
        if problem:
            raise AssertionError(
                f"applying {_who(step[0])} {_text(step[1])} to a clone changed the original: {problem}"
            )


def check_views(game: AnyGame, state: Any, players: int, texts: Texts) -> list[tuple[Any, str]]:
    """Views are deterministic, JSON-serializable and render as non-empty text in both languages.

    Returns ``(view, json text)`` pairs so that a caller can check later that the views hold
    no references into the state (their JSON must not change as play goes on).
    """
    out = []
    for v in _viewers(players):
        who = "spectator" if v is None else f"seat {v}"
        view = game.observe(state, v)
        again = game.observe(state, v)
        if view != again:
            raise AssertionError(f"observe is not deterministic for the {who}: {_diff(view, again)}")
        try:
            dumped = json.dumps(view.to_json(), sort_keys=True)
        except (TypeError, ValueError) as exc:
            raise AssertionError(f"the view of the {who} is not JSON-serializable: {exc}") from exc
        for tr in texts.translators:
            try:
                pic = game.render(view, tr)
            except Exception as exc:
                raise AssertionError(
                    f"render of the {who}'s view fails in {tr.lang!r}: {type(exc).__name__}: {exc}"
                ) from exc
            if not isinstance(pic, str) or not pic.strip():
                raise AssertionError(f"render of the {who}'s view gave no text ({pic!r})")
        out.append((view, dumped))
    return out


def check_views_unchanged(saved: Sequence[tuple[Any, str]]) -> None:
    """Views built before a step still have the same JSON (they hold no state references)."""
    for view, dumped in saved:
        if json.dumps(view.to_json(), sort_keys=True) != dumped:
            raise AssertionError(
                f"a view of viewer {getattr(view, 'viewer', '?')} changed after the state moved on: "
                "it holds a reference into the state"
            )


def check_describe(game: AnyGame, state: Any, players: int, texts: Texts, rng: Random,
                   *, samples: int = 4) -> None:
    """``describe`` gives a catalogued, renderable Message for options of every actor, per viewer."""
    for actor in game.to_act(state):
        opts = options_of(game, state, actor)
        for a in rng.sample(opts, min(samples, len(opts))):
            for v in _viewers(players):
                texts.check_message(game.describe(state, actor, a, v),
                                    f"describe({_who(actor)}, {_text(a)}, viewer {v})")


def check_events(events: Iterable[Event], texts: Texts, what: str = "event") -> None:
    """Every event: a well-formed visibility, catalogued messages (full and redacted) that render."""
    for e in events:
        if not isinstance(e, Event):
            raise AssertionError(f"{what}: expected an Event, got {e!r}")
        if e.visible_to is not None and not (
            isinstance(e.visible_to, frozenset) and all(isinstance(p, int) for p in e.visible_to)
        ):
            raise AssertionError(f"{what}: visible_to must be None or a frozenset of seats: {e!r}")
        texts.check_message(e.message, what)
        if e.redacted is not None:
            texts.check_message(e.redacted, f"{what} (redacted)")


def check_action_space(game: AnyGame, state: Any, players: int,
                       options: Mapping[str, object] | None = None) -> None:
    """Every legal action and chance outcome encodes into the game's fixed codecs and decodes back.

    The codecs are asked for anew (players and options only: they must not depend on the
    state), every index lies in ``range(size)``, and legal actions come sorted by index.
    """
    for actor in game.to_act(state):
        codec = game.chance_codec(players, options) if actor == CHANCE else game.action_codec(players, options)
        size = codec.size
        if not isinstance(size, int) or size <= 0:
            raise AssertionError(f"{_who(actor)}: codec size {size!r} must be a positive int")
        indices = []
        for a in options_of(game, state, actor):
            try:
                i = codec.encode(a)
            except TableroError as exc:
                raise AssertionError(f"{_who(actor)}: {_text(a)} is not in the action space: {exc}") from exc
            if not isinstance(i, int) or not 0 <= i < size:
                raise AssertionError(f"{_who(actor)}: {_text(a)} encodes to {i!r}, outside 0-{size - 1}")
            back = codec.decode(i)
            if back != a:
                raise AssertionError(f"{_who(actor)}: index {i} of {_text(a)} decodes to {_text(back)}")
            indices.append(i)
        if len(set(indices)) != len(indices):
            raise AssertionError(f"{_who(actor)}: two options share an index: {indices}")
        if actor != CHANCE and indices != sorted(indices):
            raise AssertionError(f"seat {actor}: legal actions are not sorted by index: {indices}")


def check_state_json(game: AnyGame, state: Any, players: int) -> None:
    """The state goes to JSON text and back equal; its hash is stable; it has a debug text."""
    try:
        data = game.state_to_json(state)
        text = json.dumps(data, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise AssertionError(f"state_to_json fails: {exc}") from exc
    back = game.state_from_json(json.loads(text))
    if type(back) is not type(state):
        raise AssertionError(f"state_from_json gives a {type(back).__name__}, not a {type(state).__name__}")
    if has_state_eq(state) and back != state:
        raise AssertionError("state_from_json(state_to_json(s)) != s")
    if json.dumps(game.state_to_json(back), sort_keys=True) != text:
        raise AssertionError("a state read back from JSON writes other JSON")
    before, now = fingerprint(game, state, players), fingerprint(game, back, players)
    if before != now:
        raise AssertionError(f"a state read back from JSON plays otherwise: {_fingerprint_diff(before, now)}")
    h = game.state_hash(state)
    if not isinstance(h, str) or not h or h != game.state_hash(back) or h != game.state_hash(state.clone()):
        raise AssertionError(f"state_hash {h!r} differs between a state, its clone and its JSON copy")
    debug = game.debug_text(state)
    if not isinstance(debug, str) or not debug.strip():
        raise AssertionError("debug_text gives no text")


def check_forced_step(game: AnyGame, state: Any, players: int, rng: Random, *, samples: int = 2) -> int:
    """A forced step applied at once must not tell other seats anything.

    Where seat ``p`` has one legal action and is not ``always_asked``, the driver applies it
    at once, which every other seat sees. So in states determinized for any other seat ``v``
    (which ``v`` cannot tell from the true one), ``p`` must also have exactly that one option;
    else ``always_asked`` must be true there. Returns the number of forced steps checked.
    """
    count = 0
    for p in game.to_act(state):
        if p == CHANCE:
            continue
        legal = list(game.legal_actions(state, p))
        if len(legal) != 1 or game.always_asked(state, p):
            continue
        count += 1
        for v in range(players):
            if v == p:
                continue
            for _ in range(samples):
                s2 = game.determinize(game.observe(state, v), v, rng)
                other = list(game.legal_actions(s2, p))
                if len(other) != 1 or game.always_asked(s2, p):
                    raise AssertionError(
                        f"forced-step leak: seat {p}'s only option {_text(legal[0])} is applied at once, "
                        f"but in a state seat {v} cannot tell from this one seat {p} has "
                        f"{[a.to_text() for a in other]}"
                        f"{' (always asked)' if len(other) == 1 else ''}: the timing tells seat {v} "
                        "what it may not know (make always_asked true here)"
                    )
    return count


def check_commitments(game: AnyGame, state: Any, players: int, rng: Random, *, samples: int = 4) -> int:
    """Commitment variation: while several seats commit in secret, one seat's choice shows nowhere.

    At a node where several seats are to act, vary one committing seat ``q`` over its legal
    options; then let the other seats commit the same fixed choices, one by one, up to (not
    including) the last commitment, which may reveal everything. Every other seat's view, log
    and legal actions, and the spectator's view and log, must be equal whatever ``q`` chose.
    Returns the number of seats varied.

    The others commit only while at least two of them are left: the last commitment of all
    may reveal them all, and whether the next one is the last may depend on ``q``'s choice.
    """
    actors = tuple(game.to_act(state))
    if len(actors) < 2 or CHANCE in actors:
        return 0
    varied = 0
    for q in actors:
        opts = list(game.legal_actions(state, q))
        if len(opts) < 2:
            continue
        varied += 1
        picks = [opts[0], *rng.sample(opts[1:], min(samples - 1, len(opts) - 1))]
        plan_rng = Random(rng.getrandbits(32))
        plan: dict[int, list[Any]] = {}
        traces: list[tuple[Any, list[Any]]] = []
        for b in picks:
            s = state.clone()
            events: list[Event] = []
            game.apply(s, q, b, events)
            trace: list[Any] = []
            step = 0
            while True:
                left = tuple(game.to_act(s))
                others = [v for v in range(players) if v != q]
                trace.append((
                    tuple(p for p in left if p != q),
                    tuple(game.observe(s, v) for v in [*others, None]),
                    tuple(tuple(visible_log(events, v)) for v in [*others, None]),
                    tuple(tuple(game.legal_actions(s, v)) for v in others if v in left),
                ))
                movers = [p for p in left if p != q and p != CHANCE]
                if len(movers) < 2 or CHANCE in left:
                    break  # the next commitment may be the last one, which may reveal
                r = movers[0]
                choices = plan.setdefault(step, [])
                legal_r = list(game.legal_actions(s, r))
                if not choices:
                    choices.append(legal_r[plan_rng.randrange(len(legal_r))])
                if choices[0] not in legal_r:
                    break  # the traces differ already (the legal actions are compared)
                game.apply(s, r, choices[0], events)
                step += 1
            traces.append((b, trace))
        b0, t0 = traces[0]
        for b, t in traces[1:]:
            for k, (x, y) in enumerate(zip(t0, t, strict=False)):
                if x == y:
                    continue
                what = ["the seats still to act", "the views", "the logs", "the legal actions"]
                part = next(i for i in range(4) if x[i] != y[i])
                detail = ""
                if part == 1:
                    seen_by: list[Viewer] = [*(v for v in range(players) if v != q), None]
                    i = next(i for i in range(len(x[1])) if x[1][i] != y[1][i])
                    detail = f" of viewer {seen_by[i]}: {_diff(x[1][i], y[1][i])}"
                raise AssertionError(
                    f"commitment leak: seat {q} committing {_text(b0)} or {_text(b)} changes "
                    f"{what[part]}{detail} of the others, {k} commitments later, before all have chosen"
                )
            if len(t0) != len(t):
                raise AssertionError(
                    f"commitment leak: seat {q} committing {_text(b0)} or {_text(b)} changes how long the "
                    "others go on committing"
                )
    return varied


def check_determinize(game: AnyGame, state: Any, players: int, rng: Random) -> dict[int, Any]:
    """``observe(determinize(observe(s, p), p), p) == observe(s, p)`` and the public facts agree.

    Also: the spectator's view, ``to_act``, the seat's own legal actions and the result are
    unchanged, and the sampled state is playable. Returns the sampled state per seat.
    """
    actors = tuple(game.to_act(state))
    spect = game.observe(state, None)
    out: dict[int, Any] = {}
    for p in range(players):
        view = game.observe(state, p)
        s2 = game.determinize(view, p, rng)
        got = game.observe(s2, p)
        if got != view:
            raise AssertionError(f"determinize for seat {p} breaks the identity: {_diff(view, got)}")
        got_spect = game.observe(s2, None)
        if got_spect != spect:
            raise AssertionError(
                f"determinize for seat {p} changes the spectator's view: {_diff(spect, got_spect)}"
            )
        if tuple(game.to_act(s2)) != actors:
            raise AssertionError(f"determinize for seat {p}: to_act {game.to_act(s2)} != {actors}")
        if p in actors and list(game.legal_actions(s2, p)) != list(game.legal_actions(state, p)):
            raise AssertionError(
                f"determinize for seat {p} changes its legal actions: "
                f"{[a.to_text() for a in game.legal_actions(s2, p)]} != "
                f"{[a.to_text() for a in game.legal_actions(state, p)]}"
            )
        if game.result(s2) != game.result(state):
            raise AssertionError(f"determinize for seat {p} changes the result: {game.result(s2)}")
        try:
            check_flow(game, s2, players, rng)
        except AssertionError as exc:
            raise AssertionError(f"determinize for seat {p} gives a broken state: {exc}") from exc
        out[p] = s2
    return out


@dataclass
class _Outcome:
    """The true step, as every viewer sees it."""

    views: dict[Viewer, Any] = field(default_factory=dict)
    logs: dict[Viewer, list[Message | None]] = field(default_factory=dict)
    describes: dict[Viewer, Message] = field(default_factory=dict)


def check_no_leak(game: AnyGame, state: Any, players: int, actor: Player, action: Any, rng: Random,
                  *, determinized: Mapping[int, Any] | None = None, alternatives: int = 4) -> None:
    """The no-leak transition test (L1 and L2 of the module docstring) for one step.

    ``determinized`` maps seats to states from :func:`check_determinize` (sampled here if None).
    """
    viewers = _viewers(players)
    after, events = _apply_clone(game, state, actor, action)
    base = _Outcome()
    for v in viewers:
        base.views[v] = game.observe(after, v)
        base.logs[v] = _log(events, v)
        base.describes[v] = game.describe(state, actor, action, v)

    def compare(origin: Any, b: Any, l1: Sequence[Viewer], l2: Sequence[int], what: str) -> None:
        try:
            other, other_events = _apply_clone(game, origin, actor, b)
        except TableroError as exc:
            raise AssertionError(f"{what}: the option {_text(b)} is refused: {exc}") from exc
        spect_equal = game.observe(other, None) == base.views[None]
        logs = {v: _log(other_events, v) for v in viewers}
        for v in l1:
            if game.observe(other, v) != base.views[v]:
                continue
            who = "the spectator" if v is None else f"seat {v}"
            if logs[v] != base.logs[v]:
                raise AssertionError(
                    f"log leak to {who} ({what}): {who} sees the same view after "
                    f"{_who(actor)} {_text(action)} and after {_text(b)}, but different events: "
                    f"{base.logs[v]} vs {logs[v]} (either the log reveals hidden information or "
                    "the view lacks something the log states)"
                )
            desc = game.describe(origin, actor, b, v)
            if desc != base.describes[v]:
                raise AssertionError(
                    f"describe leak to {who} ({what}): same view after {_text(action)} and "
                    f"{_text(b)}, but different descriptions: {base.describes[v]} vs {desc}"
                )
        if not spect_equal:
            return
        for p in l2:
            if logs[p] != base.logs[p]:
                continue
            got = game.observe(other, p)
            if got != base.views[p]:
                raise AssertionError(
                    f"view leak to seat {p} ({what}): after {_who(actor)} {_text(action)} and "
                    f"{_text(b)} the spectator's views and seat {p}'s events are equal, but seat {p}'s "
                    f"views differ with no event telling it: {_diff(base.views[p], got)}"
                )

    # 1. Other options of the actor (other chance outcomes) in the same state.
    others = [b for b in options_of(game, state, actor) if b != action]
    for b in rng.sample(others, min(alternatives, len(others))):
        compare(state, b, [v for v in viewers if v != actor], [p for p in range(players) if p != actor],
                "another option in the same state")
    # 2. States the seat p cannot tell from the true one.
    if determinized is None:
        determinized = {p: game.determinize(game.observe(state, p), p, rng) for p in range(players)}
    for p, s2 in determinized.items():
        opts = options_of(game, s2, actor)
        cands: list[Any] = [action] if action in opts else []
        if actor == CHANCE:
            cands.append(game.sample_chance(s2, rng))
        cands += rng.sample(opts, min(alternatives, len(opts)))
        seen: list[Any] = []
        for b in cands:
            if b in seen:
                continue
            seen.append(b)
            # The actor knows which of its own options it took: compare its view only for ``action``.
            mine = p != actor or b == action
            compare(s2, b, [p, None] if mine else [None], [p] if mine else [],
                    f"a state determinized for seat {p}")


# ============================================================================ playouts
@dataclass
class PlayoutReport:
    """What a conformance playout went through (for tests that want to see coverage)."""

    steps: int = 0
    chance_steps: int = 0
    decisions: int = 0
    forced: int = 0
    simultaneous: int = 0
    leak_checks: int = 0
    commitment_checks: int = 0
    events: int = 0
    result: Result | None = None


def check_playout(game: AnyGame, players: int, seed: int, *, leak_every: int = 1,
                  options: Mapping[str, object] | None = None) -> PlayoutReport:
    """One random playout with every per-state check at every step (leak checks every k steps)."""
    texts = Texts(game, players)
    rng = Random(derive_seed(seed, "conformance"))
    pool = ActionPool()
    events: list[Event] = []
    report = PlayoutReport()
    where = f"{game.id}, {players} players, seed {seed}"
    saved_views: list[tuple[Any, str]] = []
    saved_clone: tuple[Any, tuple[Any, ...]] | None = None
    state: Any = None
    index = -1

    def per_state(state: Any) -> None:
        nonlocal saved_views, saved_clone
        if saved_clone is not None:
            c, fp = saved_clone
            now = fingerprint(game, c, players)
            if now != fp:
                raise AssertionError(
                    "applying the step to the original changed an earlier clone: "
                    + _fingerprint_diff(fp, now)
                )
        check_views_unchanged(saved_views)
        check_flow(game, state, players, rng)
        for actor in game.to_act(state):
            pool.add(options_of(game, state, actor))
        check_action_text(game, state)
        check_illegal_actions(game, state, players, pool, rng)
        check_clone(game, state, players, rng)
        saved_views = check_views(game, state, players, texts)
        check_describe(game, state, players, texts, rng)
        check_action_space(game, state, players, options)
        saved_clone = (state.clone(), fingerprint(game, state, players))

    try:
        for index, state, actor, action in random_playout(game, players, seed, options=options,
                                                          events=events):
            per_state(state)
            actors = game.to_act(state)
            if actor == CHANCE:
                report.chance_steps += 1
            else:
                report.decisions += 1
                report.simultaneous += len(actors) > 1
                report.forced += check_forced_step(game, state, players, rng)
                report.commitment_checks += check_commitments(game, state, players, rng)
            if index % leak_every == 0:
                check_state_json(game, state, players)
                determinized = check_determinize(game, state, players, rng)
                check_no_leak(game, state, players, actor, action, rng, determinized=determinized)
                report.leak_checks += 1
            report.steps = index + 1
        if state is None:
            state = game.new_initial_state(players, options)
        index = report.steps
        per_state(state)
        if not game.is_terminal(state):
            raise AssertionError("the playout stopped before the end of the game")
        check_determinize(game, state, players, rng)
        check_state_json(game, state, players)
        check_events(events, texts)
    except AssertionError as exc:
        raise AssertionError(f"{where}, step {index}: {exc}") from exc
    except Exception as exc:
        raise AssertionError(f"{where}, step {index}: {type(exc).__name__}: {exc}") from exc
    report.events = len(events)
    report.result = game.result(state)
    return report


# ============================================================================ the match driver
def play_match(game: AnyGame, players: int, seed: int, *, options: Mapping[str, object] | None = None,
               by_text: bool = False, check: bool = True) -> Match[Any, Any, Any]:
    """A match of seeded random bots (the bots of :func:`tablero.core.match.bot_rng`).

    With ``check``: every seat the driver asks has a real choice (two options or more, or an
    ``always_asked`` decision), and the record stays within ``max_game_length``.
    """
    m = Match(game, list(SEAT_NAMES[:players]), options=options, seed=seed)
    return play_on(m, check=check, by_text=by_text)


def play_on(m: Match[Any, Any, Any], *, check: bool = True, by_text: bool = False,
            before_each: Callable[[Match[Any, Any, Any]], object] | None = None) -> Match[Any, Any, Any]:
    """Let seeded random bots finish a match (as ``Match.play_bots`` would).

    ``before_each`` is called with the match before each decision (a check of its own).
    """
    game, players, seed = m.game, m.players, m.seed
    bot = RandomChooser()
    rngs = {p: bot_rng(seed, p) for p in range(players)}
    limit = game.max_game_length(players)
    while not m.is_over():
        if before_each is not None:
            before_each(m)
        pending = m.pending()
        if check:
            if not pending or CHANCE in pending:
                raise AssertionError(f"the driver stopped with pending {pending}")
            for p in pending:
                legal = m.legal(p)
                if not legal:
                    raise AssertionError(f"the driver asks seat {p}, which has no legal action")
                if len(legal) == 1 and not game.always_asked(m.state, p):
                    raise AssertionError(
                        f"the driver asks seat {p} about a forced step {_text(legal[0])} (one option, "
                        "not always_asked)"
                    )
        p = pending[0]
        choice = bot.choose(m.view(p), m.legal(p), rngs[p])
        m.act(p, choice.to_text() if by_text else choice)
        if check and len(m.record.entries) > limit:
            raise AssertionError(f"the match is past max_game_length {limit}")
    return m


def _same_match(game: AnyGame, a: Match[Any, Any, Any], b: Match[Any, Any, Any], what: str) -> None:
    if a.record.entries != b.record.entries:
        first = next((i for i, (x, y) in enumerate(zip(a.record.entries, b.record.entries, strict=False))
                      if x != y), min(len(a.record.entries), len(b.record.entries)))
        raise AssertionError(
            f"{what}: the records differ from entry {first}: "
            f"{a.record.entries[first:first + 3]} vs {b.record.entries[first:first + 3]}"
        )
    if a.record.to_json() != b.record.to_json():
        raise AssertionError(f"{what}: the records differ: {a.record.to_json()} vs {b.record.to_json()}")
    for v in _viewers(a.players):
        if a.view(v) != b.view(v):
            raise AssertionError(f"{what}: the views of viewer {v} differ: {_diff(a.view(v), b.view(v))}")
        if a.log(v) != b.log(v):
            raise AssertionError(f"{what}: the logs of viewer {v} differ")
    if a.result() != b.result():
        raise AssertionError(f"{what}: the results differ: {a.result()} vs {b.result()}")


def _other_version(record: GameRecord, **change: str) -> GameRecord:
    data = record.to_json()
    data.update(change)
    return GameRecord.from_json(data)


def check_match(game: AnyGame, players: int, seed: int, *,
                options: Mapping[str, object] | None = None) -> Match[Any, Any, Any]:
    """The driver with seeded bots: determinism, records, replay, version refusal, resumption."""
    where = f"{game.id}, {players} players, seed {seed} (match)"
    try:
        texts = Texts(game, players)
        m = play_match(game, players, seed, options=options, by_text=True)
        res = m.result()
        check_result(game, m.state, players)
        if res is None or m.record.result != res.to_json():
            raise AssertionError(f"the record's result {m.record.result} is not the result {res}")
        if not m.record.entries or len(m.record.entries) > game.max_game_length(players):
            raise AssertionError(
                f"{len(m.record.entries)} record entries (max {game.max_game_length(players)})"
            )
        check_events((e for _, e in m.events), texts, "match event")
        for v in _viewers(players):
            for msg in m.log(v):
                texts.check_message(msg, f"log of viewer {v}")
        check_views(game, m.state, players, texts)

        # Same seed, same bots: the same game (here through Match.play_bots and action objects).
        twin = Match(game, list(SEAT_NAMES[:players]), options=options, seed=seed)
        bots = {p: RandomChooser() for p in range(players)}
        twin.play_bots(bots, {p: bot_rng(seed, p) for p in range(players)})
        _same_match(game, m, twin, "a second match with the same seed")

        # The record round-trips through JSON and rebuilds the match, with no RNG.
        record = GameRecord.from_json(json.loads(m.record.dumps()))
        if record != m.record:
            raise AssertionError(f"the record does not round-trip through JSON: {record} != {m.record}")
        rebuilt = Match.from_record(game, record)
        _same_match(game, m, rebuilt, "Match.from_record")
        if [(i, e) for i, e in rebuilt.events] != [(i, e) for i, e in m.events]:
            raise AssertionError("Match.from_record rebuilds another event log")
        final = replay(game, record)
        for v in _viewers(players):
            if game.observe(final, v) != m.view(v):
                raise AssertionError(
                    f"replay gives another view for {v}: {_diff(m.view(v), game.observe(final, v))}"
                )
        if has_state_eq(final) and final != m.state:
            raise AssertionError("replay gives a state unequal (==) to the match's state")
        if game.result(final) != res:
            raise AssertionError(f"replay gives the result {game.result(final)}, not {res}")

        # Records made under other rules, data or games are refused.
        for change in ({"rules_version": game.rules_version + "-other"},
                       {"data_version": game.data_version + "-other"},
                       {"game": game.id + "-other"}):
            bad = _other_version(record, **change)
            for name, fn in (("Match.from_record", Match.from_record), ("replay", replay)):
                try:
                    fn(game, bad)
                except RecordError:
                    continue
                except Exception as exc:
                    raise AssertionError(
                        f"{name} of a record with {change} raised {type(exc).__name__}, not RecordError"
                    ) from exc
                raise AssertionError(f"{name} accepted a record with {change}")

        # A record with a corrupted entry does not replay.
        k = len(record.entries) // 2
        broken = GameRecord.from_json(record.to_json())
        broken.entries[k] = (broken.entries[k][0], JUNK_TEXTS[-1])
        try:
            replay(game, broken)
        except RecordError:
            pass
        else:
            raise AssertionError(f"replay accepted a record whose entry {k} is {JUNK_TEXTS[-1]!r}")
        try:
            Match.from_record(game, broken)
        except RecordError:
            pass
        else:
            raise AssertionError(f"Match.from_record accepted a record whose entry {k} is {JUNK_TEXTS[-1]!r}")

        # A match rebuilt from half a record plays on, the same way each time.
        half = GameRecord.from_json(record.to_json())
        half.entries = half.entries[:k]
        half.result = None
        resumed = [play_on(Match.from_record(game, half)) for _ in range(2)]
        if resumed[0].record.entries[:k] != record.entries[:k]:
            raise AssertionError("a match rebuilt from half a record lost entries")
        _same_match(game, resumed[0], resumed[1], "two matches resumed from the same half record")

        # A match started from any position (its record's setup header) plays on and replays.
        position = replay(game, half)
        started = Match.from_state(game, position, list(SEAT_NAMES[:players]), options=m.options, seed=seed)
        if started.record.setup is None:
            raise AssertionError("Match.from_state writes no setup header into its record")
        play_on(started)
        saved = GameRecord.from_json(json.loads(started.record.dumps()))
        _same_match(game, started, Match.from_record(game, saved), "Match.from_record of a record with a setup")
        again = replay(game, saved)
        if has_state_eq(again) and again != started.state:
            raise AssertionError("replay of a record with a setup gives another final state")
        return m
    except AssertionError as exc:
        raise AssertionError(f"{where}: {exc}") from exc
    except Exception as exc:
        raise AssertionError(f"{where}: {type(exc).__name__}: {exc}") from exc


def check_takebacks(game: AnyGame, players: int, seed: int, *,
                    options: Mapping[str, object] | None = None) -> int:
    """A take-back never lets a seat peek: it closes at any reveal of hidden information.

    In a match with take-backs allowed, at every point where a seat could take back its
    moves, re-deal what that seat may not see (``determinize`` from its view at the
    checkpoint) and replay its own moves since the checkpoint: its view and its log must be
    the same as in the true game. Were they not, the moves showed it something hidden, and
    undoing them would let it choose again knowing it. Returns the number of points checked.
    """
    rng = Random(derive_seed(seed, "takebacks"))
    checked = 0

    def check_points(m: Match[Any, Any, Any]) -> None:
        nonlocal checked
        for p in range(players):  # also a seat that waits while another decides
            point = m.undo_point(p)
            if point is None:
                continue
            index, before = point
            checked += 1
            s2 = game.determinize(game.observe(before, p), p, rng)
            events: list[Event] = []
            for actor, text in m.record.entries[index:]:
                try:
                    game.apply(s2, actor, game.parse_action(s2, actor, text), events)
                except TableroError as exc:
                    raise AssertionError(
                        f"take-back leak: seat {p}'s own move {text!r} since its checkpoint (entry "
                        f"{index}) is refused in a re-dealt state it cannot tell apart: {exc}"
                    ) from exc
            if game.observe(s2, p) != m.view(p):
                raise AssertionError(
                    f"take-back leak: seat {p} may take back its moves since entry {index}, but they "
                    f"showed it hidden information: {_diff(m.view(p), game.observe(s2, p))} "
                    "(flag the revealing event reveal=True)"
                )
            if visible_log(events, p) != m.log(p, index):
                raise AssertionError(
                    f"take-back leak: seat {p} may take back its moves since entry {index}, but their "
                    f"log depends on what it may not see: {m.log(p, index)} vs {visible_log(events, p)}"
                )

    m = Match(game, list(SEAT_NAMES[:players]), options=options, seed=seed, undo=True)
    play_on(m, check=False, before_each=check_points)
    return checked


# ============================================================================ all of it
def run_conformance(game: AnyGame, players: int, seed: int, *, leak_every: int = 1,
                    options: Mapping[str, object] | None = None) -> PlayoutReport:
    """Every conformance check for one game, player count and seed; raises AssertionError."""
    check_metadata(game)
    report = check_playout(game, players, seed, leak_every=leak_every, options=options)
    check_match(game, players, seed, options=options)
    try:
        check_takebacks(game, players, seed, options=options)
    except AssertionError as exc:
        raise AssertionError(f"{game.id}, {players} players, seed {seed} (take-backs): {exc}") from exc
    return report
