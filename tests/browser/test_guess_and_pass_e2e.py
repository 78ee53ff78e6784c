"""The game page's two smaller move forms, driven by keyboard and clicks:

1. the guess form for the fly in an Animals game (a number of hops, or "escapes");
2. the pass button, offered beside the flip when no tile of the player's fits.

Each game is started through the services from a fixed seed and played there
(placements only, no flips or claims) up to the position; the browser does the rest.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import marram as engine
from engine.marram import creatures
from engine.marram.actions import flips, placements
from games.models import Event, Game
from games.selectors import game_state_get
from tests.browser.conftest import DESKTOP
from tests.service.conftest import make_user, play, seat_user, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

SEED = "c1a551c0" * 8


def lay_tiles(actions: list[dict[str, Any]]) -> dict[str, Any]:
    """A placement if there is one, else a pass (never a flip: the spades are kept)."""
    return next((a for a in actions if a["type"] == "place"),
                next((a for a in actions if a["type"] != "flip"), actions[0]))


def last_event(game: Game) -> dict[str, Any]:
    return Event.objects.filter(game=game).exclude(actor=None).order_by("-seq").first().payload


def open_game(visitors: Any, live_server: Any, game: Game, username: str) -> Any:
    v = visitors(DESKTOP)
    v.sign_in(username)
    v.page.goto(f"{live_server.url}/games/{game.pk}/")
    v.page.wait_for_selector("#game[data-ready=true]")
    return v


def wait_for_seq(page: Any, seq: int) -> None:
    page.wait_for_function(
        "seq => window.marramGame && window.marramGame.page.seq === seq && "
        "!window.marramGame.ui.busy", arg=seq, timeout=20_000)


def test_a_player_guesses_the_fly_by_the_form(visitors, live_server, artifacts_dir):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], variant="animals", seed=SEED)
    game = play(game, until=lambda s: engine.awaiting(s)["kind"] == "guess", choose=lay_tiles)
    state = game_state_get(game)
    wait = engine.awaiting(state)
    assert wait["kind"] == "guess" and wait["creature"] == "fly", wait
    assert len(state.board) >= 20
    seat = wait["player"]
    guesser = seat_user(game, seat)

    v = open_game(visitors, live_server, game, guesser.get_username())
    page = v.page
    form = page.locator('form.guess-form[data-creature="fly"]')
    form.wait_for()
    assert page.text_content("#move-heading") == "Your guess: the fly"
    assert form.get_by_label("It escapes").count() == 1
    assert form.locator('input[name="kind"][value="escape"]').count() == 1
    hops = form.get_by_label("Hops, 1 to 30")
    hops.click()
    page.keyboard.press("Control+A")
    page.keyboard.type("7")
    assert hops.input_value() == "7"
    # how the guess pays, as the engine works it out: the board's odds of each
    # fate and the guess rule (nobody has guessed yet: any number is closest)
    expected = creatures.expected_points(state, state.creatures["fly"], seat)
    odds = creatures.fate_odds(state, state.creatures["fly"])
    page.keyboard.press("Tab")
    told = form.locator(".guess-odds")
    told.get_by_text(f"If you guess 7 hops: {round(expected[7], 2):g} points expected").wait_for()
    assert f"with a chance of {100 * round(odds[7], 4):.1f}%; this guess then pays 24" in \
        told.text_content()
    best = sorted(expected, key=lambda g: -expected[g])[0]
    assert f"Most points expected: {best} hops ({round(expected[best], 2):g})" in \
        told.text_content()
    page.screenshot(path=str(artifacts_dir / "guess-form.png"))
    seq = game.seq
    form.get_by_role("button", name="Send my guess").click()

    page.wait_for_function("seq => window.marramGame.page.seq > seq", arg=seq,
                           timeout=20_000)
    game.refresh_from_db()
    wait_for_seq(page, game.seq)
    assert last_event(game) == {"type": "guess", "creature": "fly", "hops": 7,
                                "player": seat}
    after = engine.awaiting(game_state_get(game))
    assert after == {"kind": "guess", "player": 1 - seat, "creature": "fly"}
    # the guess form is gone: the other player guesses next
    assert page.locator("form.guess-form").count() == 0
    assert page.text_content("#move-heading") == "Waiting"
    page.screenshot(path=str(artifacts_dir / "after-guess.png"))


def test_a_player_passes_with_the_pass_button(visitors, live_server, artifacts_dir):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed=SEED)

    def pass_beside_flip(state) -> bool:
        wait = engine.awaiting(state)
        return (wait["kind"] == "move" and not placements(state, wait["player"])
                and bool(flips(state, wait["player"])))

    game = play(game, until=pass_beside_flip, choose=lay_tiles, limit=600)
    state = game_state_get(game)
    assert pass_beside_flip(state), "the seeded game never reached a pass beside a flip"
    # the end of the game: nothing left to lay, but a spade card left to flip with
    assert state.nothing_to_lay()
    seat = engine.awaiting(state)["player"]
    mover = seat_user(game, seat)
    other = seat_user(game, 1 - seat)

    v = open_game(visitors, live_server, game, mover.get_username())
    page = v.page
    assert page.text_content("#turn-status").strip().startswith("Your turn")
    assert page.locator('button[data-action="flip"]').count() == 1
    pass_button = page.get_by_role("button", name="Pass: you have no tiles to lay")
    assert pass_button.count() == 1
    page.screenshot(path=str(artifacts_dir / "pass-beside-flip.png"))
    seq = game.seq
    pass_button.click()

    page.wait_for_function("seq => window.marramGame.page.seq > seq", arg=seq,
                           timeout=20_000)
    game.refresh_from_db()
    wait_for_seq(page, game.seq)
    assert last_event(game) == {"type": "pass", "player": seat}
    after = game_state_get(game)
    assert not after.finished
    assert engine.awaiting(after) == {"kind": "move", "player": 1 - seat, "move": 1}
    # the page has moved on with the game: the other player's turn, no buttons
    assert page.text_content("#move-heading") == "Waiting"
    assert page.locator('button[data-action="pass"]').count() == 0
    assert f"{other.get_username()} to play" in page.text_content("#turn-status")
