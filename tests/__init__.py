"""The tests, as a package whose subpackages mirror the code (``tests/engine/`` for
``replayer/engine/``...): test modules of the same name may live in different folders.
Fixtures shared by every folder are in ``conftest.py``."""
