"""``belote stats``: the archive's statistics in the terminal, as the site's ``/stats`` pages.

Without ``--player`` or ``--pair``, the players table (sorted by ``--sort``); with one, that
player's or that partnership's figures and contracts. The filters are the archive search's
(``SearchQuery``): a date or a contract that cannot be read is said in one line, exit 2.

Exit codes: 0 the figures were printed, 1 the player is in no stored record, 2 usage or input
trouble (no archive at the path, a filter that cannot be read).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import click

from ..archive import Archive, ArchiveError, SearchError, SearchQuery
from ..archive.stats import PLAYER_SORTS
from .import_command import default_db
from .render import printable

FILTER_OPTIONS = ("text", "event", "date_from", "date_to", "variant", "profile", "contract", "validity")
# The players table's columns in the terminal: (figure, heading).
TABLE = (("played", "deals"), ("taken", "taken"), ("taken_pct", "taken%"), ("made_pct", "made%"),
         ("coinches_won", "coinches"), ("belotes", "belotes"), ("capots", "capots"), ("litiges", "litiges"),
         ("avg_taker_score", "avg took"), ("avg_defender_score", "avg def"))


def _fail(message: str) -> None:
    click.echo(f"belote stats: error: {printable(message)}", err=True)
    sys.exit(2)


@click.command("stats")
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None,
              help="The archive file (default: $BELOTE_DB, else the site's own archive).")
@click.option("--player", default=None, help="One player's figures (the name as the records write it).")
@click.option("--pair", nargs=2, default=None, metavar="A B", help="Two players' figures as partners.")
@click.option("--text", default="", help="Only the deals whose event, site, players or comments have these words.")
@click.option("--event", default="", help="Only the deals of this event (words matched as the archive search does).")
@click.option("--date-from", "date_from", default="", help="From this date: 2026.03.12, 2026-03, 2026...")
@click.option("--date-to", "date_to", default="", help="Up to this date (inclusive).")
@click.option("--variant", default="", help="belote, coinche or contree.")
@click.option("--profile", default="", help="A rules profile, e.g. ffb-coinche.")
@click.option("--contract", default="", help="A contract, e.g. 110C, H, capot.")
@click.option("--validity", type=click.Choice(["", "valid", "invalid"]), default="")
@click.option("--sort", type=click.Choice(PLAYER_SORTS), default="played", show_default=True,
              help="The players table's order (descending, but by player name).")
@click.option("--limit", type=click.IntRange(1, 100), default=25, show_default=True, help="Players listed.")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
def stats_command(db_path: str | None, player: str | None, pair: tuple[str, str] | None, sort: str, limit: int,
                  output: str, **filters: str) -> None:
    """Statistics of the archive's players: deals, contracts taken and made, coinches, belotes,
    melds, capots, average points, over the deals the filters keep."""
    if player and pair:
        raise click.UsageError("--player and --pair cannot be used together")
    path = db_path or default_db()
    if not os.path.isfile(path):
        _fail(f"no archive at {path}")
    query = SearchQuery.from_args({name: filters[name] for name in FILTER_OPTIONS})
    try:
        with Archive(path) as archive:
            if pair:
                data = archive.partnership_stats(pair[0], pair[1], query)
            elif player:
                data = archive.player_stats(player, query)
            else:
                data = archive.players(query, sort=sort, descending=sort != "player", per_page=limit)
    except SearchError as error:
        _fail(str(error))
    except ArchiveError as error:
        _fail(str(error).splitlines()[0])
    if data is None:
        click.echo(f"belote stats: no stored record names the player {printable(player or '')!r}", err=True)
        sys.exit(1)
    if output == "json":
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    elif pair or player:
        click.echo(group_text(data))
    else:
        click.echo(players_text(data))


def players_text(data: dict[str, Any]) -> str:
    """The players table, one line a player."""
    if not data["rows"]:
        return "no player among these deals"
    width = max(len(row["player"]) for row in data["rows"])
    lines = [f"{'player':<{width}}  " + "  ".join(f"{title:>8}" for _, title in TABLE)]
    for row in data["rows"]:
        cells = "  ".join(f"{'-' if row[key] is None else row[key]:>8}" for key, _ in TABLE)
        lines.append(f"{printable(row['player']):<{width}}  {cells}")
    lines.append(f"{data['total']} players; taken, made: the contracts the player took")
    return "\n".join(lines)


def group_text(data: dict[str, Any]) -> str:
    """A player's or a partnership's figures and contracts."""
    who = " & ".join(data["players"]) if "players" in data else data["player"]
    f = data["figures"]
    lines = [printable(who),
             f"  deals played {f['played']}, taken {f['taken']} ({f['taken_pct'] or 0}%), made {f['made']}, "
             f"failed {f['failed']}, litiges {f['litiges']}",
             f"  coinches won {f['coinches_won']}, lost {f['coinches_lost']}; surcoinches won {f['surcoinches_won']}, "
             f"lost {f['surcoinches_lost']}",
             f"  belotes {f['belotes']}, melds {f['meld_deals']} ({f['meld_points']} points), capots {f['capots']}",
             f"  as takers: card points {f['avg_taker_card_points']}, score {f['avg_taker_score']}; "
             f"as defenders: card points {f['avg_defender_card_points']}, score {f['avg_defender_score']}"]
    for key, title in (("by_denomination", "denomination"), ("by_level", "level")):
        rows = data["contracts"][key]
        if rows:
            lines.append(f"  by {title}: " + ", ".join(
                f"{row[title] or 'classic'} {row['made']}/{row['taken']}" for row in rows) + " (made/taken)")
    for row in data.get("partners", []):
        lines.append(f"  with {printable(row['partner'])}: {row['played']} deals, side took {row['taken']}, "
                     f"made {row['made']}")
    return "\n".join(lines)
