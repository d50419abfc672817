"""Statistics of players and partnerships: SQL aggregations over ``deal_players``.

``deal_players`` holds one row per stored record and named seat (``importer.seat_rows``, kept
by the import, filled for older archives by the migration ``m007_deal_players``), with the
``records`` columns a search filters on: a search filter (``SearchQuery``, read by the
archive's ``_search_filters``) applies to it as it does to ``records``, without a join. A
player's figures are one GROUP BY over that player's rows (found by the ``(player, date)``
index): nothing here loops over records in Python.

Two points of view: a player's figures count the contracts the player took (``taker``), a
partnership's those its side took (``took``); both count the belotes, melds, capots and
scores of the side, and the coinches of the side (a coinche is the defenders', a surcoinche
the takers').
"""

from __future__ import annotations

from typing import Any, Iterable, Protocol, Sequence

from sqlite_utils import Database

# How each column a search filter tests (``_Filter.column``) is named in ``deal_players``.
_FILTER_COLUMNS = {"id": "record_id", "date": "date", "variant": "variant", "rules": "rules",
                   "contract": "contract", "denomination": "denomination", "valid": "valid"}
DENOMINATION_ORDER = ("S", "H", "D", "C", "SA", "TA")
# The players table's sorts: a whitelist, never a name from the request.
PLAYER_SORTS = ("player", "played", "taken", "taken_pct", "made", "made_pct", "coinches_won", "surcoinches_won",
                "belotes", "meld_points", "capots", "litiges", "avg_taker_score", "avg_defender_score")
MAX_PER_PAGE = 100
MAX_EVENTS = 50  # rows of the by-event table: the events with the most deals
_PROFILE = "CASE WHEN instr(rules, ';') THEN rtrim(substr(rules, 1, instr(rules, ';') - 1)) ELSE rules END"


class Test(Protocol):
    """A search filter's test (``replayer.archive._Filter``): SQL with ``{}`` for the column."""

    column: str
    test: str
    params: tuple[Any, ...]


MADE, FAILED, LITIGE = "outcome = 'made'", "outcome = 'failed'", "outcome = 'litige'"


def _count(condition: str) -> str:
    return f"coalesce(sum({condition}), 0)"


def _pct(part: str, whole: str) -> str:
    return f"round(100.0 * {_count(part)} / nullif({_count(whole)}, 0), 1)"


def _avg(condition: str, column: str) -> str:
    return f"round(avg(CASE WHEN {condition} THEN {column} END), 1)"


def _figures(mine: str) -> str:
    """The figures' SELECT list. ``mine``: ``taker`` (a player: the contracts the player took) or
    ``took`` (a partnership: those its side took); a constant of this module, never user input."""
    return ", ".join(f"{sql} AS {name}" for name, sql in _figure_sql(mine).items())


def _figure_sql(mine: str) -> dict[str, str]:
    """Each figure's name and SQL aggregate (``_figures``)."""
    assert mine in ("taker", "took")
    return {
        "played": "count(*)",
        "taken": _count(f"{mine} = 1"),
        "taken_pct": _pct(f"{mine} = 1", "1"),
        "made": _count(f"{mine} = 1 AND {MADE}"),
        "failed": _count(f"{mine} = 1 AND {FAILED}"),
        "taken_litiges": _count(f"{mine} = 1 AND {LITIGE}"),
        "made_pct": _pct(f"{mine} = 1 AND {MADE}", f"{mine} = 1"),
        "passed": _count("took IS NULL"),  # nobody took (or the deal has no score)
        "litiges": _count(LITIGE),
        "coinches": _count("took = 0 AND doubling >= 1"),  # the side coinched (a surcoinche came after one)
        "coinches_won": _count(f"took = 0 AND doubling >= 1 AND {FAILED}"),
        "coinches_lost": _count(f"took = 0 AND doubling >= 1 AND {MADE}"),
        "surcoinches": _count("took = 1 AND doubling = 2"),
        "surcoinches_won": _count(f"took = 1 AND doubling = 2 AND {MADE}"),
        "surcoinches_lost": _count(f"took = 1 AND doubling = 2 AND {FAILED}"),
        "belotes": _count("belote > 0"),
        "meld_deals": _count("melds > 0"),
        "meld_points": _count("melds"),
        "capots": _count("capot"),
        "avg_taker_card_points": _avg("took = 1", "card_points"),
        "avg_taker_score": _avg("took = 1", "score"),
        "avg_defender_card_points": _avg("took = 0", "card_points"),
        "avg_defender_score": _avg("took = 0", "score"),
    }


FIGURES = tuple(_figure_sql("taker"))
# ``player_totals``: a player's figures over every deal, as ``players`` gives them without a
# filter. Computed again for the players of each import and deletion (``refresh_totals``), so
# that the players table of the whole archive reads 900 rows, not 400,000 (1.7 s on the
# bench's archive: the aggregates are the cost, and no index serves them).
TOTAL_COLUMNS: dict[str, type] = {"player": str, **{name: float if name.endswith("_pct") or name.startswith("avg_")
                                                    else int for name in FIGURES}}
_LOOKUP = 500  # names per IN (...) list


def refresh_totals(db: Database, names: Iterable[str] | None) -> None:
    """``player_totals`` made again for the players ``names`` (every player: ``None``) from
    ``deal_players``, inside the caller's transaction."""
    insert = (f"INSERT INTO player_totals (player, {', '.join(FIGURES)}) SELECT player, {_figures('taker')} "
              "FROM deal_players")
    if names is None:
        db.execute("DELETE FROM player_totals")
        db.execute(f"{insert} GROUP BY player")
        return
    wanted = sorted(set(names))
    for start in range(0, len(wanted), _LOOKUP):
        part = wanted[start:start + _LOOKUP]
        marks = ", ".join("?" * len(part))
        db.execute(f"DELETE FROM player_totals WHERE player IN ({marks})", part)
        db.execute(f"{insert} WHERE player IN ({marks}) GROUP BY player", part)


def _where(tests: list[str], params: list[Any], filters: Sequence[Test]) -> tuple[str, list[Any]]:
    """The WHERE clause of ``tests`` (SQL on ``deal_players``, their ``params``) and of the search
    filters, each written on the ``deal_players`` column that repeats the ``records`` one."""
    tests = tests + [f.test.format(_FILTER_COLUMNS[f.column]) for f in filters]
    params = params + [value for f in filters for value in f.params]
    return (" WHERE " + " AND ".join(tests) if tests else ""), params


def _one(db: Database, sql: str, params: list[Any]) -> dict[str, Any]:
    cursor = db.execute(sql, params)
    names = [d[0] for d in cursor.description]
    return dict(zip(names, cursor.fetchone()))


def _all(db: Database, sql: str, params: list[Any]) -> list[dict[str, Any]]:
    cursor = db.execute(sql, params)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def known_player(db: Database, name: str) -> bool:
    """Whether any stored record names ``name`` at a seat."""
    return db.execute("SELECT 1 FROM deal_players WHERE player = ? LIMIT 1", [name]).fetchone() is not None


def group_stats(db: Database, tests: list[str], params: list[Any], filters: Sequence[Test],
                mine: str) -> dict[str, Any]:
    """The figures, contracts, rules profiles and events of the rows that ``tests`` select (one player's,
    or one player's with one partner), from ``mine``'s point of view (``_figures``)."""
    where, values = _where(tests, params, filters)
    figures = _one(db, f"SELECT {_figures(mine)} FROM deal_players{where}", values)
    taken_where, taken_values = _where(tests + [f"{mine} = 1"], params, filters)
    cells = _all(db, f"SELECT denomination, level, count(*) AS taken, {_count(MADE)} AS made, "
                     f"{_count(FAILED)} AS failed, {_count(LITIGE)} AS litiges "
                     f"FROM deal_players{taken_where} GROUP BY denomination, level", taken_values)
    profiles = _breakdown(db, _PROFILE, "profile", mine, where, values)
    events = _breakdown(db, "coalesce(event, '')", "event", mine, where, values, MAX_EVENTS)
    return {"figures": figures, "contracts": contract_tables(cells), "profiles": profiles, "events": events}


def _breakdown(db: Database, key: str, name: str, mine: str, where: str, values: list[Any],
               limit: int = -1) -> list[dict[str, Any]]:
    """Deals, taken and made by ``key`` (SQL over ``deal_players``), the most played first."""
    return _all(db, f"SELECT {key} AS {name}, count(*) AS played, {_count(f'{mine} = 1')} AS taken, "
                    f"{_count(f'{mine} = 1 AND {MADE}')} AS made FROM deal_players{where} "
                    f"GROUP BY {key} ORDER BY played DESC, {name} LIMIT {int(limit)}", values)


def contract_tables(cells: list[dict[str, Any]]) -> dict[str, Any]:
    """The contracts taken, made, failed, in litige, by denomination and by level, from the
    (denomination, level) groups of one query (a few dozen rows at most)."""
    def total(key: str, value: Any) -> dict[str, Any]:
        rows = [cell for cell in cells if cell[key] == value]
        return {key: value, **{name: sum(row[name] for row in rows) for name in ("taken", "made", "failed", "litiges")}}

    denominations = sorted({cell["denomination"] for cell in cells if cell["denomination"]},
                           key=lambda d: (DENOMINATION_ORDER.index(d) if d in DENOMINATION_ORDER else 99, d))
    # Bids sort as numbers (80 before 100), the words (capot, generale) after them; no level: a classic taking.
    levels = sorted({cell["level"] for cell in cells}, key=lambda level: (
        level is None, not (level or "").isdigit(), int(level) if (level or "").isdigit() else 0, level or ""))
    return {"by_denomination": [total("denomination", d) for d in denominations],
            "by_level": [total("level", level) for level in levels],
            "cells": sorted(cells, key=lambda c: (denominations.index(c["denomination"])
                                                  if c["denomination"] in denominations else 99,
                                                  levels.index(c["level"])))}


def player_stats(db: Database, name: str, filters: Sequence[Test]) -> dict[str, Any]:
    """One player's figures (``group_stats``, the contracts the player took) and partners."""
    out = {"player": name, **group_stats(db, ["player = ?"], [name], filters, "taker")}
    where, values = _where(["player = ?", "partner IS NOT NULL"], [name], filters)
    out["partners"] = _all(db, f"SELECT partner, count(*) AS played, {_count('took = 1')} AS taken, "
                               f"{_count(f'took = 1 AND {MADE}')} AS made "
                               f"FROM deal_players{where} GROUP BY partner ORDER BY played DESC, partner LIMIT 20",
                           values)
    return out


def partnership_stats(db: Database, first: str, second: str, filters: Sequence[Test]) -> dict[str, Any]:
    """The figures of two players as partners (the contracts their side took): the rows of the
    first whose partner is the second, one per deal they played together."""
    return {"players": [first, second],
            **group_stats(db, ["player = ?", "partner = ?"], [first, second], filters, "took")}


def players(db: Database, filters: Sequence[Test], sort: str, descending: bool, page: int,
            per_page: int) -> dict[str, Any]:
    """A page of the players table: each player's figures over the deals the filters keep,
    sorted by a column of ``PLAYER_SORTS`` (ties by name), ``per_page`` at most ``MAX_PER_PAGE``."""
    column = sort if sort in PLAYER_SORTS else "played"
    direction = "DESC" if descending else "ASC"
    where, values = _where([], [], filters)
    # Without a filter the totals kept by the import serve; with one, the deals it keeps are
    # aggregated here (a filter keeps fewer of them).
    source = (f"(SELECT player, {_figures('taker')} FROM deal_players{where} GROUP BY player)" if filters
              else "player_totals")
    total = db.execute(f"SELECT count(*) FROM {source}", values).fetchone()[0]
    per_page = min(max(per_page, 1), MAX_PER_PAGE)
    pages = max(1, -(-total // per_page))
    page = min(max(page, 1), pages)
    rows = _all(db, f"SELECT player, {', '.join(FIGURES)} FROM {source} "
                    f"ORDER BY {column} {direction} NULLS LAST, player LIMIT ? OFFSET ?",
                values + [per_page, (page - 1) * per_page])
    return {"rows": rows, "total": total, "page": page, "per_page": per_page, "pages": pages,
            "sort": column, "descending": descending}
