"""A seat token the server rotates is stored by the page at once: a reload still holds the seat."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tablero.server.settings import ServerSettings

from .conftest import SHOTS
from .test_links import WAIT, Watch, create, hold, open_table, ws_payload

ROTATING = ServerSettings(token_rotate_days=1e-9, token_grace_seconds=0)
"""Every seat token is rotated at every hello (it is older than a millisecond)."""


def stored_tokens(page: Any, gid: str) -> list[str]:
    raw = page.evaluate("k => localStorage.getItem(k)", f"tablero:game:{gid}")
    tokens: list[str] = json.loads(raw)["tokens"]
    return tokens


@pytest.mark.parametrize("server", [ROTATING], ids=["rotating"], indirect=True)
def test_a_rotated_token_is_stored_and_a_reload_still_holds_the_seat(browser: Any, server: str) -> None:
    watch = Watch(browser, server)
    try:
        g = create(server, "el-grande", [{"kind": "you"}, {"kind": "bot", "bot": "random"}],
                   options={"short_game": True})
        gid, t0 = g["id"], g["tokens"]["0"]
        page = watch.page()
        hold(page, server, gid, {"tokens": [t0], "admin": g["admin"], "invites": {}})
        open_table(page, f"{server}/game/{gid}")
        page.wait_for_function("() => document.querySelector('#app')?.dataset.viewer === '0'", timeout=WAIT)
        page.wait_for_function(f"() => !localStorage.getItem('tablero:game:{gid}').includes('{t0}')", timeout=WAIT)
        t1 = stored_tokens(page, gid)
        assert len(t1) == 1 and t1 != [t0], "the old key is replaced, not kept beside the new one"
        assert ws_payload(server, gid, [t0])["viewer"] is None, "the old key holds nothing any more"

        page.reload()
        page.wait_for_function("() => document.querySelector('#app')?.dataset.viewer === '0'", timeout=WAIT)
        page.wait_for_function(f"() => !localStorage.getItem('tablero:game:{gid}').includes('{t1[0]}')",
                               timeout=WAIT)
        assert len(stored_tokens(page, gid)) == 1
        assert page.get_attribute("#app", "data-viewer") == "0", "the reload still holds the seat"
        page.screenshot(path=str(SHOTS / "tokens-rotated-reload.png"), full_page=True)
        assert not watch.errors, watch.errors
    finally:
        watch.close()
