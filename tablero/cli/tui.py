"""The terminal table: people and bots playing one match in a terminal (rich).

Only the :class:`~tablero.core.match.Match` holds the true state. The UI reads it solely to
ask the game for the legal actions and their descriptions; people see their seat's view
and log, bots receive their seat's view and legal actions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from random import Random
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from tablero.bots import Bot
from tablero.cli.text import CLI_CATALOGUE
from tablero.core.errors import TableroError
from tablero.core.match import Match, bot_rng
from tablero.core.messages import Message, Translator
from tablero.core.protocol import Game, Player, Result

HUMAN = "you"
"""The seat name for a person at the terminal."""

CLEAR_ALL = "\033[3J\033[H\033[2J"
"""Clear the scrollback (3J), home the cursor, clear the screen: nothing of the last hand stays."""

LOG_LINES = 14

InputFn = Callable[[str], str]
"""Reads one line after showing a prompt; raises EOFError at the end of input."""


def seat_names(seats: Sequence[str], lang: str) -> list[str]:
    """Display names: "Player 1 (you)" for a single person, "Player 2" for several, "Greedy 3" for bots."""
    tr = Translator(lang, [CLI_CATALOGUE])
    humans = sum(1 for s in seats if s == HUMAN)
    out = []
    for i, s in enumerate(seats):
        if s == HUMAN:
            one = humans == 1
            out.append(tr(Message("cli.seat.you", n=i + 1) if one else Message("cli.seat.player", n=i + 1)))
        else:
            kind = s.split(":")[0]  # a search bot's parameters stay out of its name
            bot = Message(f"cli.bot.{kind}") if f"cli.bot.{kind}" in CLI_CATALOGUE[lang] else kind.capitalize()
            out.append(tr(Message("cli.seat.bot", bot=bot, n=i + 1)))
    return out


def result_table(result: Result, tr: Translator) -> Table:
    table = Table(title=tr(Message("cli.final")))
    table.add_column(tr(Message("cli.rank")), justify="right")
    table.add_column(tr(Message("cli.player")))
    table.add_column(tr(Message("cli.score")), justify="right")
    for p in sorted(range(len(result.ranks)), key=lambda q: (result.ranks[q], q)):
        score = result.scores[p]
        table.add_row(str(result.ranks[p]), escape(tr.seat(p)), f"{score:g}")
    return table


class PlaySession:
    """One match at the terminal: any mix of people (``"you"``) and bots (by name)."""

    def __init__(
        self,
        match: Match[Any, Any, Any],
        seats: Sequence[str],
        bots: Mapping[Player, Bot],
        console: Console,
        read: InputFn,
        lang: str = "en",
    ) -> None:
        self.match = match
        self.game: Game[Any, Any, Any] = match.game
        self.seats = list(seats)
        self.bots = dict(bots)
        self.rngs: dict[Player, Random] = {p: bot_rng(match.seed, p) for p in self.bots}
        self.console = console
        self.read = read
        self.humans = [p for p, s in enumerate(seats) if s == HUMAN]
        self.tr = Translator(lang, [self.game.catalogue(), CLI_CATALOGUE], seat_names(seats, lang))
        self.seen: dict[Player, int] = dict.fromkeys(self.humans, 0)  # log position per person

    def t(self, msg_id: str, **params: Any) -> str:
        return self.tr(Message(msg_id, **params))

    # ------------------------------------------------------------------ the loop
    def run(self) -> Result | None:
        """Play to the end; returns the result (None if the game did not reach its end)."""
        m = self.match
        while not m.is_over():
            self.play_bots()
            if m.is_over():
                break
            seat = next(p for p in m.pending() if p not in self.bots)
            if len(self.humans) > 1:
                self.hand_over(seat)
            self.show_table(seat)
            self.decide(seat)
        self.show_end()
        return m.result()

    def play_bots(self) -> None:
        """Let the bots move; a searching bot shows that it thinks, then how long it took."""
        m = self.match
        while True:
            bot_seats = [p for p in m.pending() if p in self.bots]
            if not bot_seats:
                return
            p = bot_seats[0]
            last = getattr(self.bots[p], "last", None)
            if last is None and not hasattr(self.bots[p], "last"):
                m.play_bots({p: self.bots[p]}, self.rngs)
                continue
            name = self.tr.seat(p)
            with self.console.status(escape(self.t("cli.thinking", seat=name))):
                m.play_bots({p: self.bots[p]}, self.rngs)
            done = getattr(self.bots[p], "last", None)
            if done is not None and done is not last:
                secs = f"{done.seconds:.1f}"
                if self.tr.lang == "de":
                    secs = secs.replace(".", ",")
                self.console.print(f"[dim]{escape(self.t('cli.thought', seat=name, seconds=secs))}[/dim]")

    def hand_over(self, seat: Player) -> None:
        """Clear screen and scrollback, then wait until the next person is at the device."""
        self.clear()
        name = escape(self.tr.seat(seat))
        self.console.print(Panel(f"[bold]{self.t('cli.handover', seat=name)}[/bold]"))
        self.read(self.t("cli.handover.enter", seat=self.tr.seat(seat)))
        self.clear()

    def clear(self) -> None:
        self.console.file.write(CLEAR_ALL)
        self.console.file.flush()

    def show_table(self, seat: Player) -> None:
        m, c = self.match, self.console
        c.print(Panel(self.game.render(m.view(seat), self.tr), expand=False))
        log = m.log(seat, self.seen.get(seat, 0))[-LOG_LINES:]
        if log:
            c.print(f"[bold]{self.t('cli.log')}[/bold]")
            for msg in log:
                c.print("  " + escape(self.tr(msg)))
        c.print(f"[bold]{escape(self.t('cli.turn', seat=self.tr.seat(seat)))}[/bold]")

    def decide(self, seat: Player) -> None:
        m, c = self.match, self.console
        legal = list(m.legal(seat))
        c.print(f"[bold]{self.t('cli.moves')}[/bold]")
        for i, action in enumerate(legal, 1):
            text = self.tr(m.describe(seat, action, seat))
            c.print(f"  [cyan]{i:>2}[/cyan]  {escape(text)}")
        example = legal[0].to_text() if legal else "1"
        while True:
            entry = self.read(self.t("cli.prompt")).strip()
            if not entry:
                c.print(f"[yellow]{self.t('cli.empty', count=len(legal))}[/yellow]")
                continue
            if entry.isdigit():
                n = int(entry)
                if 1 <= n <= len(legal):
                    action = legal[n - 1]
                else:
                    c.print(f"[red]{escape(self.t('cli.bad_number', n=n, count=len(legal)))}[/red]")
                    continue
            else:
                try:
                    action = m.parse(seat, entry)
                except TableroError as exc:
                    why = self.t("cli.bad_text", text=entry, count=len(legal), example=example)
                    c.print(f"[red]{escape(why)}[/red]\n  [dim]{escape(str(exc))}[/dim]")
                    continue
                if action not in legal:
                    c.print(f"[red]{escape(self.t('cli.not_legal', text=action.to_text()))}[/red]")
                    if self._try_act(seat, action):  # for the game's own reason only
                        return
                    continue
            self.seen[seat] = len(m.record.entries)
            m.act(seat, action)
            return

    def _try_act(self, seat: Player, action: Any) -> bool:
        """Let the game judge an unlisted action: it refuses (changing nothing) and says why."""
        entries = len(self.match.record.entries)
        try:
            self.match.act(seat, action)
        except TableroError as exc:
            self.console.print(f"  [dim]{escape(str(exc))}[/dim]")
            return False
        self.seen[seat] = entries
        return True

    def show_end(self) -> None:
        m, c = self.match, self.console
        if len(self.humans) > 1:
            self.clear()
        c.print(Panel(self.game.render(m.view(None), self.tr), expand=False))
        viewer = self.humans[0] if len(self.humans) == 1 else None
        since = self.seen.get(viewer, 0) if viewer is not None else max(self.seen.values(), default=0)
        for msg in m.log(viewer, since)[-LOG_LINES:]:
            c.print("  " + escape(self.tr(msg)))
        result = m.result()
        if result is None:
            return
        c.print(result_table(result, self.tr))
        winners = (self.t("core.result.winners", seats=tuple(result.winners)) if result.winners
                   else self.t("cli.no_winner"))
        c.print(f"[bold]{escape(winners)}[/bold]")
