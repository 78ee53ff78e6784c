"""The rating arithmetic: openskill's Plackett-Luce model (Weng and Lin 2011,
Algorithm 4) with the library's defaults, each player a team of one. Pure: no
Django here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def rate(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """Each player's skill after one game in which they finished at ``ranks`` (1 the
    best; equal ranks tie, as the game's standings give them)."""
    if len(skills) != len(ranks) or len(skills) < 2:
        raise ValueError("a rated game has at least two players, each with a rank")
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(team[0].mu, team[0].sigma) for team in after]
