"""Hostile input, sent to every endpoint: the API's, the page forms and the mail
webhook. Wrong types, NUL characters, huge strings, deep nesting, what is not
JSON or not a form, the wrong content type, unknown ids and %00 in the path each
get a 4xx that says what is wrong (the API's {"code", "message"}, or a page that
says why), and the database is exactly as it was: events, games, seats,
invitations, outbox, inbound mail, accounts and mail settings.

Each endpoint is first shown to accept a good request in the same position
(``test_a_good_request_is_accepted_and_changes_the_database``), so that what
refuses the hostile ones is the input and nothing else."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token

from games import services
from games.models import Event, Game, Invitation, Seat
from notifications import signing
from notifications.models import InboundMail, MailSettings, Notification, Webhook
from tests.service.conftest import custom_game, make_user, signed_in, tile

GRASS = tile("GGGGGGGG")
TILES = {"S0": GRASS, **{f"G{i}": GRASS for i in range(1, 13)}}
DECK = [f"G{i}" for i in range(1, 13)]
PLACE = {"type": "place", "tile": "G1", "face": "front", "at": [1, 0], "rotation": 0}
PASSWORD = "dune-grass-42"
SECRET = "webhook-secret"


@dataclass
class World:
    """ann (staff) moves first in a running game with bob; cyd's open game has a
    free seat and a join link; ann's own open game waits for others."""

    ann: Any
    running: Game
    theirs: Game
    mine: Game
    link: str
    mail: Notification
    unsubscribe: str


@pytest.fixture
def world(db, settings) -> World:
    settings.MARRAM_THROTTLE_RATES = {"signup": None, "token": None, "invite": None}
    settings.MAIL_WEBHOOK_SECRET = SECRET
    settings.MARRAM_MAIL_INBOX_PAGE = True
    ann, bob, cyd = make_user("ann", staff=True), make_user("bob"), make_user("cyd")
    running = custom_game([ann, bob], TILES, DECK)
    theirs = services.game_create(user=cyd, variant="classic", length="long", seats=3)
    link = services.game_invite(game=theirs, user=cyd, emails=[], url_for=str)[0]
    mine = services.game_create(user=ann, variant="pitchfork", length="long", seats=2)
    Token.objects.create(user=ann)
    mail = Notification.objects.create(
        user=ann, game=running, seat=0, seq=0, kind="your_turn", dedup_key="turn-0",
        message_id="<turn-0@example.org>", subject="Your move", body_text="Your move.",
        reply_to=signing.reply_address(running.pk, 0, 0), status="sent")
    return World(ann, running, theirs, mine, link.invitation.token, mail,
                 signing.unsubscribe_token(ann.pk))


def snapshot() -> tuple:
    """What no refused request may change."""
    return (
        list(Event.objects.order_by("pk").values_list("pk", "game_id", "seq", "payload")),
        list(Game.objects.order_by("pk").values_list("pk", "seq", "status", "projection")),
        list(Seat.objects.order_by("pk").values_list("pk", "user_id", "index", "resigned")),
        list(Invitation.objects.order_by("pk").values_list("pk", "accepted_by_id")),
        list(Notification.objects.order_by("pk").values_list("pk", "status")),
        InboundMail.objects.count(),
        list(get_user_model().objects.order_by("pk").values_list("pk", "username")),
        Token.objects.count(),
        list(MailSettings.objects.order_by("pk").values_list("pk", "policy")),
        list(Webhook.objects.order_by("pk").values_list("pk", "url", "format", "enabled")),
    )


# ---------------------------------------------------------------- the endpoints


@dataclass
class Endpoint:
    name: str
    method: str
    path: Callable[[World], str]
    good: dict[str, Any] | None = None
    """A body accepted in the world's position (None: not tried)."""
    kind: str = "api"
    """api (JSON, a token), page (a form, signed in), anonymous page, webhook."""
    query: dict[str, list[str]] = field(default_factory=dict)
    """GET: hostile values for each query parameter the endpoint reads."""
    unknown: Callable[[World], str] | None = None
    """The same endpoint for a game or invitation that does not exist."""
    wrong: dict[str, Any] | None = None
    """A page form's fields with values of the wrong kind."""

    def __str__(self) -> str:
        return self.name


def _game(attr: str, tail: str, prefix: str = "/api") -> Callable[[World], str]:
    return lambda w: f"{prefix}/games/{getattr(w, attr).pk}/{tail}"


def _unknown_game(tail: str, prefix: str = "/api") -> Callable[[World], str]:
    return lambda w: f"{prefix}/games/999999/{tail}"


NESTED = "[" * 600 + "]" * 600
DEEP_ACTION = json.dumps({**PLACE, "claim": json.loads("[" * 40 + "]" * 40)})
ACTION_VALUES = ["%00", json.dumps({"type": "\u0000"}), DEEP_ACTION, NESTED,
                 "[" * 1200 + "]" * 1200, "x" * 5000, "not json", "[]", "null",
                 json.dumps({"type": ["place"]}), json.dumps({**PLACE, "junk": 1}),
                 json.dumps({**PLACE, "tile": "T" * 10_000})]

API = [
    Endpoint("signup", "POST", lambda w: "/api/auth/signup/", kind="anonymous api",
             good={"username": "zed", "email": "zed@example.org", "password": PASSWORD}),
    Endpoint("token", "POST", lambda w: "/api/auth/token/", kind="anonymous api",
             good={"username": "ann", "password": PASSWORD}),
    Endpoint("create", "POST", lambda w: "/api/games/",
             good={"variant": "classic", "length": "long", "seats": 2}),
    Endpoint("import", "POST", lambda w: "/api/games/import/"),
    Endpoint("join", "POST", _game("theirs", "join/"), good={},
             unknown=_unknown_game("join/")),
    Endpoint("join by link", "POST", _game("theirs", "join/"),
             good={"token": "placeholder"}),
    Endpoint("leave", "POST", _game("mine", "leave/"), good={},
             unknown=_unknown_game("leave/")),
    Endpoint("resign", "POST", _game("running", "resign/"), good={},
             unknown=_unknown_game("resign/")),
    Endpoint("invite", "POST", _game("mine", "invite/"), good={"emails": ["zed@example.org"]},
             unknown=_unknown_game("invite/")),
    Endpoint("actions", "POST", _game("running", "actions/"),
             good={"seq": 0, "action": PLACE, "idempotency_key": "k1"},
             unknown=_unknown_game("actions/")),
    Endpoint("claims", "POST", _game("running", "claims/"), good={"action": PLACE},
             unknown=_unknown_game("claims/")),
    Endpoint("accept", "POST", lambda w: f"/api/invitations/{w.link}/", good={},
             unknown=lambda w: "/api/invitations/no-such-token/"),
    Endpoint("webhook", "POST", lambda w: "/mail/inbound/", kind="webhook",
             good={"recipient": "nobody@example.org", "sender": "ann@example.org",
                   "message_id": "<m1@example.org>", "text": "pass"}),
    # reads: hostile values in the query parameters each one reads
    Endpoint("list", "GET", lambda w: "/api/games/",
             query={"list": ["%00", "x" * 5000, "[]"], "page": ["%00", "0", "-1", "9" * 30],
                    "junk": ["1"]}),
    Endpoint("game", "GET", _game("running", ""), unknown=_unknown_game("")),
    Endpoint("claims read", "GET", _game("running", "claims/"),
             query={"action": ACTION_VALUES}, unknown=_unknown_game("claims/")),
    Endpoint("events", "GET", _game("running", "events/"),
             query={"since": ["%00", "abc", "9" * 5000, "[]", "1e400", "0x10"]},
             unknown=_unknown_game("events/")),
    Endpoint("record", "GET", _game("running", "record/"), unknown=_unknown_game("record/")),
    Endpoint("invitation", "GET", lambda w: f"/api/invitations/{w.link}/",
             unknown=lambda w: "/api/invitations/no-such-token/"),
]

PAGES = [
    Endpoint("page signup", "POST", lambda w: "/accounts/signup/", kind="anonymous page",
             good={"username": "zed", "email": "zed@example.org", "password1": PASSWORD,
                   "password2": PASSWORD},
             wrong={"username": "a b", "email": "no", "password1": "1", "password2": "2"}),
    Endpoint("page login", "POST", lambda w: "/accounts/login/", kind="anonymous page",
             good={"username": "ann", "password": PASSWORD},
             wrong={"username": ["ann", "bob"], "password": "wrong"}),
    Endpoint("api login", "POST", lambda w: "/api/auth/login/", kind="anonymous page",
             good={"username": "ann", "password": PASSWORD},
             wrong={"username": "ann", "password": ""}),
    Endpoint("page logout", "POST", lambda w: "/accounts/logout/", kind="page", good={}),
    Endpoint("page lobby", "POST", lambda w: "/lobby/", kind="page",
             good={"variant": "classic", "length": "long", "seats": "2"},
             wrong={"variant": "chess", "length": "1", "seats": "two", "days_per_move": "x"}),
    Endpoint("page join", "POST", _game("theirs", "join/", ""), kind="page", good={},
             unknown=_unknown_game("join/", "")),
    Endpoint("page leave", "POST", _game("mine", "leave/", ""), kind="page", good={},
             unknown=_unknown_game("leave/", "")),
    Endpoint("page invite", "POST", _game("mine", "invite/", ""), kind="page",
             good={"emails": "zed@example.org"}, wrong={"emails": "zed@, @example"},
             unknown=_unknown_game("invite/", "")),
    Endpoint("page resign", "POST", _game("running", "resign/", ""), kind="page", good={},
             unknown=_unknown_game("resign/", "")),
    Endpoint("page accept", "POST", lambda w: f"/invitations/{w.link}/", kind="page", good={},
             unknown=lambda w: "/invitations/no-such-token/"),
    Endpoint("page mail settings", "POST", lambda w: "/settings/notifications/", kind="page",
             good={"action": "policy", "policy": "digest"},
             wrong={"action": "vacation_start", "days": "many"}),
    Endpoint("page webhook", "POST", lambda w: "/settings/notifications/", kind="page",
             good={"action": "webhook_add", "url": "https://example.org/hook", "format": "json"},
             wrong={"action": "webhook_add", "url": "http://127.0.0.1/", "format": "xml"}),
    Endpoint("page unsubscribe", "POST", lambda w: f"/notifications/unsubscribe/{w.unsubscribe}/",
             kind="anonymous page", good={"List-Unsubscribe": "One-Click"},
             wrong={"List-Unsubscribe": "Yes"},
             unknown=lambda w: "/notifications/unsubscribe/not-a-token/"),
    Endpoint("page mail reply", "POST", lambda w: f"/mail/{w.mail.pk}/reply/", kind="page",
             good={"to": "nobody@example.org", "text": "hello"},
             wrong={"to": "", "text": ""}, unknown=lambda w: "/mail/999999/reply/"),
]


def client_for(kind: str, world: World) -> Client:
    """A client for an endpoint of this kind: ann's session (and her token for the
    API), nobody's, or the mail provider's."""
    client = Client(raise_request_exception=False)
    if kind in ("api", "page"):
        client.force_login(world.ann)
    if kind == "api":
        client.defaults["HTTP_AUTHORIZATION"] = f"Token {Token.objects.get(user=world.ann).key}"
    if kind == "webhook":
        client.defaults["HTTP_X_MARRAM_WEBHOOK_SECRET"] = SECRET
    return client


# ---------------------------------------------------------------- the hostile input


def json_bodies(good: dict[str, Any] | None) -> list[tuple[str, bytes, str]]:
    """(what, body, content type) for an endpoint that reads JSON."""
    good = good if good is not None else {"format": "marram-game-record"}
    first = next(iter(good), "x")
    as_json = "application/json"

    def with_first(value: Any) -> bytes:
        return json.dumps({**good, first: value}).encode()

    def with_first_raw(text: str) -> bytes:  # JSON too deep for Python's own json
        return json.dumps({**good, first: "@"}).replace('"@"', text).encode()

    bodies = [
        ("null", b"null", as_json),
        ("an array", b"[]", as_json),
        ("a string", b'"pass"', as_json),
        ("a number", b"12", as_json),
        ("a list where a field goes", with_first([["x"]]), as_json),
        ("an object where a field goes", with_first({"type": ["place"]}), as_json),
        ("a number where a field goes", with_first(12.5), as_json),
        ("an unknown field", json.dumps({**good, "junk": 1}).encode(), as_json),
        ("a NUL character", with_first("a\u0000b"), as_json),
        ("a NUL character in a key", json.dumps({**good, "a\u0000": 1}).encode(), as_json),
        ("a raw NUL byte", b'{"x": "\x00"}', as_json),
        ("a huge string", with_first("x" * 200_000), as_json),
        ("a body over the limit", json.dumps({"x": "x" * 300_000}).encode(), as_json),
        ("1,200 nested arrays", with_first_raw("[" * 1200 + "]" * 1200), as_json),
        ("100,000 nested arrays", b"[" * 100_000 + b"]" * 100_000, as_json),
        ("deep objects", with_first_raw('{"a":' * 40 + "1" + "}" * 40), as_json),
        ("not JSON", b"not json", as_json),
        ("JSON cut short", b'{"seq": 0, "action": {', as_json),
        ("not UTF-8", b'"\xff\xfe"', as_json),
        ("a lone surrogate", b'"\\ud800"', as_json),
        ("a number too large", b'{"seq": 1e400}', as_json),
        ("a form", b"seq=0&action=pass", "application/x-www-form-urlencoded"),
        ("multipart", b"--b\r\nContent-Disposition: form-data; name=\"seq\"\r\n\r\n0\r\n--b--",
         "multipart/form-data; boundary=b"),
        ("plain text", json.dumps(good).encode(), "text/plain"),
        ("XML", b"<seq>0</seq>", "application/xml"),
    ]
    if good:  # an endpoint that takes fields: each one of the wrong type
        bodies += [(f"{name} as a list", json.dumps({**good, name: [None]}).encode(), as_json)
                   for name in good]
        bodies += [(f"{name} as a bool", json.dumps({**good, name: True}).encode(), as_json)
                   for name in good]
    return bodies


def form_bodies(endpoint: Endpoint) -> list[tuple[str, bytes | dict[str, Any], str]]:
    """(what, body, content type) for a page's form."""
    good = endpoint.good or {}
    first = next(iter(good), "x")
    form = "application/x-www-form-urlencoded"
    bodies: list[tuple[str, bytes | dict[str, Any], str]] = [
        ("JSON", json.dumps(good).encode(), "application/json"),
        ("plain text", b"username=ann", "text/plain"),
        ("a NUL character", {**good, first: "a\x00b"}, form),
        ("a NUL character in a name", {**good, "a\x00": "1"}, form),
        ("a huge value", {**good, first: "x" * 30_000}, form),
        ("a body over the limit", {first: "x" * 300_000}, form),
        ("deep nesting", {first: "[" * 1200}, form),
        ("an unknown field", {**good, "junk": "1"}, form),
        ("bytes that are no form", b"\xff\xfe=\x00&&==", form),
        ("a file", {**good, "upload": _File()}, "multipart"),
    ]
    if endpoint.wrong is not None:
        bodies.append(("values of the wrong kind", endpoint.wrong, form))
    return bodies


class _File:
    """A file part in a multipart body."""


def send(client: Client, method: str, path: str, body: Any = None,
         content_type: str = "application/json"):
    if method == "GET":
        return client.generic("GET", path)
    if content_type == "multipart":
        import io

        data = {k: (io.BytesIO(b"data") if isinstance(v, _File) else v) for k, v in body.items()}
        return client.post(path, data)
    if isinstance(body, dict):
        from urllib.parse import urlencode

        body = urlencode(body, doseq=True).encode()
    return client.generic(method, path, body or b"", content_type=content_type)


# ---------------------------------------------------------------- the checks

PAGE_REASONS = ('id="refused-message"', 'class="error-text"', 'class="form-errors"',
                "message-error", "The requested resource was not found",
                "unsubscribe link is not valid", "alert-danger", "text-error")


def refusal_problem(response, api: bool) -> str | None:
    """Why the answer is not a clear refusal, or None."""
    if not 400 <= response.status_code < 500:
        return f"status {response.status_code}"
    if api:
        try:
            data = json.loads(response.content)
        except ValueError:
            return "not JSON: " + response.content[:120].decode(errors="replace")
        if not (isinstance(data, dict) and isinstance(data.get("code"), str)
                and isinstance(data.get("message"), str) and data["message"]):
            return f"no code and message: {data!r}"[:200]
        if len(data["message"]) > 500:
            return f"a message of {len(data['message'])} characters"
        return None
    page = response.content.decode(errors="replace")
    if not any(reason in page for reason in PAGE_REASONS):
        return "a page that does not say why: " + page[:200]
    return None


def unknown_ids(endpoint: Endpoint, world: World) -> list[tuple[str, str]]:
    """(what, path): an unknown id, and %00 in the path."""
    paths = []
    if endpoint.unknown is not None:
        paths.append(("an unknown id", endpoint.unknown(world)))
    real = endpoint.path(world)
    for ident in (str(world.running.pk), str(world.theirs.pk), str(world.mine.pk),
                  world.link, world.unsubscribe, str(world.mail.pk)):
        if f"/{ident}/" in real:
            paths.append(("%00 in the path", real.replace(f"/{ident}/", "/%00/")))
            paths.append(("%00 inside an id", real.replace(f"/{ident}/", f"/{ident}%00/")))
            break
    return paths


# A mail provider's post may carry more fields than the webhook reads, a long
# mail, and whatever content type the provider sends: the webhook reads the body
# as JSON whatever it says it is.
WEBHOOK_TAKES = ("an unknown field", "a huge string", "plain text")


def hostile_requests(endpoint: Endpoint, world: World) -> list[tuple[str, str, Any, str]]:
    """(what, path, body, content type) for every hostile request to the endpoint."""
    path = endpoint.path(world)
    good = dict(endpoint.good or {})
    if endpoint.name == "join by link":
        good["token"] = world.link
    requests: list[tuple[str, str, Any, str]] = []
    if endpoint.method == "GET":
        for name, values in endpoint.query.items():
            requests += [(f"?{name}={value[:30]}", f"{path}?{name}={value}", None, "")
                         for value in values]
    elif endpoint.kind.endswith("page"):
        requests += [(what, path, body, kind) for what, body, kind in form_bodies(endpoint)]
    else:
        requests += [(what, path, body, kind) for what, body, kind in json_bodies(good)
                     if not (endpoint.kind == "webhook" and what in WEBHOOK_TAKES)]
    for what, bad_path in unknown_ids(endpoint, world):
        body = b"" if endpoint.method == "GET" or endpoint.kind.endswith("page") else (
            json.dumps(good).encode())
        kind = "application/x-www-form-urlencoded" if endpoint.kind.endswith("page") else (
            "application/json")
        requests.append((what, bad_path, good if endpoint.kind.endswith("page") else body,
                         kind))
    return requests


@pytest.mark.parametrize("endpoint", API + PAGES, ids=str)
def test_hostile_input_is_refused_clearly_and_changes_nothing(world, endpoint):
    api = not endpoint.kind.endswith("page")
    before = snapshot()
    problems = []
    for what, path, body, kind in hostile_requests(endpoint, world):
        response = send(client_for(endpoint.kind, world), endpoint.method, path, body, kind)
        problem = refusal_problem(response, api)
        after = snapshot()
        if after != before:
            problem = f"{problem or 'refused'}, and the database changed"
            before = after  # report each request that changes it, not all that follow
        if problem:
            problems.append(f"{what}: {problem}")
    assert not problems, f"{endpoint}:\n" + "\n".join(problems)


@pytest.mark.parametrize("endpoint", [e for e in API + PAGES if e.good is not None], ids=str)
def test_a_good_request_is_accepted_and_changes_the_database(world, endpoint):
    # the position of the hostile test, where the right request goes through
    good = dict(endpoint.good)
    if endpoint.name == "join by link":
        good["token"] = world.link
    page = endpoint.kind.endswith("page")
    body = good if page else json.dumps(good).encode()
    kind = "application/x-www-form-urlencoded" if page else "application/json"
    before = snapshot()
    response = send(client_for(endpoint.kind, world), endpoint.method, endpoint.path(world), body,
                    kind)
    assert response.status_code in (200, 201, 302), response.content[:300]
    if endpoint.name not in ("claims", "page login", "api login", "page logout",
                             "token", "webhook", "page mail reply"):  # these only read
        assert snapshot() != before


# ---------------------------------------------------------------- the cases found


def api_client(world: World) -> Client:
    return client_for("api", world)


def answer(response) -> dict[str, Any]:
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    return json.loads(response.content)


@pytest.mark.parametrize(("kind", "shown"), [(["place"], "['place']"), ({"a": 1}, "{'a': 1}")])
def test_an_action_type_that_is_a_list_or_an_object_is_a_400(world, kind, shown):
    before = snapshot()
    response = api_client(world).post(f"/api/games/{world.running.pk}/actions/",
                                      {"seq": 0, "action": {**PLACE, "type": kind}},
                                      content_type="application/json")
    data = answer(response)
    assert response.status_code == 400
    assert (data["code"], data["field"]) == ("not_a_player_action", "action.type")
    assert shown in data["message"]
    assert snapshot() == before


def test_a_nul_character_in_a_claim_is_a_400(world):
    before = snapshot()
    response = api_client(world).post(
        f"/api/games/{world.running.pk}/actions/",
        {"seq": 0, "action": {**PLACE, "claim": {"arc": 0, "note": "a\u0000b"}}},
        content_type="application/json")
    assert response.status_code == 400
    assert answer(response)["code"] == "nul_character"
    assert "NUL" in answer(response)["message"]
    assert snapshot() == before


def test_a_nul_character_in_an_invitation_path_is_a_404(world):
    api = api_client(world).get("/api/invitations/%00/")
    assert api.status_code == 404 and answer(api)["code"] == "not_found"
    page = client_for("page", world).get("/invitations/%00/")
    assert page.status_code == 404


def test_a_nul_character_in_a_token_is_a_401(world):
    client = Client(raise_request_exception=False)
    response = client.get("/api/games/", HTTP_AUTHORIZATION="Token abc\x00def")
    assert response.status_code == 401 and answer(response)["message"]


def test_json_in_the_query_string_is_bounded_in_size_and_depth(world):
    client = api_client(world)
    url = f"/api/games/{world.running.pk}/claims/"
    brackets = client.get(url, {"action": "[" * 1200 + "]" * 1200})
    assert brackets.status_code == 400
    assert answer(brackets)["code"] == "too_large" and "2048" in answer(brackets)["message"]
    deep = client.get(url, {"action": DEEP_ACTION})
    assert len(DEEP_ACTION) < 2048 and deep.status_code == 400
    assert answer(deep)["code"] == "too_deep" and "32" in answer(deep)["message"]
    # the same move without the nesting is answered
    ok = client.get(url, {"action": json.dumps(PLACE)})
    assert ok.status_code == 200 and answer(ok)["claims"] == [{"arc": 0}]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (json.dumps({"recipient": "a@example.org", "sender": "b@example.org",
                     "message_id": "<c\u0000@example.org>", "text": "pass"}), 400,
         "nul_character"),
        ("[" * 1200 + "]" * 1200, 400, "too_deep"),
        ('{"text": ' + "[" * 100_000 + "]" * 100_000 + "}", 400, "too_deep"),
        ('{"text": "' + "x" * 300_000 + '"}', 413, "too_large"),
        ("not json", 400, "malformed_json"),
    ],
    ids=["nul", "deep", "deeper", "huge", "not-json"],
)
def test_the_mail_webhook_refuses_what_is_not_bounded_json(world, body, status, code):
    before = snapshot()
    client = client_for("webhook", world)
    response = client.post("/mail/inbound/", body, content_type="application/json")
    assert (response.status_code, answer(response)["code"]) == (status, code)
    assert snapshot() == before


def test_a_null_body_is_refused_not_read_as_no_body(world):
    before = snapshot()
    response = api_client(world).post(f"/api/games/{world.running.pk}/resign/", "null",
                                      content_type="application/json")
    assert response.status_code == 400 and "null" in answer(response)["message"]
    assert snapshot() == before


def test_the_token_endpoint_reads_json_only(world):
    response = Client().post("/api/auth/token/", {"username": "ann", "password": PASSWORD})
    assert response.status_code == 415 and answer(response)["message"]
    good = Client().post("/api/auth/token/", {"username": "ann", "password": PASSWORD},
                         content_type="application/json")
    assert good.status_code == 200 and answer(good)["token"]


# ---------------------------------------------------------------- the event log


def test_a_claim_carrying_more_than_the_rules_define_is_refused(world):
    before = snapshot()
    junk = {**PLACE, "claim": {"arc": 0, "junk": "x" * 250_000}}
    response = api_client(world).post(f"/api/games/{world.running.pk}/actions/",
                                      {"seq": 0, "action": junk},
                                      content_type="application/json")
    data = answer(response)
    assert response.status_code == 400
    assert (data["code"], data["field"]) == ("unknown_field", "action.claim.junk")
    assert len(data["message"]) < 200
    assert snapshot() == before


def test_what_is_stored_and_served_is_exactly_the_rules_event(world):
    client = api_client(world)
    move = {"type": "place", "tile": "G1", "face": "front", "at": [1, 0], "rotation": 0,
            "claim": {"arc": 0}}
    response = client.post(f"/api/games/{world.running.pk}/actions/",
                           {"seq": 0, "action": move}, content_type="application/json")
    assert response.status_code == 201, response.content
    stored = Event.objects.get(game=world.running, seq=0).payload
    assert stored == {**move, "player": 0}
    events = answer(client.get(f"/api/games/{world.running.pk}/events/"))
    assert events["seq"] == 1 and [e["event"] for e in events["events"]] == [stored]
    # no claim at all is stored as the rules write it: "claim": null
    second = {"type": "place", "tile": "G2", "face": "front", "at": [2, 0], "rotation": 0}
    response = client.post(f"/api/games/{world.running.pk}/actions/",
                           {"seq": 1, "action": second}, content_type="application/json")
    assert response.status_code == 201, response.content
    assert Event.objects.get(game=world.running, seq=1).payload == {
        **second, "player": 0, "claim": None}


@pytest.mark.parametrize("endpoint", [e for e in API if e.method == "POST"], ids=str)
def test_the_browsable_api_refuses_hostile_input_too(world, endpoint):
    # a browser asking for HTML gets DRF's browsable API, which renders its forms
    # from the request: the same refusals, never a 5xx
    before = snapshot()
    client = client_for(endpoint.kind, world)
    for body, kind in ((b"{", "application/json"), (b"[" * 2000 + b"]" * 2000, "application/json"),
                       (b'{"a": "\\u0000"}', "application/json"), (b"null", "application/json"),
                       (b"a=1", "application/x-www-form-urlencoded")):
        response = client.generic("POST", endpoint.path(world), body, content_type=kind,
                                  HTTP_ACCEPT="text/html")
        assert 400 <= response.status_code < 500, (body[:20], response.status_code)
    assert snapshot() == before


@pytest.mark.django_db
def test_a_form_over_the_body_limit_is_a_413_in_words_a_page_or_a_machine_reads(client,
                                                                                 settings):
    """Django refuses a form's body over DATA_UPLOAD_MAX_MEMORY_SIZE before any
    view: a page is told so on a page of its own, a provider posting to the mail
    webhook in JSON, both 413 (not Django's 400 page)."""
    big = {"note": "x" * (300 * 1024)}
    page = signed_in(make_user("ann")).post("/lobby/", big)
    assert page.status_code == 413 and b"Nothing was changed" in page.content
    settings.MAIL_WEBHOOK_SECRET = "secret-of-the-test"  # Mailgun's form is served
    settings.MAILGUN_WEBHOOK_SIGNING_KEY = "key-of-the-test"
    machine = client.post("/mail/inbound/mailgun/", big, HTTP_AUTHORIZATION="Basic " + (
        base64.b64encode(b"marram:secret-of-the-test").decode()))
    assert machine.status_code == 413
    assert machine.json() == {"code": "too_large",
                              "message": "the request body is over 256 KiB"}
