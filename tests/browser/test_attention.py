"""A table whose bot failed (issue 14): everybody sees why the bots wait; the creator lets them try again.

The failing bot is injected into the server (which runs in this process): the bot and its
stand-in raise until the test lets them work. Screenshot: build/screenshots/attention.png.
"""

from __future__ import annotations

from typing import Any

import pytest

import tablero.server.service as service_mod
from tablero.bots.registry import make_bot

from .conftest import SHOTS
from .test_play import WAIT
from .test_table import create, open_table


class Broken:
    def choose(self, view: Any, legal: Any, rng: Any) -> Any:
        raise RuntimeError("the bot broke")


def test_the_creator_sees_a_failed_bot_and_lets_the_bots_try_again(
        browser: Any, server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real = make_bot
    broken = {"on": True}
    monkeypatch.setattr(service_mod, "make_bot", lambda name, game_id: Broken() if broken["on"] and name in (
        "greedy", "random") else real(name, game_id))
    g = create(server, "el-grande", [{"kind": "bot", "bot": "greedy"}, {"kind": "you", "name": "Ana"}],
               {"short_game": True, "start_seat": 0}, stand_in="random")
    errors: list[str] = []
    creator = open_table(browser, server, g, errors, seats=(1,))
    watcher = open_table(browser, server, g, errors, seats=())
    for page in (creator, watcher):
        page.wait_for_selector("#attention", timeout=WAIT)
        assert "A bot's move failed" in page.inner_text("#attention")
    assert watcher.query_selector("#resume-bots") is None, "only the creator may resume"
    creator.screenshot(path=str(SHOTS / "attention.png"))
    broken["on"] = False
    creator.click("#resume-bots")
    for page in (creator, watcher):
        page.wait_for_selector("#attention", state="detached", timeout=WAIT)
    assert not errors
    creator.context.close()
    watcher.context.close()
