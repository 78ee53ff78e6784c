"""Reads of the tournaments app."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from tournaments.models import Tournament
from web.errors import Invalid, NotFound

LISTS = ("open", "running", "finished")
LIST_SIZE = 100


def tournament_get(tournament_id: Any) -> Tournament:
    try:
        pk = int(tournament_id)
    except (TypeError, ValueError, OverflowError):
        pk = 0
    found = Tournament.objects.select_related("created_by").filter(pk=pk).first() \
        if 0 < pk < 2**63 else None
    if found is None:
        raise NotFound(f"there is no tournament {str(tournament_id)[:20]}",
                       code="no_such_tournament")
    return found


def tournament_list(which: Any) -> QuerySet[Tournament]:
    """Open (upcoming), running or finished (the cancelled with them) tournaments."""
    if which not in LISTS:
        raise Invalid(f"status is one of {', '.join(LISTS)}", field="status")
    statuses = [which] if which != "finished" else ["finished", "cancelled"]
    order = "start_at" if which == "open" else "-created_at"
    return Tournament.objects.filter(status__in=statuses).order_by(order, "-id")[:LIST_SIZE]
