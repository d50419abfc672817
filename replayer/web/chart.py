"""The score chart of a match: an SVG drawn on the server, so it shows without JavaScript.

The two running totals by deal (from deal 0 at 0-0), the target line, and axes with their
tick labels; the legend (which colour is which side) is the page's, in HTML beside the
picture (``legend``). The markup is built here as text: every value that comes from a
record (event, player names) goes through ``escape``; numbers are formatted here. No
``style`` attribute (the CSP forbids inline styles): colours, strokes, the text's size and
the picture's height come from the classes of ``static/match.css``.

Every position is a percentage of the picture's box, not a point of a ``viewBox``: a
viewBox scales the whole picture, its text included, to the width of the page, and the
11 px labels of a chart drawn 640 wide came out at 6 px on a phone. With percentages the
plot stretches to any width while the text keeps the size the style sheet gives it. A
polyline takes no percentages: the series are drawn in a nested ``<svg>`` whose viewBox
is 100 x 100 (its units are percentages of the box) stretched without keeping its aspect
(``preserveAspectRatio="none"``), their strokes kept from stretching by the style sheet
(``vector-effect: non-scaling-stroke``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from markupsafe import Markup, escape

from notation.values import Team
from replayer.check.scoresheet import ScoreSheet

SVG_NS = "http://www.w3.org/2000/svg"
Y_TICKS = 5  # about this many intervals on the points axis
MAX_X_LABELS = 20  # label every deal up to this many, then every k-th
CROWDED_X_LABELS = 12  # beyond this many deal labels, a phone shows every other one (class "minor")
HEIGHT = 288  # px, the picture's height when no style sheet sets it (match.css does)


@dataclass(frozen=True, slots=True)
class Frame:
    """Where the plot sits in the picture (in percent of its width and height) and what its
    axes span. The left and right insets keep the first and last points whole; the top
    leaves room for the label of the highest grid line, the bottom for the deal numbers."""

    left: float = 2
    right: float = 98
    top: float = 10
    bottom: float = 86
    deals: int = 1
    top_value: int = 1

    def x(self, deal: int) -> float:
        """The abscissa (percent) after ``deal`` deals (0 = the start of the match)."""
        return self.left + deal * (self.right - self.left) / self.deals

    def y(self, points: int) -> float:
        """The ordinate (percent) of ``points``: the baseline is 0 points."""
        return self.bottom - points * (self.bottom - self.top) / self.top_value


def nice_step(raw: float) -> int:
    """The smallest of 1, 2, 2.5, 5 x 10^k (an integer) not below ``raw``."""
    scale = 10 ** max(0, math.floor(math.log10(raw))) if raw > 0 else 1
    for factor in (1, 2, 2.5, 5, 10):
        step = factor * scale
        if step >= raw and step == int(step):
            return int(step)
    return 10 * scale


def frame_for(sheet: ScoreSheet) -> tuple[Frame, int]:
    """The frame that holds the sheet's totals and its target, and the points axis step."""
    highest = max([sheet.target, 1] + [v for team in (Team.NS, Team.EW) for v in sheet.series(team) if v])
    step = nice_step(highest / Y_TICKS)
    return Frame(deals=max(1, len(sheet.rows)), top_value=math.ceil(highest / step) * step), step


def fmt(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros: ``107.64``, ``56``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def pct(value: float) -> str:
    """A position in percent of the picture's box: ``12.5%``."""
    return f"{fmt(value)}%"


def legend(sheet: ScoreSheet) -> list[tuple[str, str]]:
    """The legend beside the chart: (CSS class, label) of each side, ``NS: Anne & Claire``."""
    out: list[tuple[str, str]] = []
    for team in (Team.NS, Team.EW):
        names = sheet.team_names(team)
        out.append((str(team).lower(), str(team) if names == str(team) else f"{team}: {names}"))
    return out


def score_chart(sheet: ScoreSheet, *, title: str | None = None) -> Markup:
    """The chart as an ``<svg>`` element, ready to be placed in a page."""
    frame, step = frame_for(sheet)
    heading = title or f"Running score of {sheet.event or 'the match'}"
    every = x_label_step(frame.deals)
    crowded = frame.deals // every + 1 > CROWDED_X_LABELS
    parts = [f'<svg xmlns="{SVG_NS}" class="score-chart{" crowded" if crowded else ""}" width="100%" '
             f'height="{HEIGHT}" role="img" aria-labelledby="score-chart-title">',
             f'<title id="score-chart-title">{escape(heading)}</title>']
    parts += _axes(frame, step, every)
    parts += _target(frame, sheet.target)
    for team in (Team.NS, Team.EW):
        parts += _series(frame, sheet, team)
    parts.append("</svg>")
    return Markup("\n".join(parts))


def x_label_step(deals: int) -> int:
    """Label every deal, or every k-th one when there are more than ``MAX_X_LABELS``."""
    return max(1, math.ceil(deals / MAX_X_LABELS))


def _axes(frame: Frame, step: int, every: int) -> list[str]:
    out = ['<g class="axes">',
           _line(frame.left, frame.bottom, frame.right, frame.bottom, "axis x-axis"),
           _line(frame.left, frame.bottom, frame.left, frame.top, "axis y-axis")]
    for value in range(0, frame.top_value + 1, step):
        y = frame.y(value)
        if value:
            out.append(_line(frame.left, y, frame.right, y, "grid"))
        # the points sit on their grid line, just right of the axis: no margin is kept for them
        out.append(f'<text class="tick y-tick" x="{pct(frame.left)}" y="{pct(y)}" dx="4" dy="-4">{value}</text>')
    for index, deal in enumerate(range(0, frame.deals + 1, every)):
        minor = " minor" if index % 2 else ""
        out.append(f'<text class="tick x-tick{minor}" x="{pct(frame.x(deal))}" y="{pct(frame.bottom)}" dy="16" '
                   f'text-anchor="middle">{deal}</text>')
    out.append("</g>")
    return out


def _target(frame: Frame, target: int) -> list[str]:
    y = frame.y(target)
    return ['<g class="target">', _line(frame.left, y, frame.right, y, "target-line"),
            f'<text class="target-label" x="{pct(frame.right)}" y="{pct(y)}" dx="-4" dy="-5" '
            f'text-anchor="end">target {target}</text>', "</g>"]


def _series(frame: Frame, sheet: ScoreSheet, team: Team) -> list[str]:
    """The team's line from 0 at deal 0 and one point per counted deal."""
    css = str(team).lower()
    points = [(0, 0)] + [(n, v) for n, v in enumerate(sheet.series(team), 1) if v is not None]
    path = " ".join(f"{fmt(frame.x(n))},{fmt(frame.y(v))}" for n, v in points)
    out = [f'<g class="series {css}">',
           '<svg class="plot" viewBox="0 0 100 100" preserveAspectRatio="none" overflow="visible">',
           f'<polyline class="series-line {css}" fill="none" points="{path}"/>', "</svg>"]
    for n, value in points[1:]:
        out.append(f'<circle class="point {css}" cx="{pct(frame.x(n))}" cy="{pct(frame.y(value))}" r="3.5" '
                   f'data-deal="{n}"><title>deal {n}: {team} {value}</title></circle>')
    out.append("</g>")
    return out


def _line(x1: float, y1: float, x2: float, y2: float, css: str) -> str:
    return f'<line class="{css}" x1="{pct(x1)}" y1="{pct(y1)}" x2="{pct(x2)}" y2="{pct(y2)}"/>'
