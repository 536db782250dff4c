"""The Tasks page's arc3 games in headless Chromium: a game's opening frame, and a fresh level played by hand.

Each frame the page draws is read back from its canvas and compared with the level opened here at
the same instance seed and played with the same actions. Needs Python 3.12 with the arc3 track
(arcengine and the games), the view extra, Playwright and Debian's chromium; skipped, saying so,
without them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from view_support import browser, drawn, screenshot_dir

pytest.importorskip("arcengine", reason="the arc3 track needs Python 3.12 and continual-arc[arc3]")
pytest.importorskip("starlette", reason="the view extra (starlette, uvicorn) is not installed")
pytestmark = [pytest.mark.browser, browser]

from continual_arc.core.environment import EnvSettings  # noqa: E402
from continual_arc.core.games import GameAction, decode_frame  # noqa: E402
from continual_arc.tracks.registry import get_track  # noqa: E402
from continual_arc.view.app import ServerThread  # noqa: E402
from continual_arc.view.catalog import build_catalog  # noqa: E402
from continual_arc.view.site import Site  # noqa: E402
from continual_arc.view.tasks import SHOWN_SEED, TaskBrowser  # noqa: E402

SHOTS = screenshot_dir()
PLAYED_FIRST = ("results",)  # the protocol is played before Chromium starts its own threads


def _frame(env: Any) -> list[list[int]]:
    return [list(row) for row in decode_frame(env.view("", 0, 0, 0).frame)]


def _has_button(game: str) -> bool:
    """Whether the game offers an action other than a click on the frame (ACTION6)."""
    actions = get_track("arc3").open("stream", game, SHOWN_SEED, EnvSettings()).view("", 0, 0, 0)
    return any(a != "ACTION6" for a in getattr(actions, "available_actions", ()))


@pytest.fixture(scope="module")
def site(results: Path) -> Site:
    """What the module's server serves: the results, and the arc3 track's games on the Tasks page."""
    return Site(build_catalog([results]), live=True, tasks=TaskBrowser(only={"arc3"}))


def test_a_game_is_shown_and_played_by_hand(server: ServerThread, page: Any) -> None:
    page.goto(server.url + "#page=tasks")
    page.wait_for_selector(".task-card[data-loaded=true]")
    # Cards load in any order: take the first listed game that offers a button (not only clicks).
    listed = page.eval_on_selector_all(".task-card", "cards => cards.map((c) => c.dataset.task)")
    game = next(g for g in listed if _has_button(g))
    page.wait_for_selector(f".task-card[data-task='{game}'][data-loaded=true]")
    shown = get_track("arc3").open("stream", game, SHOWN_SEED, EnvSettings())
    opening = f".task-card[data-task='{game}'] canvas[data-role=task-frame]"
    assert drawn(page, opening, frame=True) == _frame(shown)

    page.click(f"[data-play-game='{game}']")
    page.wait_for_selector(".game-play canvas[data-role=play-frame]")
    token = str(page.get_attribute(".game-play", "data-token"))
    mine = get_track("arc3").open("stream", game, server.sessions.seed_of(token), EnvSettings())
    assert drawn(page, ".game-play canvas[data-role=play-frame]", frame=True) == _frame(mine)

    action = str(page.get_attribute(".game-play [data-game-action^=ACTION] >> nth=0", "data-game-action"))
    page.click(f".game-play [data-game-action='{action}']")
    page.wait_for_selector(".game-play[data-moves='1']")
    moved = mine.step(GameAction(action))
    assert drawn(page, ".game-play canvas[data-role=play-frame]", frame=True) == [
        list(row) for row in decode_frame(moved.frames[-1] if moved.frames else mine.view("", 0, 0, 0).frame)
    ]
    page.click(".game-play [data-game-action=give_up]")
    page.wait_for_selector(".game-play[data-done=true] .outcome")
    assert page.get_attribute(".game-play .outcome", "data-charge") == str(EnvSettings().max_cost)
    page.screenshot(path=str(SHOTS / "tasks-arc3-played.png"), full_page=True)
