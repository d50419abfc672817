"""Tests of the web site (``replayer/web/``, ``templates/``, ``static/``), in the test client and in Chromium."""
