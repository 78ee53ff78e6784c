"""Private notes: each player's own note on a game, seen by its writer only (API,
page, admin), plain text escaped on the page, bounded; a bad note changes nothing."""

from __future__ import annotations

import pytest

from notes.models import MAX_LENGTH, Note
from tests.service.conftest import body, client_for, signed_in, start_game

pytestmark = pytest.mark.django_db



def test_a_note_is_seen_by_its_writer_only(users, admin_client):
    ann, bob = users[:2]
    game = start_game([ann, bob])
    url = f"/api/games/{game.pk}/note/"
    secret = "bob hoards <b>zebras</b> & \"spades\"\nwatch the north"
    saved = client_for(ann).put(url, {"text": secret}, format="json")
    assert saved.status_code == 200 and body(saved)["text"] == secret
    assert body(client_for(ann).get(url))["text"] == secret
    assert body(client_for(bob).get(url)) == {"text": "", "updated_at": None}
    mine = signed_in(ann).get(f"/games/{game.pk}/").content.decode()
    assert "bob hoards &lt;b&gt;zebras&lt;/b&gt; &amp; &quot;spades&quot;" in mine
    assert "<b>zebras</b>" not in mine
    theirs = signed_in(bob).get(f"/games/{game.pk}/").content.decode()
    assert 'id="private-note"' in theirs and "zebras" not in theirs
    listed = admin_client.get("/admin/notes/note/").content.decode()
    assert "zebras" not in listed
    assert "zebras" not in admin_client.get(
        f"/admin/notes/note/{Note.objects.get().pk}/change/").content.decode()


def test_the_page_form_keeps_and_deletes_the_note(users):
    ann, bob = users[:2]
    game = start_game([ann, bob])
    response = signed_in(bob).post(f"/games/{game.pk}/note/", {"text": "  try the frog  "})
    assert response.status_code == 302
    assert Note.objects.get(user=bob).text == "try the frog"
    signed_in(bob).post(f"/games/{game.pk}/note/", {"text": ""})
    assert not Note.objects.exists()


def test_bad_notes_are_refused_and_change_nothing(users):
    ann, bob = users[:2]
    game = start_game([ann, bob])
    url = f"/api/games/{game.pk}/note/"
    client_for(ann).put(url, {"text": "kept"}, format="json")
    for data, status in (({"text": "x" * (MAX_LENGTH + 1)}, 400), ({"text": "a\x00b"}, 400),
                         ({"text": 12}, 400), ({"note": "x"}, 400), ({}, 400)):
        answer = client_for(ann).put(url, data, format="json")
        assert answer.status_code == status, (data, answer.content)
        assert Note.objects.get(user=ann).text == "kept"
    assert client_for(ann).put("/api/games/999999/note/", {"text": "x"},
                               format="json").status_code == 404
    assert client_for(ann).get("/api/games/999999/note/").status_code == 404
    page = signed_in(ann).post(f"/games/{game.pk}/note/", {"text": "y" * (MAX_LENGTH + 1)})
    assert page.status_code == 400
    assert signed_in(ann).post("/games/999999/note/", {"text": "x"}).status_code == 404
    assert Note.objects.get(user=ann).text == "kept" and Note.objects.count() == 1
