"""The score chart of a match: an SVG drawn on the server, so it shows without JavaScript.

The two running totals by deal (from deal 0 at 0-0), the target line, axes with
their labels and a legend. The markup is built here as text: every value that
comes from a record (event, player names) goes through ``escape``; numbers are
formatted here. No ``style`` attribute (the CSP forbids inline styles): colours
and strokes come from the classes of ``static/match.css``.
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


@dataclass(frozen=True, slots=True)
class Frame:
    """Where the plot sits in the picture and what its axes span."""

    width: int = 640
    height: int = 320
    left: int = 64
    right: int = 16
    top: int = 16
    bottom: int = 48
    deals: int = 1
    top_value: int = 1

    @property
    def x0(self) -> int:
        return self.left

    @property
    def x1(self) -> int:
        return self.width - self.right

    @property
    def y0(self) -> int:  # the baseline (0 points)
        return self.height - self.bottom

    def x(self, deal: int) -> float:
        """The abscissa after ``deal`` deals (0 = the start of the match)."""
        return self.x0 + deal * (self.x1 - self.x0) / self.deals

    def y(self, points: int) -> float:
        return self.y0 - points * (self.y0 - self.top) / self.top_value


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


def score_chart(sheet: ScoreSheet, *, title: str | None = None) -> Markup:
    """The chart as an ``<svg>`` element, ready to be placed in a page."""
    frame, step = frame_for(sheet)
    heading = title or f"Running score of {sheet.event or 'the match'}"
    parts = [f'<svg xmlns="{SVG_NS}" class="score-chart" viewBox="0 0 {frame.width} {frame.height}" '
             f'width="{frame.width}" height="{frame.height}" role="img" aria-labelledby="score-chart-title">',
             f'<title id="score-chart-title">{escape(heading)}</title>']
    parts += _axes(frame, step)
    parts += _target(frame, sheet.target)
    for team in (Team.NS, Team.EW):
        parts += _series(frame, sheet, team)
    parts += _legend(frame, sheet)
    parts.append("</svg>")
    return Markup("\n".join(parts))


def _axes(frame: Frame, step: int) -> list[str]:
    out = ['<g class="axes">',
           _line(frame.x0, frame.y0, frame.x1, frame.y0, "axis x-axis"),
           _line(frame.x0, frame.y0, frame.x0, frame.top, "axis y-axis")]
    for value in range(0, frame.top_value + 1, step):
        y = frame.y(value)
        out.append(_line(frame.x0, y, frame.x1, y, "grid") if value else "")
        out.append(f'<text class="tick y-tick" x="{fmt(frame.x0 - 6)}" y="{fmt(y + 4)}" '
                   f'text-anchor="end">{value}</text>')
    every = max(1, math.ceil(frame.deals / MAX_X_LABELS))
    for deal in range(0, frame.deals + 1, every):
        out.append(f'<text class="tick x-tick" x="{fmt(frame.x(deal))}" y="{fmt(frame.y0 + 16)}" '
                   f'text-anchor="middle">{deal}</text>')
    middle = (frame.x0 + frame.x1) / 2
    out.append(f'<text class="axis-label" x="{fmt(middle)}" y="{frame.height - 6}" '
               f'text-anchor="middle">deal</text>')
    out.append(f'<text class="axis-label" x="14" y="{fmt((frame.top + frame.y0) / 2)}" text-anchor="middle" '
               f'transform="rotate(-90 14 {fmt((frame.top + frame.y0) / 2)})">points</text>')
    out.append("</g>")
    return [line for line in out if line]


def _target(frame: Frame, target: int) -> list[str]:
    y = frame.y(target)
    return ['<g class="target">', _line(frame.x0, y, frame.x1, y, "target-line"),
            f'<text class="target-label" x="{fmt(frame.x1 - 4)}" y="{fmt(y - 5)}" '
            f'text-anchor="end">target {target}</text>', "</g>"]


def _series(frame: Frame, sheet: ScoreSheet, team: Team) -> list[str]:
    """The team's polyline from 0 at deal 0 and one point per counted deal."""
    css = str(team).lower()
    points = [(0, 0)] + [(n, v) for n, v in enumerate(sheet.series(team), 1) if v is not None]
    path = " ".join(f"{fmt(frame.x(n))},{fmt(frame.y(v))}" for n, v in points)
    out = [f'<g class="series {css}">', f'<polyline class="series-line {css}" fill="none" points="{path}"/>']
    for n, value in points[1:]:
        out.append(f'<circle class="point {css}" cx="{fmt(frame.x(n))}" cy="{fmt(frame.y(value))}" r="3.5" '
                   f'data-deal="{n}"><title>deal {n}: {team} {value}</title></circle>')
    out.append("</g>")
    return out


def _legend(frame: Frame, sheet: ScoreSheet) -> list[str]:
    out = ['<g class="legend">']
    for row, team in enumerate((Team.NS, Team.EW)):
        css, y = str(team).lower(), frame.top + 8 + row * 18
        out.append(_line(frame.x0 + 12, y, frame.x0 + 32, y, f"series-line {css}"))
        names = sheet.team_names(team)
        label = str(team) if names == str(team) else f"{team}: {names}"
        out.append(f'<text class="legend-label {css}" x="{frame.x0 + 38}" y="{y + 4}">{escape(label)}</text>')
    out.append("</g>")
    return out


def _line(x1: float, y1: float, x2: float, y2: float, css: str) -> str:
    return f'<line class="{css}" x1="{fmt(x1)}" y1="{fmt(y1)}" x2="{fmt(x2)}" y2="{fmt(y2)}"/>'
