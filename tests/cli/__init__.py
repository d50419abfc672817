"""Tests of the command line (``replayer/cli/``) and of the README's commands."""
