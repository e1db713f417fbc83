"""A player's rating history as a small inline SVG (drawn on the server: no script, no CDN), with the rating
deviation as a band around the line, and a text alternative for screen readers."""
from __future__ import annotations

from markupsafe import Markup, escape

WIDTH, HEIGHT, PAD = 480, 160, 28


START = {"rating": 1500, "rd": 350}  # every player's rating before their first rated game (Glicko-2's newcomer)


def rating_chart(points: list[dict], title: str) -> Markup:
    """`points`: the ratings after each rated game, oldest first; the chart starts from a newcomer's rating."""
    if not points:
        return Markup("")
    points = [START, *points]
    ratings = [p["rating"] for p in points]
    low = min(p["rating"] - p["rd"] for p in points)
    high = max(p["rating"] + p["rd"] for p in points)
    low, high = (low - 10, high + 10) if high - low < 40 else (low, high)
    count = len(points)

    def x(i: int) -> float:
        return PAD + (WIDTH - 2 * PAD) * (i / (count - 1) if count > 1 else 0.5)

    def y(value: float) -> float:
        return HEIGHT - PAD - (HEIGHT - 2 * PAD) * (value - low) / (high - low)

    line = " ".join(f"{x(i):.1f},{y(r):.1f}" for i, r in enumerate(ratings))
    band = (" ".join(f"{x(i):.1f},{y(p['rating'] + p['rd']):.1f}" for i, p in enumerate(points)) + " "
            + " ".join(f"{x(i):.1f},{y(p['rating'] - p['rd']):.1f}" for i, p in reversed(list(enumerate(points)))))
    dots = "".join(f'<circle cx="{x(i):.1f}" cy="{y(r):.1f}" r="3"><title>{r}</title></circle>'
                   for i, r in enumerate(ratings))
    label = escape(f"{title} rating over {count - 1} rated games: from {ratings[0]} to {ratings[-1]}")
    return Markup(
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{label}">'
        f'<polygon class="rating-band" points="{band}"/>'
        f'<polyline class="rating-line" points="{line}" fill="none"/>{dots}'
        f'<text x="{PAD}" y="{PAD - 10}" class="rating-axis">{round(high)}</text>'
        f'<text x="{PAD}" y="{HEIGHT - 8}" class="rating-axis">{round(low)}</text></svg>')
