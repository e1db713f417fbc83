"""Glicko-2, written from Mark Glickman's "Example of the Glicko-2 system" (2013), step by step.

Ratings are on the Glicko scale (1500 / 350 / 0.06 for a newcomer); the computation runs on the Glicko-2 scale
(mu, phi) and converts back. `tau` bounds how fast the volatility moves (the paper's example: 0.5; lichess
uses 0.75). Quadrille rates each game as a rating period of its own, as lichess does.
tests/platform/test_ratings.py checks the paper's worked example.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178
DEFAULT_RATING, DEFAULT_RD, DEFAULT_VOLATILITY = 1500.0, 350.0, 0.06
EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi ** 2)


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def rate(player: Rating, results: list[tuple[Rating, float]], tau: float = 0.5) -> Rating:
    """The player's rating after one rating period: `results` are (opponent, score) with score 1, 0.5 or 0."""
    mu, phi, sigma = (player.rating - DEFAULT_RATING) / SCALE, player.rd / SCALE, player.volatility  # step 2
    if not results:  # step 6 alone: the deviation grows
        return Rating(player.rating, min(math.sqrt(phi * phi + sigma * sigma) * SCALE, DEFAULT_RD), sigma)
    games = [((o.rating - DEFAULT_RATING) / SCALE, o.rd / SCALE, score) for o, score in results]
    v = 1 / sum(_g(phi_j) ** 2 * _e(mu, mu_j, phi_j) * (1 - _e(mu, mu_j, phi_j)) for mu_j, phi_j, _ in games)  # 3
    delta = v * sum(_g(phi_j) * (s - _e(mu, mu_j, phi_j)) for mu_j, phi_j, s in games)                        # 4
    a = math.log(sigma * sigma)                                                                               # 5

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2)) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:  # the Illinois algorithm
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)                                                   # 6
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)                                                # 7
    new_mu = mu + new_phi * new_phi * sum(_g(phi_j) * (s - _e(mu, mu_j, phi_j)) for mu_j, phi_j, s in games)
    return Rating(new_mu * SCALE + DEFAULT_RATING, min(new_phi * SCALE, DEFAULT_RD), new_sigma)              # 8
