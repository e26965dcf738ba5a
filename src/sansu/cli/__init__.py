"""The ``sansu`` command line: one module per command."""
