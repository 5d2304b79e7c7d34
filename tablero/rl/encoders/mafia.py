"""Mafia Legend observation tensor (``mafia-legend``, 3-4 players), from a seat's view only.

The view has three parts (``tablero/games/mafia/view.py``) and the tensor follows them: the
game's progress and the open decision (``deciding``), the seat's private cards (hand, screen,
mission, secret commitments, the events it knows), every seat's public counters, the attack
column and the grid of job and character fields as this seat sees them (its own face-down
cards and what Spitzel showed it by card id, every other back as an "unknown card" count by
its source), the character row, the open job, power cards, decks, discard piles, events and
dice.

Card tables are fixed per player count and options: the action cards in play (the beginner
game has no star cards and no Dementi; a card with ``count`` 0 in the data overrides is left
out), the money cards, the characters in play (30 at 3 players, 40 at 4, as ``four_only``
says), the 18 jobs, the 16 events (advanced game only) and the 12 missions (with
``missions=true`` only). Seats are relative: index 0 is the observer, then the following
seats in seat order (``(seat - observer) % n``); seat ids that appear as values (the turn
seat, the deciding seat, an attacker, a power card's holder) are one-hot over relative seats.

Not encoded: ``public.reveals`` (this month end's reveals as the log showed them: the cards
stay face up in the grid until their column is cleared, then they are in the discard piles),
the arguments of the last action (its actor and kind are), the text of the seat's own last
move, and the options that only set up the game (``start_seat``, ``families``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from tablero.games.mafia import data
from tablero.games.mafia.actions import FIELD_NAMES, KINDS, SPITZEL_COLUMNS
from tablero.games.mafia.engine import CHANCE_NODES, TASKS
from tablero.games.mafia.moves import OPTIONS as DECISION_OPTIONS
from tablero.games.mafia.state import DISC
from tablero.games.mafia.view import HIDDEN, Counts, Deciding, MafiaView, SeenCard
from tablero.registry import get_game
from tablero.rl.encoders.base import Encoder

INF: Final = float("inf")
DECISION_KINDS: Final = (*sorted(DECISION_OPTIONS), *sorted(CHANCE_NODES))
"""Every ``deciding.kind`` but ``""`` (nobody decides: the game is over)."""
TASK_KINDS: Final = tuple(sorted(TASKS))
ACTION_KINDS: Final = tuple(sorted(KINDS))
DECKS: Final = ("A", "M", "C", "J", "E", "X")
DESTS: Final = ("hand", "screen", "mission", "event", "row0", "row1", "row2", "row3", "job")
REASONS: Final = ("limit", "magnifier", "audit")
FIELDS: Final = len(FIELD_NAMES)
"""Job field and K1-K4 per seat."""
STEPS: Final = 5
"""Turn steps 0 (between turns) to 4."""
ME_STEPS: Final = 13
"""Month-end steps 0 (the turns) and ME1-ME12."""

# the fixed divisors (documented in every block's doc)
VP_DIV: Final = 50.0
CARDS_DIV: Final = 10.0
FIELD_DIV: Final = 3.0
COPIES_DIV: Final = 4.0
DISCS_DIV: Final = 6.0
SMALL_DIV: Final = 4.0
PLAYS_DIV: Final = 8.0
VALUE_DIV: Final = 30.0
DISCARD_DIV: Final = 6.0

Row = tuple[tuple[SeenCard, ...], ...]
"""One seat's row of the grid as a view holds it: the job field, K1-K4."""
Pairs = tuple[list[int], list[float]]
"""The indices and values of a piece's non-zero elements."""
CACHE_SIZE: Final = 1024
"""Pieces an encoder keeps per kind (each cache is emptied when full): the non-zero elements of the open
decision (per seat), of a seat's characters and sets, of a row and of a field of the grid (per relative
seat), and of the table's piles (character row, open job, discard piles, events, dice), keyed by the
view's values they are made of, so equal views still give equal tensors. Most pieces stay as they are
from one decision to the next."""


def id_list(ids: list[str]) -> str:
    """Card ids in order, runs written short: ``A01-A12, D01-D06, G1, G2, G3, G5``."""
    runs: list[list[str]] = []
    for c in ids:
        head = c.rstrip("0123456789")
        if runs:
            last = runs[-1][-1]
            lhead = last.rstrip("0123456789")
            if (lhead == head and len(last) == len(c) and c[len(head):] and last[len(lhead):]
                    and int(c[len(head):]) == int(last[len(lhead):]) + 1):
                runs[-1].append(c)
                continue
        runs.append([c])
    parts: list[str] = []
    for run in runs:
        if len(run) > 2:
            parts.append(f"{run[0]}-{run[-1]}")
        else:
            parts.extend(run)
    return ", ".join(parts) if parts else "none"


class MafiaEncoder(Encoder):
    """The Mafia Legend encoder (see the module doc and docs/rl/mafia-legend.md)."""

    game_id = "mafia-legend"

    def __init__(self, players: int, options: Mapping[str, object] | None = None) -> None:
        super().__init__(players, options)
        n = self.n = players
        game = get_game(self.game_id)
        pub = game.observe(game.new_initial_state(players, dict(self.options)), 0).public
        t = pub.data
        self.advanced = adv = pub.variant == "advanced"
        self.missions = missions = pub.missions
        self.total_flag = pub.bonus_basis == "total"
        self.goal = pub.goal

        # ------------------------------------------------------------ card tables
        acts = [c for c in t.ACTION_CARDS if c.count and (adv or c.id not in data.BEGINNER_REMOVED)]
        self.acts = [c.id for c in acts]
        self.money = [g for g in sorted(data.MONEY) if t.MONEY_COUNTS.get(g, 0)]
        self.atks = [c.id for c in acts if c.kind == "attack"]
        self.defs = [c.id for c in acts if c.kind == "defence"]
        self.chars = [c.id for c in t.CHARACTERS if n == 4 or not c.four_only]
        self.jobs = [j.id for j in data.JOBS]
        self.events = sorted(data.EVENTS) if adv else []
        self.mission_ids = sorted(data.MISSIONS) if missions else []
        self.sets = sorted(data.SETS)
        self.powers = [p.id for p in t.POWERS]
        self.decks = [d for d in DECKS if (d != "E" or adv) and (d != "X" or missions)]
        self.cards = self.acts + self.money
        act_i = {c: i for i, c in enumerate(self.acts)}
        money_i = {g: i for i, g in enumerate(self.money)}
        card_i = {c: i for i, c in enumerate(self.cards)}
        char_i = {c: i for i, c in enumerate(self.chars)}
        job_i = {j: i for i, j in enumerate(self.jobs)}
        event_i = {e: i for i, e in enumerate(self.events)}
        mission_i = {m: i for i, m in enumerate(self.mission_ids)}
        set_i = {x: i for i, x in enumerate(self.sets)}
        self.act_i, self.money_i, self.card_i, self.char_i = act_i, money_i, card_i, char_i
        self.job_i, self.event_i, self.mission_i, self.set_i = job_i, event_i, mission_i, set_i
        self.atk_i = {c: i for i, c in enumerate(self.atks)}
        self.def_i = {c: i for i, c in enumerate(self.defs)}
        na, nm, nc, nj, ne, nx = (len(self.acts), len(self.money), len(self.chars), len(self.jobs),
                                  len(self.events), len(self.mission_ids))

        # honest upper bounds from the tables this game plays with
        total_a = sum(c.count for c in acts)
        total_m = sum(t.MONEY_COUNTS[g] for g in self.money)
        max_copies = max((c.count for c in acts), default=1)
        max_money = max((t.MONEY_COUNTS[g] for g in self.money), default=1)
        money_value = sum(data.MONEY[g] * t.MONEY_COUNTS[g] for g in self.money)
        cap = max(t.JOB_CAP, t.CHAR_CAP)
        max_failure = max(j.failure for j in t.JOBS)
        deck_totals = {"A": total_a, "M": total_m, "C": nc, "J": nj, "E": ne, "X": nx}
        self.deck_scale = {d: 1.0 / max(1, deck_totals[d]) for d in self.decks}
        self.disc_scale = 1.0 / DISCS_DIV

        L = self.layout
        # ------------------------------------------------------------ game and options
        self.o_options = L.add("options", 4,
                               "the game's options: advanced variant, missions, bonus basis `total`, "
                               f"goal VP /{VP_DIV:g}", high=max(1.0, 200 / VP_DIV))
        self.o_month = L.add("month", t.MONTHS, "the month under way, one-hot (January first)")
        self.o_phase = L.add("phase", t.PHASES, "the phase of the month, one-hot")
        self.o_me_step = L.add("month_end_step", ME_STEPS,
                               "the month-end step under way, one-hot: 0 during the turns, then ME1-ME12")
        self.o_step = L.add("turn_step", STEPS, "the step of the turn player, one-hot: 0 between turns, 1-4")
        self.o_plays = L.add("plays", 3,
                             f"cards played this turn /{PLAYS_DIV:g}, this turn's play limit /{PLAYS_DIV:g}, "
                             "Orsini's Großoffensive on")
        self.o_order = L.add("turn_order", (n, n),
                             "per relative seat: its position in the turn-order column, one-hot (start player 0)")
        self.o_active = L.add("turn_seat", n, "the seat whose turn it is, one-hot over relative seats "
                                              "(none at the month end)")
        # ------------------------------------------------------------ the open decision
        self.o_to_act = L.add("to_act", n + 1,
                              "who must decide now: per relative seat, then chance (last element)")
        self.o_kind = L.add("decision", len(DECISION_KINDS),
                            "the open decision's kind, one-hot: " + ", ".join(DECISION_KINDS)
                            + " (none once the game is over)")
        self.o_dseat = L.add("decision_seat", n,
                             "the deciding seat (chance draw: the seat drawn for), one-hot over relative seats")
        self.o_target = L.add("decision_target", n, "raid, hit: the attacked seat, one-hot over relative seats")
        self.o_receiver = L.add("decision_receiver", n,
                                "hand_over: the attacker who receives the character, one-hot over relative seats")
        self.o_deck = L.add("decision_deck", len(DECKS), "chance draw: the deck, one-hot over " + ", ".join(DECKS))
        self.o_dest = L.add("decision_dest", len(DESTS),
                            "chance draw: where the card goes, one-hot over " + ", ".join(DESTS))
        self.o_reason = L.add("decision_reason", len(REASONS),
                              "discard / discards: why, one-hot over " + ", ".join(REASONS))
        self.o_column = L.add("decision_column", len(SPITZEL_COLUMNS),
                              "spitzel_take: the column looked at; family_ties: the column resolved; one-hot over "
                              + ", ".join(SPITZEL_COLUMNS))
        self.o_dnum = L.add("decision_numbers", 2,
                            "spitzel_take: cards taken back so far /5; job_roll: the dice the roll would use /6")
        # ------------------------------------------------------------ the seat's own cards
        self.o_hand_a = L.add("own_hand_actions", na,
                              f"own hand: copies of each action card /{COPIES_DIV:g} ({id_list(self.acts)})",
                              high=max_copies / COPIES_DIV)
        self.o_hand_m = L.add("own_hand_money", nm,
                              f"own hand: money cards of each value /{CARDS_DIV:g} ({id_list(self.money)})",
                              high=max_money / CARDS_DIV)
        self.o_screen = L.add("own_screen", nm,
                              f"own screen: money cards of each value /{CARDS_DIV:g} ({id_list(self.money)})",
                              high=max_money / CARDS_DIV)
        self.o_value = L.add("own_money_value", 2,
                             f"own money in $: in the hand /{VALUE_DIV:g}, behind the screen /{VALUE_DIV:g}",
                             high=money_value / VALUE_DIV)
        self.o_moved = L.add("own_money_moved", 2 * nm,
                             f"own turn: money cards moved this turn to the hand, then to the screen, per value "
                             f"/{CARDS_DIV:g}", high=max_money / CARDS_DIV)
        self.o_set_aside = L.add("own_set_aside", na + 2 * nm,
                                 "own secret commitments in the open simultaneous discard: copies of each action "
                                 f"card from the hand, each money value from the hand, from the screen "
                                 f"/{COPIES_DIV:g}", high=max(max_copies, max_money) / COPIES_DIV)
        self.o_mission = L.add("own_mission", nx, "own mission, one-hot (" + id_list(self.mission_ids) + ")")
        self.o_known_ev = L.add("own_known_events", 2 * ne,
                                "events this seat knows: under the event deck (multi-hot), then drawn for its "
                                "E choice (multi-hot)")
        # ------------------------------------------------------------ every seat's public counters
        self.o_family = L.add("family", (n, len(data.FAMILIES)),
                              "per relative seat: its family, one-hot over " + ", ".join(data.FAMILIES)
                              + " (none while unchosen)")
        self.o_vp = L.add("vp", n, f"per relative seat: victory points /{VP_DIV:g}", high=INF)
        counter_high = max(t.DISCS / DISCS_DIV, (total_a + total_m) / CARDS_DIV, nj / SMALL_DIV,
                           max_failure * (t.MONTHS + 1) / SMALL_DIV, nc / SMALL_DIV, 1.0)
        self.o_counters = L.add("seat_counters", (n, 8),
                                f"per relative seat: discs left /{DISCS_DIV:g}, "
                                f"hand size (action and money cards) /{CARDS_DIV:g}, screen size /{CARDS_DIV:g}, "
                                f"jobs done /{SMALL_DIV:g}, phases to sit out /{SMALL_DIV:g}, "
                                f"characters acquired this month /{SMALL_DIV:g}, ability used, "
                                "mission dealt", high=counter_high)
        self.o_discard_q = L.add("seat_discards", (n, 2),
                                 f"per relative seat in the open simultaneous discard: cards committed "
                                 f"/{DISCARD_DIV:g}, cards still to discard /{DISCARD_DIV:g}",
                                 high=(total_a + total_m) / DISCARD_DIV)
        self.o_chars = L.add("seat_characters", (n, nc),
                             "per relative seat: the characters it owns, multi-hot (" + id_list(self.chars) + ")")
        self.o_sets = L.add("seat_sets", (n, len(self.sets)),
                            "per relative seat: the sets it completed, multi-hot (" + ", ".join(self.sets) + ")")
        self.o_powers = L.add("power_holders", (len(self.powers), n),
                              "per power card (" + ", ".join(self.powers) + "): its holder, one-hot over relative "
                              "seats (none: unheld)")
        # ------------------------------------------------------------ the table
        atk_w = 2 + len(self.atks) + 1 + n + 4 + len(self.defs)
        self.atk_w = atk_w
        self.o_atk = L.add("attack_fields", (n, atk_w),
                           "per relative seat, its attack field: [protection disc, attack card], the attack "
                           "card one-hot (" + id_list(self.atks) + ") or unknown (face down, one element), "
                           "the attacker one-hot over relative seats, [face up, resolved now, resolved at "
                           "month end, known to every seat], the defence card played onto it one-hot ("
                           + id_list(self.defs) + ")")
        grid_w = len(self.cards) + 4
        self.grid_w = grid_w
        self.o_grid = L.add("grid", (n, FIELDS, grid_w),
                            "per relative seat and field (job, K1-K4): copies of each known card "
                            f"({id_list(self.cards)}) /{FIELD_DIV:g}, then unknown cards from the hand, "
                            f"unknown cards from the screen (money), cards not known to every seat, star cards "
                            f"ignored, each /{FIELD_DIV:g}", high=cap / FIELD_DIV)
        self.o_row = L.add("character_row", (data.CHAR_COLUMNS, nc),
                           "the character row K1-K4: each slot's character, one-hot (none: empty slot)")
        self.o_job = L.add("open_job", nj + 1,
                           "the open job, one-hot (" + id_list(self.jobs) + "), then: a job was done this month")
        self.o_job_bottom = L.add("jobs_under_deck", nj, "jobs put under the job deck (public), multi-hot")
        self.o_decks = L.add("deck_sizes", len(self.decks),
                             "cards left in each deck (" + ", ".join(self.decks) + ") / the deck's full size")
        self.o_disc_a = L.add("discarded_actions", na, f"discard pile: copies of each action card /{COPIES_DIV:g}",
                              high=max_copies / COPIES_DIV)
        self.o_disc_m = L.add("discarded_money", nm, f"discard pile: money cards of each value /{CARDS_DIV:g}",
                              high=max_money / CARDS_DIV)
        self.o_disc_c = L.add("discarded_characters", nc, "discarded characters, multi-hot")
        self.o_misc = L.add("table_counters", 5,
                            "discs on the ashtray /2, a star card was counted this month end, events under the "
                            "event deck /16, events drawn for an E choice /4, the game is over",
                            high=1.0)
        self.o_moved_pub = L.add("money_moved", 2,
                                 f"the turn player's money moves this turn (public counts): to the hand "
                                 f"/{CARDS_DIV:g}, to the screen /{CARDS_DIV:g}", high=total_m / CARDS_DIV)
        self.o_events = L.add("events", (3, ne),
                              "events, multi-hot: this month's, next month's, out of the game ("
                              + id_list(self.events) + ")")
        self.o_dice = L.add("dice", (t.MAX_DICE, data.DIE_SIDES),
                            "the dice of the last job roll in order (a reroll names them by position), each "
                            "die's value one-hot 1-8")
        self.o_schedule = L.add("schedule", (2, len(TASK_KINDS)),
                                "the rules' public plan: the next task's kind one-hot, then every kind scheduled, "
                                "multi-hot (" + ", ".join(TASK_KINDS) + ")")
        self.o_last = L.add("last_action", n + 1 + len(ACTION_KINDS),
                            "the last action: its actor one-hot over relative seats then chance, its kind one-hot ("
                            + ", ".join(ACTION_KINDS) + ")")
        self.o_end = L.add("end", (n, 1 + 2 * nm + nx),
                           "at the end, per relative seat: winner, its money in the hand and behind the screen "
                           f"per value /{CARDS_DIV:g}, its mission one-hot", high=max(1.0, max_money / CARDS_DIV))

        # index tables
        self.dkind_i = {k: i for i, k in enumerate(DECISION_KINDS)}
        self.deck_i = {d: i for i, d in enumerate(DECKS)}
        self.dest_i = {d: i for i, d in enumerate(DESTS)}
        self.reason_i = {r: i for i, r in enumerate(REASONS)}
        self.column_i = {c: i for i, c in enumerate(SPITZEL_COLUMNS)}
        self.task_i = {k: i for i, k in enumerate(TASK_KINDS)}
        self.akind_i = {k: i for i, k in enumerate(ACTION_KINDS)}
        self.family_i = {f: i for i, f in enumerate(data.FAMILIES)}
        self.rel = [[(p - s) % n for p in range(n)] for s in range(n)]
        self.max_dice = t.MAX_DICE
        self.months, self.phases = t.MONTHS, t.PHASES
        self.deck_o = {d: self.o_decks + i for i, d in enumerate(self.decks)}
        self._decision_cache: dict[tuple[Deciding, int], Pairs] = {}
        self._owned_cache: dict[tuple[tuple[str, ...], tuple[str, ...], int], Pairs] = {}
        self._row_cache: dict[tuple[Row, int], Pairs] = {}
        self._field_cache: dict[tuple[tuple[SeenCard, ...], int], Pairs] = {}
        self._pile_cache: dict[tuple[Any, ...], Pairs] = {}

    # ---------------------------------------------------------------- fill
    def fill(self, view: MafiaView, seat: int, idx: list[int], val: list[float]) -> None:
        pub, dec, mine = view.public, view.deciding, view.private
        assert mine is not None
        n = self.n
        rel = self.rel[seat]
        add_i, add_v = idx.append, val.append

        # ------------------------------------------------------------ game and options
        o = self.o_options
        if self.advanced:
            add_i(o)
            add_v(1.0)
        if self.missions:
            add_i(o + 1)
            add_v(1.0)
        if self.total_flag:
            add_i(o + 2)
            add_v(1.0)
        add_i(o + 3)
        add_v(pub.goal / VP_DIV)
        if 1 <= pub.month <= self.months:
            add_i(self.o_month + pub.month - 1)
            add_v(1.0)
        if 1 <= pub.phase <= self.phases:
            add_i(self.o_phase + pub.phase - 1)
            add_v(1.0)
        if 0 <= dec.month_end_step < ME_STEPS:
            add_i(self.o_me_step + dec.month_end_step)
            add_v(1.0)
        if 0 <= pub.step < STEPS:
            add_i(self.o_step + pub.step)
            add_v(1.0)
        o = self.o_plays
        if pub.played:
            add_i(o)
            add_v(pub.played / PLAYS_DIV)
        if pub.limit:
            add_i(o + 1)
            add_v(pub.limit / PLAYS_DIV)
        if pub.grossoffensive:
            add_i(o + 2)
            add_v(1.0)
        o = self.o_order
        order = pub.order
        for pos, p in enumerate(order):
            add_i(o + rel[p] * n + pos)
            add_v(1.0)
        if 0 <= pub.turn_pos < len(order):
            add_i(self.o_active + rel[order[pub.turn_pos]])
            add_v(1.0)

        # ------------------------------------------------------------ the open decision
        decisions = self._decision_cache
        hit = decisions.get((dec, seat))
        if hit is None:
            if len(decisions) >= CACHE_SIZE:
                decisions.clear()
            hit = decisions[dec, seat] = self._decision(dec, rel)
        idx.extend(hit[0])
        val.extend(hit[1])

        # ------------------------------------------------------------ the seat's own cards
        act_i, money_i = self.act_i, self.money_i
        o = self.o_hand_a
        for c, k in mine.hand_actions:
            add_i(o + act_i[c])
            add_v(k / COPIES_DIV)
        o = self.o_hand_m
        value = 0
        for c, k in mine.hand_money:
            add_i(o + money_i[c])
            add_v(k / CARDS_DIV)
            value += data.MONEY[c] * k
        if value:
            add_i(self.o_value)
            add_v(value / VALUE_DIV)
        o = self.o_screen
        value = 0
        for c, k in mine.screen:
            add_i(o + money_i[c])
            add_v(k / CARDS_DIV)
            value += data.MONEY[c] * k
        if value:
            add_i(self.o_value + 1)
            add_v(value / VALUE_DIV)
        if mine.money_moved is not None:
            o = self.o_moved
            nm = len(self.money)
            for c, k in mine.money_moved[0]:
                add_i(o + money_i[c])
                add_v(k / CARDS_DIV)
            for c, k in mine.money_moved[1]:
                add_i(o + nm + money_i[c])
                add_v(k / CARDS_DIV)
        if mine.set_aside:
            o = self.o_set_aside
            na, nm = len(self.acts), len(self.money)
            counts: dict[int, int] = {}
            for sa in mine.set_aside:
                if sa.card in money_i:
                    i = o + na + money_i[sa.card] + (nm if sa.source == "screen" else 0)
                else:
                    i = o + act_i[sa.card]
                counts[i] = counts.get(i, 0) + 1
            for i, k in counts.items():
                add_i(i)
                add_v(k / COPIES_DIV)
        if self.missions and mine.mission:
            add_i(self.o_mission + self.mission_i[mine.mission])
            add_v(1.0)
        if self.advanced:
            o = self.o_known_ev
            event_i = self.event_i
            for e in mine.event_bottom:
                if e != HIDDEN:
                    add_i(o + event_i[e])
                    add_v(1.0)
            ne = len(self.events)
            for e in mine.event_choice:
                if e != HIDDEN:
                    add_i(o + ne + event_i[e])
                    add_v(1.0)

        # ------------------------------------------------------------ every seat's public counters
        o_fam, o_cnt, o_dq, o_vp = self.o_family, self.o_counters, self.o_discard_q, self.o_vp
        nf = len(data.FAMILIES)
        family_i = self.family_i
        disc_scale = self.disc_scale
        owned_cache = self._owned_cache
        for (r, fam, vp, discs, hand, screen, jobs, sitout, acquired, used, dealt, committed, must, chars,
             sets) in zip(rel, pub.family, pub.vp, pub.discs, pub.hand_sizes, pub.screen_sizes, pub.jobs_done,
                          pub.sitout, pub.acquired, pub.ability_used, pub.mission_dealt, pub.set_aside_counts,
                          pub.must_discard, pub.chars, pub.sets, strict=False):
            if fam:
                add_i(o_fam + r * nf + family_i[fam])
                add_v(1.0)
            if vp:
                add_i(o_vp + r)
                add_v(vp / VP_DIV)
            b = o_cnt + r * 8
            if discs:
                add_i(b)
                add_v(discs * disc_scale)
            if hand:
                add_i(b + 1)
                add_v(hand / CARDS_DIV)
            if screen:
                add_i(b + 2)
                add_v(screen / CARDS_DIV)
            if jobs:
                add_i(b + 3)
                add_v(len(jobs) / SMALL_DIV)
            if sitout:
                add_i(b + 4)
                add_v(sitout / SMALL_DIV)
            if acquired:
                add_i(b + 5)
                add_v(acquired / SMALL_DIV)
            if used:
                add_i(b + 6)
                add_v(1.0)
            if dealt:
                add_i(b + 7)
                add_v(1.0)
            if committed:
                add_i(o_dq + r * 2)
                add_v(committed / DISCARD_DIV)
            if must:
                add_i(o_dq + r * 2 + 1)
                add_v(must / DISCARD_DIV)
            if chars or sets:
                owned = owned_cache.get((chars, sets, r))
                if owned is None:
                    if len(owned_cache) >= CACHE_SIZE:
                        owned_cache.clear()
                    owned = owned_cache[chars, sets, r] = self._owned(chars, sets, r)
                idx.extend(owned[0])
                val.extend(owned[1])
        o = self.o_powers
        for i, holder in enumerate(pub.powers):
            if 0 <= holder < n:
                add_i(o + i * n + rel[holder])
                add_v(1.0)

        # ------------------------------------------------------------ attack column
        o = self.o_atk
        w = self.atk_w
        na_ = len(self.atks)
        atk_i, def_i = self.atk_i, self.def_i
        for p, slot in enumerate(view.atk):
            if slot is None:
                continue
            b = o + rel[p] * w
            if slot.card == DISC:
                add_i(b)
                add_v(1.0)
                continue
            add_i(b + 1)
            add_v(1.0)
            add_i(b + 2 + (na_ if slot.card == HIDDEN else atk_i[slot.card]))
            add_v(1.0)
            b2 = b + 3 + na_
            add_i(b2 + rel[slot.attacker])
            add_v(1.0)
            b2 += n
            if slot.face_up:
                add_i(b2)
                add_v(1.0)
            if slot.timing == "now":
                add_i(b2 + 1)
                add_v(1.0)
            elif slot.timing == "me":
                add_i(b2 + 2)
                add_v(1.0)
            if slot.public:
                add_i(b2 + 3)
                add_v(1.0)
            if slot.defence:
                add_i(b2 + 4 + def_i[slot.defence])
                add_v(1.0)

        # ------------------------------------------------------------ the grid
        rows = self._row_cache
        for p, row in enumerate(view.grid):
            if not any(row):
                continue
            r = rel[p]
            pairs = rows.get((row, r))
            if pairs is None:
                if len(rows) >= CACHE_SIZE:
                    rows.clear()
                pairs = rows[row, r] = self._row(row, r)
            idx.extend(pairs[0])
            val.extend(pairs[1])

        # ------------------------------------------------------------ row, job, decks, piles, events, dice
        key = (pub.row, pub.job, pub.job_done_month, pub.job_bottom, pub.disc_a, pub.disc_m, pub.disc_c,
               pub.this_events, pub.next_events, pub.events_out, pub.dice)
        piles = self._pile_cache
        table = piles.get(key)
        if table is None:
            if len(piles) >= CACHE_SIZE:
                piles.clear()
            table = piles[key] = self._table(*key)
        idx.extend(table[0])
        val.extend(table[1])
        scale = self.deck_scale
        deck_o = self.deck_o
        for d, k in pub.deck_sizes:
            if k and d in scale:
                add_i(deck_o[d])
                add_v(k * scale[d])
        o = self.o_misc
        if pub.ashtray:
            add_i(o)
            add_v(pub.ashtray / 2.0)
        if pub.star:
            add_i(o + 1)
            add_v(1.0)
        if pub.event_bottom:
            add_i(o + 2)
            add_v(len(pub.event_bottom) / 16.0)
        if pub.event_choice:
            add_i(o + 3)
            add_v(len(pub.event_choice) / 4.0)
        if pub.over:
            add_i(o + 4)
            add_v(1.0)
        x, y = pub.money_moved
        if x:
            add_i(self.o_moved_pub)
            add_v(x / CARDS_DIV)
        if y:
            add_i(self.o_moved_pub + 1)
            add_v(y / CARDS_DIV)
        if pub.schedule:
            o = self.o_schedule
            task_i = self.task_i
            add_i(o + task_i[pub.schedule[0].kind])
            add_v(1.0)
            nt = len(TASK_KINDS)
            for kind in {t.kind for t in pub.schedule}:
                add_i(o + nt + task_i[kind])
                add_v(1.0)
        o = self.o_last
        who, text = pub.last
        if text:
            add_i(o + (rel[who] if 0 <= who < n else n))
            add_v(1.0)
            akind = self.akind_i.get(text.split(" ", 1)[0])
            if akind is not None:
                add_i(o + n + 1 + akind)
                add_v(1.0)
        if pub.over:
            self._fill_end(view, rel, add_i, add_v)

    def _decision(self, dec: Deciding, rel: list[int]) -> Pairs:
        """The non-zero elements of the open decision's blocks (to_act … decision_numbers) for the seat whose
        relative seats are ``rel``."""
        out_i: list[int] = []
        out_v: list[float] = []
        add_i, add_v = out_i.append, out_v.append
        n = self.n
        o = self.o_to_act
        for p in dec.to_act:
            add_i(o + (rel[p] if p >= 0 else n))
            add_v(1.0)
        k = self.dkind_i.get(dec.kind)
        if k is not None:
            add_i(self.o_kind + k)
            add_v(1.0)
        if 0 <= dec.seat < n:
            add_i(self.o_dseat + rel[dec.seat])
            add_v(1.0)
        if 0 <= dec.target < n:
            add_i(self.o_target + rel[dec.target])
            add_v(1.0)
        if 0 <= dec.receiver < n:
            add_i(self.o_receiver + rel[dec.receiver])
            add_v(1.0)
        if dec.deck:
            add_i(self.o_deck + self.deck_i[dec.deck])
            add_v(1.0)
        if dec.dest:
            add_i(self.o_dest + self.dest_i[dec.dest])
            add_v(1.0)
        if dec.reason:
            add_i(self.o_reason + self.reason_i[dec.reason])
            add_v(1.0)
        if dec.column:
            add_i(self.o_column + self.column_i[dec.column])
            add_v(1.0)
        if dec.taken:
            add_i(self.o_dnum)
            add_v(dec.taken / 5.0)
        if dec.dice:
            add_i(self.o_dnum + 1)
            add_v(dec.dice / 6.0)
        return out_i, out_v

    def _owned(self, chars: tuple[str, ...], sets: tuple[str, ...], r: int) -> Pairs:
        """The non-zero elements of a seat's characters and completed sets at relative seat ``r``."""
        b = self.o_chars + r * len(self.chars)
        char_i = self.char_i
        out_i = [b + char_i[c] for c in chars]
        b = self.o_sets + r * len(self.sets)
        set_i = self.set_i
        out_i += [b + set_i[x] for x in sets]
        return out_i, [1.0] * len(out_i)

    def _table(self, row: tuple[str, ...], job: str, job_done_month: bool, job_bottom: tuple[str, ...],
               disc_a: Counts, disc_m: Counts, disc_c: Counts, this_events: tuple[str, ...],
               next_events: tuple[str, ...], events_out: tuple[str, ...], dice: tuple[int, ...]) -> Pairs:
        """The non-zero elements of the character row, the open job, the jobs under the deck, the
        discard piles, the events and the dice."""
        out_i: list[int] = []
        out_v: list[float] = []
        add_i, add_v = out_i.append, out_v.append
        nc = len(self.chars)
        act_i, money_i, char_i, job_i = self.act_i, self.money_i, self.char_i, self.job_i
        o = self.o_row
        for k1, c in enumerate(row):
            if c:
                add_i(o + k1 * nc + char_i[c])
                add_v(1.0)
        if job:
            add_i(self.o_job + job_i[job])
            add_v(1.0)
        if job_done_month:
            add_i(self.o_job + len(self.jobs))
            add_v(1.0)
        o = self.o_job_bottom
        for j in job_bottom:
            add_i(o + job_i[j])
            add_v(1.0)
        o = self.o_disc_a
        for c, k in disc_a:
            add_i(o + act_i[c])
            add_v(k / COPIES_DIV)
        o = self.o_disc_m
        for c, k in disc_m:
            add_i(o + money_i[c])
            add_v(k / CARDS_DIV)
        o = self.o_disc_c
        for c, _k in disc_c:
            add_i(o + char_i[c])
            add_v(1.0)
        if self.advanced:
            o = self.o_events
            event_i = self.event_i
            ne = len(self.events)
            for e in this_events:
                add_i(o + event_i[e])
                add_v(1.0)
            for e in next_events:
                add_i(o + ne + event_i[e])
                add_v(1.0)
            for e in events_out:
                add_i(o + 2 * ne + event_i[e])
                add_v(1.0)
        o = self.o_dice
        for i, v in enumerate(dice[: self.max_dice]):
            add_i(o + i * data.DIE_SIDES + v - 1)
            add_v(1.0)
        return out_i, out_v

    def _row(self, row: Row, r: int) -> Pairs:
        """The grid block's non-zero elements of one seat's row (job field, K1-K4) at relative seat ``r``,
        from its fields' (a row that changed changed in one field)."""
        w = self.grid_w
        base = self.o_grid + r * FIELDS * w
        fields = self._field_cache
        out_i: list[int] = []
        out_v: list[float] = []
        for f, cards in enumerate(row):
            if not cards:
                continue
            key = (cards, base + f * w)
            pairs = fields.get(key)
            if pairs is None:
                if len(fields) >= CACHE_SIZE:
                    fields.clear()
                pairs = fields[key] = self._field(*key)
            out_i.extend(pairs[0])
            out_v.extend(pairs[1])
        return out_i, out_v

    def _field(self, cards: tuple[SeenCard, ...], b: int) -> Pairs:
        """The grid block's non-zero elements of one field whose elements start at ``b``."""
        card_i = self.card_i
        nk = len(self.cards)
        counts: dict[int, int] = {}
        for sc in cards:
            i = b + (card_i[sc.card] if sc.card != HIDDEN else nk + (sc.source == "S"))
            counts[i] = counts.get(i, 0) + 1
            if not sc.public:
                counts[b + nk + 2] = counts.get(b + nk + 2, 0) + 1
            if sc.ignored:
                counts[b + nk + 3] = counts.get(b + nk + 3, 0) + 1
        return list(counts), [k / FIELD_DIV for k in counts.values()]

    def _fill_end(self, view: MafiaView, rel: list[int], add_i: Any, add_v: Any) -> None:
        pub = view.public
        nm, nx = len(self.money), len(self.mission_ids)
        w = 1 + 2 * nm + nx
        o = self.o_end
        for p in pub.winners or ():
            add_i(o + rel[p] * w)
            add_v(1.0)
        for p, pm in enumerate(pub.public_money):
            if pm is None:
                continue
            b = o + rel[p] * w + 1
            for c, k in pm[0]:
                add_i(b + self.money_i[c])
                add_v(k / CARDS_DIV)
            for c, k in pm[1]:
                add_i(b + nm + self.money_i[c])
                add_v(k / CARDS_DIV)
        if self.missions and pub.public_missions is not None:
            for p, m in enumerate(pub.public_missions):
                if m:
                    add_i(o + rel[p] * w + 1 + 2 * nm + self.mission_i[m])
                    add_v(1.0)


ENCODER = MafiaEncoder
