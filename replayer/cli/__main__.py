"""``python -m replayer.cli``: the ``belote`` command line."""

from . import main

main()
