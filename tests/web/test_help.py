"""The help page (/help): its sections and contents, its example records (each one read back
from the page and validated), the site's links to it, and its "Check this record" forms."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from notation.parser import parse
from notation.writer import write_record
from replayer.check.validator import validate

ANCHORS = ("notation", "example", "tags", "hands", "bidding", "announcements", "play", "belote", "claims",
           "comments", "lenient", "more-examples", "symbols", "keys", "play-as", "compare")


class HelpPage(HTMLParser):
    """The ids of the page, the targets of its in-page links, the text of each example
    record (``<pre class="example-record">``) and the value of each hidden ``text`` field."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.fragments: list[str] = []
        self.examples: list[str] = []
        self.fields: list[str] = []
        self._example: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.append(values["id"] or "")
        if tag == "a" and (values.get("href") or "").startswith("#"):
            self.fragments.append((values["href"] or "")[1:])
        if tag == "pre" and "example-record" in (values.get("class") or "").split():
            self._example = []
        if tag == "input" and values.get("name") == "text":
            self.fields.append(values.get("value") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre" and self._example is not None:
            self.examples.append("".join(self._example))
            self._example = None

    def handle_data(self, data: str) -> None:
        if self._example is not None:
            self._example.append(data)


@pytest.fixture
def help_html(client) -> str:
    response = client.get("/help")
    assert response.status_code == 200 and response.mimetype == "text/html"
    return response.get_data(as_text=True)


@pytest.fixture
def help_page(help_html: str) -> HelpPage:
    page = HelpPage()
    page.feed(help_html)
    return page


def test_the_page_has_its_sections_and_a_table_of_contents(help_page: HelpPage, help_html: str):
    assert set(ANCHORS) <= set(help_page.ids)
    assert len(help_page.ids) == len(set(help_page.ids))  # no id twice
    assert set(ANCHORS) <= set(help_page.fragments)  # the contents link to every section
    assert set(help_page.fragments) <= set(help_page.ids)  # and every in-page link lands
    assert 'aria-current="page">Help</a>' in help_html


def test_the_page_explains_the_symbols_annotations_and_keys(help_html: str):
    for glyph in ("!!", "??", "!?", "?!"):
        assert f"<dt><code>{glyph}</code></dt>" in help_html
    assert "<dt><code>!</code></dt>" in help_html and "<dt><code>?</code></dt>" in help_html
    for symbol in "♠♥♦♣":
        assert f">{symbol}</td>" in help_html
    keys = help_html[help_html.index('id="keys"'):help_html.index('id="play-as"')]
    for key in ("<kbd>←</kbd>", "<kbd>→</kbd>", "<kbd>Shift</kbd>", "<kbd>Home</kbd>", "<kbd>End</kbd>",
                "<kbd>n</kbd>", "<kbd>Space</kbd>", "swipe left / right"):
        assert key in keys
    assert "/r/<var>id</var>/compare" in help_html and "?seat=S" in help_html
    for lenient in ("<code>10S</code>", "<code>passe</code>", "<code>contre</code>", "<code>R D V</code>"):
        assert lenient in help_html


def test_every_example_record_validates_without_an_error(help_page: HelpPage):
    assert len(help_page.examples) == 3
    for text in help_page.examples:
        results = list(parse(text))
        assert len(results) == 1 and results[0].ok, results[0].errors
        report = validate(results[0])
        assert [f for f in report.findings if f.severity.value == "error"] == [] and report.ok
        assert report.findings == ()  # not even a warning
        assert report.recorded is None or report.recorded == report.rescored


def test_the_typed_example_reads_to_the_same_record_as_the_coinche_one(help_page: HelpPage):
    _, coinche, typed = help_page.examples
    [one], [other] = parse(coinche), parse(typed)
    assert write_record(one.record) == write_record(other.record)


def test_each_check_form_sends_the_record_shown(help_page: HelpPage):
    assert help_page.fields == help_page.examples


def test_the_page_has_no_inline_style_or_script(help_html: str):
    assert "style=" not in help_html and "<style" not in help_html
    assert re.findall(r"<script[^>]*>", help_html) == ['<script src="/static/site.js" defer>']


@pytest.mark.parametrize("path", ["/", "/submit", "/help", "/delete/3", "/m/999999", "/r/13"])
def test_the_nav_links_to_help_and_no_page_links_to_the_repository(client, path):
    html = client.get(path).get_data(as_text=True)
    nav = html[html.index('<nav class="site-nav"'):html.index("</nav>")]
    assert '<a href="/help"' in nav
    assert not re.search(r'href="[^"]*docs/', html)


def test_the_submit_page_points_to_the_help(client):
    html = client.get("/submit").get_data(as_text=True)
    assert 'href="/help#notation"' in html and "docs/notation.md" not in html


def test_checking_an_example_from_the_page(live_server, page):
    page.goto(live_server + "/help#more-examples")
    page.locator("#example-typed button").click()
    page.wait_for_url(re.compile(r"/submit/check/[A-Za-z0-9_-]{24}$"))
    assert page.locator("#verdict").inner_text() == "No error found."
    assert page.console_errors == []
