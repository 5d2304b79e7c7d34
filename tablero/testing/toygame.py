"""A small test game ("toy") that exercises every part of the core protocol Don Carlo leaves out.

It is not a real board game: each step exists to put one protocol feature through the match
driver, the record, the redacted log, determinization and the conformance suite.

Setup: a shared face-down deck of 14 cards (values 1–4, copies 4/4/3/3, an unseen multiset);
each seat is dealt one card face down. Then ``rounds`` rounds (option, default 3); the turn
player of round ``r`` is seat ``r % players``. Each round:

=========  ==============================================  ==========================================
step       what happens                                    protocol feature exercised
=========  ==============================================  ==========================================
ROLL       chance: a die is rolled in the open (1–6)       (c) a uniform chance node, public outcome
DRAW       chance: the turn player draws a card            (d) a chance node over an unseen multiset,
           (face down, into his hidden hand)                   weighted by copies; a private event
PLAY       the turn player plays a card from his hand      (f) ``always_asked``: when both cards in hand
           face up (``play V``)                                have one value there is one legal action,
                                                               but only he knows it, so he is asked all
                                                               the same (an at-once play would tell)
RESPOND    the *next* seat answers ``accept`` or           (a) a decision by a seat that is not the turn
           ``challenge`` (a challenge costs 1 point and        player; (e) a *forced step*: a seat with
           only a seat with at least 1 point may make it)      fewer than 1 point (public) has the single
                                                               option ``accept``; the driver applies it
BID        every seat secretly commits ``bid 0``–``bid 2``  (b) simultaneous hidden commitments:
           in any order; once all have committed, one          ``to_act`` names every seat still to commit;
           public event reveals all bids                       nobody sees another's bid before the reveal
                                                               (a ``reveal`` event: no take-back after it)
=========  ==============================================  ==========================================

Scoring: ``accept`` gives the turn player card value + die; ``challenge`` gives him the card
value only and costs the responder 1 point. After the reveal the unique highest bidder (if any
bid is highest alone) gains 4 points and pays his bid. Highest score wins; ties share a rank.

Everything a seat may know is in :class:`ToyView`: the die, the played cards, every score, hand
sizes, the deck size, who has committed a bid, its own hand and its own bid. Hands stay hidden
to the end.

The module is also the smallest complete example of a game on the core protocol: actions with
``to_text``/``to_json``, an annotated state on :class:`GameState`, ``generate_legal`` / ``step``
(the core checks), fixed action codecs, one ``redact_action``, events flagged ``reveal``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, Final

from tablero.core.codec import TableCodec
from tablero.core.errors import ActionParseError
from tablero.core.events import Event
from tablero.core.messages import Catalogue, Message
from tablero.core.protocol import CHANCE, Action, Game, GameState, OptionSpec, Player, Result, Viewer

# ---------------------------------------------------------------------------- data
CARD_VALUES: Final = (1, 2, 3, 4)
DECK_COUNTS: Final = (4, 4, 3, 3)
"""Copies per card value (index = value - 1)."""
DECK_SIZE: Final = sum(DECK_COUNTS)
DIE_FACES: Final = (1, 2, 3, 4, 5, 6)
BIDS: Final = (0, 1, 2)
BID_PRIZE: Final = 4
CHALLENGE_COST: Final = 1
DEFAULT_ROUNDS: Final = 3

# Phases
DEAL: Final = 0  # chance: one card to each seat, seat by seat
ROLL: Final = 1  # chance: the die
DRAW: Final = 2  # chance: the turn player draws
PLAY: Final = 3  # the turn player plays a card
RESPOND: Final = 4  # the next seat accepts or challenges (always asked)
BID: Final = 5  # every seat commits a bid in secret
OVER: Final = 6

PHASE_NAMES: Final = ("deal", "roll", "draw", "play", "respond", "bid", "over")


# ---------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the card drawn (dealt) has ``value``."""

    value: int

    def to_text(self) -> str:
        return f"draw {self.value}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "draw", "value": self.value}


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: the die shows ``value``."""

    value: int

    def to_text(self) -> str:
        return f"roll {self.value}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "roll", "value": self.value}


@dataclass(frozen=True, slots=True)
class PlayCard:
    """The turn player plays a card of ``value`` face up."""

    value: int

    def to_text(self) -> str:
        return f"play {self.value}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "play", "value": self.value}


@dataclass(frozen=True, slots=True)
class Respond:
    """The responder accepts the play or challenges it."""

    challenge: bool

    def to_text(self) -> str:
        return "challenge" if self.challenge else "accept"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.to_text()}


@dataclass(frozen=True, slots=True)
class Bid:
    """A secret bid of ``amount`` points."""

    amount: int

    def to_text(self) -> str:
        return f"bid {self.amount}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "bid", "amount": self.amount}


@dataclass(frozen=True, slots=True)
class Hidden:
    """What another seat sees of a secret action: its kind only (``bid``, ``draw``)."""

    kind: str

    def to_text(self) -> str:
        return self.kind

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind}


ToyAction = Draw | Roll | PlayCard | Respond | Bid

SEAT_ACTIONS: Final = TableCodec[ToyAction](
    [*(PlayCard(v) for v in CARD_VALUES), Respond(False), Respond(True), *(Bid(b) for b in BIDS)]
)
"""Every seat action, numbered (the same for every player count and option)."""
CHANCE_ACTIONS: Final = TableCodec[ToyAction]([*(Draw(v) for v in CARD_VALUES), *(Roll(v) for v in DIE_FACES)])

_NUMBERED: Final[dict[str, tuple[type[Draw] | type[Roll] | type[PlayCard] | type[Bid], tuple[int, ...]]]] = {
    "draw": (Draw, CARD_VALUES),
    "roll": (Roll, DIE_FACES),
    "play": (PlayCard, CARD_VALUES),
    "bid": (Bid, BIDS),
}


def parse(text: str) -> ToyAction:
    """Read a wire text: ``draw V``, ``roll V``, ``play V``, ``accept``, ``challenge``, ``bid N``."""
    words = text.strip().lower().split()
    if words == ["accept"]:
        return Respond(False)
    if words == ["challenge"]:
        return Respond(True)
    if len(words) == 2 and words[0] in _NUMBERED:
        cls, allowed = _NUMBERED[words[0]]
        if words[1].isdigit() and int(words[1]) in allowed:
            return cls(int(words[1]))
        raise ActionParseError(
            f"cannot read {text!r}: {words[0]} takes one of {', '.join(map(str, allowed))}"
        )
    raise ActionParseError(
        f"cannot read {text!r}: write draw V, roll V, play V, accept, challenge or bid N"
    )


# ---------------------------------------------------------------------------- state
class ToyState(GameState):
    """Everything about one toy game. Mutated only by ``ToyGame.step``."""

    __slots__ = (
        "bids", "deal_seat", "deck", "die", "discards", "hands", "last_bids", "n", "phase",
        "played", "responded", "round", "rounds", "scores", "turn",
    )

    n: int
    rounds: int
    round: int
    phase: int
    turn: int  # the turn player of this round
    deal_seat: int  # DEAL: the seat being dealt to
    deck: list[int]  # unseen counts per value (index value - 1)
    hands: list[list[int]]  # per seat: counts per value
    scores: list[int]
    die: int  # 0 until rolled this round
    played: int  # the card played this round, 0 until played
    responded: int  # 0 = not yet, 1 = accepted, 2 = challenged
    bids: list[int | None]  # committed (secret) bids of this round; None = not yet
    last_bids: tuple[int, ...] | None  # the bids revealed at the end of the last round
    discards: list[tuple[int, int]]  # (seat, value) of every card played, in order

    def clone(self) -> ToyState:
        s = ToyState.__new__(ToyState)
        s.n = self.n
        s.rounds = self.rounds
        s.round = self.round
        s.phase = self.phase
        s.turn = self.turn
        s.deal_seat = self.deal_seat
        s.deck = self.deck[:]
        s.hands = [h[:] for h in self.hands]
        s.scores = self.scores[:]
        s.die = self.die
        s.played = self.played
        s.responded = self.responded
        s.bids = self.bids[:]
        s.last_bids = self.last_bids
        s.discards = self.discards[:]
        s.legal_cache = self.legal_cache
        return s

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ToyState):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    __hash__ = None  # type: ignore[assignment]

    @property
    def responder(self) -> int:
        return (self.turn + 1) % self.n


# ---------------------------------------------------------------------------- view
@dataclass(frozen=True, slots=True, kw_only=True)
class ToyView:
    viewer: int | None
    players: int
    rounds: int
    round: int
    phase: str
    turn: int
    to_act: tuple[int, ...]
    die: int
    played: int
    responded: int
    scores: tuple[int, ...]
    hand: tuple[int, ...] | None  # the viewer's own hand (sorted values); None for spectators
    hand_sizes: tuple[int, ...]
    deck_size: int
    discards: tuple[tuple[int, int], ...]
    committed: tuple[bool, ...]  # per seat: has committed a bid this round
    bid: int | None  # the viewer's own committed bid
    last_bids: tuple[int, ...] | None
    ranks: tuple[int, ...] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "viewer": self.viewer,
            "players": self.players,
            "rounds": self.rounds,
            "round": self.round,
            "phase": self.phase,
            "turn": self.turn,
            "to_act": list(self.to_act),
            "die": self.die,
            "played": self.played,
            "responded": self.responded,
            "scores": list(self.scores),
            "hand": None if self.hand is None else list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "deck_size": self.deck_size,
            "discards": [[s, v] for s, v in self.discards],
            "committed": list(self.committed),
            "bid": self.bid,
            "last_bids": None if self.last_bids is None else list(self.last_bids),
            "ranks": None if self.ranks is None else list(self.ranks),
        }


def _values(counts: Sequence[int]) -> tuple[int, ...]:
    return tuple(v for v, c in zip(CARD_VALUES, counts, strict=True) for _ in range(c))


def _counts(values: Sequence[int]) -> list[int]:
    out = [0] * len(CARD_VALUES)
    for v in values:
        out[v - 1] += 1
    return out


# ---------------------------------------------------------------------------- text
CATALOGUE: Final[Catalogue] = {
    "en": {
        "toy.deal": "{seat} is dealt a {value}",
        "toy.deal.hidden": "{seat} is dealt a card",
        "toy.roll": "{seat} rolls a {value}",
        "toy.draw": "{seat} draws a {value}",
        "toy.draw.hidden": "{seat} draws a card",
        "toy.play": "{seat} plays a {value}",
        "toy.accept": "{seat} accepts: {turn_seat} scores {points}",
        "toy.challenge": "{seat} challenges (-1): {turn_seat} scores {points}",
        "toy.bid": "{seat} bids {amount} in secret",
        "toy.bid.hidden": "{seat} commits a bid",
        "toy.reveal": "Bids revealed: {bids}",
        "toy.bid.win": "{seat} wins the bidding: +{prize}, pays {amount}",
        "toy.bid.none": "Nobody wins the bidding",
        "toy.final": "Final scores {scores}; winner: {seats}",
        "toy.ui.title": "Toy game, round {round} of {rounds}",
        "toy.ui.over": "Toy game, game over",
        "toy.ui.seat": "{marker} {seat}: {score} points, {cards} cards{bid}",
        "toy.ui.committed": ", bid committed",
        "toy.ui.your_bid": ", your bid {amount}",
        "toy.ui.none": "",
        "toy.ui.hand": "Your hand: {cards}",
        "toy.ui.table": "Die {die}; deck {deck} cards; played: {played}",
        "toy.ui.last_bids": "Last bids: {bids}",
        "toy.ui.ranks": "Ranks: {ranks}",
    },
    "de": {
        "toy.deal": "{seat} erhält eine {value}",
        "toy.deal.hidden": "{seat} erhält eine Karte",
        "toy.roll": "{seat} würfelt eine {value}",
        "toy.draw": "{seat} zieht eine {value}",
        "toy.draw.hidden": "{seat} zieht eine Karte",
        "toy.play": "{seat} spielt eine {value}",
        "toy.accept": "{seat} nimmt an: {turn_seat} erhält {points}",
        "toy.challenge": "{seat} fordert heraus (-1): {turn_seat} erhält {points}",
        "toy.bid": "{seat} bietet geheim {amount}",
        "toy.bid.hidden": "{seat} gibt ein Gebot ab",
        "toy.reveal": "Gebote aufgedeckt: {bids}",
        "toy.bid.win": "{seat} gewinnt das Bieten: +{prize}, zahlt {amount}",
        "toy.bid.none": "Niemand gewinnt das Bieten",
        "toy.final": "Endstand {scores}; Sieger: {seats}",
        "toy.ui.title": "Testspiel, Runde {round} von {rounds}",
        "toy.ui.over": "Testspiel, Spielende",
        "toy.ui.seat": "{marker} {seat}: {score} Punkte, {cards} Karten{bid}",
        "toy.ui.committed": ", Gebot abgegeben",
        "toy.ui.your_bid": ", dein Gebot {amount}",
        "toy.ui.none": "",
        "toy.ui.hand": "Deine Hand: {cards}",
        "toy.ui.table": "Würfel {die}; Stapel {deck} Karten; gespielt: {played}",
        "toy.ui.last_bids": "Letzte Gebote: {bids}",
        "toy.ui.ranks": "Plätze: {ranks}",
    },
}


# ---------------------------------------------------------------------------- options
def _check_rounds(value: object, players: int) -> object:
    most = DECK_SIZE - players  # every seat is dealt one card, every round draws one
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= most:
        return value
    raise ValueError(f"rounds must be a whole number 1-{most} for {players} players")


OPTIONS: Final = (
    OptionSpec(name="rounds", default=DEFAULT_ROUNDS, parse=int, check=_check_rounds,
               help="number of rounds (the turn passes clockwise each round)"),
)


# ---------------------------------------------------------------------------- the game
class ToyGame(Game[ToyState, ToyAction, ToyView]):
    """The toy test game (see the module docstring for the features each step exercises)."""

    id = "toy"
    title = "Toy"
    rules_version = "1"
    data_version = "1"
    min_players = 2
    max_players = 4
    options = OPTIONS
    state_type = ToyState

    # ------------------------------------------------------------------ setup
    def new_initial_state(self, players: int, options: Mapping[str, object] | None = None) -> ToyState:
        opts = self.resolve_options(players, options)
        s = ToyState()
        s.n = players
        s.rounds = int(opts["rounds"])
        s.round = 0
        s.phase = DEAL
        s.turn = 0
        s.deal_seat = 0
        s.deck = list(DECK_COUNTS)
        s.hands = [[0] * len(CARD_VALUES) for _ in range(players)]
        s.scores = [0] * players
        s.die = 0
        s.played = 0
        s.responded = 0
        s.bids = [None] * players
        s.last_bids = None
        s.discards = []
        s.legal_cache = None
        return s

    def max_game_length(self, players: int) -> int:
        most_rounds = DECK_SIZE - players
        return players + most_rounds * (4 + players)

    # ------------------------------------------------------------------ flow
    def to_act(self, state: ToyState) -> tuple[Player, ...]:
        phase = state.phase
        if phase in (DEAL, ROLL, DRAW):
            return (CHANCE,)
        if phase == PLAY:
            return (state.turn,)
        if phase == RESPOND:
            return (state.responder,)
        if phase == BID:
            return tuple(p for p in range(state.n) if state.bids[p] is None)
        return ()

    def generate_legal(self, state: ToyState, player: Player) -> Sequence[ToyAction]:
        phase = state.phase
        if phase == PLAY:
            return tuple(PlayCard(v) for v, c in zip(CARD_VALUES, state.hands[player], strict=True) if c)
        if phase == RESPOND:
            if state.scores[player] >= CHALLENGE_COST:
                return (Respond(False), Respond(True))
            return (Respond(False),)
        return tuple(Bid(b) for b in BIDS)

    def chance_outcomes(self, state: ToyState) -> Sequence[tuple[ToyAction, float]]:
        if state.phase == ROLL:
            return [(Roll(v), 1.0 / len(DIE_FACES)) for v in DIE_FACES]
        if state.phase in (DEAL, DRAW):
            size = sum(state.deck)
            return [(Draw(v), c / size) for v, c in zip(CARD_VALUES, state.deck, strict=True) if c]
        return []

    def sample_chance(self, state: ToyState, rng: Random) -> ToyAction:
        if state.phase == ROLL:
            return Roll(DIE_FACES[rng.randrange(len(DIE_FACES))])
        r = rng.randrange(sum(state.deck))
        for v, c in zip(CARD_VALUES, state.deck, strict=True):
            if r < c:
                return Draw(v)
            r -= c
        raise AssertionError("deck counts out of step")

    def is_chance_outcome(self, state: ToyState, action: ToyAction) -> bool:
        if state.phase == ROLL:
            return type(action) is Roll and action.value in DIE_FACES
        return (state.phase in (DEAL, DRAW) and type(action) is Draw and action.value in CARD_VALUES
                and state.deck[action.value - 1] > 0)

    def always_asked(self, state: ToyState, player: Player) -> bool:
        """(f): a play is asked even when the hand holds one value: only its owner knows that."""
        return state.phase == PLAY

    def action_codec(self, players: int, options: Mapping[str, object] | None = None) -> TableCodec[ToyAction]:
        return SEAT_ACTIONS

    def chance_codec(self, players: int, options: Mapping[str, object] | None = None) -> TableCodec[ToyAction]:
        return CHANCE_ACTIONS

    def explain_not_to_act(self, state: ToyState, player: Player) -> str:
        if state.phase == OVER:
            return "the game is over"
        return f"seat {player} cannot act now ({PHASE_NAMES[state.phase]})"

    def explain_illegal(self, state: ToyState, player: Player, action: ToyAction) -> str:
        phase = state.phase
        if phase in (DEAL, DRAW):
            return f"{action.to_text()!r} cannot be drawn now"
        if phase == ROLL:
            return f"{action.to_text()!r} is not a die roll"
        if phase == PLAY:
            return f"cannot {action.to_text()!r}: play a card from your hand"
        if phase == RESPOND:
            return f"cannot {action.to_text()!r} now: a challenge costs {CHALLENGE_COST} point"
        return f"{action.to_text()!r} is not a bid"

    def step(self, state: ToyState, player: Player, action: ToyAction, events: list[Event] | None) -> None:
        phase = state.phase
        if phase in (DEAL, DRAW):
            assert isinstance(action, Draw)
            self._draw(state, action.value, events)
        elif phase == ROLL:
            assert isinstance(action, Roll)
            state.die = action.value
            state.phase = DRAW
            if events is not None:
                events.append(Event(Message("toy.roll", seat=state.turn, value=action.value)))
        elif phase == PLAY:
            assert isinstance(action, PlayCard)
            state.hands[player][action.value - 1] -= 1
            state.played = action.value
            state.discards.append((player, action.value))
            state.phase = RESPOND
            if events is not None:
                events.append(Event(Message("toy.play", seat=player, value=action.value)))
        elif phase == RESPOND:
            assert isinstance(action, Respond)
            self._respond(state, player, action.challenge, events)
        else:  # BID
            assert isinstance(action, Bid)
            state.bids[player] = action.amount
            if events is not None:
                events.append(Event(Message("toy.bid", seat=player, amount=action.amount),
                                    frozenset((player,)), Message("toy.bid.hidden", seat=player)))
            if all(b is not None for b in state.bids):
                self._reveal(state, events)

    # ------------------------------------------------------------------ transitions
    def _draw(self, s: ToyState, v: int, events: list[Event] | None) -> None:
        p = s.deal_seat if s.phase == DEAL else s.turn
        s.deck[v - 1] -= 1
        s.hands[p][v - 1] += 1
        if events is not None:
            kind = "toy.deal" if s.phase == DEAL else "toy.draw"
            events.append(Event(Message(kind, seat=p, value=v), frozenset((p,)),
                                Message(f"{kind}.hidden", seat=p)))
        if s.phase == DEAL:
            if p + 1 < s.n:
                s.deal_seat = p + 1
            else:
                s.deal_seat = 0
                s.phase = ROLL
        else:
            s.phase = PLAY

    def _respond(self, s: ToyState, r: int, challenge: bool, events: list[Event] | None) -> None:
        t = s.turn
        points = s.played if challenge else s.played + s.die
        s.scores[t] += points
        if challenge:
            s.scores[r] -= CHALLENGE_COST
        s.responded = 2 if challenge else 1
        s.phase = BID
        if events is not None:
            events.append(Event(Message("toy.challenge" if challenge else "toy.accept",
                                        seat=r, turn_seat=t, points=points)))

    def _reveal(self, s: ToyState, events: list[Event] | None) -> None:
        bids = tuple(b for b in s.bids if b is not None)
        top = max(bids)
        leaders = [p for p, b in enumerate(bids) if b == top]
        winner = leaders[0] if len(leaders) == 1 else -1
        if winner >= 0:
            s.scores[winner] += BID_PRIZE - top
        s.last_bids = bids
        if events is not None:
            events.append(Event(Message("toy.reveal", bids=bids), reveal=True))
            events.append(Event(
                Message("toy.bid.win", seat=winner, prize=BID_PRIZE, amount=top) if winner >= 0
                else Message("toy.bid.none")
            ))
        s.bids = [None] * s.n
        s.round += 1
        s.die = 0
        s.played = 0
        s.responded = 0
        if s.round >= s.rounds:
            s.phase = OVER
            if events is not None:
                res = self.result(s)
                assert res is not None
                events.append(Event(Message("toy.final", scores=tuple(s.scores), seats=res.winners)))
        else:
            s.turn = s.round % s.n
            s.phase = ROLL

    def result(self, state: ToyState) -> Result | None:
        if state.phase != OVER:
            return None
        return Result.from_scores([float(x) for x in state.scores])

    # ------------------------------------------------------------------ information
    def view_seat(self, view: ToyView) -> Viewer:
        return view.viewer if view.hand is not None else None

    def observe(self, state: ToyState, viewer: Viewer) -> ToyView:
        own = viewer is not None and 0 <= viewer < state.n
        over = state.phase == OVER
        ranks = Result.from_scores(state.scores).ranks if over else None
        return ToyView(
            viewer=viewer,
            players=state.n,
            rounds=state.rounds,
            round=state.round,
            phase=PHASE_NAMES[state.phase],
            turn=state.turn,
            to_act=self.to_act(state),
            die=state.die,
            played=state.played,
            responded=state.responded,
            scores=tuple(state.scores),
            hand=_values(state.hands[viewer]) if own and viewer is not None else None,
            hand_sizes=tuple(sum(h) for h in state.hands),
            deck_size=sum(state.deck),
            discards=tuple(state.discards),
            committed=tuple(b is not None for b in state.bids),
            bid=state.bids[viewer] if own and viewer is not None else None,
            last_bids=state.last_bids,
            ranks=ranks,
        )

    def determinize(self, view: ToyView, viewer: Player, rng: Random) -> ToyState:
        """Deal the cards ``viewer`` has not seen at random; invent the bids he has not seen."""
        s = self.new_initial_state(view.players, {"rounds": view.rounds})
        s.round = view.round
        s.phase = PHASE_NAMES.index(view.phase)
        s.turn = view.turn
        s.deal_seat = sum(1 for x in view.hand_sizes if x) if s.phase == DEAL else 0
        s.scores = list(view.scores)
        s.die = view.die
        s.played = view.played
        s.responded = view.responded
        s.last_bids = view.last_bids
        s.discards = list(view.discards)
        unseen = list(DECK_COUNTS)
        for _, v in view.discards:
            unseen[v - 1] -= 1
        own = view.hand or ()
        for v in own:
            unseen[v - 1] -= 1
        pool = [v for v, c in zip(CARD_VALUES, unseen, strict=True) for _ in range(c)]
        rng.shuffle(pool)
        for p in range(view.players):
            if p == viewer:
                s.hands[p] = _counts(own)
            else:
                k = view.hand_sizes[p]
                s.hands[p] = _counts(pool[:k])
                del pool[:k]
        s.deck = _counts(pool)
        s.bids = [
            (view.bid if p == viewer else BIDS[rng.randrange(len(BIDS))]) if done else None
            for p, done in enumerate(view.committed)
        ]
        return s

    # ------------------------------------------------------------------ text
    def parse_action(self, state: ToyState, player: Player, text: str) -> ToyAction:
        return parse(text)

    def redact_action(self, state: ToyState, player: Player, action: ToyAction, viewer: Viewer) -> Action:
        """Draws are seen by the drawing seat only, bids by the bidder only; the rest is public."""
        if isinstance(action, Draw):
            seat = state.deal_seat if state.phase == DEAL else state.turn
            return action if viewer == seat else Hidden("draw")
        if isinstance(action, Bid):
            return action if viewer == player else Hidden("bid")
        return action

    def describe(self, state: ToyState, player: Player, action: ToyAction, viewer: Viewer) -> Message:
        seen = self.redact_action(state, player, action, viewer)
        if isinstance(action, Draw):
            kind = "toy.deal" if state.phase == DEAL else "toy.draw"
            seat = state.deal_seat if state.phase == DEAL else state.turn
            if isinstance(seen, Draw):
                return Message(kind, seat=seat, value=seen.value)
            return Message(f"{kind}.hidden", seat=seat)
        if isinstance(action, Roll):
            return Message("toy.roll", seat=state.turn, value=action.value)
        if isinstance(action, PlayCard):
            return Message("toy.play", seat=player, value=action.value)
        if isinstance(action, Respond):
            points = state.played if action.challenge else state.played + state.die
            return Message("toy.challenge" if action.challenge else "toy.accept",
                           seat=player, turn_seat=state.turn, points=points)
        if isinstance(seen, Bid):
            return Message("toy.bid", seat=player, amount=seen.amount)
        return Message("toy.bid.hidden", seat=player)

    def catalogue(self) -> Catalogue:
        return CATALOGUE

    def render(self, view: ToyView, tr: Callable[[Message], str]) -> str:
        lines: list[str] = []
        if view.phase == "over":
            lines.append(tr(Message("toy.ui.over")))
        else:
            lines.append(tr(Message("toy.ui.title", round=view.round + 1, rounds=view.rounds)))
        played = " ".join(str(v) for _, v in view.discards) or "-"
        lines.append(tr(Message("toy.ui.table", die=view.die or "-", deck=view.deck_size, played=played)))
        for p in range(view.players):
            if p == view.viewer and view.bid is not None:
                bid = Message("toy.ui.your_bid", amount=view.bid)
            elif view.committed[p]:
                bid = Message("toy.ui.committed")
            else:
                bid = Message("toy.ui.none")
            marker = ">" if p in view.to_act else " "
            lines.append(tr(Message("toy.ui.seat", marker=marker, seat=p, score=view.scores[p],
                                    cards=view.hand_sizes[p], bid=bid)))
        if view.hand is not None:
            lines.append(tr(Message("toy.ui.hand", cards=" ".join(map(str, view.hand)) or "-")))
        if view.last_bids is not None:
            lines.append(tr(Message("toy.ui.last_bids", bids=view.last_bids)))
        if view.ranks is not None:
            lines.append(tr(Message("toy.ui.ranks", ranks=view.ranks)))
        return "\n".join(lines)


GAME: Final = ToyGame()
