"""SVG helpers shared by the games' pictures (games/<name>/picture.py): pure text, escaped.

A picture's colours come from classes (`pic-*`, coloured by quadrille.css's custom properties), so a theme
changes them; markupsafe (Jinja's escaping) escapes every text, so a template may print a picture as it is.
"""
from __future__ import annotations

from markupsafe import escape

from games.reasons import Reason, reason_n


def _l(msgid: str, **params) -> Reason:
    """A picture's label (its aria-label): the English text the engines draw with, which remembers its message and
    values (games/reasons.py), so that the server can say it in the reader's language
    (quadrille/picture_labels.py). babel.cfg extracts `_l`/`_ln` into the games catalog."""
    return Reason(msgid, **params)


def _ln(singular: str, plural: str, num: int, **params) -> Reason:
    return reason_n(singular, plural, num, **params)


def svg(width: float, height: float, body: str, label: str, cls: str, style: str = "") -> str:
    """An inline SVG element: its colours come from classes (quadrille.css), so a theme changes them."""
    extra = f' style="{escape(style)}"' if style else ""
    return (f'<svg class="pic {cls}" viewBox="0 0 {_n(width)} {_n(height)}" role="img" aria-label="{escape(label)}"'
            f'{extra} xmlns="http://www.w3.org/2000/svg">{body}</svg>')


def _n(value: float) -> str:
    """A short number for SVG attributes: 3, 3.5, 3.25."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text not in ("-0", "") else "0"


n = _n


def rect(x, y, w, h, cls: str, extra: str = "") -> str:
    return f'<rect class="{cls}" x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}"{extra}/>'


def grid_path(cols: int, rows: int, cell: float, x0: float = 0, y0: float = 0) -> str:
    """One path with every grid line of a cols x rows board."""
    d = [f"M{_n(x0)} {_n(y0 + r * cell)}h{_n(cols * cell)}" for r in range(rows + 1)]
    d += [f"M{_n(x0 + c * cell)} {_n(y0)}v{_n(rows * cell)}" for c in range(cols + 1)]
    return f'<path class="pic-grid" d="{"".join(d)}"/>'
