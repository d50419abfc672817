"""The contracts chart of the statistics pages: an SVG bar chart drawn on the server.

One horizontal bar per denomination (or level): the contracts made, failed and in litige,
end to end, and their counts written after the bar. As in ``chart.py`` (the match chart),
the horizontal positions are percentages of the picture's box, not a ``viewBox``: a viewBox
would scale the labels with the picture, down to a few pixels on a phone; with percentages
the bars stretch to the page while the text keeps the size ``static/stats.css`` gives it
(13 px). Rows are a fixed number of pixels high, so the picture's height is known here. No
``style`` attribute (the CSP forbids them): colours come from the classes. Labels come from
the archive (denominations, levels): escaped all the same.
"""

from __future__ import annotations

from typing import Any, Sequence

from markupsafe import Markup, escape

from .chart import SVG_NS, pct

ROW = 30  # px a bar's row
TOP = 6  # px above the first bar
LABEL_END = 16.0  # percent: the labels' column, right-aligned at this abscissa
BAR_START = 18.0
BAR_END = 72.0  # the longest bar ends here; its counts are written after it
PARTS = (("made", "made"), ("failed", "failed"), ("litiges", "litige"))
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "SA": "SA", "TA": "TA"}


def bar_label(key: str, value: Any) -> str:
    """A row's label: a denomination as its symbol, a level as written, no level as ``classic``."""
    if key == "denomination":
        return SYMBOLS.get(str(value), str(value))
    return "classic" if value is None else str(value)


def contracts_chart(rows: Sequence[dict[str, Any]], key: str, title: str) -> Markup:
    """The chart of ``rows`` (``stats.contract_tables``' ``by_denomination`` or ``by_level``),
    labelled by ``key``; empty markup when there is no contract."""
    if not rows:
        return Markup("")
    widest = max(max(row["taken"] for row in rows), 1)
    height = TOP * 2 + ROW * len(rows)
    parts = [f'<svg xmlns="{SVG_NS}" class="stats-chart" width="100%" height="{height}" role="img" '
             f'aria-labelledby="stats-chart-title">', f'<title id="stats-chart-title">{escape(title)}</title>']
    for index, row in enumerate(rows):
        parts += _bar(row, bar_label(key, row[key]), TOP + index * ROW, widest)
    parts.append("</svg>")
    return Markup("\n".join(parts))


def _bar(row: dict[str, Any], label: str, top: int, widest: int) -> list[str]:
    """One row: the label, a rectangle per part (made, failed, litige) and the counts."""
    middle = top + ROW // 2
    out = [f'<text class="label" x="{pct(LABEL_END)}" y="{middle}" text-anchor="end" '
           f'dominant-baseline="middle">{escape(label)}</text>']
    x = BAR_START
    for name, css in PARTS:
        width = (BAR_END - BAR_START) * row[name] / widest
        if width > 0:
            out.append(f'<rect class="bar {css}" x="{pct(x)}" y="{top + 5}" width="{pct(width)}" '
                       f'height="{ROW - 10}"><title>{row[name]} {css}</title></rect>')
        x += width
    counts = f"{row['made']}/{row['taken']} made"
    out.append(f'<text class="count" x="{pct(x + 1.5)}" y="{middle}" dominant-baseline="middle">{counts}</text>')
    return out
