"""The toy game really exercises features (a)-(f), and the conformance suite catches leaky games."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

import pytest

from tablero.core.errors import ActionParseError, IllegalActionError
from tablero.core.events import Event
from tablero.core.match import Match, replay
from tablero.core.messages import Catalogue, Message, Translator
from tablero.core.protocol import CHANCE, Player, Viewer
from tablero.core.record import GameRecord
from tablero.testing import TOY_GAME, check_playout, random_playout, run_conformance
from tablero.testing.conformance import play_on
from tablero.testing.toygame import (
    BID,
    CATALOGUE,
    DECK_COUNTS,
    DRAW,
    PLAY,
    RESPOND,
    ROLL,
    Bid,
    Draw,
    PlayCard,
    Respond,
    Roll,
    ToyAction,
    ToyGame,
    ToyState,
    ToyView,
    parse,
)

GAME = TOY_GAME
NAMES = ["Ada", "Bea", "Cem", "Dora"]

# Two seats: seat 0 is dealt a 2, seat 1 a 3; the die shows 4; seat 0 draws another 2.
FORCED_SCRIPT = [(CHANCE, "draw 2"), (CHANCE, "draw 3"), (CHANCE, "roll 4"), (CHANCE, "draw 2")]


def record_of(entries: Sequence[tuple[int, str]], players: int = 2, seed: int = 7) -> GameRecord:
    return GameRecord(
        game=GAME.id, rules_version=GAME.rules_version, data_version=GAME.data_version,
        players=NAMES[:players], options=GAME.resolve_options(players), seed=seed, entries=list(entries),
    )


def scripted(entries: Sequence[tuple[int, str]], players: int = 2) -> ToyState:
    state = GAME.new_initial_state(players)
    for actor, text in entries:
        GAME.apply(state, actor, GAME.parse_action(state, actor, text))
    return state


def match_until(phase: int, players: int, seed: int) -> Match[Any, Any, Any]:
    """A match of bots stopped when ``phase`` comes up for a seat to decide.

    They play and respond with their last option; the seat that responds next round wins the
    bidding alone (so that it has a point and is asked), the others bid 0.
    """
    m = Match(GAME, NAMES[:players], seed=seed)
    while m.state.phase != phase:
        assert not m.is_over(), f"phase {phase} never came"
        p = m.pending()[0]
        if m.state.phase == BID:
            m.act(p, Bid(1 if p == (m.state.turn + 2) % players else 0))
        else:
            m.act(p, m.legal(p)[-1])
    return m


# ---------------------------------------------------------------------------- (a) non-turn seat
def test_a_the_responder_is_not_the_turn_player() -> None:
    for players in (2, 3, 4):
        m = match_until(RESPOND, players, seed=players)
        turn = m.state.turn
        assert m.pending() == ((turn + 1) % players,)
        assert turn not in m.pending()
        assert m.view(None).turn == turn
        with pytest.raises(IllegalActionError):
            m.act(turn, "accept")  # the turn player may not answer his own play


# ---------------------------------------------------------------------------- (b) hidden commitments
def test_b_every_seat_commits_at_once_in_any_order() -> None:
    m = match_until(BID, 3, seed=1)
    assert m.pending() == (0, 1, 2)
    m.act(2, "bid 1")
    assert m.pending() == (0, 1)
    with pytest.raises(IllegalActionError):
        m.act(2, "bid 0")  # committed already
    m.act(0, "bid 0")
    assert m.pending() == (1,)


def test_b_a_commitment_is_invisible_to_others_until_the_reveal() -> None:
    base = match_until(BID, 3, seed=2)
    since = len(base.record.entries)
    worlds = []
    for amount in (0, 2):
        m = Match.from_record(GAME, base.record)
        m.act(0, f"bid {amount}")
        worlds.append(m)
    low, high = worlds
    for viewer in (1, 2, None):
        assert low.view(viewer) == high.view(viewer)
        assert low.log(viewer, since) == high.log(viewer, since)
    assert low.view(1).committed == (True, False, False)
    assert low.view(0).bid == 0 and high.view(0).bid == 2
    assert low.view(1).bid is None
    assert low.log(0, since) != high.log(0, since)  # seat 0 sees its own bid
    assert GAME.describe(low.state, 0, Bid(0), 1) == GAME.describe(low.state, 0, Bid(2), 1)
    # Seat 1 cannot tell: a determinization for seat 1 invents seat 0's bid.
    view = low.view(1)
    for seed in range(10):
        s2 = GAME.determinize(view, 1, Random(seed))
        assert GAME.observe(s2, 1) == view

    for m in worlds:
        m.act(2, "bid 1")
        m.act(1, "bid 1")
    for m, amount in zip(worlds, (0, 2), strict=True):
        reveals = [msg for msg in m.log(None, since) if msg.id == "toy.reveal"]
        assert reveals == [Message("toy.reveal", bids=(amount, 1, 1))]
        assert m.view(2).last_bids == (amount, 1, 1)
    assert low.view(1) != high.view(1)


# ---------------------------------------------------------------------------- (c) the die
def test_c_the_die_is_a_uniform_chance_node() -> None:
    state = scripted(FORCED_SCRIPT[:2])
    assert state.phase == ROLL
    assert GAME.to_act(state) == (CHANCE,)
    outcomes = GAME.chance_outcomes(state)
    assert [a for a, _ in outcomes] == [Roll(v) for v in range(1, 7)]
    assert all(p == pytest.approx(1 / 6) for _, p in outcomes)
    assert GAME.legal_actions(state, 0) == ()
    rng = Random(3)
    assert {GAME.sample_chance(state, rng) for _ in range(200)} == {Roll(v) for v in range(1, 7)}


# ---------------------------------------------------------------------------- (d) the draw
def test_d_a_draw_comes_from_the_unseen_deck_weighted_by_copies() -> None:
    state = scripted(FORCED_SCRIPT[:3])  # dealt a 2 and a 3: the deck holds 4/3/2/3
    assert state.phase == DRAW
    assert GAME.to_act(state) == (CHANCE,)
    assert GAME.chance_outcomes(state) == [(Draw(1), 4 / 12), (Draw(2), 3 / 12), (Draw(3), 2 / 12),
                                           (Draw(4), 3 / 12)]
    events: list[Event] = []
    GAME.apply(state, CHANCE, Draw(4), events)
    assert GAME.observe(state, 0).hand == (2, 4)
    assert GAME.observe(state, 1).hand == (3,)
    assert GAME.observe(state, 1).hand_sizes == (2, 1)
    assert [e.for_viewer(0) for e in events] == [Message("toy.draw", seat=0, value=4)]
    assert [e.for_viewer(1) for e in events] == [Message("toy.draw.hidden", seat=0)]
    assert [e.for_viewer(None) for e in events] == [Message("toy.draw.hidden", seat=0)]


def test_d_the_other_seat_cannot_tell_which_card_was_drawn() -> None:
    state = scripted(FORCED_SCRIPT[:3])
    seen = set()
    for value in (1, 2, 3, 4):
        s = state.clone()
        events: list[Event] = []
        GAME.apply(s, CHANCE, Draw(value), events)
        seen.add((GAME.observe(s, 1), tuple(e.for_viewer(1) for e in events)))
    assert len(seen) == 1


# ---------------------------------------------------------------------------- (e) the forced step
def test_e_a_forced_step_is_applied_without_asking_and_recorded() -> None:
    entries = [*FORCED_SCRIPT, (0, "play 2")]
    state = scripted(entries)
    assert state.phase == RESPOND and state.scores[1] == 0  # the score is public
    assert list(GAME.legal_actions(state, 1)) == [Respond(False)]
    assert not GAME.always_asked(state, 1)

    m = Match.from_record(GAME, record_of(entries))
    assert m.record.entries == [*entries, (1, "accept")]
    assert m.pending() == (0, 1)  # straight on to the bids
    assert m.log(0, 5) == [Message("toy.accept", seat=1, turn_seat=0, points=6)]  # like a chosen answer


def test_e_a_play_with_two_values_is_asked() -> None:
    entries = [*FORCED_SCRIPT[:3], (CHANCE, "draw 4")]
    m = Match.from_record(GAME, record_of(entries))
    assert m.record.entries == entries
    assert m.pending() == (0,)
    assert list(m.legal(0)) == [PlayCard(2), PlayCard(4)]


# ---------------------------------------------------------------------------- (f) always asked
def test_f_a_play_is_asked_even_with_one_option() -> None:
    """Both cards in hand are 2s: one option, but only seat 0 knows it, so it is asked."""
    m = Match.from_record(GAME, record_of(FORCED_SCRIPT))
    state = m.state
    assert state.phase == PLAY
    assert m.pending() == (0,)
    assert list(m.legal(0)) == [PlayCard(2)]
    assert GAME.always_asked(state, 0)
    with pytest.raises(IllegalActionError):
        m.act(0, "play 3")  # not in the hand
    m.act(0, "play 2")
    assert m.state.scores == [6, 0]  # seat 1 had no point: its accept was forced
    assert m.pending() == (0, 1)


def test_f_a_responder_with_points_may_challenge() -> None:
    entries = [*FORCED_SCRIPT, (0, "play 2"), (1, "accept"), (0, "bid 0"), (1, "bid 0"),
               (CHANCE, "roll 6"), (CHANCE, "draw 1")]
    state = scripted(entries)
    assert state.phase == PLAY and state.turn == 1
    GAME.apply(state, 1, PlayCard(3))
    assert state.scores[0] == 6
    assert list(GAME.legal_actions(state, 0)) == [Respond(False), Respond(True)]
    GAME.apply(state, 0, Respond(True))
    assert state.scores == [5, 3]


# ---------------------------------------------------------------------------- the rest
def test_parse_and_text_round_trip() -> None:
    for a in (Draw(1), Roll(6), PlayCard(4), Respond(False), Respond(True), Bid(0), Bid(2)):
        assert parse(a.to_text()) == a
    assert parse("  Bid 2 ") == Bid(2)
    for junk in ("", "bid 3", "roll 0", "play", "draw x", "accept now"):
        with pytest.raises(ActionParseError):
            parse(junk)


def test_catalogue_has_both_languages_and_renders() -> None:
    assert set(CATALOGUE["en"]) == set(CATALOGUE["de"])
    m = Match(GAME, NAMES[:3], seed=5)
    play_on(m)
    for lang in ("en", "de"):
        tr = Translator(lang, [GAME.catalogue()], NAMES[:3])
        for viewer in (0, 1, 2, None):
            assert all(tr(msg) for msg in m.log(viewer))
            assert GAME.render(m.view(viewer), tr).strip()
    assert m.result() is not None
    assert replay(GAME, m.record) == m.state


def test_game_length_bound_holds_for_the_most_rounds() -> None:
    for players in (2, 3, 4):
        rounds = 14 - players
        m = Match(GAME, NAMES[:players], options={"rounds": rounds}, seed=players)
        play_on(m)
        assert len(m.record.entries) == GAME.max_game_length(players)


def test_conformance_with_other_options() -> None:
    run_conformance(GAME, 4, 11, options={"rounds": 10}, leak_every=3)


def test_toy_playouts_cover_every_feature() -> None:
    forced = simultaneous = 0
    for seed in range(20):
        report = check_playout(GAME, 3, seed, leak_every=5)
        forced += report.forced
        simultaneous += report.simultaneous
    assert forced > 0 and simultaneous > 0


# ---------------------------------------------------------------------------- leaky games
def suite_failure(game: ToyGame, seeds: Sequence[int] = range(6)) -> str:
    """The message of the first conformance failure over a few seeds and every player count."""
    for players in (2, 3, 4):
        for seed in seeds:
            try:
                run_conformance(game, players, seed)
            except AssertionError as exc:
                return str(exc)
    raise AssertionError(f"the conformance suite found nothing wrong with {type(game).__name__}")


class DrawInTheOpen(ToyGame):
    """Leak: every draw is announced with its value to everyone."""

    def apply(self, state: ToyState, player: Player, action: ToyAction,
              events: list[Event] | None = None) -> None:
        mine: list[Event] = []
        super().apply(state, player, action, mine)
        if events is not None:
            events.extend(Event(e.message) if e.message.id in ("toy.draw", "toy.deal") else e for e in mine)


class BidsInTheView(ToyGame):
    """Leak: the view shows the bids other seats have committed (in ``last_bids``)."""

    def observe(self, state: ToyState, viewer: Viewer) -> ToyView:
        view = super().observe(state, viewer)
        if any(b is not None for b in state.bids):
            return dataclasses.replace(view, last_bids=tuple(-1 if b is None else b for b in state.bids))
        return view


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class PeekingView(ToyView):
    others: tuple[tuple[int, ...], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {**ToyView.to_json(self), "others": [list(h) for h in self.others]}


class HandsPeeked(ToyGame):
    """Leak: a seat's view shows the others' hands, and determinize reproduces them.

    The determinization identity holds, so only the no-leak test (L2) can catch it.
    """

    def observe(self, state: ToyState, viewer: Viewer) -> ToyView:
        view = super().observe(state, viewer)
        if viewer is None:
            return view
        fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(ToyView)}
        return PeekingView(**fields, others=tuple(tuple(h) for h in state.hands))

    def determinize(self, view: ToyView, viewer: Player, rng: Random) -> ToyState:
        s = super().determinize(view, viewer, rng)
        assert isinstance(view, PeekingView)
        s.hands = [list(h) for h in view.others]
        s.deck = [c - sum(h[i] for h in s.hands) - sum(1 for _, v in view.discards if v == i + 1)
                  for i, c in enumerate(DECK_COUNTS)]
        return s


class BidsDescribed(ToyGame):
    """Leak: ``describe`` tells everyone the amount of a secret bid."""

    def describe(self, state: ToyState, player: Player, action: ToyAction, viewer: Viewer) -> Message:
        if isinstance(action, Bid):
            return Message("toy.bid", seat=player, amount=action.amount)
        return super().describe(state, player, action, viewer)


class ForcedMarked(ToyGame):
    """Leak: a forced play is logged as automatic, which tells others the hand held a pair."""

    def apply(self, state: ToyState, player: Player, action: ToyAction,
              events: list[Event] | None = None) -> None:
        forced = state.phase == PLAY and len(self.legal_actions(state, player)) == 1
        super().apply(state, player, action, events)
        if events is not None and forced:
            events.append(Event(Message("toy.ui.none")))


class SloppyApply(ToyGame):
    """Bug: a bid is charged before it is checked, so a refused bid changes the state."""

    def apply(self, state: ToyState, player: Player, action: ToyAction,
              events: list[Event] | None = None) -> None:
        if state.phase == BID and 0 <= player < state.n and not isinstance(action, Bid):
            state.scores[player] -= 1
        super().apply(state, player, action, events)


class _ShallowState(ToyState):
    __slots__ = ()

    def clone(self) -> ToyState:
        s = ToyState.clone(self)
        s.hands = self.hands
        s.__class__ = _ShallowState
        return s


class ShallowClone(ToyGame):
    """Bug: clones share the hands with their original."""

    def new_initial_state(self, players: int, options: Mapping[str, object] | None = None) -> ToyState:
        s = super().new_initial_state(players, options)
        s.__class__ = _ShallowState
        return s


class MissingGerman(ToyGame):
    """Bug: a message id without a German template."""

    def catalogue(self) -> Catalogue:
        return {"en": CATALOGUE["en"], "de": {k: v for k, v in CATALOGUE["de"].items() if k != "toy.roll"}}


class DrawsADie(ToyGame):
    """Bug: the card sampler returns something that is not one of the chance outcomes."""

    def sample_chance(self, state: ToyState, rng: Random) -> ToyAction:
        if state.phase == DRAW:
            return Roll(1)
        return super().sample_chance(state, rng)


class PlayNotAsked(ToyGame):
    """Leak: a play with one option is applied at once, which tells others the hand held a pair."""

    def always_asked(self, state: ToyState, player: Player) -> bool:
        return False


class RevealNotFlagged(ToyGame):
    """Leak: the bids are revealed by the last bidder's own move, and its take-back stays open.

    (Rounds after the first have no die and no draw here, so the last bidder, the next turn
    player with two seats, decides again before any chance outcome closes the take-back.)
    """

    def step(self, state: ToyState, player: Player, action: ToyAction, events: list[Event] | None) -> None:
        mine: list[Event] = []
        super().step(state, player, action, mine)
        if state.phase == ROLL and state.round > 0:
            state.phase = PLAY
        if events is not None:  # the bid's own line goes public, as "commits a bid", so nothing private is shown
            events.extend(Event(e.redacted) if e.redacted is not None and e.message.id == "toy.bid"
                          else dataclasses.replace(e, reveal=False) for e in mine)


class BidsPaidAtOnce(ToyGame):
    """Leak: a bid is paid from the (public) score as soon as it is committed."""

    def step(self, state: ToyState, player: Player, action: ToyAction, events: list[Event] | None) -> None:
        if isinstance(action, Bid) and sum(b is None for b in state.bids) > 1:
            state.scores[player] -= action.amount
            state.bids[player] = action.amount
            if events is not None:
                events.append(Event(Message("toy.bid.hidden", seat=player)))
            return
        super().step(state, player, action, events)


class UnsortedLegal(ToyGame):
    """Bug: legal actions come in reverse index order."""

    def generate_legal(self, state: ToyState, player: Player) -> Sequence[ToyAction]:
        return tuple(reversed(super().generate_legal(state, player)))


class JsonForgetsDeck(ToyGame):
    """Bug: the state's JSON forgets the deck, so a position read back plays otherwise."""

    def state_to_json(self, state: ToyState) -> dict[str, Any]:
        return {**super().state_to_json(state), "deck": [4, 4, 3, 3]}


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        (DrawInTheOpen(), "log leak"),
        (BidsInTheView(), "commitment leak"),
        (HandsPeeked(), "view leak"),
        (BidsDescribed(), "describe leak"),
        (ForcedMarked(), "log leak"),
        (SloppyApply(), "changed the state"),
        (ShallowClone(), "clone"),
        (MissingGerman(), "'de'"),
        (DrawsADie(), "sample_chance drew"),
        (PlayNotAsked(), "forced-step leak"),
        (RevealNotFlagged(), "take-back leak"),
        (BidsPaidAtOnce(), "commitment leak"),
        (UnsortedLegal(), "sorted by index"),
        (JsonForgetsDeck(), "state_from_json"),
    ],
    ids=lambda x: type(x).__name__ if isinstance(x, ToyGame) else None,
)
def test_the_suite_catches_broken_games(game: ToyGame, expected: str) -> None:
    message = suite_failure(game)
    assert expected in message, message


def test_the_real_toy_game_passes() -> None:
    for players in (2, 3, 4):
        run_conformance(GAME, players, 0)


def test_random_playouts_are_deterministic_per_seed() -> None:
    def texts(seed: int) -> list[tuple[int, str]]:
        return [(s.actor, s.action.to_text()) for s in random_playout(GAME, 3, seed)]

    assert texts(4) == texts(4)
    assert texts(4) != texts(5)
