"""Exact numbers of the form a + b·√2 (a, b rational): every point of a snake.

Every heading is a multiple of 45 degrees and every length and radius a whole
number of centimetres, so each coordinate of a snake is a sum of whole numbers
times 1 or √2/2: a number of the field Q(√2). Sums, products and quotients
stay in it, and the sign of a + b√2 is decided exactly (compare a² with 2b²),
so a question such as "is this distance less than 3.999?" has an exact answer.
``sign_with_root`` goes one square root further, for the points where a line
crosses a circle or two circles cross.
"""
from __future__ import annotations

import math
from fractions import Fraction

Rational = int | Fraction
SQRT2 = 2 ** 0.5


def _sign(x: Rational) -> int:
    return (x > 0) - (x < 0)


class Q2:
    """a + b√2, exact and immutable."""

    __slots__ = ("a", "b")

    def __init__(self, a: Rational = 0, b: Rational = 0) -> None:
        self.a = a
        self.b = b

    def __add__(self, other: Q2 | Rational) -> Q2:
        if isinstance(other, Q2):
            return Q2(self.a + other.a, self.b + other.b)
        return Q2(self.a + other, self.b)

    __radd__ = __add__

    def __sub__(self, other: Q2 | Rational) -> Q2:
        if isinstance(other, Q2):
            return Q2(self.a - other.a, self.b - other.b)
        return Q2(self.a - other, self.b)

    def __rsub__(self, other: Rational) -> Q2:
        return Q2(other - self.a, -self.b)

    def __neg__(self) -> Q2:
        return Q2(-self.a, -self.b)

    def __mul__(self, other: Q2 | Rational) -> Q2:
        if isinstance(other, Q2):
            return Q2(self.a * other.a + 2 * self.b * other.b,
                      self.a * other.b + self.b * other.a)
        return Q2(self.a * other, self.b * other)

    __rmul__ = __mul__

    def __truediv__(self, other: Q2 | Rational) -> Q2:
        if isinstance(other, Q2):
            # (a + b√2)(c - d√2) / (c² - 2d²); c² - 2d² is 0 only for 0
            norm = other.a * other.a - 2 * other.b * other.b
            if norm == 0:
                raise ZeroDivisionError("division by zero in Q(√2)")
            num = self * Q2(other.a, -other.b)
            return Q2(Fraction(num.a) / norm, Fraction(num.b) / norm)
        return Q2(Fraction(self.a) / other, Fraction(self.b) / other)

    def sign(self) -> int:
        """-1, 0 or 1, exactly."""
        sa, sb = _sign(self.a), _sign(self.b)
        if sb == 0 or sa == sb:
            return sa or sb
        if sa == 0:
            return sb
        # opposite signs: |a| against |b|√2, by their squares
        return sa * _sign(self.a * self.a - 2 * self.b * self.b)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Q2):
            return self.a == other.a and self.b == other.b
        if isinstance(other, int | Fraction):
            return self.b == 0 and self.a == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.a, self.b))

    def __lt__(self, other: Q2 | Rational) -> bool:
        return (self - other).sign() < 0

    def __le__(self, other: Q2 | Rational) -> bool:
        return (self - other).sign() <= 0

    def __gt__(self, other: Q2 | Rational) -> bool:
        return (self - other).sign() > 0

    def __ge__(self, other: Q2 | Rational) -> bool:
        return (self - other).sign() >= 0

    def __float__(self) -> float:
        # what float() of each gives (a correctly rounded quotient of the two
        # integers), without the numbers module's generic path: the overlap
        # filters ask for it many times a move
        a, b = self.a, self.b
        return a.numerator / a.denominator + b.numerator / b.denominator * SQRT2

    def __repr__(self) -> str:
        return f"Q2({self.a}, {self.b})"


ZERO = Q2()
HALF_SQRT2 = Q2(0, Fraction(1, 2))


def sign_with_root(p: Q2, q: Q2, d: Q2) -> int:
    """The sign of p + q·√d, exactly, for d ≥ 0 (another square root on top of √2)."""
    sp, sq = p.sign(), q.sign() if d.sign() > 0 else 0
    if sq == 0 or sp == sq:
        return sp or sq
    if sp == 0:
        return sq
    # opposite signs: |p| against |q|√d, by their squares
    return sp * (p * p - q * q * d).sign()


def round_hundredths(x: Q2) -> int:
    """x·100 rounded to the nearest whole number, exactly. A half-way case never
    occurs for the numbers of a snake (see ``geometry``), so the direction of
    rounding at .5 does not matter; ties would go up."""
    n = round(float(x) * 100)
    while x * 200 < 2 * n - 1:  # x < (n - 1/2) / 100
        n -= 1
    while x * 200 >= 2 * n + 1:  # x ≥ (n + 1/2) / 100
        n += 1
    return n


def round_root_hundredths(square: Q2) -> int:
    """sqrt(square)·100 rounded to the nearest whole number, exactly (square ≥ 0):
    the n with (n - 1/2)/100 ≤ sqrt(square) < (n + 1/2)/100."""
    n = round(math.sqrt(max(float(square), 0.0)) * 100)
    while n > 0 and square * 40000 < (2 * n - 1) ** 2:
        n -= 1
    while square * 40000 >= (2 * n + 1) ** 2:
        n += 1
    return n
