"""Signals other apps hang their work on.

``events_appended`` and ``invitations_created`` are sent inside the transaction
that writes what they tell of, so that whatever a receiver writes (a mail in the
notifications outbox) is committed with it or not at all. Receivers must not do
I/O: they write rows and leave delivery to tasks that run after the commit.
"""
from django.dispatch import Signal

events_appended = Signal()
"""Sent with ``game`` (locked, its fields already those after the events),
``events`` (the new Event rows), ``state`` (the engine state after them) and
``writes`` (a games.batch.Batch). The events are stored by ``writes`` right after
the receivers return, together with whatever rows the receivers queue on it, in
one round trip; so a receiver should queue its writes there, and must not look
for the new events in the database."""

game_viewed = Signal()
"""Sent when a user loads a game (the API's game state, the game page) with
``game`` (its seats loaded) and ``user`` (possibly anonymous): notifications
holds back "your turn" mail from a player who is looking at the game."""

invitations_created = Signal()
"""Sent with ``game`` (locked), ``user`` (who invites) and ``invited`` (a list of
games.services.Invited: each new invitation and its join link), inside the
transaction that stores the invitations. notifications puts a mail with the link
in its outbox for each invitation with an address; without it none is sent."""
