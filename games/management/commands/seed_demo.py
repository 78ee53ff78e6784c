"""Demo data for `./dev run`: ann and bob (password "marram-demo") in a running
two-player Classic game a few moves in. Running it again changes nothing."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from engine import registry
from games import services
from games.models import Game
from games.selectors import game_state_get

PASSWORD = "marram-demo"
MOVES = 4


class Command(BaseCommand):
    help = __doc__

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        with transaction.atomic():
            users = {}
            for name in ("ann", "bob"):
                user, created = User.objects.get_or_create(
                    username=name, defaults={"email": f"{name}@example.org"}
                )
                if created:
                    user.set_password(PASSWORD)
                    user.save()
                users[name] = user
            ann, bob = users["ann"], users["bob"]
            rules = registry.default()
            if Game.objects.filter(created_by=ann, game=rules.key, seats__user=bob).exists():
                self.stdout.write("demo: ann and bob already have their game")
                return
            game = services.game_create(user=ann, game=rules.key, seats=2)
            services.game_join(game=game, user=bob)
            for _ in range(MOVES):
                game.refresh_from_db()
                state = game_state_get(game)
                wait = rules.awaiting(state)
                if not wait.tasks:
                    break
                seat = wait.tasks[0].seat
                action = rules.legal_actions(state, seat)[0]
                mover = game.seats.get(index=seat).user
                assert mover is not None  # ann's or bob's seat
                services.action_submit(game=game, user=mover, action=action,
                                       expected_seq=game.seq)
        self.stdout.write(f"demo: game {game.pk} for ann and bob (password {PASSWORD!r})")
