"""El Grande transitions: setup, rounds, turns, the 33 card types, Veto!, secret disks, scoring.

Spec: ../shared/rules/el-grande.md (rules version 1); section numbers below refer to it.
Each phase of state.py has its branch in :func:`legal_actions` and in the step
(:func:`step`); the core's ``Game.apply`` accepts exactly what ``legal_actions`` lists, so the
two cannot disagree. The scoring of §10 (:func:`ranks`, :func:`score_area`) is here too. This
module imports only data, actions, state and core: the Game façade (rules.py), the views, the
words and the scenario builder sit above it.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Final

from tablero.core.events import Event
from tablero.core.messages import Message
from tablero.core.protocol import CHANCE, Player, Result
from tablero.games.elgrande import data
from tablero.games.elgrande.actions import EGAction, Hidden, Kind, act, card_message, hidden_message, redact
from tablero.games.elgrande.data import (
    AREA_IDS,
    CARD_TYPES,
    CASTILLO,
    CASTILLO_VALUES,
    GRANDE_BONUS,
    KING_BONUS,
    KING_CARD,
    NUM_REGIONS,
    TILES,
    VETO_CARD,
    Tables,
)
from tablero.games.elgrande.state import (
    AFTER,
    COURT_FROM,
    DEAL,
    EXTRA,
    GRANDE,
    INTAKE,
    INTAKE_FROM,
    KING_TO,
    MODE,
    MOVE,
    ORDER,
    OVER,
    PICK,
    PICK_2F,
    PICK_2G,
    PICK_4C,
    PICK_4G,
    PICK_GENERAL,
    PLACE,
    POWER,
    RETURN,
    REVEAL,
    SCORE_CHOICE,
    SELECT,
    SELECT_OPP,
    START,
    TAKE,
    TAKE_BACK,
    TILE,
    VETO,
    ElGrandeState,
)

Events = list[Event] | None
REGION_IDX: Final = tuple(range(NUM_REGIONS))
FULL_HAND: Final = sum(1 << v for v in data.POWER_VALUES)
"""A full power-card hand (bits 1-13)."""
CARD_IDS: Final = tuple(c.id for c in CARD_TYPES)


def _area(i: int) -> Message:
    return Message(f"eg.area.{AREA_IDS[i]}")


def _card(s: ElGrandeState, c: int) -> Message:
    return card_message(c, s.data)


def _logged(p: int, action: EGAction, message: Message) -> Event:
    """The log line of ``p`` taking ``action``: for ``p`` alone when ``actions.redact`` hides the
    action from the others, who see its hidden line instead; else public."""
    seen = redact(p, action, None)
    if isinstance(seen, Hidden):
        return Event(message, frozenset((p,)), hidden_message(p, seen))
    return Event(message)


# ---------------------------------------------------------------------------- small queries
def outside(s: ElGrandeState, p: int) -> int:
    """p's caballeros in regions other than the King's region (the Castillo does not count)."""
    row = s.cab[p]
    return sum(row[r] for r in REGION_IDX if r != s.king)


def clockwise_from(s: ElGrandeState, first: int) -> list[int]:
    return [(first + i) % s.n for i in range(s.n)]


def available(s: ElGrandeState, card: int, p: int) -> bool:
    """Whether the card's special action can be announced now (availability table of §9)."""
    cid = CARD_IDS[card]
    n = s.n
    if cid in ("1A", "1B", "1D", "1F"):
        return any(outside(s, q) for q in range(n))
    if cid in ("1C", "1I"):
        return outside(s, p) > 0
    if cid in ("1E", "2H", "4C"):
        return any(outside(s, q) for q in range(n) if q != p)
    if cid == "1G":
        return s.court[p] > 0
    if cid == "1H":
        return outside(s, p) > 0 or s.court[p] > 0
    if cid == "2A":
        return False
    if cid in ("2B", "2C"):
        return any(s.court[q] for q in range(n) if q != p)
    if cid == "2D":
        return any(s.court[q] or outside(s, q) for q in range(n) if q != p)
    if cid in ("2F", "2G"):
        return any(outside(s, q) for q in range(n))
    if cid == "4D":
        return s.grande[p] != s.king
    if cid == "4F":
        return s.province[p] > 0 or outside(s, p) > 0
    return True  # scorings, 4A, 4B, 4E, 5A


# ---------------------------------------------------------------------------- scoring (§10)
def ranks(counts: Sequence[int]) -> list[int]:
    """Places per §10.2: only counts > 0 take part (rank 0 = not placed); a tie group falls back
    one place and always costs two places."""
    out = [0] * len(counts)
    r = 1
    for c in sorted({c for c in counts if c > 0}, reverse=True):
        group = [p for p, x in enumerate(counts) if x == c]
        if len(group) == 1:
            out[group[0]] = r
            r += 1
        else:
            for p in group:
                out[p] = r + 1
            r += 2
    return out


def current_values(s: ElGrandeState, area: int) -> tuple[int, int, int]:
    """Current values (§10.1): a mobile scoreboard's if one lies in the region, else printed."""
    if area == CASTILLO:
        return CASTILLO_VALUES
    for t, pos in enumerate(s.tiles):
        if pos == area:
            return TILES[t]
    return s.data.REGIONS[area].values


def score_area(s: ElGrandeState, area: int, events: list[Event] | None, *, first_only: bool = False) -> None:
    """Score one area (§10.4): place points, then the King's and Grande bonus of a region."""
    n = s.n
    counts = [s.cab[p][area] for p in range(n)]
    if not any(counts):
        if events is not None:
            events.append(Event(Message("eg.score.empty", area=Message(f"eg.area.{AREA_IDS[area]}"))))
        return
    vals = current_values(s, area)
    rk = ranks(counts)
    points = [0] * n
    for p in range(n):
        r = rk[p]
        if r and r <= 3 and (not first_only or r == 1):
            points[p] = vals[r - 1]
    leader = rk.index(1) if 1 in rk else -1
    for p in range(n):
        s.score[p] += points[p]
    if events is not None:
        aid = Message(f"eg.area.{AREA_IDS[area]}")
        shares = tuple(Message("eg.points", seat=p, points=points[p], place=rk[p])
                       for p in sorted(range(n), key=lambda q: (rk[q], q)) if counts[p])  # by place
        events.append(Event(Message("eg.score", area=aid, shares=shares)))
    if area != CASTILLO and leader >= 0:
        if area == s.king:
            s.score[leader] += KING_BONUS
            if events is not None:
                events.append(Event(Message("eg.bonus.king", seat=leader, points=KING_BONUS)))
        if s.grande[leader] == area:
            s.score[leader] += GRANDE_BONUS
            if events is not None:
                events.append(Event(Message("eg.bonus.grande", seat=leader, points=GRANDE_BONUS)))


# ---------------------------------------------------------------------------- setup (§5)
def new_state(players: int, *, short_game: bool, castillo_open: bool, start_option: int | None,
              tables: Tables) -> ElGrandeState:
    """The state before the first deal (options already checked by the caller); ``tables``: the
    data the game plays with (``data.tables`` of its overrides)."""
    s = ElGrandeState()
    s.legal_cache = None
    s.n = players
    s.data = tables
    s.short_game = short_game
    s.castillo_open = castillo_open
    s.start_option = start_option
    s.rounds = data.SHORT_ROUNDS if s.short_game else data.ROUNDS
    s.ri = 0
    s.cab = [[0] * data.NUM_AREAS for _ in range(players)]
    s.court = [data.START_COURT] * players
    # The two caballeros for the home region wait in the province until it is dealt.
    s.province = [data.START_PROVINCE + data.START_HOME] * players
    s.grande = [-1] * players
    s.king = -1
    s.score = [0] * players
    s.hand = [FULL_HAND] * players
    s.pile = [[] for _ in range(players)]
    s.power_log = [[] for _ in range(players)]
    s.taken_back = [[] for _ in range(players)]
    s.power_now = [0] * players
    s.low_seat = -1
    s.veto = [[] for _ in range(players)]
    s.unseen = [c.count if c.stack <= 4 else 0 for c in tables.CARD_TYPES]
    s.offer = []
    s.king_card = True
    s.discard = []
    s.tiles = [-1, -1]
    s.order = []
    s.ti = 0
    s.phase = DEAL
    s.active = -1
    s.deal_i = 0
    s.reveal_k = 0
    s.power_start = -1
    s.power_i = 0
    s.card = -1
    s.action_first = False
    s.place_limit = 0
    s.placed = 0
    s.intake_left = 0
    s.move_mode = ""
    s.budget_own = 0
    s.budget_opp = 0
    s.sel = -1
    s.queue = []
    s.ret_left = 0
    s.pick_kind = -1
    s.pick_seats = []
    s.picks = [-1] * players
    s.actors = (CHANCE,)
    s.last = None
    s.shown_picks = (-1,) * players
    return s


# ---------------------------------------------------------------------------- chance and legal actions
def chance_outcomes(state: ElGrandeState) -> Sequence[tuple[EGAction, float]]:
    s = state
    if s.phase == DEAL:
        free = _undealt(s)
        return [(act(Kind.DEAL, r), 1.0 / len(free)) for r in free]
    if s.phase == START:
        return [(act(Kind.START, p), 1.0 / s.n) for p in range(s.n)]
    if s.phase == REVEAL:
        stack = s.reveal_k + 1
        cards = [(c, s.unseen[c]) for c, t in enumerate(CARD_TYPES) if t.stack == stack and s.unseen[c]]
        total = sum(k for _, k in cards)
        return [(act(Kind.REVEAL, c), k / total) for c, k in cards]
    return []


def sample_chance(state: ElGrandeState, rng: Random) -> EGAction:
    outcomes = chance_outcomes(state)
    r = rng.random()
    for a, pr in outcomes:
        r -= pr
        if r < 0:
            return a
    return outcomes[-1][0]


def _undealt(s: ElGrandeState) -> list[int]:
    taken = set(s.grande[: s.deal_i])
    return [r for r in REGION_IDX if r not in taken]


def legal_actions(s: ElGrandeState, p: int) -> list[EGAction]:
    """Seat ``p``'s legal actions now (``p`` is to act), in the order of the action codec.

    Each branch lists its actions in the order ``actions.seat_codec`` numbers them (see
    ``_seat_actions`` there), so nothing needs sorting.
    """
    ph = s.phase
    k = s.king
    if ph == POWER:
        blocked = 0
        for v in s.power_now:
            blocked |= 1 << v
        h = s.hand[p] & ~blocked
        return [act(Kind.POWER, v) for v in data.POWER_VALUES if h >> v & 1]
    if ph == INTAKE:
        mx = min(s.data.POWER_CABALLEROS[s.power_now[p]], s.province[p] + outside(s, p))
        return [act(Kind.INTAKE, i) for i in range(mx + 1)]
    if ph == INTAKE_FROM:
        return [act(Kind.INTAKE_FROM, r) for r in REGION_IDX if r != k and s.cab[p][r]]
    if ph == TAKE:
        cards = sorted(s.offer + ([KING_CARD] if s.king_card else []))
        return [act(Kind.TAKE, c) for c in cards]
    if ph == ORDER:
        if available(s, s.card, p):
            return [act(Kind.ACTION_FIRST), act(Kind.PLACE_FIRST)]
        return [act(Kind.PLACE_FIRST)]
    if ph == PLACE:
        out = [act(Kind.PLACE, r) for r in s.data.NEIGHBOURS[k]]
        out.append(act(Kind.PLACE, CASTILLO))
        out.append(act(Kind.END_PLACEMENT))
        return out
    if ph == AFTER:
        if available(s, s.card, p):
            return [act(Kind.DO_ACTION), act(Kind.SKIP_ACTION)]
        return [act(Kind.SKIP_ACTION)]
    if ph == VETO:
        return [act(Kind.VETO), act(Kind.ALLOW)]
    if ph == SELECT:
        mode = s.move_mode
        if mode == "region":  # 1A: any caballero there
            return [act(Kind.SELECT, r) for r in REGION_IDX
                    if r != k and any(s.cab[q][r] for q in range(s.n))]
        if mode == "allout":  # 1I / 1H: own caballero there
            return [act(Kind.SELECT, r) for r in REGION_IDX if r != k and s.cab[p][r]]
        # 4C: an opponent's caballero there
        return [act(Kind.SELECT, r) for r in REGION_IDX
                if r != k and any(s.cab[q][r] for q in range(s.n) if q != p)]
    if ph == MOVE:
        out = _moves(s, p)
        if s.move_mode != "allout":
            out.append(act(Kind.STOP))
        return out
    if ph == EXTRA:
        out = [act(Kind.PLACE_EXTRA, r) for r in REGION_IDX if r != k]
        out.append(act(Kind.PLACE_EXTRA, CASTILLO))
        out.append(act(Kind.STOP))
        return out
    if ph == MODE:
        out = []
        if outside(s, p):
            out.append(act(Kind.MODE_ALL_OUT))
        if s.court[p]:
            out.append(act(Kind.MODE_EXTRA))
        return out
    if ph == SCORE_CHOICE:
        return [act(Kind.SCORE, a) for a in range(data.NUM_AREAS)]
    if ph == RETURN:
        out = [act(Kind.RETURN_FROM, -1)] if s.court[p] else []
        out.extend(act(Kind.RETURN_FROM, r) for r in REGION_IDX if r != k and s.cab[p][r])
        return out
    if ph == SELECT_OPP:
        q = s.queue[0]
        return [act(Kind.SELECT_OPPONENT, q, r) for r in REGION_IDX if r != k and s.cab[q][r]]
    if ph == PICK:
        return [act(Kind.DISK, r) for r in pick_options(s, p)]
    if ph == TILE:
        return _tile_actions(s)
    if ph == KING_TO:
        if CARD_IDS[s.card] == "4B":
            return [act(Kind.KING_TO, r) for r in s.data.NEIGHBOURS[k]]
        return [act(Kind.KING_TO, r) for r in REGION_IDX if r != k]
    if ph == GRANDE:
        return [act(Kind.GRANDE, r) for r in REGION_IDX if r != k and r != s.grande[p]]
    if ph == TAKE_BACK:
        return [act(Kind.TAKE_BACK, v) for v in sorted(set(s.pile[p]))]
    if ph == COURT_FROM:
        out = [act(Kind.INTAKE_FROM, r) for r in REGION_IDX if r != k and s.cab[p][r]]
        out.append(act(Kind.STOP))
        return out
    return []


def _moves(s: ElGrandeState, p: int) -> list[EGAction]:
    """MOVE(source, colour, destination) options of §8.3 for the card being executed."""
    k = s.king
    mode = s.move_mode
    n = s.n
    if mode in ("region", "allout"):
        sources: Sequence[int] = (s.sel,)
    else:
        sources = [r for r in REGION_IDX if r != k]
    if mode == "allout" or mode == "own":
        colours: Sequence[int] = (p,)
    elif mode == "opp":
        colours = [q for q in range(n) if q != p]
    elif mode == "mixed":
        colours = [q for q in range(n) if (q == p and s.budget_own) or (q != p and s.budget_opp)]
    else:
        colours = range(n)
    out: list[EGAction] = []
    for src in sources:
        dests = [a for a in range(data.NUM_AREAS) if a != src and a != k]
        for q in colours:
            if s.cab[q][src]:
                out.extend(act(Kind.MOVE, src, q, d) for d in dests)
    return out


def pick_options(s: ElGrandeState, p: int) -> list[int]:
    """Regions a secret disk may show for this pick (§8.5, §9, §10.5); never the Castillo."""
    kind = s.pick_kind
    k = s.king
    if kind in (PICK_GENERAL, PICK_4G):
        return list(REGION_IDX)
    if kind == PICK_4C:
        return [r for r in REGION_IDX if r != k and r != s.sel]
    own = [r for r in REGION_IDX if r != k and s.cab[p][r]]
    if kind == PICK_2F:
        two = [r for r in own if s.cab[p][r] >= 2]
        return two or own
    return own


def _tile_actions(s: ElGrandeState) -> list[EGAction]:
    """4A (§9.4): one tile per region, never the King's region or the Castillo."""
    k = s.king
    free = [r for r in REGION_IDX if r != k and r not in s.tiles]
    out: list[EGAction] = []
    for t, pos in enumerate(s.tiles):
        if pos < 0:
            out.extend(act(Kind.PLACE_TILE, t, r) for r in free)
        elif pos != k:
            out.extend(act(Kind.MOVE_TILE, t, r) for r in free)
    return out


# ---------------------------------------------------------------------------- the step
def is_chance_outcome(s: ElGrandeState, a: EGAction) -> bool:
    """Whether ``a`` is one of :func:`chance_outcomes` now, without listing them."""
    if a.b != -1 or a.c != -1:
        return False
    if s.phase == DEAL:
        return a.kind == Kind.DEAL and 0 <= a.a < NUM_REGIONS and a.a not in s.grande[: s.deal_i]
    if s.phase == START:
        return a.kind == Kind.START and 0 <= a.a < s.n
    if s.phase == REVEAL:
        return (a.kind == Kind.REVEAL and 0 <= a.a < len(CARD_TYPES)
                and CARD_TYPES[a.a].stack == s.reveal_k + 1 and s.unseen[a.a] > 0)
    return False


def step(s: ElGrandeState, player: Player, action: EGAction, ev: Events) -> None:
    """Apply a checked action (a chance outcome when ``player`` is CHANCE)."""
    if player == CHANCE:
        _chance(s, action, ev)
    else:
        _decide(s, player, action, ev)
    s.last = (player, action)


def _chance(s: ElGrandeState, a: EGAction, ev: Events) -> None:
    if a.kind == Kind.DEAL:
        if s.deal_i < s.n:
            p = s.deal_i
            s.grande[p] = a.a
            s.cab[p][a.a] += data.START_HOME
            s.province[p] -= data.START_HOME
            s.deal_i += 1
            if ev is not None:
                ev.append(Event(Message("eg.deal.home", seat=p, area=_area(a.a)), reveal=True))
        else:
            s.king = a.a
            s.deal_i += 1
            if ev is not None:
                ev.append(Event(Message("eg.deal.king", area=_area(a.a)), reveal=True))
            if s.start_option is None:
                s.phase = START
            else:
                s.power_start = s.start_option
                _start_round(s, ev)
        return
    if a.kind == Kind.START:
        s.power_start = a.a
        if ev is not None:
            ev.append(Event(Message("eg.start", seat=a.a)))
        _start_round(s, ev)
        return
    # REVEAL
    s.unseen[a.a] -= 1
    s.offer.append(a.a)
    s.reveal_k += 1
    if ev is not None:
        ev.append(Event(Message("eg.reveal", card=_card(s, a.a), card_id=CARD_IDS[a.a]), reveal=True))
    if s.reveal_k == 4:
        _start_power(s)


def _start_round(s: ElGrandeState, ev: Events) -> None:
    s.offer = []
    s.king_card = True
    s.reveal_k = 0
    s.phase = REVEAL
    s.actors = (CHANCE,)
    if ev is not None:
        ev.append(Event(Message("eg.round", round=s.round)))


def _start_power(s: ElGrandeState) -> None:
    """§6.2: clockwise from the start player (round 1) or last round's lowest card."""
    if s.ri > 0:
        s.power_start = s.low_seat
    s.power_now = [0] * s.n
    s.power_i = 0
    s.phase = POWER
    s.actors = (s.power_start,)


def _begin_turn(s: ElGrandeState, p: int) -> None:
    s.active = p
    s.card = -1
    s.action_first = False
    s.placed = 0
    s.actors = (p,)
    mx = min(s.data.POWER_CABALLEROS[s.power_now[p]], s.province[p] + outside(s, p))
    s.phase = INTAKE if mx > 0 else TAKE


def _decide(s: ElGrandeState, p: int, a: EGAction, ev: Events) -> None:
    kind = a.kind
    ph = s.phase
    if ph == POWER:
        s.hand[p] &= ~(1 << a.a)
        s.pile[p].append(a.a)
        s.power_log[p].append(a.a)
        s.power_now[p] = a.a
        if ev is not None:
            ev.append(Event(Message("eg.power", seat=p, value=a.a)))
        s.power_i += 1
        if s.power_i < s.n:
            s.actors = ((s.power_start + s.power_i) % s.n,)
            return
        s.order = sorted(range(s.n), key=lambda q: -s.power_now[q])
        s.low_seat = s.order[-1]
        s.ti = 0
        if ev is not None:
            ev.append(Event(Message("eg.order", seats=tuple(s.order))))
        _begin_turn(s, s.order[0])
        return
    if ph == INTAKE:
        n = a.a
        k = min(n, s.province[p])
        s.province[p] -= k
        s.court[p] += k
        if ev is not None:
            ev.append(Event(Message("eg.intake", seat=p, count=n)))
        if n > k:
            s.intake_left = n - k
            s.phase = INTAKE_FROM
        else:
            s.phase = TAKE
        return
    if ph == INTAKE_FROM:
        s.cab[p][a.a] -= 1
        s.court[p] += 1
        s.intake_left -= 1
        if ev is not None:
            ev.append(Event(Message("eg.intake_from", seat=p, area=_area(a.a))))
        if not s.intake_left:
            s.phase = TAKE
        return
    if ph == TAKE:
        c = a.a
        if c == KING_CARD:
            s.king_card = False
        else:
            s.offer.remove(c)
        s.card = c
        if ev is not None:
            ev.append(Event(Message("eg.take", seat=p, card=_card(s, c), card_id=CARD_IDS[c])))
        if c == VETO_CARD:
            s.veto[p].append(s.ri)
            s.action_first = True  # no special action: the turn ends after placement
            _start_placement(s, ev)
        else:
            s.phase = ORDER
        return
    if ph == ORDER:
        if kind == Kind.ACTION_FIRST:
            s.action_first = True
            _announce(s, ev)
        else:
            if ev is not None:
                ev.append(Event(Message("eg.place_first", seat=p)))
            _start_placement(s, ev)
        return
    if ph == PLACE:
        if kind == Kind.END_PLACEMENT:
            _end_placement(s, ev)
            return
        s.cab[p][a.a] += 1
        s.court[p] -= 1
        s.placed += 1
        if ev is not None:
            ev.append(Event(Message("eg.place", seat=p, area=_area(a.a))))
        if s.placed >= s.place_limit or not s.court[p]:
            _end_placement(s, ev)
        return
    if ph == AFTER:
        if kind == Kind.DO_ACTION:
            _announce(s, ev)
        else:
            if ev is not None:
                ev.append(Event(Message("eg.skip_action", seat=p)))
            _end_turn(s, ev)
        return
    if ph == VETO:
        if kind == Kind.VETO:
            s.veto[p].remove(min(s.veto[p]))
            s.discard.append(VETO_CARD)
            s.queue = []
            if ev is not None:
                ev.append(Event(Message("eg.veto", seat=p, card=_card(s, s.card))))
            s.actors = (s.active,)
            _action_done(s, ev)
        else:
            if ev is not None:
                ev.append(Event(Message("eg.allow", seat=p)))
            s.queue.pop(0)
            if s.queue:
                s.actors = (s.queue[0],)
            else:
                s.actors = (s.active,)
                _execute(s, ev)
        return
    _card_step(s, p, a, ev)


def _start_placement(s: ElGrandeState, ev: Events) -> None:
    """§7.4: up to k caballeros from the court, one at a time."""
    s.place_limit = CARD_TYPES[s.card].stack
    s.placed = 0
    s.actors = (s.active,)
    if s.court[s.active]:
        s.phase = PLACE
    else:
        _end_placement(s, ev)


def _end_placement(s: ElGrandeState, ev: Events) -> None:
    if s.action_first:
        _end_turn(s, ev)
    else:
        s.phase = AFTER


def _announce(s: ElGrandeState, ev: Events) -> None:
    """§7.5: announce the card's action; then the Veto! window in turn order."""
    p = s.active
    if ev is not None:
        ev.append(Event(Message("eg.announce", seat=p, card=_card(s, s.card))))
    i = s.order.index(p)
    holders = [s.order[(i + j) % s.n] for j in range(1, s.n)]
    s.queue = [q for q in holders if s.veto[q]]
    if s.queue:
        s.phase = VETO
        s.actors = (s.queue[0],)
    else:
        _execute(s, ev)


def _action_done(s: ElGrandeState, ev: Events) -> None:
    s.actors = (s.active,)
    s.move_mode = ""
    s.sel = -1
    if s.action_first:
        _start_placement(s, ev)
    else:
        _end_turn(s, ev)


def _end_turn(s: ElGrandeState, ev: Events) -> None:
    """§7.6: the card goes to the discard pile (the King's card back at round end)."""
    if s.card not in (KING_CARD, VETO_CARD):
        s.discard.append(s.card)
    s.card = -1
    s.ti += 1
    if s.ti < s.n:
        _begin_turn(s, s.order[s.ti])
    else:
        _end_round(s, ev)


def _end_round(s: ElGrandeState, ev: Events) -> None:
    """§6.4."""
    s.discard.extend(s.offer)
    s.offer = []
    s.king_card = True
    s.active = -1
    for q in range(s.n):
        expired = [r for r in s.veto[q] if r < s.ri]
        for _ in expired:
            s.discard.append(VETO_CARD)
        if expired:
            s.veto[q] = [r for r in s.veto[q] if r >= s.ri]
            if ev is not None:
                ev.append(Event(Message("eg.veto_expired", seat=q)))
    if s.round in data.SCORING_ROUNDS:
        _general_scoring(s, ev)
    else:
        _next_round(s, ev)


def _next_round(s: ElGrandeState, ev: Events) -> None:
    if s.ri + 1 >= len(s.rounds):
        s.phase = OVER
        s.actors = ()
        if ev is not None:
            res = result(s)
            assert res is not None
            standings = tuple(Message("eg.points", seat=q, points=s.score[q], place=res.ranks[q])
                              for q in sorted(range(s.n), key=lambda q: (res.ranks[q], q)))
            ev.append(Event(Message("eg.final", scores=tuple(s.score), seats=res.winners, standings=standings)))
        return
    s.ri += 1
    _start_round(s, ev)


def _general_scoring(s: ElGrandeState, ev: Events) -> None:
    """§10.5: disks of the Castillo's owners, the Castillo, the reveal, all regions."""
    if ev is not None:
        ev.append(Event(Message("eg.general_scoring", round=s.round)))
    seats = [q for q in range(s.n) if s.cab[q][CASTILLO]]
    if seats:
        _start_picks(s, PICK_GENERAL, seats)
    else:
        _score_regions(s, ev)


def _score_regions(s: ElGrandeState, ev: Events) -> None:
    for r in REGION_IDX:
        score_area(s, r, ev)
    _next_round(s, ev)


def _start_picks(s: ElGrandeState, kind: int, seats: list[int]) -> None:
    s.pick_kind = kind
    s.pick_seats = seats
    s.picks = [-1] * s.n
    s.phase = PICK
    s.actors = tuple(seats)


def _pick(s: ElGrandeState, p: int, region: int, ev: Events) -> None:
    s.picks[p] = region
    if ev is not None:
        ev.append(_logged(p, act(Kind.DISK, region), Message("eg.disk", seat=p, area=_area(region), secret=True)))
    s.actors = tuple(q for q in s.pick_seats if s.picks[q] < 0)
    if s.actors:
        return
    kind = s.pick_kind
    seats = sorted(s.pick_seats)  # effects in seat order (§8.5)
    picks = s.picks
    if kind == PICK_GENERAL:
        score_area(s, CASTILLO, ev)
    s.shown_picks = tuple(picks)
    if ev is not None:
        # Every secret disk turns up at once (a general scoring, 2F, 2G, 4C, 4G).
        ev.append(Event(Message("eg.reveal_disks", picks=tuple(
            Message("eg.disk", seat=q, area=_area(picks[q])) for q in seats)), reveal=True))
    s.pick_kind = -1
    s.pick_seats = []
    s.picks = [-1] * s.n
    if kind == PICK_GENERAL:
        for q in seats:
            k = s.cab[q][CASTILLO]
            s.cab[q][CASTILLO] = 0
            if picks[q] == s.king:
                s.court[q] += k
            else:
                s.cab[q][picks[q]] += k
            if ev is not None:
                ev.append(Event(Message("eg.castillo_out", seat=q, count=k,
                                        area=Message("eg.court") if picks[q] == s.king
                                        else _area(picks[q]))))
        _score_regions(s, ev)
        return
    if kind in (PICK_2F, PICK_2G):
        for q in seats:
            r = picks[q]
            k = min(s.data.SECRET_RETURN, s.cab[q][r]) if kind == PICK_2F else s.cab[q][r]
            s.cab[q][r] -= k
            s.province[q] += k
            if ev is not None:
                ev.append(Event(Message("eg.return", seat=q, count=k, area=_area(r))))
    elif kind == PICK_4C:
        src = s.sel
        for q in seats:
            k = s.cab[q][src]
            s.cab[q][src] = 0
            s.cab[q][picks[q]] += k
            if ev is not None:
                ev.append(Event(Message("eg.evict", seat=q, count=k, area=_area(picks[q]))))
    else:  # 4G: regions picked by exactly one player
        for r in REGION_IDX:
            if sum(1 for q in seats if picks[q] == r) == 1:
                score_area(s, r, ev)
    _action_done(s, ev)


def _execute(s: ElGrandeState, ev: Events) -> None:
    p = s.active
    cid = CARD_IDS[s.card]
    s.actors = (p,)
    if cid == "1A":
        s.move_mode = "region"
        s.phase = SELECT
    elif cid in s.data.MOVE_BUDGETS:
        mode, budget = s.data.MOVE_BUDGETS[cid]
        s.move_mode = mode
        s.budget_own = budget
        s.phase = MOVE
        _moves_left(s, ev)
    elif cid == "1D":
        s.move_mode = "mixed"
        s.budget_own, s.budget_opp = data.MIXED_BUDGET
        s.phase = MOVE
        _moves_left(s, ev)
    elif cid == "1G":
        _start_extra(s, ev)
    elif cid == "1H":
        s.phase = MODE
    elif cid == "1I":
        s.move_mode = "allout"
        s.phase = SELECT
    elif cid in ("2B", "2C"):
        for q in clockwise_from(s, p + 1)[:-1]:
            k = s.court[q] if cid == "2B" else min(data.DECAY_RETURN, s.court[q])
            s.court[q] -= k
            s.province[q] += k
            if ev is not None and k:
                ev.append(Event(Message("eg.return", seat=q, count=k, area=Message("eg.court"))))
        _action_done(s, ev)
    elif cid == "2D":
        s.queue = clockwise_from(s, p + 1)[:-1]
        _next_2d(s, ev)
    elif cid in ("2E", "3H"):
        s.phase = SCORE_CHOICE
    elif cid in ("2F", "2G"):
        seats = [q for q in clockwise_from(s, p) if outside(s, q)]
        _start_picks(s, PICK_2F if cid == "2F" else PICK_2G, seats)
    elif cid == "2H":
        s.queue = [q for q in clockwise_from(s, p + 1)[:-1] if outside(s, q)]
        s.phase = SELECT_OPP
        if not s.queue:
            _action_done(s, ev)
    elif cid in s.data.CLASS_REGIONS:
        for r in s.data.CLASS_REGIONS[cid]:
            score_area(s, r, ev)
        _action_done(s, ev)
    elif cid == "3D":
        score_area(s, CASTILLO, ev)
        _action_done(s, ev)
    elif cid == "3E":
        for r in REGION_IDX:
            score_area(s, r, ev, first_only=True)
        _action_done(s, ev)
    elif cid in ("3F", "3G"):
        totals = [sum(s.cab[q][r] for q in range(s.n)) for r in REGION_IDX]
        present = [t for t in totals if t]
        if present:
            target = max(present) if cid == "3F" else min(present)
            for r in REGION_IDX:
                if totals[r] == target:
                    score_area(s, r, ev)
        _action_done(s, ev)
    elif cid == "4A":
        s.phase = TILE
    elif cid in ("4B", "5A"):
        s.phase = KING_TO
    elif cid == "4C":
        s.move_mode = "evict"
        s.phase = SELECT
    elif cid == "4D":
        s.phase = GRANDE
    elif cid == "4E":
        s.phase = TAKE_BACK
    elif cid == "4F":
        k = min(data.COURT_INTAKE, s.province[p])
        s.province[p] -= k
        s.court[p] += k
        if ev is not None:
            ev.append(Event(Message("eg.court_intake", seat=p, count=k)))
        s.intake_left = data.COURT_INTAKE - k
        if s.intake_left and outside(s, p):
            s.phase = COURT_FROM
        else:
            _action_done(s, ev)
    elif cid == "4G":
        _start_picks(s, PICK_4G, clockwise_from(s, p))
    else:  # pragma: no cover - 2A never announces
        raise AssertionError(f"card {cid} has no special action")


def _start_extra(s: ElGrandeState, ev: Events) -> None:
    s.budget_own = s.data.EXTRA_PLACEMENT
    s.phase = EXTRA
    if not s.court[s.active]:
        _action_done(s, ev)


def _moves_left(s: ElGrandeState, ev: Events) -> None:
    """End a move card when its budget is spent or no legal MOVE remains (§8.3)."""
    if s.move_mode == "mixed":
        spent = not s.budget_own and not s.budget_opp
    elif s.move_mode == "allout":
        spent = not s.cab[s.active][s.sel]
    else:
        spent = not s.budget_own
    if spent or not _moves(s, s.active):
        _action_done(s, ev)


def _next_2d(s: ElGrandeState, ev: Events) -> None:
    """2D: each opponent in turn returns 3 of his own (all, without a choice, if ≤ 3)."""
    while s.queue:
        q = s.queue[0]
        avail = s.court[q] + outside(s, q)
        if avail > data.KING_RETURNS:
            s.ret_left = data.KING_RETURNS
            s.phase = RETURN
            s.actors = (q,)
            return
        s.queue.pop(0)
        if avail:
            k = s.court[q]
            s.court[q] = 0
            s.province[q] += avail
            for r in REGION_IDX:
                if r != s.king and s.cab[q][r]:
                    s.cab[q][r] = 0
            if ev is not None:
                ev.append(Event(Message("eg.return_all", seat=q, count=avail, court=k)))
    s.ret_left = 0
    _action_done(s, ev)


def _card_step(s: ElGrandeState, p: int, a: EGAction, ev: Events) -> None:
    ph = s.phase
    kind = a.kind
    if ph == PICK:
        _pick(s, p, a.a, ev)
        return
    if ph == SELECT:
        s.sel = a.a
        if ev is not None:
            ev.append(Event(Message("eg.select", seat=p, area=_area(a.a))))
        if s.move_mode == "region":
            s.budget_own = s.data.REGION_MOVES
            s.phase = MOVE
            _moves_left(s, ev)
        elif s.move_mode == "allout":
            s.phase = MOVE
        else:  # 4C: opponents with caballeros there pick destinations
            seats = [q for q in clockwise_from(s, p) if q != p and s.cab[q][a.a]]
            _start_picks(s, PICK_4C, seats)
        return
    if ph == MOVE:
        if kind == Kind.STOP:
            if ev is not None:
                ev.append(Event(Message("eg.stop", seat=p)))
            _action_done(s, ev)
            return
        src, q, dst = a.a, a.b, a.c
        s.cab[q][src] -= 1
        s.cab[q][dst] += 1
        if ev is not None:
            ev.append(Event(Message("eg.move", seat=p, owner_seat=q, area=_area(src), to=_area(dst), own=q == p)))
        if s.move_mode == "mixed" and q != p:
            s.budget_opp -= 1
        elif s.move_mode != "allout":
            s.budget_own -= 1
        _moves_left(s, ev)
        return
    if ph == EXTRA:
        if kind == Kind.STOP:
            _action_done(s, ev)
            return
        s.cab[p][a.a] += 1
        s.court[p] -= 1
        s.budget_own -= 1
        if ev is not None:
            ev.append(Event(Message("eg.place_extra", seat=p, area=_area(a.a))))
        if not s.budget_own or not s.court[p]:
            _action_done(s, ev)
        return
    if ph == MODE:
        if kind == Kind.MODE_EXTRA:
            if ev is not None:
                ev.append(Event(Message("eg.mode.extra", seat=p)))
            _start_extra(s, ev)
        else:
            if ev is not None:
                ev.append(Event(Message("eg.mode.all_out", seat=p)))
            s.move_mode = "allout"
            s.phase = SELECT
        return
    if ph == SCORE_CHOICE:
        if ev is not None:
            ev.append(Event(Message("eg.select_scoring", seat=p, area=_area(a.a))))
        score_area(s, a.a, ev)
        _action_done(s, ev)
        return
    if ph == RETURN:
        if a.a < 0:
            s.court[p] -= 1
        else:
            s.cab[p][a.a] -= 1
        s.province[p] += 1
        s.ret_left -= 1
        if ev is not None:
            ev.append(Event(Message("eg.return", seat=p, count=1,
                                    area=Message("eg.court") if a.a < 0 else _area(a.a))))
        if not s.ret_left:
            s.queue.pop(0)
            _next_2d(s, ev)
        return
    if ph == SELECT_OPP:
        q, r = a.a, a.b
        s.cab[q][r] -= 1
        s.province[q] += 1
        if ev is not None:
            ev.append(Event(Message("eg.send_back", seat=p, owner_seat=q, area=_area(r))))
        s.queue.pop(0)
        if not s.queue:
            _action_done(s, ev)
        return
    if ph == TILE:
        s.tiles[a.a] = a.b
        if ev is not None:
            ev.append(Event(Message("eg.tile", seat=p, tile=a.a, area=_area(a.b))))
        _action_done(s, ev)
        return
    if ph == KING_TO:
        s.king = a.a
        if ev is not None:
            ev.append(Event(Message("eg.king", seat=p, area=_area(a.a))))
        _action_done(s, ev)
        return
    if ph == GRANDE:
        s.grande[p] = a.a
        if ev is not None:
            ev.append(Event(Message("eg.grande", seat=p, area=_area(a.a))))
        _action_done(s, ev)
        return
    if ph == TAKE_BACK:
        s.pile[p].remove(a.a)
        s.hand[p] |= 1 << a.a
        s.power_log[p].append(0)
        s.taken_back[p].append(a.a)
        if ev is not None:
            ev.append(_logged(p, a, Message("eg.take_back", seat=p, value=a.a)))
        _action_done(s, ev)
        return
    if ph == COURT_FROM:
        if kind == Kind.STOP:
            _action_done(s, ev)
            return
        s.cab[p][a.a] -= 1
        s.court[p] += 1
        s.intake_left -= 1
        if ev is not None:
            ev.append(Event(Message("eg.intake_from", seat=p, area=_area(a.a))))
        if not s.intake_left or not outside(s, p):
            _action_done(s, ev)
        return
    raise AssertionError(f"no decision expected in phase {ph}")


def result(state: ElGrandeState) -> Result | None:
    if state.phase != OVER:
        return None
    return Result.from_scores([float(x) for x in state.score])
