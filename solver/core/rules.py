"""Trick-taking rules shared by Planet Nine and Journey: following suit and winning tricks.

Trumps are a suit of their own: when a trump is led, trumps must be followed.
A player who cannot follow may play any card; nobody is forced to win.
"""

from collections.abc import Sequence

from solver.core.cards import SUIT_MASKS, TRUMPS, card_set, highest, popcount, suit_of


def legal_plays(hand: int, trick: Sequence[int]) -> int:
    """Return the cards of `hand` that may be played to a trick holding `trick` so far."""
    if not trick:
        return hand
    follow = hand & SUIT_MASKS[suit_of(trick[0])]
    return follow or hand


def winning_card(trick: Sequence[int]) -> int:
    """Return the card that wins a trick: the highest trump, else the highest of the led suit."""
    played = card_set(trick)
    trumps = played & TRUMPS
    return highest(trumps or played & SUIT_MASKS[suit_of(trick[0])])


def trick_winner(leader: int, trick: Sequence[int], players: int) -> int:
    """Return the seat that wins `trick`, whose first card was played by `leader`."""
    return (leader + list(trick).index(winning_card(trick))) % players


def num_tricks(hands: Sequence[int]) -> int:
    """Return how many tricks a deal plays: the smallest hand's size.

    With three players one hand holds an extra card that is never played.
    """
    return min(popcount(hand) for hand in hands)
