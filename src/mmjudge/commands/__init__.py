"""Subcommands of the ``mmjudge`` CLI, one module each (see :mod:`mmjudge.cli`)."""
