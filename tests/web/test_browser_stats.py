"""The statistics pages on a phone (390 x 844): no sideways scroll, the chart's text readable."""

from __future__ import annotations

from urllib.parse import quote


def test_stats_pages_on_a_phone(page, live_server):
    page.set_viewport_size({"width": 390, "height": 844})
    for path in ("/stats", f"/stats/player/{quote('Anne Martin')}", f"/stats/player/{quote('Han Ji-woo')}",
                 f"/stats/pair?a={quote('Anne Martin')}&b={quote('Claire Dubois')}"):
        page.goto(live_server + path)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{path} scrolls sideways by {overflow} px"
    sizes = page.eval_on_selector_all(".stats-chart text",
                                      "texts => texts.map(t => parseFloat(getComputedStyle(t).fontSize))")
    assert sizes and min(sizes) >= 11
    page.screenshot(path="/tmp/stats-pair-390.png", full_page=True)
    page.goto(live_server + f"/stats/player/{quote('Anne Martin')}")
    page.screenshot(path="/tmp/stats-player-390.png", full_page=True)
    page.goto(live_server + "/stats")
    page.screenshot(path="/tmp/stats-390.png")
    assert not page.console_errors
