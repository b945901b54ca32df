"""Shared test setup: the deterministic hypothesis profile and strategies for small deals.

Test modules import the strategies with `from conftest import ...` (pytest puts
this directory on sys.path because tests/ is not a package).
"""

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from solver.cards import CARD_COUNT, COLOUR_CARDS, SUIT_MASKS, SUITS, bit, format_card, scan
from solver.deal import COMMANDER_CARD, make_deal
from solver.rules import legal_plays, num_tricks, trick_winner
from solver.solution import Outcome
from solver.tasks import ABSOLUTE, OMEGA, RELATIVE, Token, draft_counts, make_task_mission

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def cards_of(suits) -> list[int]:
    """Return the cards of the given suits, lowest first."""
    mask = 0
    for suit in suits:
        mask |= SUIT_MASKS[suit]
    return list(scan(mask))


# The reference solver is exhaustive plain Python: a LOSS with 5 players and 6
# cards each can take tens of seconds. These caps keep every example well under
# a second while the deals still span several tricks.
MAX_SEARCHABLE_HAND = {3: 6, 4: 4, 5: 3}


@st.composite
def small_deals(draw, min_players=3, max_players=5, min_cards=3, max_cards=6, extra_card=None, capped=True):
    """A checked small deal: 3-5 players, equal hands of min..max cards, no card twice.

    Hand sizes are also capped per player count by MAX_SEARCHABLE_HAND unless `capped` is False.

    With three players one seat may get one extra card (the never-played card);
    `extra_card` forces it on (True) or off (False). The cards come from a random
    subset of the suits when that is big enough, so following suit often binds.
    The Commander is the holder of r4 when r4 is dealt, else a random seat.
    """
    players = draw(st.integers(min_players, max_players), label="players")
    top = max(min_cards, min(max_cards, MAX_SEARCHABLE_HAND[players])) if capped else max_cards
    size = draw(st.integers(min_cards, top), label="hand size")
    if extra_card is None:
        extra = players == 3 and draw(st.booleans(), label="extra card")
    else:
        extra = extra_card and players == 3
    total = players * size + extra
    suits = draw(st.sets(st.sampled_from(SUITS), min_size=1), label="suits")
    pool = cards_of(suits)
    if len(pool) < total:
        pool = list(range(CARD_COUNT))
    dealt = draw(st.lists(st.sampled_from(pool), min_size=total, max_size=total, unique=True))
    hands = [0] * players
    for i, c in enumerate(dealt[: players * size]):
        hands[i % players] |= bit(c)
    if extra:
        hands[draw(st.integers(0, players - 1), label="extra seat")] |= bit(dealt[-1])
    commander = draw(st.integers(0, players - 1), label="commander")
    r4_dealt = any(hand & bit(COMMANDER_CARD) for hand in hands)
    return make_deal(hands, None if r4_dealt else commander)


@st.composite
def token_lists(draw, count):
    """A valid token per task (None = untokened): none, absolute 1..k, relative, omega, or 1 + omega."""
    tokens = [None] * count
    kind = draw(st.sampled_from(["none", ABSOLUTE, RELATIVE, OMEGA, "absolute+omega"]))
    order = draw(st.permutations(range(count)))  # which task gets which token
    if kind == ABSOLUTE:
        k = draw(st.integers(1, count))
        for n, task in enumerate(order[:k], 1):
            tokens[task] = Token(ABSOLUTE, n)
    elif kind == RELATIVE:
        arrows = draw(st.lists(st.integers(1, 4), min_size=1, max_size=min(count, 4), unique=True))
        for task, n in zip(order, arrows):
            tokens[task] = Token(RELATIVE, n)
    elif kind == OMEGA:
        tokens[order[0]] = Token(OMEGA)
    elif kind == "absolute+omega" and count >= 2:
        tokens[order[0]] = Token(ABSOLUTE, 1)
        tokens[order[1]] = Token(OMEGA)
    return tokens


@st.composite
def missions_for(draw, deal, max_tasks=4, drafted=None, tokens=True):
    """A checked task mission on `deal`: 1..max_tasks dealt colour cards, random tokens, owners.

    `drafted` True/False forces drafted or fixed owners; None picks at random.
    """
    colour = list(scan(deal.cards & COLOUR_CARDS))
    count = draw(st.integers(1, min(max_tasks, len(colour))), label="tasks")
    cards = draw(st.lists(st.sampled_from(colour), min_size=count, max_size=count, unique=True))
    token_list = draw(token_lists(count)) if tokens else None
    if drafted is None:
        drafted = draw(st.booleans(), label="drafted")
    owners = None
    if not drafted:
        owners = draw(
            st.lists(st.integers(0, deal.players - 1), min_size=count, max_size=count), label="owners"
        )
    return make_task_mission(deal, cards, token_list, owners)


@st.composite
def deals_and_missions(draw, max_tasks=4, drafted=None, tokens=True, **deal_args):
    """A small deal together with a task mission on it."""
    deal = draw(small_deals(**deal_args))
    return deal, draw(missions_for(deal, max_tasks=max_tasks, drafted=drafted, tokens=tokens))


def tokens_respected(tokens, when) -> bool:
    """Independent order check: `when[i]` is the trick index completing task i.

    Written from the rules text (planet-nine.md 1.3), not from solver.tasks:
    - absolute n: every task completed in an earlier trick carries an absolute token below n;
    - relative with a arrows: every relative task with fewer arrows is completed no later;
    - omega: every other task is completed no later.
    Tasks completed in the same trick never violate each other's order.
    """
    for i, token in enumerate(tokens):
        if token is None:
            continue
        for j, other in enumerate(tokens):
            if j == i:
                continue
            if token.kind == ABSOLUTE and when[j] < when[i]:
                if other is None or other.kind != ABSOLUTE or other.n >= token.n:
                    return False
            if token.kind == RELATIVE and other is not None and other.kind == RELATIVE:
                if other.n < token.n and when[j] > when[i]:
                    return False
            if token.kind == OMEGA and when[j] > when[i]:
                return False
    return True


@st.composite
def played_tricks(draw, **deal_args):
    """A small deal, a leader and one trick of legal plays from it: (deal, leader, cards).

    Each seat picks any card it may play (following the led suit when it can), so
    the trick is one a real game could hold. solver.rules.legal_plays is not used.
    """
    deal = draw(small_deals(**deal_args))
    leader = draw(st.integers(0, deal.players - 1), label="leader")
    trick = []
    for k in range(deal.players):
        hand = list(scan(deal.hands[(leader + k) % deal.players]))
        if trick:
            led = [c for c in hand if c // 9 == trick[0] // 9]  # suit = bit // 9, trumps 36-39
            hand = led or hand
        trick.append(draw(st.sampled_from(hand)))
    return deal, leader, trick


def check_witness(deal, mission, solution):
    """Replay a WIN through solver.rules and check every task, owner and token by hand."""
    assert solution.outcome is Outcome.WIN
    players = deal.players
    hands = list(deal.hands)
    leader = deal.commander  # the Commander leads trick 1
    won = {}  # card -> (trick index, winning seat)
    assert len(solution.tricks) <= num_tricks(deal.hands)
    for index, trick in enumerate(solution.tricks):
        assert trick.leader == leader, f"trick {index + 1} led by the wrong seat"
        assert len(trick.cards) == players
        for k, c in enumerate(trick.cards):
            seat = (leader + k) % players
            assert hands[seat] & bit(c), f"trick {index + 1}: seat {seat} does not hold {format_card(c)}"
            assert legal_plays(hands[seat], trick.cards[:k]) & bit(c), (
                f"trick {index + 1}: seat {seat} may not play {format_card(c)}"
            )
            hands[seat] &= ~bit(c)
        winner = trick_winner(leader, trick.cards, players)
        assert trick.winner == winner
        for c in trick.cards:
            won[c] = (index, winner)
        leader = winner  # the winner leads the next trick

    assert set(solution.assignment) == set(mission.cards)
    when = []
    for i, c in enumerate(mission.cards):
        assert c in won, f"task {format_card(c)} is never played"
        index, winner = won[c]
        assert solution.assignment[c] == winner, f"task {format_card(c)} won by seat {winner}"
        if mission.owners is not None:
            assert mission.owners[i] == winner
        when.append(index)
    if mission.owners is None:
        counts = tuple(list(solution.assignment.values()).count(s) for s in range(players))
        assert counts == draft_counts(len(mission.cards), players, deal.commander)
    assert tokens_respected(mission.tokens, when)
    # Each trick reports the tasks it completed, and play stops with the last task.
    for index, trick in enumerate(solution.tricks):
        assert set(trick.completed) == {c for c, w in zip(mission.cards, when) if w == index}
    if mission.cards:
        assert max(when) == len(solution.tricks) - 1
    else:
        assert solution.tricks == []
