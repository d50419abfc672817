"""The rules engine, the validator and the command line of the Belote replayer."""
