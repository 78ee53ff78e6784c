"""A laid piece's drawing is kept once made (engine.make_a_snake.view): what a
view shows of a piece, and of a snake's open end, is what drawing it afresh
gives, for every piece, however many pieces were drawn before."""
from __future__ import annotations

import random

from engine.make_a_snake import view
from engine.make_a_snake.pieces import TILES
from engine.make_a_snake.snake import Snake, lay_tail, lay_tile


def drawn_afresh(laid) -> dict:
    return {"tile": laid.tile, "side": laid.side,
            "colour": None if laid.tile == "tail" else laid.colour,
            "parts": [view.part_view(p) for p in laid.parts]}


def end_afresh(snake: Snake) -> list:
    (x, y), heading = snake.open_end()
    return [view._rounded(x), view._rounded(y), heading]


def test_every_piece_is_shown_as_drawn_afresh_past_the_kept_number():
    rng = random.Random(7)
    tiles = sorted(TILES)
    snakes = []
    # more pieces than are kept: the oldest drawings are let go and made again
    while sum(len(s.tiles) for s in snakes) < view.DRAWN_KEPT + 500:
        snake = Snake([])
        for _ in range(rng.randint(1, 30)):
            snake.tiles.append(lay_tile(rng.choice(tiles), rng.choice(["up", "down"]),
                                        *snake.open_end()))
        snake.tail = lay_tail(*snake.open_end())
        snakes.append(snake)
    for _ in range(2):  # the second time, from what is kept where it still is
        for snake in snakes:
            shown = view.snake_view(snake, "red")
            assert shown["tiles"] == [drawn_afresh(t) for t in snake.tiles]
            assert shown["tail"] == drawn_afresh(snake.tail)
            assert shown["open_end"] == end_afresh(snake)

