"""Glicko-2 against the worked example of Glickman's paper ("Example of the Glicko-2 system")."""
from __future__ import annotations

import pytest

from quadrille.ratings.glicko2 import Rating, rate


def test_the_papers_example():
    player = Rating(1500, 200, 0.06)
    results = [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)]
    after = rate(player, results, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_win_raises_a_loss_lowers_and_a_period_without_games_widens_the_deviation():
    assert rate(Rating(), [(Rating(), 1)]).rating > 1500 > rate(Rating(), [(Rating(), 0)]).rating
    assert rate(Rating(), [(Rating(), 0.5)]).rating == pytest.approx(1500)
    assert rate(Rating(1500, 100, 0.06), []).rd > 100
    assert rate(Rating(), []).rd == 350  # never beyond a newcomer's
