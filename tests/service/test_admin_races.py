"""The admin never writes a game row over a move, a draw or a start.

A started game's page has no save button and its POST is refused (403), so no
edit of the admin's can put a running game's seq back; an open game's edit takes
the row lock before it writes, finds out then whether the game has started
meanwhile, and writes only the fields it changed. The races are run against the
real PostgreSQL: the move or the join holds the row locked in its transaction
while the admin's request is made, and commits once that request has either
answered or is waiting for the lock."""

from __future__ import annotations

import ast
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test import Client

from engine import marram as engine
from games import services
from games.management.commands.verify_game import game_problems
from games.models import Event, Game, UnguardedGameWrite
from games.selectors import game_state_get
from tests.service.admin_kit import change_form
from tests.service.conftest import make_user, play, seat_user, start_game

ROOT = Path(__file__).resolve().parents[2]


def admin() -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_superuser(
        "admin", "admin@example.org", "dune-grass-42"))
    return client


def waiting_for_a_lock() -> bool:
    """Whether another backend of the test database waits for a row lock."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                       " AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()")
        return bool(cursor.fetchone()[0])


def race(held: Callable[[], Any], request: Callable[[], Any]) -> tuple[Any, Any]:
    """Run ``held()`` in a transaction that stays open (its row locks held) until
    ``request()``, made meanwhile from another thread, has answered or waits for a
    lock; then commit. Both results."""
    out: dict[str, Any] = {}
    ready, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                out["held"] = held()
                ready.set()
                release.wait(30)
        except BaseException as e:
            out["held_error"] = e
            ready.set()
        finally:
            connection.close()

    def ask() -> None:
        try:
            out["request"] = request()
        except BaseException as e:
            out["request_error"] = e
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    assert ready.wait(30)
    asker = threading.Thread(target=ask)
    asker.start()
    deadline = time.monotonic() + 20
    while asker.is_alive() and not waiting_for_a_lock() and time.monotonic() < deadline:
        time.sleep(0.01)
    release.set()
    holder.join(30)
    asker.join(30)
    assert "held_error" not in out and "request_error" not in out, out
    return out["held"], out["request"]


def next_move(game: Game) -> tuple[Any, dict[str, Any]]:
    state = game_state_get(game)
    wait = engine.awaiting(state)
    return seat_user(game, wait["player"]), {**engine.legal_actions(state)[0], "claim": None}


@pytest.mark.django_db(transaction=True)
def test_a_save_pressed_on_a_running_game_while_a_move_commits_writes_nothing():
    ann, bob = make_user("ann"), make_user("bob")
    game = play(start_game([ann, bob]), until=lambda s: s.events >= 4)
    staff = admin()
    url = f"/admin/games/game/{game.pk}/change/"
    mover, action = next_move(game)
    posted = change_form(game)

    result, answer = race(
        lambda: services.action_submit(game=game.pk, user=mover, action=action,
                                       expected_seq=game.seq),
        lambda: staff.post(url, posted))

    assert answer.status_code == 403
    stored = Game.objects.get(pk=game.pk)
    assert stored.seq == result.seq == Event.objects.filter(game=game).count()
    assert game_problems(stored) == []
    page = staff.get(url)  # shown, with nothing to save
    assert page.status_code == 200 and b'name="_save"' not in page.content
    # and the game plays on from there
    mover, action = next_move(stored)
    services.action_submit(game=game.pk, user=mover, action=action, expected_seq=stored.seq)


@pytest.mark.django_db(transaction=True)
def test_an_admin_edit_racing_the_last_join_does_not_undo_the_start():
    cyd, dee = make_user("cyd"), make_user("dee")
    game = services.game_create(user=cyd, variant="classic", length="long", seats=2,
                                days_per_move=3)
    staff = admin()
    url = f"/admin/games/game/{game.pk}/change/"
    assert b'name="_save"' in staff.get(url).content  # open: the admin may edit it
    posted = {**change_form(game), "days_per_move": "5"}

    _, answer = race(lambda: services.game_join(game=game.pk, user=dee),
                     lambda: staff.post(url, posted))

    assert answer.status_code == 200 and b"has started since this page was read" in \
        answer.content
    stored = Game.objects.get(pk=game.pk)
    assert stored.status == Game.Status.RUNNING and stored.days_per_move == 3
    assert stored.config is not None and len(stored.seed) == 64 and stored.started_at
    assert stored.seats.exclude(index=None).count() == 2
    assert game_problems(stored) == []


@pytest.mark.django_db(transaction=True)
def test_an_open_games_edit_writes_only_what_it_changed():
    """The form was read before a second player joined a three-seat game; its Save
    writes days per move and nothing else (the seat stays taken, the game open)."""
    eve, fay = make_user("eve"), make_user("fay")
    game = services.game_create(user=eve, variant="classic", length="long", seats=3)
    staff = admin()
    url = f"/admin/games/game/{game.pk}/change/"
    posted = {**change_form(game), "days_per_move": "4"}
    services.game_join(game=game.pk, user=fay)
    assert staff.post(url, posted).status_code == 302
    stored = Game.objects.get(pk=game.pk)
    assert (stored.status, stored.days_per_move, stored.seats.count()) == (
        Game.Status.OPEN, 4, 2)


@pytest.mark.django_db(transaction=True)
def test_moves_and_admin_saves_at_once_leave_the_game_whole():
    """Two players move while the admin presses Save on the game again and again:
    every Save is refused, no move fails, the seq is the number of events."""
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    staff = admin()
    url = f"/admin/games/game/{game.pk}/change/"
    posted = change_form(game)
    stop = threading.Event()
    saves: list[int] = []

    def press_save() -> None:
        try:
            while not stop.is_set():
                saves.append(staff.post(url, posted).status_code)
        finally:
            connection.close()

    presser = threading.Thread(target=press_save)
    presser.start()
    try:
        game = play(game, until=lambda s: s.events >= 30)
    finally:
        stop.set()
        presser.join(30)
    stored = Game.objects.get(pk=game.pk)
    assert saves and set(saves) == {403}
    assert stored.seq == Event.objects.filter(game=game).count() >= 30
    assert game_problems(stored) == []


@pytest.mark.django_db
def test_a_stored_game_is_written_only_by_field_and_in_a_transaction():
    game = start_game([make_user("ann"), make_user("bob")])
    with pytest.raises(UnguardedGameWrite, match="field by field"):
        game.save()
    with transaction.atomic():
        with pytest.raises(UnguardedGameWrite, match="field by field"):
            game.save()
        game.days_per_move = 6
        game.save(update_fields=["days_per_move"])  # a locked server change's write
    assert Game.objects.get(pk=game.pk).days_per_move == 6


@pytest.mark.django_db(transaction=True)
def test_a_stored_game_is_not_written_outside_a_transaction():
    game = start_game([make_user("ann"), make_user("bob")])
    with pytest.raises(UnguardedGameWrite, match="transaction"):
        game.save(update_fields=["days_per_move"])


def _writes_to_games(tree: ast.AST) -> list[int]:
    """The lines that save a game (``<...game>.save(...)``) or update game rows
    through the ORM (``Game.objects...update(...)``)."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        receiver = node.func.value
        name = receiver.attr if isinstance(receiver, ast.Attribute) else \
            getattr(receiver, "id", "")
        if node.func.attr == "save" and "game" in name.lower():
            found.append(node.lineno)
        if node.func.attr in ("update", "bulk_update") and "Game.objects" in ast.unparse(node) \
                and not _counts_up(node):
            found.append(node.lineno)
    return found


def _counts_up(call: ast.Call) -> bool:
    """Whether an update only counts columns up in the database (``n=F("n") + 1``):
    it writes back nothing it read, so no move or start is undone by it."""
    return bool(call.keywords) and not call.args and all(
        isinstance(k.value, ast.BinOp) and isinstance(k.value.op, ast.Add)
        and ast.unparse(k.value.left) == f"F({k.arg!r})"
        for k in call.keywords)


def test_only_the_store_and_the_locked_services_write_the_game_row():
    """The game row is written by games.store's guarded batch, by games.services
    (each holding the row locked) and by the admin's locked edit of an open game:
    nowhere else."""
    allowed = {"games/services/lobby.py", "games/services/moves.py",
               "games/services/records.py", "games/admin.py", "games/store.py"}
    apps = ["games", "accounts", "live", "web", "bots", "notifications", "ratings", "chat",
            "notes", "marram_site", "ui"]
    writers = {}
    for app in apps:
        for path in (ROOT / app).rglob("*.py"):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative or relative in allowed:
                continue
            lines = _writes_to_games(ast.parse(path.read_text()))
            if lines:
                writers[relative] = lines
    assert writers == {}
    # and the check does see a write where there is one, and no count going up
    assert _writes_to_games(ast.parse("game.save()\nGame.objects.filter(pk=1).update(seq=0)"))
    assert _writes_to_games(ast.parse('Game.objects.update(seq=F("panels_seq") + 1)'))
    assert not _writes_to_games(ast.parse('Game.objects.update(panels_seq=F("panels_seq") + 1)'))
