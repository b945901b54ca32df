"""The `crew` command line."""
