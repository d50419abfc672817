"""Tests of the archive (``replayer/archive/``): imports, searches, stored reports, concurrent writers."""
