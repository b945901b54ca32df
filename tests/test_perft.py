"""Perft: counts of legal play sequences on fixed deals, as in python-chess's perft files."""

from pathlib import Path

import pytest

from solver.core.cards import bit, scan
from solver.core.deal import parse_deal
from solver.core.rules import legal_plays, trick_winner

PERFT_FILE = Path(__file__).parent / "data" / "perft.txt"


def read_cases():
    for line in PERFT_FILE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            commander, tricks, count, deal = (field.strip() for field in line.split(";"))
            yield int(commander), int(tricks), int(count), deal


def play_sequences(hands, leader, tricks, trick=()):
    """Count the legal ways to play the next `tricks` tricks."""
    if tricks == 0:
        return 1
    players = len(hands)
    if len(trick) == players:
        return play_sequences(hands, trick_winner(leader, trick, players), tricks - 1)
    seat = (leader + len(trick)) % players
    total = 0
    for c in scan(legal_plays(hands[seat], trick)):
        after = hands[:seat] + (hands[seat] & ~bit(c),) + hands[seat + 1 :]
        total += play_sequences(after, leader, tricks, trick + (c,))
    return total


@pytest.mark.parametrize("commander, tricks, count, deal_text", list(read_cases()))
def test_perft(commander, tricks, count, deal_text):
    deal = parse_deal(deal_text, None if "r4" in deal_text else commander)
    assert deal.commander == commander
    assert play_sequences(deal.hands, deal.commander, tricks) == count
