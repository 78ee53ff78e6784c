"""What the game page is served beside the API's view: what happened since the
player's last move, the score a move would make (``/api/games/{id}/preview/``,
shared with API clients), the standings at the end, the badge's count; the
home page's picture and the rules page."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from engine import marram as engine
from engine import registry
from engine.marram.notation import describe_event
from engine.marram.preview import score_preview
from engine.marram.view import tile_view
from games import services
from games.game_ui import ui_for
from games.models import Event, Game
from games.pages import since as since_read
from games.selectors import game_state_get, rules_of
from tests.service.conftest import (
    client_for,
    custom_game,
    event_count,
    json_strings,
    make_user,
    play,
    seat_user,
    signed_in,
    start_game,
)
from ui.marram import pictures

pytestmark = pytest.mark.django_db

G8, S8 = "GGGGGGGG", "SSSSSSSS"


def tile(terrain: str, *beasts: dict, items: tuple = ()) -> dict:
    front: dict = {"terrain": terrain}
    if beasts:
        front["beasts"] = list(beasts)
    if items:
        front["items"] = [{"arc": a, "kind": k} for a, k in items]
    return {"spade": False, "front": front}


# A sand circle around grid point (1, 1) (tests/engine/test_patches.circle): ann holds
# three of its corners, bob fillers; all-grass fillers fit around it.
CIRCLE = {"S0": tile("GGGGSGGG"), "NE": tile("GGGGGGSG"), "SW": tile("GGSGGGGG"),
          "SE": tile("SGGGGGGG"), **{f"F{i}": tile(G8) for i in range(1, 13)}}
CIRCLE_DECK = ["NE", "SW", "SE", "F1", "F2", "F3", *[f"F{i}" for i in range(4, 13)]]


def place(tile_id: str, at: tuple[int, int], claim: dict | None = None, rotation: int = 0):
    return {"type": "place", "tile": tile_id, "face": "front", "at": list(at),
            "rotation": rotation, "claim": claim}


def submit(game: Game, user, action: dict) -> None:
    game.refresh_from_db()
    services.action_submit(game=game, user=user, action=action, expected_seq=game.seq)



def page_state(user, game: Game) -> dict:
    return json.loads(signed_in(user).get(f"/games/{game.pk}/state.json").content)


@pytest.fixture
def circle_game():
    """ann laid NE (a boot on the circle's sand) and SW; bob then laid two fillers,
    and it is ann's turn, with SE, the circle's last corner, in hand."""
    ann, bob = make_user("ann"), make_user("bob")
    game = custom_game([ann, bob], CIRCLE, CIRCLE_DECK)
    submit(game, ann, place("NE", (1, 0), {"arc": 6}))
    submit(game, ann, place("SW", (0, 1)))
    submit(game, bob, place("F1", (-1, 0)))
    submit(game, bob, place("F2", (0, -1)))
    game.refresh_from_db()
    return game, ann, bob


# ---------------------------------------------------------------- since your last move


def test_the_page_lists_everything_since_the_players_last_move(circle_game):
    game, ann, bob = circle_game
    since = page_state(ann, game)["since_last_move"]
    events = list(Event.objects.filter(game=game).order_by("seq"))
    # ann's last move was event 1; bob's two placements follow, in the engine's words
    assert [e["seq"] for e in since["events"]] == [2, 3]
    assert [e["text"] for e in since["events"]] == \
        [describe_event(e.payload, ["ann", "bob"]) for e in events[2:]]
    assert since["events"][0]["text"] == "bob lays tile F1 front face up at -1,0"
    assert since["tiles"] == [[-1, 0], [0, -1]]
    assert since["seat"] == 0 and since["more"] is False
    # bob has moved last: nothing has happened since his move
    assert page_state(bob, game)["since_last_move"]["events"] == []


def test_the_points_each_event_scored_come_with_it(circle_game):
    game, ann, bob = circle_game
    submit(game, ann, place("SE", (1, 1)))  # closes ann's circle: 1 bulge x 5
    since = page_state(bob, game)["since_last_move"]
    assert [(e["text"], e["points"]) for e in since["events"]] == [
        ("ann lays tile SE front face up at 1,1",
         [{"seat": 0, "points": 5, "feature": "sand patch with 1 bulge"}])]
    # a spectator sees what happened since the last move of the player to move (ann)
    cyd = make_user("cyd")
    watching = page_state(cyd, game)["since_last_move"]
    assert watching["seat"] == 0 and watching["events"] == []


def test_a_long_absence_lists_the_latest_events_and_says_there_are_more(circle_game,
                                                                         monkeypatch):
    game, ann, bob = circle_game
    state, rules = game_state_get(game), rules_of(game)
    assert since_read.since_last_move(game, rules, state, None).seat == 0  # ann is to move
    monkeypatch.setattr(since_read, "SINCE_SHOWN", 1)
    short = since_read.since_last_move(game, rules, state, 0)
    # ann's own last move is out of the window of one: the list says so
    told = ui_for("marram").since_last_move(state, short, ["ann", "bob"])
    assert [e["seq"] for e in told["events"]] == [3] and told["more"] is True


def test_a_flipped_tile_is_outlined_and_told_too():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed="f11b" * 16)

    def last_event() -> Event | None:
        return Event.objects.filter(game=game).order_by("-seq").first()

    def last_is_a_flip(state) -> bool:
        last = last_event()
        return last is not None and last.type == "flip"

    def choose(actions: list[dict]) -> dict:
        # a flip of a tile laid before this turn, whenever the rules allow one
        last = last_event()
        just_laid = last.payload.get("at") if last is not None else None
        return next((a for a in actions if a["type"] == "flip" and a["at"] != just_laid),
                    next((a for a in actions if a["type"] == "place"), actions[0]))

    play(game, until=last_is_a_flip, choose=choose)
    game.refresh_from_db()
    flip = Event.objects.filter(game=game).order_by("-seq").first()
    assert flip.type == "flip"
    flipper = flip.payload["player"]
    other = seat_user(game, 1 - flipper)
    since = page_state(other, game)["since_last_move"]
    told = [e for e in since["events"] if e["seq"] == flip.seq]
    assert [e["text"] for e in told] == [describe_event(flip.payload, since_names(game))]
    assert told[0]["text"].startswith(
        f"{since_names(game)[flipper]} spends a spade card to flip the tile at "
        f"{flip.payload['at'][0]},{flip.payload['at'][1]}")
    # outlined, though no tile was laid there since
    laid = [e["at"] for e in since["events"] if e["type"] == "place"]
    assert flip.payload["at"] not in laid
    assert flip.payload["at"] in since["tiles"]


def since_names(game: Game) -> list[str]:
    return [s.name for s in sorted((s for s in game.seats.all() if s.index is not None),
                                   key=lambda s: s.index)]


# ---------------------------------------------------------------- the score preview


def test_the_preview_is_the_engines_and_changes_nothing(circle_game):
    game, ann, bob = circle_game
    client = client_for(ann)
    before = event_count(game)
    action = place("SE", (1, 1))
    answer = client.get(f"/api/games/{game.pk}/preview/", {"action": json.dumps(action)})
    assert answer.status_code == 200, answer.content
    data = json.loads(answer.content)
    expected = score_preview(game_state_get(game), {**action, "player": 0})
    assert {k: data[k] for k in expected} == expected
    # worked out from the rule book: the circle is 1 bulge x 5 = 5, ann's boot
    assert data["gains"] == [5, 0] and data["completed"] == {"sand": 1}
    assert data["awards"] == [{"seat": 0, "points": 5, "feature": "sand patch with 1 bulge",
                               "kind": "sand", "unfinished": False, "event": 4}]
    posted = client.post(f"/api/games/{game.pk}/preview/", {"action": action}, format="json")
    assert posted.status_code == 200 and json.loads(posted.content)["gains"] == [5, 0]
    assert event_count(game) == before
    assert game_state_get(game).scores == [0, 0]


def test_the_preview_shows_nothing_of_the_deck(circle_game):
    game, ann, bob = circle_game
    state = game_state_get(game)
    undrawn = set(state.config.deck[state.drawn:])
    assert undrawn
    # ann's second move ends her turn: the engine's copy draws her next tiles
    submit(game, ann, place("SE", (1, 1)))
    game.refresh_from_db()
    state = game_state_get(game)
    undrawn = set(state.config.deck[state.drawn:])
    move = next(a for a in engine.legal_actions(state) if a["type"] == "place")
    answer = client_for(ann).get(f"/api/games/{game.pk}/preview/",
                                 {"action": json.dumps({**move, "claim": None})})
    assert answer.status_code == 200
    assert not undrawn & set(json_strings(json.loads(answer.content)))
    assert game.seed not in answer.content.decode()


@pytest.mark.parametrize("who, query, status, code", [
    ("cyd", {"action": json.dumps(place("SE", (1, 1)))}, 403, "not_a_player"),
    ("ann", {"action": "{"}, 400, "malformed_json"),
    ("ann", {}, 400, "invalid"),
    ("ann", {"action": json.dumps({"type": "pass"})}, 400, "invalid"),
    ("ann", {"action": json.dumps(["place"])}, 400, "invalid"),
    ("ann", {"action": json.dumps(place("SE", (5, 5)))}, 400, "detached"),
    ("ann", {"action": json.dumps(place("F9", (1, 1)))}, 400, "tile_not_in_hand"),
    # not your turn: a 403 naming the player waited for, as moves and claims say it
    ("bob", {"action": json.dumps(place("F3", (1, 1)))}, 403, "not_your_turn"),
    ("ann", {"action": json.dumps({**place("SE", (1, 1)), "player": 1})}, 403,
     "not_your_seat"),
])
def test_a_bad_preview_request_is_a_4xx_that_says_why(circle_game, who, query, status, code):
    game, ann, bob = circle_game
    users = {"ann": ann, "bob": bob, "cyd": make_user("cyd")}
    before = event_count(game)
    answer = client_for(users[who]).get(f"/api/games/{game.pk}/preview/", query)
    assert answer.status_code == status, answer.content
    data = json.loads(answer.content)
    assert data["code"] == code and data["message"]
    assert event_count(game) == before


def test_no_preview_once_the_game_is_over(circle_game):
    game, ann, bob = circle_game
    services.game_resign(game=game, user=bob)
    answer = client_for(ann).get(f"/api/games/{game.pk}/preview/",
                                 {"action": json.dumps(place("SE", (1, 1)))})
    assert answer.status_code == 409 and json.loads(answer.content)["code"] == "game_finished"


# ---------------------------------------------------------------- the end


# tests/engine/test_endgame.ENDGAME: ann's open blue snake (head and body), bob's open
# grass patch with a gold and a silver coin; every other tile is sand and fits nowhere,
# so the server passes for both until the end.
def seg(type_: str, kind: str, *sides: int) -> dict:
    return {"type": type_, "kind": kind, "sides": list(sides)}


ENDGAME = {"S0": tile(G8, seg("blue", "head", 1), items=((4, "gold"),)),
           "B": tile(G8, seg("blue", "body", 3, 1)), "A": tile(G8),
           "C": tile(G8, items=((0, "silver"),)),
           **{f"X{i}": tile(S8) for i in range(1, 4)}}


def test_the_standings_at_the_end_and_where_the_points_came_from():
    ann, bob = make_user("ann"), make_user("bob")
    game = custom_game([ann, bob], ENDGAME, ["B", "A", "X1", "C", "X2", "X3"])
    submit(game, ann, place("B", (1, 0), {"side": 3}))
    submit(game, ann, place("A", (0, 1)))
    submit(game, bob, place("C", (1, 1), {"arc": 0}))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED  # the forced passes ended it
    answer = page_state(ann, game)
    rows = answer["final_standings"]["rows"]
    # bob: the unfinished grass patch, 1 bulge x 2 + gold 1 + silver 1 = 4;
    # ann: the unfinished snake, head + body, 1 x 2 = 2
    assert answer["final_standings"]["heading"] == "Points"
    assert [(r["seat"], r["place"], r["measure"], r["winner"], r["badge"]) for r in rows] == \
        [(1, "1", "4", True, "winner"), (0, "2", "2", False, "")]
    # where the points came from, in words: nothing but the unfinished patch
    assert rows[0]["detail"] == "4 from 1 feature unfinished at the end"
    assert [r["you"] for r in rows] == [False, True]
    assert [r["you"] for r in page_state(bob, game)["final_standings"]["rows"]] == \
        [True, False]
    # a spectator, with nobody left to wait for, gets the latest turn: bob's move and
    # the passes the server made after it
    since = page_state(make_user("eve"), game)["since_last_move"]
    assert since["seat"] is None
    assert [e["text"] for e in since["events"]] == [
        "bob lays tile C front face up at 1,1, with a token on the patch at arc 0",
        "bob could lay no tile and passed",
        "bob could lay no tile and passed", "ann could lay no tile and passed",
        "ann could lay no tile and passed", "bob could lay no tile and passed"]
    assert since["tiles"] == [[1, 1]]
    # a running game has none yet
    running = start_game([make_user("cyd"), make_user("dee")])
    assert page_state(seat_user(running, 0), running)["final_standings"] is None


def test_a_feature_worth_nothing_makes_no_line_in_the_score_log():
    # two tiles whose grass meets only at the middle of their shared side: a finished
    # patch with no bulge and no item, worth 0
    ann, bob = make_user("ann"), make_user("bob")
    tiles = {"S0": tile("SSSGSSSS"), "E": tile("SSSSSSSG"),
             **{f"F{i}": tile(S8) for i in range(1, 9)}}
    game = custom_game([ann, bob], tiles, ["E", "F1", "F2", "F3", "F4", "F5", "F6", "F7"])
    submit(game, ann, place("E", (1, 0), {"arc": 7}))
    state = page_state(ann, game)["state"]
    assert state["scores"] == [0, 0]
    assert state["log"] == []
    assert state["supply"][0]["boots"] == 7  # the boot came back


# ---------------------------------------------------------------- the header's badge


def test_the_page_state_counts_the_games_waiting_for_the_player(circle_game):
    game, ann, bob = circle_game
    assert page_state(ann, game)["your_turn_count"] == 1
    assert page_state(bob, game)["your_turn_count"] == 0
    submit(game, ann, place("SE", (1, 1)))
    submit(game, ann, place("F4", (-1, -1)))
    assert page_state(ann, game)["your_turn_count"] == 0
    assert page_state(bob, game)["your_turn_count"] == 1


def test_the_count_of_games_waiting_is_one_query_however_many_games(django_assert_num_queries):
    """The count of games waiting for a player is the running ones whose awaited
    seat is theirs, asked of the database in one query (a player may sit in
    hundreds). The games are dealt from one seed, the players seated in the order
    given: seat 0 moves first."""
    from games.pages.reads import your_turn_count

    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    seed = "5eed" * 16
    firsts = [start_game([ann, bob], seed=seed) for _ in range(3)]
    seconds = [start_game([bob, ann], seed=seed) for _ in range(3)]
    threes = [start_game([cid, bob, ann], seed=seed) for _ in range(2)]
    assert all(g.projection["to_act"] == [0] for g in firsts + seconds + threes)
    # one of the games waiting for her ends: it no longer counts
    services.game_resign(game=firsts[0], user=bob)
    firsts[0].refresh_from_db()
    assert firsts[0].status == Game.Status.FINISHED
    # and a game not started awaits nobody
    services.game_create(user=ann, variant="classic", length="long", seats=2)
    with django_assert_num_queries(1):
        assert your_turn_count(ann) == 2
    assert page_state(ann, firsts[1])["your_turn_count"] == 2
    assert [your_turn_count(u) for u in (bob, cid)] == [3, 2]
    # a move passes the turn: the count follows
    play(firsts[1], until=lambda state: engine.awaiting(state)["player"] == 1)
    assert [your_turn_count(u) for u in (ann, bob)] == [1, 4]


# ---------------------------------------------------------------- pictures and rules


def test_every_picture_is_a_position_the_engine_replays():
    for name in ("home", *("patch", "blue-snake", "flip", "pitchfork", "animals")):
        record = pictures.record_of(name)
        replay = engine.replay(record)
        assert replay.ok, (name, replay.error)
        seen = engine.player_view(replay.state, None)
        # each tile drawn in full (the picture is drawn where it stands in the page)
        board = pictures.picture(name)["board"]
        assert board == [tile_view(replay.state, at, replay.state.board[at])
                         for at in (tuple(t["at"]) for t in seen["board"])]
        assert all("terrain" in t and "drawing" not in t for t in board)
        laid = {tuple(t["at"]) for t in seen["board"]}
        assert all(tuple(p) in laid for p in record["outline"]), name


def edge(tile_view: dict, side: int) -> tuple[str, str | None]:
    """The terrain of a side read clockwise, and the beast crossing it."""
    arcs = [(2 * side + k) % 8 for k in range(3)]
    beast = next((b["type"] for b in tile_view["beasts"] if side in b["sides"]), None)
    return "".join(tile_view["terrain"][a] for a in arcs), beast


def test_the_home_page_draws_a_position_whose_tiles_match_their_neighbours():
    html = Client().get("/").content.decode()
    found = re.search(r'<script id="picture-marram" type="application/json">(.*?)</script>',
                      html, re.S)
    assert found and 'data-picture="picture-marram"' in html
    board = json.loads(found.group(1))["board"]
    assert len(board) >= 10
    at = {tuple(t["at"]): t for t in board}
    pairs = 0
    for (x, y), t in at.items():
        for side, (dx, dy) in ((1, (1, 0)), (2, (0, 1))):  # east and south neighbours
            other = at.get((x + dx, y + dy))
            if other is None:
                continue
            pairs += 1
            mine, beast = edge(t, side)
            theirs, their_beast = edge(other, (side + 2) % 4)
            # the terrain meets arc for arc (one side read clockwise, the other back),
            # and a beast meets a beast of the same kind (a beastly body takes any)
            assert mine == theirs[::-1], ((x, y), side)
            assert (beast is None) == (their_beast is None), ((x, y), side)
            if beast and their_beast:
                assert "any" in (beast, their_beast) or beast == their_beast
    assert pairs >= 10


def test_the_rules_page_covers_the_three_variants_with_the_engines_numbers():
    ann, bob = make_user("ann"), make_user("bob")
    answer = Client().get("/rules/marram/")
    assert answer.status_code == 200
    html = answer.content.decode()
    for heading in ("Pitchfork", "Animals", "Classic", "Scoring", "The end of the game"):
        assert heading in html
    pitchfork = [engine.rules_for("pitchfork", "long", n) for n in (2, 3, 4)]
    classic = engine.rules_for("classic", "short", 3)
    assert f"<td>{pitchfork[0].patch.bulge}</td>" in html
    spades = [r.spades for r in pitchfork]
    assert f"{spades[0]}, {spades[1]} or {spades[2]} with two, three or four players" in html
    assert f"{classic.target} with three" in html
    for name in ("patch", "blue-snake", "flip", "pitchfork", "animals"):
        assert f'data-picture="picture-{name}"' in html
        assert f'<script id="picture-{name}" type="application/json">' in html
    assert Client().get("/rules/chess/").status_code == 404
    # every game page links to it
    game = start_game([ann, bob])
    assert 'href="/rules/marram/"' in signed_in(ann).get(f"/games/{game.pk}/").content.decode()
    open_game = services.game_create(user=ann, variant="classic", length="long", seats=2)
    assert 'href="/rules/marram/"' in \
        signed_in(ann).get(f"/games/{open_game.pk}/").content.decode()


@pytest.mark.parametrize(("game", "projection", "words"), [
    # Marram: the most points win
    ("marram", {"winners": [1], "scores": [31, 40], "better": "higher"},
     "Game over: bob wins with 40 points."),
    ("marram", {"winners": [0, 1], "scores": [40, 40], "better": "higher"},
     "Game over: ann and bob tie with 40 points."),
    ("animals_on_board", {"winners": [0], "scores": [1, 0], "better": "higher"},
     "Game over: ann wins with 1 point."),
    # Pond counts the pieces in each pile
    ("pond", {"winners": [1], "scores": [7, 10], "better": "higher"},
     "Game over: bob wins with 10 pieces."),
    # Make-a-snake: the shortest distance from tongue to tail wins
    ("make_a_snake", {"winners": [0], "scores": [8.61, 12.5], "better": "lower"},
     "Game over: ann wins with the lowest score, 8.61 cm."),
    # the lollipop hunt: everybody wins or loses together
    ("make_a_snake", {"winners": [0, 1], "scores": [None, None], "cooperative": True},
     "Game over: the players won together."),
    ("make_a_snake", {"winners": [], "scores": [None, None], "cooperative": True},
     "Game over: the players lost together."),
])
def test_the_status_line_of_a_finished_game_says_the_result_as_the_game_counts_it(
        game, projection, words):
    from games.pages.reads import result_text

    unit = registry.get(game).score_unit
    assert result_text({"finished": True, **projection}, ["ann", "bob"], unit) == words
