"""The apps depend one way, in layers (``LAYERS``): an app imports only the apps
of the layers below its own, never one beside or above it, not even inside a
function or by a dotted name handed to import_module or import_string. So the
notifications app imports games (its models point at games, its inbound mail
plays through games.services) and games never imports notifications: where
games needs mail it calls games.mail's interface, and what follows a change to
a game is a follower the settings list (games.after_move), so the settings name
the apps above it. So too the bots app: where games needs computer players it
calls games.seating's interface, whose side the settings name in the bots app;
without it a site has seats for people only. Read as arrows between files, the
imports of the tree make no cycle. games.store is the one module that writes
SQL by hand, and no app's SQL names another app's table."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from celery import Signature
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games.mail import NoMail, game_mail
from games.models import Game
from games.people_only import NoSeatPlayers
from games.seating import seat_players
from marram_site.celery import app as celery_app
from notifications import jobs
from reviews import jobs as review_jobs
from tests.service.conftest import body, client_for

ROOT = Path(__file__).resolve().parents[2]
DYNAMIC = {"import_module", "import_string", "__import__"}
LAYERS = [
    ["engine"],  # the rules: no Django
    ["live"],  # the state cache, JSON Patch changes and the live stream
    ["web"],  # HTTP plumbing: errors, bodies, the API's parsing and answers
    ["accounts"],  # sign-up, sign-in and its limits
    ["games"],  # the platform: games, their events, the API and pages
    ["ui"],  # each game's own UI, which the platform finds by its key
    ["notifications", "notes"],  # mail, webhooks and push; private notes
    ["ratings", "chat"],  # ratings, rematches and invitations; a game's chat
    ["bots"],  # computer players
    ["tournaments", "reviews"],  # tournaments; the review of a finished game
    ["marram_site"],  # the project: settings, URLs, the stream server
]
"""The project's packages from the bottom up: each may import those below it."""
PACKAGES = [app for layer in LAYERS for app in layer]


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


def test_every_app_imports_only_the_layers_below_its_own():
    below: dict[str, set[str]] = {}
    for depth, layer in enumerate(LAYERS):
        for app in layer:
            below[app] = {a for lower in LAYERS[:depth] for a in lower}
    found = []
    for app in PACKAGES:
        for path in sorted((ROOT / app).rglob("*.py")):
            for line, module in imported(path.read_text()):
                other = module.split(".")[0]
                if other in below and other != app and other not in below[app]:
                    found.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert found == []


def test_every_package_of_the_project_has_its_layer():
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")} - {"tests", "tools"}
    assert packages == set(PACKAGES)
    assert {config.name for config in apps.get_app_configs()
            if (ROOT / config.name).is_dir()} <= set(PACKAGES)


def test_a_games_ui_imports_of_the_platform_only_its_side_of_the_contract():
    # ui/<game> describes what the platform hands it: it reads no table itself
    found = [f"{path.relative_to(ROOT)}:{line} imports {module}"
             for path in sorted((ROOT / "ui").rglob("*.py"))
             for line, module in imported(path.read_text())
             if module.split(".")[0] == "games" and module.split(".")[:2] != ["games", "game_ui"]]
    assert found == []


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
    assert [f for app in PACKAGES for f in sql_by_hand(app)] == []


# ---------------------------------------------------------------- no cycle


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Every module of the project's packages (migrations aside) -> the modules
    of the project it imports, wherever in the file (functions, TYPE_CHECKING
    blocks, import_module and import_string by a constant name). ``from p import
    m`` is an arrow to the module p.m where there is one, else to p."""
    files = {module_name(path): path for app in PACKAGES
             for path in (ROOT / app).rglob("*.py") if "migrations" not in path.parts}

    def found(name: str) -> str | None:
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        arrows = set()
        for node in ast.walk(ast.parse(path.read_text())):
            targets = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from the package, up level - 1
                    up = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, *([node.module] if node.module else [])])
                modules = [f"{base}.{alias.name}" for alias in node.names]
                targets = [m for m in modules if m in files] or [base]
            elif isinstance(node, ast.Call) and node.args:
                called = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                first = node.args[0]
                if called in DYNAMIC and isinstance(first, ast.Constant) and isinstance(
                        first.value, str):
                    targets = [first.value]
            arrows |= {t for t in map(found, targets) if t is not None and t != name}
        graph[name] = arrows
    return graph


def a_cycle(graph: dict[str, set[str]]) -> list[str]:
    """A cycle of the graph, as the modules along it ([] for none)."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for after in sorted(graph.get(node, ())):
            if state.get(after) == 1:
                return path[path.index(after):] + [after]
            if after not in state and (cycle := visit(after)):
                return cycle
        state[node] = 2
        path.pop()
        return []

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return []


def test_the_imports_of_the_tree_make_no_cycle():
    graph = import_graph()
    assert len(graph) > 250 and "games.services.append" in graph["games.services.moves"]
    assert a_cycle(graph) == []


def test_the_cycle_check_finds_a_cycle_where_there_is_one():
    assert a_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert a_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) == []


# ---------------------------------------------------------------- tables


SQL_WORDS = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|FROM|JOIN|CREATE|ALTER|DROP|TRIGGER"
                       r"|TABLE|TRUNCATE|GRANT)\b")


def tables_by_app() -> dict[str, set[str]]:
    """The database tables of each of the project's apps (many-to-many ones too)."""
    found: dict[str, set[str]] = {}
    for model in apps.get_models(include_auto_created=True):
        found.setdefault(model._meta.app_config.name, set()).add(model._meta.db_table)
    return found


def foreign_tables_in_sql(app: str, source: str, tables: dict[str, set[str]]) -> list[str]:
    """The other apps' tables that the SQL in this source names: every string (an
    f-string's parts too) with an SQL word in it."""
    theirs = {table: owner for owner, names in tables.items() if owner != app
              for table in names}
    named = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                SQL_WORDS.search(node.value):
            named += [f"{node.lineno}: {table} ({theirs[table]})" for table in sorted(theirs)
                      if re.search(rf"\b{re.escape(table)}\b", node.value)]
    return named


def test_no_apps_sql_names_another_apps_table():
    tables = tables_by_app()
    assert "games_event" in tables["games"] and "notifications_notification" in tables[
        "notifications"]
    found = [f"{path.relative_to(ROOT)}:{line}" for app in PACKAGES
             for path in sorted((ROOT / app).rglob("*.py"))
             for line in foreign_tables_in_sql(app, path.read_text(), tables)]
    assert found == []


def test_the_table_check_sees_a_table_of_another_app_in_sql():
    tables = tables_by_app()
    source = ('"""games_event, in words"""\n'
              'SQL = f"SELECT 1 FROM games_event JOIN {x} ON games_seatx"\n')
    assert foreign_tables_in_sql("notifications", source, tables) == [
        "2: games_event (games)"]
    assert foreign_tables_in_sql("games", source, tables) == []


def test_every_task_the_services_enqueue_by_name_is_a_task():
    registered = set(celery_app.tasks)
    named = [value for value in vars(jobs).values() if isinstance(value, Signature)]
    assert len(named) == 5 and all(signature.name in registered for signature in named)
    assert review_jobs.review_make.name in registered
