"""The site lists the rules profiles with their one-line descriptions: the archive's Rules
filter (which finds the records checked under a profile, with or without overrides) and the
submit page's list of the profiles a Rules tag may name."""

from __future__ import annotations

import re
from markupsafe import escape

from replayer.archive import Archive
from replayer.engine.rules import PROFILE_DESCRIPTIONS, PROFILES


def row_ids(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<td class="num"><a href="/r/(\d+)"', html)]


def test_the_archive_filter_lists_every_profile_and_describes_the_chosen_one(client):
    html = client.get("/").get_data(as_text=True)
    select = html.split('<select id="q-profile" name="profile">', 1)[1].split("</select>", 1)[0]
    names = re.findall(r'<option value="([^"]*)"', select)
    assert names == ["", *PROFILES]
    for name, description in PROFILE_DESCRIPTIONS.items():
        assert f'<option value="{name}" title="{escape(description)}">{name}</option>' in select
        chosen = client.get("/", query_string={"profile": name}).get_data(as_text=True)
        assert f'<p class="muted" id="profile-description">Rules <code>{name}</code>: {escape(description)}</p>' in chosen
    assert 'id="profile-description"' not in html  # no profile chosen: no description line


def test_the_archive_filter_finds_the_records_of_a_profile(app, client):
    with Archive(app.config["DB"]) as archive:
        rules = {row["id"]: row["rules"] for row in archive.db.query("SELECT id, rules FROM records")}
    for profile in PROFILES:
        expected = sorted(i for i, text in rules.items() if text == profile or text.startswith(profile + ";"))
        html = client.get("/", query_string={"profile": profile, "sort": "id", "order": "asc",
                                             "per_page": 100}).get_data(as_text=True)
        assert row_ids(html) == expected, profile
        assert f'<option value="{profile}" title=' in html and "selected>" in html
    for pattern in ("ffb%", "ff_", "%"):  # no wildcard: only a profile name matches
        assert row_ids(client.get("/", query_string={"profile": pattern}).get_data(as_text=True)) == []


def test_the_submit_page_lists_the_profiles(client):
    html = client.get("/submit").get_data(as_text=True)
    listed = html.split('<details class="field" id="rules-profiles">', 1)[1].split("</details>", 1)[0]
    assert re.findall(r"<dt><code>([^<]*)</code></dt>", listed) == list(PROFILES)
    assert all(f"<dd>{escape(d)}</dd>" in listed for d in PROFILE_DESCRIPTIONS.values())
