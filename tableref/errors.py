"""Errors that the command line turns into a clear message and exit code 2 (never a traceback)."""

from __future__ import annotations


class UserError(Exception):
    """Bad input from the user: an unreadable file, an unknown name, a degenerate argument.

    The message must say what was wrong and what is accepted.
    """

    exit_code = 2
