"""One status line on stderr, rewritten in place at most twice a second (stdout stays clean)."""

import time

import click

INTERVAL = 0.5  # seconds between redraws


class StatusLine:
    """Rewrite one stderr line; `finish` ends it if anything was shown."""

    def __init__(self):
        self.last = time.monotonic()
        self.shown = False

    def show(self, text: str, force: bool = False) -> None:
        """Show `text` if the last redraw is old enough (or `force`)."""
        now = time.monotonic()
        if force or now - self.last >= INTERVAL:
            self.last = now
            self.shown = True
            click.echo(f"\r{text}  ", err=True, nl=False)

    def finish(self) -> None:
        if self.shown:
            click.echo("", err=True)
