"""A status line on stderr (stdout stays clean): on a terminal one line rewritten in place at most twice a
second; elsewhere (a log file, a pipe, CI) a plain line every PLAIN_INTERVAL seconds, never a `\\r`."""

import sys
import time

import click

INTERVAL = 0.5  # seconds between redraws on a terminal
PLAIN_INTERVAL = 10.0  # seconds between lines when stderr is no terminal


class StatusLine:
    """Show a status; `finish` ends the line if one was drawn in place. `terminal`: draw in place (default:
    whether stderr is a terminal)."""

    def __init__(self, terminal: bool | None = None, clock=time.monotonic):
        self.terminal = sys.stderr.isatty() if terminal is None else terminal
        self.clock = clock
        self.last = clock()
        self.drawn = False  # a line drawn in place, not yet ended

    def show(self, text: str, force: bool = False) -> None:
        """Show `text` if the last one is old enough (or `force`)."""
        now = self.clock()
        if not force and now - self.last < (INTERVAL if self.terminal else PLAIN_INTERVAL):
            return
        self.last = now
        if self.terminal:
            self.drawn = True
            click.echo(f"\r{text}\x1b[K", err=True, nl=False)  # and clear what a longer line left
        else:
            click.echo(text, err=True)

    def finish(self) -> None:
        if self.drawn:
            click.echo("", err=True)
            self.drawn = False
