"""A rating history as an SVG line chart, drawn on the server: the points of a
polyline and the labels of its axis, for ratings/chart.html to lay out."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 480, 160, 40, 8, 8, 20


@dataclass(frozen=True)
class Tick:
    y: float
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    points: str
    """"x,y x,y ...": one point a game, the start value first."""
    dots: list[tuple[float, float, str]]
    ticks: list[Tick]
    left: int
    right: int
    bottom: float


def rating_chart(history: Sequence[tuple[datetime, float]]) -> Chart | None:
    """The chart of (when, rating) points, oldest first; None without a game. Games
    are spaced evenly (a correspondence game can take weeks): x is the game's number."""
    if not history:
        return None
    values = [v for _, v in history]
    low, high = math.floor(min(values)), math.ceil(max(values))
    if high - low < 2:
        low, high = low - 1, high + 1
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = inner_w / max(len(values) - 1, 1)

    def y(value: float) -> float:
        return round(TOP + (high - value) / (high - low) * inner_h, 1)

    xy = [(round(LEFT + i * step, 1), y(v)) for i, v in enumerate(values)]
    dots = [(x, yy, f"{when:%Y-%m-%d}: {value:.1f}")
            for (x, yy), (when, value) in zip(xy, history, strict=True)]
    middle = (low + high) / 2
    ticks = [Tick(y(v), f"{v:.0f}" if v == int(v) else f"{v:.1f}") for v in (high, middle, low)]
    return Chart(WIDTH, HEIGHT, " ".join(f"{x},{yy}" for x, yy in xy), dots, ticks,
                 LEFT, WIDTH - RIGHT, TOP + inner_h)
