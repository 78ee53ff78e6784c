"""Signals other apps hang their work on.

``events_appended`` is sent inside the transaction that appends events to a
game, so that whatever a receiver writes (a notification in the outbox) is
committed with the events or not at all. Receivers must not do I/O: they write
rows and leave delivery to tasks that run after the commit.
"""
from django.dispatch import Signal

events_appended = Signal()
"""Sent with ``game`` (locked, already updated), ``events`` (the new Event rows,
saved) and ``state`` (the engine state after them)."""

game_viewed = Signal()
"""Sent when a user loads a game (the API's game state, the game page) with
``game`` (its seats loaded) and ``user`` (possibly anonymous): notifications
holds back "your turn" mail from a player who is looking at the game."""
