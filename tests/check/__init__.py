"""Tests of the checks (``replayer/check/``): the validator, its reports, streams, repairs, matches."""
