"""Two players play a Classic game on the game page by clicks alone, each in a
browser of their own (ann on a desktop, bob on a phone): a flip, placements with
and without a claim, the other page following by itself, and both pages
agreeing with the engine's replay of the stored events. Then ann steps through
the running game on its replay page.

The game is started through the services from a fixed seed (ann moves first) and
played automatically (no flips) until ann, at the first move of a turn, may flip a
tile; the browser does the rest, every step of it on every run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine import marram as engine
from engine.marram.actions import claim_options, flips, placements
from engine.marram.replays import replay_events
from games.models import Event, Game
from games.selectors import game_state_get
from tests.browser.conftest import DESKTOP, PHONE
from tests.service.conftest import make_user, play, seat_user, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

SEED = "c1a551c0" * 8


def stored(game: Game) -> engine.GameState:
    """The game replayed from its stored events by the engine."""
    game.refresh_from_db()
    events = list(Event.objects.filter(game=game).order_by("seq").values_list("payload",
                                                                              flat=True))
    replay = replay_events(engine.config_from_json(game.config), events)
    assert replay.ok
    return replay.state


def last_event(game: Game) -> dict[str, Any]:
    return Event.objects.filter(game=game).exclude(actor=None).order_by("-seq").first().payload


def token_stays(state: engine.GameState, place: dict[str, Any]) -> bool:
    """Whether the place with its first claim leaves the token on the board."""
    after = engine.apply(state, {**place, "claim": claim_options(state, place)[0]})
    return after.board[tuple(place["at"])].token is not None


def wait_for_seq(page: Any, seq: int) -> None:
    """The page has caught up with the game (its own move, or by polling)."""
    page.wait_for_function(
        "seq => window.marramGame && window.marramGame.page.seq === seq && "
        "!window.marramGame.ui.busy", arg=seq, timeout=20_000)


def assert_page_agrees(page: Any, game: Game) -> None:
    """The board and the scores on the page are the engine's."""
    state = stored(game)
    wait_for_seq(page, game.seq)
    summary = engine.summary(state)
    tiles = page.eval_on_selector_all("svg#board g.tile", "els => els.map(e => "
                                      "[+e.dataset.x, +e.dataset.y, e.dataset.tile])")
    assert sorted(tiles) == sorted([x, y, p.tile.id] for (x, y), p in state.board.items())
    for seat, score in enumerate(summary["scores"]):
        shown = page.text_content(f'#players li[data-seat="{seat}"] [data-stat="score"]')
        assert shown.strip() == str(score)
        boots = page.text_content(f'#players li[data-seat="{seat}"] [data-stat="boots"]')
        assert boots.strip() == str(summary["supply"][seat]["boots"])
        spades = page.text_content(f'#players li[data-seat="{seat}"] [data-stat="spades"]')
        assert spades.strip() == str(summary["supply"][seat]["spades"])


def choose_claim_step(page: Any, claim_index: int | None) -> None:
    page.wait_for_selector('button[data-claim="none"]')  # the claims have been fetched
    if claim_index is None:
        page.click('button[data-claim="none"]')
    else:
        page.click(f'svg#board g.roundel[data-claim="{claim_index}"]')  # the roundel itself
        assert page.get_attribute(f'button[data-claim="{claim_index}"]',
                                  "aria-pressed") == "true"


def confirm(page: Any) -> None:
    """Confirm the move, once the page shows what it would score (as a player reads it
    before confirming; a preview still on its way when the move lands would be of a
    move no longer legal), and wait for the server's answer: the game row read next
    is the one after it."""
    page.wait_for_selector("#score-preview[data-ready=true]")
    with page.expect_response(lambda r: "/actions/" in r.url and r.request.method == "POST"):
        page.click('button[data-action="confirm"]')


def place_by_clicks(page: Any, action: dict[str, Any], claim_index: int | None,
                    shot: Path | None = None) -> None:
    """Choose the tile's face in the hand, the highlighted place, the rotation, the
    claim, and confirm: the rule book's way."""
    page.click(f'button.face-button[data-tile="{action["tile"]}"][data-face="{action["face"]}"]')
    x, y = action["at"]
    page.click(f'svg#board g.highlight[data-x="{x}"][data-y="{y}"]')
    page.click(f'button.rotation-button[data-rotation="{action["rotation"]}"]')
    # the tile is drawn in place, turned as chosen
    preview = page.locator(f'svg#board g.tile[data-x="{x}"][data-y="{y}"]')
    assert preview.get_attribute("data-rotation") == str(action["rotation"])
    choose_claim_step(page, claim_index)
    if shot is not None:
        page.screenshot(path=str(shot))
    confirm(page)


def test_two_players_play_a_classic_game_by_clicks(visitors, live_server, artifacts_dir):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed=SEED)  # the same deck, and so the same game, every run
    no_flips = [lambda actions: next(a for a in actions if a["type"] != "flip")]

    def ann_may_flip(state) -> bool:
        wait = engine.awaiting(state)
        return (wait["kind"] == "move" and state.moves_in_turn == 0
                and seat_user(game, wait["player"]) == ann
                and bool(flips(state, wait["player"])) and bool(placements(state,
                                                                         wait["player"])))

    game = play(game, until=ann_may_flip, choose=no_flips[0])
    seat_ann = next(s for s in (0, 1) if seat_user(game, s) == ann)

    a = visitors(DESKTOP)
    b = visitors(PHONE)
    a.sign_in("ann")
    b.sign_in("bob")
    a.page.goto(f"{live_server.url}/games/{game.pk}/")
    b.page.goto(f"{live_server.url}/games/{game.pk}/")
    for v in (a, b):
        v.page.wait_for_selector("#game[data-ready=true]")
    assert "Your turn" in a.page.text_content("#turn-status")
    assert "ann to play" in b.page.text_content("#turn-status")
    assert_page_agrees(a.page, game)
    assert_page_agrees(b.page, game)

    # 1. ann flips a tile: "Flip a tile", the highlighted tile, its rotation, no claim
    state = game_state_get(game)
    flip = flips(state, seat_ann)[0]
    a.page.click('button[data-action="flip"]')
    x, y = flip["at"]
    a.page.click(f'svg#board g.highlight[data-x="{x}"][data-y="{y}"]')
    a.page.click(f'button.rotation-button[data-rotation="{flip["rotation"]}"]')
    choose_claim_step(a.page, None)
    assert "flip the tile at" in a.page.text_content('button[data-action="confirm"]')
    confirm(a.page)
    game.refresh_from_db()
    wait_for_seq(a.page, game.seq)
    assert last_event(game) == {**flip, "claim": None}
    assert_page_agrees(a.page, game)

    # 2. ann lays a tile and claims a feature on it with a roundel, one that is not
    # scored at once, so that her token stays on the board
    state = game_state_get(game)
    place, claim = next((p, claim_options(state, p)[0]) for p in placements(state, seat_ann)
                        if claim_options(state, p) and token_stays(state, p))
    place_by_clicks(a.page, place, 0, shot=artifacts_dir / "desktop-claim-step.png")
    a.page.wait_for_function("() => window.marramGame.page.state.awaiting.player !== "
                             f"{seat_ann}")
    game.refresh_from_db()
    assert last_event(game) == {**place, "claim": claim}
    assert_page_agrees(a.page, game)
    tokens = a.page.locator(f'svg#board g.tile[data-x="{place["at"][0]}"]'
                            f'[data-y="{place["at"][1]}"] g.token')
    assert stored(game).board[tuple(place["at"])].token is not None
    assert tokens.count() == 1
    # bob's page follows by itself (polling), with both of ann's moves outlined: the
    # flipped tile and the laid one (everything since bob's own last move)
    assert_page_agrees(b.page, game)
    assert "Your turn" in b.page.text_content("#turn-status")
    outlined = b.page.eval_on_selector_all(
        "svg#board g.last-move", "els => els.map(e => [+e.dataset.x, +e.dataset.y])")
    assert sorted(outlined) == sorted([flip["at"], place["at"]])
    a.page.screenshot(path=str(artifacts_dir / "desktop-after-ann.png"))

    # 3. bob, on his phone, lays two tiles: the first with a claim, the second without
    seat_bob = 1 - seat_ann
    for n, claim_index in ((1, 0), (2, None)):
        state = game_state_get(game)
        assert engine.awaiting(state) == {"kind": "move", "player": seat_bob, "move": n}
        options = placements(state, seat_bob)
        choice = options[0] if claim_index is None else next(
            p for p in options if claim_options(state, p))
        place_by_clicks(b.page, choice, claim_index,
                        shot=artifacts_dir / f"phone-bob-move-{n}.png")
        game.refresh_from_db()
        wait_for_seq(b.page, game.seq)
        assert last_event(game)["tile"] == choice["tile"]
        assert_page_agrees(b.page, game)
    assert_page_agrees(a.page, game)
    b.page.screenshot(path=str(artifacts_dir / "phone-after-bob.png"))

    # 4. a cancelled move changes nothing: choose a face and a place, then cancel
    state = game_state_get(game)
    assert engine.awaiting(state)["player"] == seat_ann
    seq = game.seq
    first = placements(state, seat_ann)[0]
    a.page.click(f'button.face-button[data-tile="{first["tile"]}"]'
                 f'[data-face="{first["face"]}"]')
    assert a.page.locator("svg#board g.highlight").count() >= 1
    a.page.screenshot(path=str(artifacts_dir / "desktop-highlights.png"))
    fx, fy = first["at"]
    a.page.click(f'svg#board g.highlight[data-x="{fx}"][data-y="{fy}"]')
    a.page.click('button[data-action="cancel"]')
    assert a.page.locator("svg#board g.highlight").count() == 0
    assert a.page.locator("button.face-button.selected").count() == 0
    game.refresh_from_db()
    assert game.seq == seq
    assert_page_agrees(a.page, game)

    # 5. a page that missed an event is told so, refreshes, and keeps the chosen tile
    face = f'button.face-button[data-tile="{first["tile"]}"][data-face="{first["face"]}"]'
    a.page.click(face)
    a.page.evaluate("() => { window.marramGame.page.seq -= 1; }")  # as if it were stale
    a.expect_refusal(409, f"/games/{game.pk}/actions/")
    a.page.click(f'svg#board g.highlight[data-x="{fx}"][data-y="{fy}"]')
    choose_claim_step(a.page, None)
    confirm(a.page)
    a.page.wait_for_function("() => document.getElementById('move-error').textContent"
                             ".includes('The game moved on: refreshed')")
    assert a.page.get_attribute(face, "aria-pressed") == "true"
    assert a.page.locator("svg#board g.highlight").count() >= 1
    game.refresh_from_db()
    assert game.seq == seq and not a.refusals
    wait_for_seq(a.page, seq)
    a.page.keyboard.press("Escape")  # cancels, as the button does
    assert a.page.locator("button.face-button.selected").count() == 0

    # 6. the running game's replay, for ann: buttons, slider, arrows
    a.page.goto(f"{live_server.url}/games/{game.pk}/replay/")
    a.page.wait_for_selector("#replay[data-ready=true]")
    count = game.seq
    assert a.page.get_attribute("#replay-slider", "max") == str(count)
    assert a.page.text_content("#replay-position").strip() == f"Step {count} of {count}"
    assert a.page.locator('a:has-text("Download the record")').count() == 0  # running
    a.page.click('[data-go="first"]')
    a.page.wait_for_selector("#replay[data-step='0'][data-loading=false]")
    assert a.page.locator("svg#replay-board g.tile").count() == 1  # the starter
    a.page.click('[data-go="forward"]')
    a.page.wait_for_selector("#replay[data-step='1'][data-loading=false]")
    a.page.keyboard.press("ArrowRight")
    a.page.keyboard.press("ArrowRight")
    a.page.wait_for_selector("#replay[data-step='3'][data-loading=false]")
    events = list(Event.objects.filter(game=game).order_by("seq").values_list("payload",
                                                                              flat=True))
    config = engine.config_from_json(game.config)
    three = replay_events(config, events[:3]).state
    assert a.page.locator("svg#replay-board g.tile").count() == len(three.board)
    a.page.locator("#replay-slider").fill(str(count - 1))
    a.page.wait_for_selector(f"#replay[data-step='{count - 1}'][data-loading=false]")
    before_last = replay_events(config, events[:count - 1]).state
    assert a.page.locator("svg#replay-board g.tile").count() == len(before_last.board)
    a.page.click('[data-go="last"]')
    a.page.wait_for_selector(f"#replay[data-step='{count}'][data-loading=false]")
    assert a.page.locator("svg#replay-board g.tile").count() == len(stored(game).board)
