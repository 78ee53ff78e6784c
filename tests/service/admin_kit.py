"""What the admin's change page of a game posts: for the admin race tests and
benchmarks/race_bench.py."""

from __future__ import annotations

from games.models import Game


def change_form(game: Game) -> dict[str, str]:
    """What the admin's change page of ``game`` posts when Save is pressed with
    nothing changed (the seats' inline as it lists them)."""
    seats = list(game.seats.order_by("pk"))
    data = {
        "seat_count": str(game.seat_count), "days_per_move": str(game.days_per_move or ""),
        "status": game.status, "created_by": str(game.created_by_id),
        "seats-TOTAL_FORMS": str(len(seats)), "seats-INITIAL_FORMS": str(len(seats)),
        "seats-MIN_NUM_FORMS": "0", "seats-MAX_NUM_FORMS": "1000",
        "invitations-TOTAL_FORMS": "0", "invitations-INITIAL_FORMS": "0",
        "invitations-MIN_NUM_FORMS": "0", "invitations-MAX_NUM_FORMS": "1000",
        "_save": "Save",
    }
    for i, seat in enumerate(seats):
        data |= {f"seats-{i}-id": str(seat.pk), f"seats-{i}-game": str(game.pk),
                 f"seats-{i}-index": "" if seat.index is None else str(seat.index),
                 f"seats-{i}-name": seat.name, f"seats-{i}-user": str(seat.user_id)}
    return data
