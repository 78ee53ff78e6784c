"""The games and notifications apps depend one way: notifications imports games
(its models point at games, its inbound mail plays through games.services), and
games never imports notifications, not even inside a function or by a dotted
name handed to import_module or import_string. Where games needs mail it calls
games.mail's interface, and the settings name the notifications app's side.
So too games (and notifications) and the bots app: bots imports games, and where
games needs computer players it calls games.seating's interface, whose side the
settings name in the bots app; without it a site has seats for people only.
And games.store is the one module that writes SQL by hand."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games.mail import NoMail, game_mail
from games.models import Game
from games.people_only import NoSeatPlayers
from games.seating import seat_players
from tests.service.conftest import body, client_for

ROOT = Path(__file__).resolve().parents[2]
DYNAMIC = {"import_module", "import_string", "__import__"}


def imported(source: str) -> Iterator[tuple[int, str]]:
    """Every module a source file imports, with its line: import statements
    anywhere in it (functions and classes included) and string constants given
    to import_module, import_string or __import__."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module
            yield from ((node.lineno, f"{node.module}.{alias.name}") for alias in node.names)
        elif isinstance(node, ast.Call) and node.args:
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            first = node.args[0]
            if name in DYNAMIC and isinstance(first, ast.Constant) and isinstance(
                    first.value, str):
                yield node.lineno, first.value


def imports_of_app(app: str, forbidden: str) -> list[str]:
    found = []
    for path in sorted((ROOT / app).rglob("*.py")):
        for line, module in imported(path.read_text()):
            if module == forbidden or module.startswith(forbidden + "."):
                found.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    return found


def test_the_games_app_never_imports_the_notifications_app():
    assert imports_of_app("games", "notifications") == []


def test_the_check_sees_imports_inside_functions_and_by_name():
    source = (
        "import os\n"
        "def later():\n"
        "    from notifications import services\n"
        "class Late:\n"
        "    def hook(self):\n"
        "        import notifications.tasks\n"
        "        return import_string('notifications.game_mail.OutboxMail')\n"
        "from games.models import Game\n"
    )
    assert sorted(m for _, m in imported(source) if m.startswith("notifications")) == [
        "notifications", "notifications.game_mail.OutboxMail", "notifications.services",
        "notifications.tasks"]


def test_the_notifications_app_is_where_the_settings_send_the_games_mail():
    assert settings.MARRAM_GAME_MAIL.startswith("notifications.")
    assert type(game_mail()).__module__.startswith("notifications.")


def test_without_the_setting_pointing_there_games_sends_no_mail(settings):
    settings.MARRAM_GAME_MAIL = "games.mail.NoMail"
    assert isinstance(game_mail(), NoMail)


def test_neither_the_games_nor_the_notifications_app_imports_the_bots_app():
    assert imports_of_app("games", "bots") == []
    assert imports_of_app("notifications", "bots") == []


def test_the_games_pages_name_no_page_or_template_of_the_bots_app():
    found = [f"{path.relative_to(ROOT)}: {line.strip()}"
             for path in sorted((ROOT / "games" / "templates").rglob("*.html"))
             for line in path.read_text().splitlines() if "bots:" in line or "bots/" in line]
    assert found == []


def test_the_bots_app_is_where_the_settings_send_the_seats_not_for_people():
    assert settings.MARRAM_SEAT_PLAYERS.startswith("bots.")
    assert type(seat_players()).__module__.startswith("bots.")


@pytest.fixture
def people_only(settings):
    settings.MARRAM_SEAT_PLAYERS = "games.people_only.NoSeatPlayers"
    assert isinstance(seat_players(), NoSeatPlayers)


@pytest.mark.django_db
def test_without_the_bots_app_the_pages_offer_no_computer_players(people_only):
    ann = get_user_model().objects.create_user("ann", "ann@example.com", "pw-ann-123")
    client = Client()
    client.force_login(ann)
    home = client.get("/").content.decode()
    assert "Play against the computer" not in home and "My games" in home
    lobby = client.get("/lobby/").content.decode()
    assert 'name="bots"' not in lobby and 'name="takeover"' not in lobby
    assert 'name="seats"' in lobby
    refused = client.post("/lobby/", {"game": "marram", "seats": "2", "bots": "easy"})
    assert refused.status_code == 400 and not Game.objects.exists()
    made = client.post("/lobby/", {"game": "marram", "seats": "2"})
    assert made.status_code == 302 and Game.objects.get().seats.count() == 1


@pytest.mark.django_db
def test_without_the_bots_app_the_api_refuses_a_computer_player(people_only):
    ann = get_user_model().objects.create_user("ann", "ann@example.com", "pw-ann-123")
    api = client_for(ann)
    refused = api.post("/api/games/", {"game": "marram", "seats": 3, "bots": ["easy"]},
                       format="json")
    assert refused.status_code == 400 and body(refused)["code"] == "no_computer_players"
    refused = api.post("/api/games/", {"game": "marram", "seats": 3, "takeover": "easy"},
                       format="json")
    assert refused.status_code == 400 and body(refused)["field"] == "takeover"
    assert not Game.objects.exists()
    made = api.post("/api/games/", {"game": "marram", "seats": 3}, format="json")
    assert made.status_code == 201 and Game.objects.get().seats.count() == 1


# Where SQL may be written by hand: the store, migrations (triggers), and the
# command that grants a database role its privileges (DDL, PostgreSQL's own).
SQL_ALLOWED = {"games/store.py", "games/management/commands/grant_app_role.py"}
SQL_CALLS = {"execute", "executemany", "cursor", "raw", "extra", "RawSQL"}


def redis_pipelines(tree: ast.AST) -> set[str]:
    """The names bound by ``with <redis client>.pipeline(...) as name``: their
    ``execute`` sends Redis commands, not SQL."""
    return {item.optional_vars.id
            for node in ast.walk(tree) if isinstance(node, ast.With | ast.AsyncWith)
            for item in node.items
            if isinstance(item.context_expr, ast.Call)
            and getattr(item.context_expr.func, "attr", None) == "pipeline"
            and isinstance(item.optional_vars, ast.Name)}


def sql_by_hand(app: str) -> list[str]:
    found = []
    for path in sorted((ROOT / app).rglob("*.py")):
        name = str(path.relative_to(ROOT))
        if name in SQL_ALLOWED or "/migrations/" in name:
            continue
        tree = ast.parse(path.read_text())
        pipelines = redis_pipelines(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                called = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
                on = getattr(getattr(node.func, "value", None), "id", None)
                if called in SQL_CALLS and not (called == "execute" and on in pipelines):
                    found.append(f"{name}:{node.lineno} calls {called}")
    return found


def test_the_store_is_the_only_place_with_sql_written_by_hand():
    assert [f for app in ("games", "notifications", "marram_site", "ui")
            for f in sql_by_hand(app)] == []
