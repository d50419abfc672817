"""Tests of the notation (``notation/``): the splitter, the reader, the writer, JSON, the grammar."""
