"""Tests of the rules engine (``replayer/engine/``)."""
