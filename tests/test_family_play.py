"""Family Adventure play on hand-worked deals: special cards, hammocks and the shell, objectives, the Ghost,
and the turns apply_turn refuses. Every deal is solved by the plain DFS and by CP-SAT; a WIN's witness is
replayed through solver.family.turns and judged by solver.family.objectives.

Most deals use MOD3: seat s holds the cards whose index (colour * 7 + number - 1) is s mod 3. With no
hammocks and no special cards seat s plays exactly the positions p with p - 1 = s (mod 3), so a card's
index fixes the positions it can take; e.g. B1 (seat 2) can only lie at position 3, 6, 9 or 12.
"""

import pytest

from solver.core.solution import Outcome
from solver.family.cards import parse_card, parse_cards
from solver.family.deal import FamilyDeal, parse_family_deal
from solver.family.mission import DEFAULT_HAMMOCKS, INCREASING, NON_INCREASING, CardCount, FamilyMission
from solver.family.model import cpsat_solve
from solver.family.objectives import unmet
from solver.family.search import dfs_solve
from solver.family.solution import compact_turn, describe_turn, turn_json
from solver.family.turns import (
    IllegalTurn,
    Play,
    Trade,
    Turn,
    apply_turn,
    initial_state,
    replay,
    special_item,
)

WIN, LOSS = Outcome.WIN, Outcome.LOSS
MOD3 = "P1 P4 P7 G3 G6 B2 B5 | P2 P5 G1 G4 G7 B3 B6 | P3 P6 G2 G5 B1 B4 B7"
NONE = (0, 0, 0)  # no hammock tokens, whatever the number of players


def make_deal(specials="1 2 3", aside="4 5 6", shell=0, hands=MOD3, extra="") -> FamilyDeal:
    return parse_family_deal(f"{hands} ; specials {specials} ; aside {aside} ; shell {shell}{extra}")


def fixed(*cards: str) -> tuple[tuple[int, int], ...]:
    """Return the positions objective: the given cards at positions 1, 2, ..."""
    return tuple((p, parse_card(c)) for p, c in enumerate(cards, 1))


def mission(cards: int, **fields) -> FamilyMission:
    return FamilyMission(id="family/test", cards=cards, **fields)


def plain(cards: int, **fields) -> FamilyMission:
    """A mission without hammocks or special cards: on MOD3 each seat plays its fixed positions."""
    return mission(cards, hammocks=NONE, specials=False, **fields)


def check(deal, m: FamilyMission, expected: Outcome) -> None:
    """Solve with both engines; each must give `expected`, and a WIN's turns must replay to a winning row."""
    for solve in (dfs_solve, cpsat_solve):
        solution = solve(deal, m)
        assert solution.outcome is expected, f"{solution.engine}: {solution.outcome.value}, expected {expected.value}"
        if expected is WIN:
            state = replay(deal, m, solution.turns)
            assert state.finished, f"{solution.engine}: the witness plays {len(state.row)} of {m.cards} cards"
            assert unmet(m, state.row) is None, f"{solution.engine}: {unmet(m, state.row)}"
            assert list(state.row) == solution.row
        else:
            assert solution.turns == []


# --- special cards -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "specials, outcome",
    [
        ("5 1 6", WIN),  # seat 1 trades a card for seat 2's P3 and plays it after P1 (colour after colour)
        ("5 6 1", LOSS),  # the trade card lies with seat 2, who never gets a turn: seat 1 has no P3
    ],
)
def test_special_1_trades_for_a_colour_card(specials, outcome):
    """Card 1: the trade brings the card the player then plays."""
    check(make_deal(specials, "2 3 4"), mission(2, hammocks=NONE, positions=fixed("P1", "P3")), outcome)


@pytest.mark.parametrize(
    "specials, aside, outcome",
    [
        ("3 1 4", "2 5 6", WIN),  # seat 1 trades for seat 2's card 4 and plays B6 with it in the same turn
        ("3 1 5", "2 4 6", LOSS),  # seat 2 has card 5 instead: P1 to B6 is no diagonal step, card 4 lies aside
    ],
)
def test_special_1_trades_for_a_special_card_used_at_once(specials, aside, outcome):
    """Card 1 on a special card: the received card 4 allows P1 -> B6 (two rows, five columns apart)."""
    check(make_deal(specials, aside), mission(2, hammocks=NONE, positions=fixed("P1", "B6")), outcome)


@pytest.mark.parametrize(
    "second, specials, outcome",
    [
        ("P3", "5 2 6", WIN),  # seat 1 names P3 (playable after P1) and seat 2 must hand it over
        ("P3", "5 6 2", LOSS),  # card 2 lies with seat 2: seat 1 has no P3
        ("B7", "5 2 6", LOSS),  # B7 is not playable after P1, so it cannot be named
    ],
)
def test_special_2_receives_a_named_playable_card(second, specials, outcome):
    """Card 2: receive a card from another hand, only one that may follow the last card."""
    check(make_deal(specials, "1 3 4"), mission(2, hammocks=NONE, positions=fixed("P1", second)), outcome)


@pytest.mark.parametrize(
    "second, specials, outcome",
    [
        ("P4", "3 5 6", WIN),  # seat 0 plays P1 and P4 (colour after colour) in its one turn
        ("P4", "5 3 6", LOSS),  # without card 3 seat 1 plays position 2, and P4 is seat 0's
        ("B5", "3 5 6", LOSS),  # B5 does not follow P1: the two cards must also follow each other
    ],
)
def test_special_3_plays_two_cards(second, specials, outcome):
    """Card 3: two colour cards in one turn, one after the other by the rules."""
    check(make_deal(specials, "1 2 4"), mission(2, hammocks=NONE, positions=fixed("P1", second)), outcome)


def step_specials(k: int | None) -> tuple[str, str]:
    """Return (specials, aside): card k at seat 1, card 3 at seat 0, another of 4-6 at seat 2 (None: any)."""
    k = k or 4
    rest = sorted(set(range(1, 7)) - {3, k})
    return f"3 {k} {rest[-1]}", " ".join(map(str, rest[:-1]))


@pytest.mark.parametrize(
    "first, second, k, outcome",
    [
        ("P1", "B6", 4, WIN),  # card 4: any card, here two rows and five columns away
        ("P1", "B6", None, LOSS),  # no special cards: B6 shares neither colour nor number with P1
        ("P1", "B6", 5, LOSS),  # (2 rows, 5 columns) is no diagonal
        ("P1", "B6", 6, LOSS),  # ... and no knight's move
        ("G3", "P2", 5, WIN),  # card 5: one step diagonally
        ("P1", "B3", 5, WIN),  # card 5: two steps diagonally
        ("G3", "P2", None, LOSS),  # a diagonal step needs card 5
        ("P1", "B3", 6, LOSS),  # two steps diagonally is no knight's move
        ("P4", "B3", 6, WIN),  # card 6: two rows and one column
        ("G3", "P5", 6, WIN),  # card 6: one row and two columns
        ("P4", "B3", 5, LOSS),  # a knight's move is no diagonal step
        ("P4", "B3", None, LOSS),
    ],
)
def test_special_cards_4_5_6_change_the_step(first, second, k, outcome):
    """Seat 0 plays `first`, seat 1 must follow with its own `second`, helped only by its special card k."""
    specials, aside = step_specials(k)
    m = mission(2, hammocks=NONE, specials=k is not None, positions=fixed(first, second))
    check(make_deal(specials, aside), m, outcome)


@pytest.mark.parametrize(
    "specials, aside, shell, outcome",
    [
        # seat 0 turns the one hammock and finds the shell (card 4 face up); seat 1 plays P2; seat 2 names
        # seat 0's B5 with its own card 2, made playable after P2 by the crew's card 4: two specials, one turn
        ("6 5 2", "4 1 3", 0, WIN),
        ("6 5 2", "4 1 3", 1, LOSS),  # the shell lies under a hammock not laid out: no card 4
        ("6 5 3", "4 1 2", 0, LOSS),  # card 4 but no card 2: B5 stays in seat 0's hand
        ("6 5 2", "1 4 3", 0, WIN),  # card 4 is set aside second: the shell's finder still chooses it
    ],
)
def test_two_special_cards_in_one_turn_own_and_shell(specials, aside, shell, outcome):
    """The player's own card 2 with the shell's card 4: receive B5 and play it after P2 (no common step)."""
    m = mission(2, hammocks=(1, 1, 1), positions=fixed("P2", "B5"))
    check(make_deal(specials, aside, shell), m, outcome)


# --- hammocks and the shell ------------------------------------------------------------------------


@pytest.mark.parametrize("hammocks, outcome", [(1, WIN), (0, LOSS)])
def test_a_hammock_passes_the_turn(hammocks, outcome):
    """P1 is seat 0's and B1 seat 2's: seat 1 must turn over a hammock in between."""
    m = mission(2, specials=False, hammocks=(hammocks,) * 3, positions=fixed("P1", "B1"))
    check(make_deal(), m, outcome)


def test_hammock_counts_for_three_four_and_five_players():
    """4/5/6 tokens for 3/4/5 players; the Ghost's game counts as three players."""
    m = mission(4)
    assert [m.hammocks_for(players) for players in (2, 3, 4, 5)] == [4, 4, 5, 6]
    assert mission(4, hammocks=(1, 2, 3)).hammocks_for(2) == 1


# P1 and P4 are seat 0's; P7 is seat 0's (3 players) or seat 3's (4, 5 players). Playing P1, P4, P7 at
# positions 1-3 turns over (seats - 1) hammocks between P1 and P4, then 2 more (3 players: back to seat 0;
# 4 and 5 players: seats 1 and 2 before seat 3): 4, 5 and 6 tokens, exactly the default counts.
HAMMOCK_DEALS = {
    3: MOD3,
    4: "P1 P4 G3 G1 G2 G4 | P2 P3 P5 P6 G5 | G6 G7 B1 B2 B3 | P7 B4 B5 B6 B7",
    5: "P1 P4 G3 G1 G2 | P2 P3 P5 P6 | G4 G5 G6 G7 | P7 B1 B2 B3 | B4 B5 B6 B7",
}


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("fewer, outcome", [(0, WIN), (1, LOSS)])
def test_hammock_exhaustion_with_the_default_counts(players, fewer, outcome):
    """The default count is just enough; one token fewer and a seat without a playable card is stuck."""
    specials = " ".join(map(str, range(1, players + 1)))
    aside = " ".join(map(str, range(players + 1, 7)))
    hammocks = list(DEFAULT_HAMMOCKS)
    hammocks[players - 3] -= fewer
    m = mission(3, specials=False, hammocks=tuple(hammocks), positions=fixed("P1", "P4", "P7"))
    assert m.hammocks_for(players) == players + 1 - fewer
    check(make_deal(specials, aside, hands=HAMMOCK_DEALS[players]), m, outcome)


# Rulebook: "Shuffle the six hammock tokens and lay out as many as the mission requires, with the
# hammocks facing up"; "turn over a hammock token"; "One of the hammock tokens has a shell on the other
# side. If you uncover it, you're in luck. You may then turn over one of the face-down special cards that
# were set aside". Under perfect information the crew sees which token hides the shell and which cards lie
# aside, so it chooses the token (the shell's, if laid out: deal field `shell` < tokens laid out) and the card.


@pytest.mark.parametrize(
    "hammocks, shell, aside, outcome",
    [
        (2, 0, "4 1 2", WIN),  # seat 0's hammock finds the shell: card 4 face up for the crew
        (2, 1, "4 1 2", WIN),  # the shell is the second token; seat 0 or seat 1 turns it
        (2, 2, "4 1 2", LOSS),  # the shell lies under the third token, which is not laid out
        (3, 2, "4 1 2", WIN),  # laid out (the last of three): seat 0 turns the shell's token first
        (2, 1, "1 4 2", WIN),  # card 4 is set aside second: the finder chooses it
        (1, 0, "4 1 2", LOSS),  # one hammock fewer: seat 1 cannot pass and has no P3
    ],
)
def test_the_shell_with_any_laid_out_token_and_any_set_aside_card(hammocks, shell, aside, outcome):
    """Seats 0 and 1 pass, seat 2 plays P3, then seat 0 plays G6 (one row, three columns away) with card 4.

    The seats' own cards 3, 5 and 6 do not help: P3 -> G6 is neither diagonal nor a knight's move.
    """
    m = mission(2, hammocks=(hammocks,) * 3, positions=fixed("P3", "G6"))
    check(make_deal("3 5 6", aside, shell), m, outcome)


@pytest.mark.parametrize(
    "hammocks, shell, aside, outcome",
    [
        (1, 0, "4 1 2", WIN),  # seat 0 turns the one token, the shell: card 4 face up; P2; B7 with card 4
        (2, 1, "4 1 2", WIN),  # the shell is the last token laid out; seat 0 still turns it first
        (2, 1, "2 1 4", WIN),  # card 4 is the last card set aside
        (2, 2, "4 1 2", LOSS),  # the shell is not laid out: no card 4, and seat 2 has no other way to B7
        (1, 1, "4 1 2", LOSS),  # the one token laid out is a plain one
    ],
)
def test_the_shell_after_a_single_hammock(hammocks, shell, aside, outcome):
    """P2 (seat 1's) then B7 (seat 2's, two rows and five columns away: only card 4 allows it).

    Seat 0 must pass, with one hammock; seat 2 then needs card 4 face up, so the first hammock must be
    the shell's, whatever its place among the laid-out tokens.
    """
    m = mission(2, hammocks=(hammocks,) * 3, positions=fixed("P2", "B7"))
    check(make_deal("3 5 6", aside, shell), m, outcome)


# --- who starts: the coconut, or the coin with the Ghost ----------------------------------------------

COCONUT_AT_1 = "P1 P4 P7 G1 G6 B2 B5 | P2 P5 G3 G4 G7 B3 B6 | P3 P6 G2 G5 B1 B4 B7"  # MOD3, G1 <-> G3
COCONUT_AT_2 = "P1 P4 P7 G2 G6 B2 B5 | P2 P5 G1 G4 G7 B3 B6 | P3 P6 G3 G5 B1 B4 B7"  # MOD3, G2 <-> G3


@pytest.mark.parametrize(
    "hands, card, outcome",
    [
        (MOD3, "P1", WIN),  # seat 0 holds the coconut and P1
        (MOD3, "P2", LOSS),  # P2 is seat 1's, who does not start
        (COCONUT_AT_1, "P2", WIN),  # now seat 1 holds the coconut and starts
        (COCONUT_AT_1, "P1", LOSS),
    ],
)
def test_the_coconut_holder_plays_first(hands, card, outcome):
    """One card to play, no hammock: only the first seat gets a turn."""
    check(make_deal(hands=hands), plain(1, positions=fixed(card)), outcome)


@pytest.mark.parametrize(
    "extra, card, outcome",
    [
        (" ; ghost ; first 0", "P1", WIN),  # the coin gives seat 0 the first turn, though the Ghost has G3
        (" ; ghost ; first 1", "P1", LOSS),
        (" ; ghost ; first 1", "P2", WIN),
        ("", "P1", LOSS),  # the same hands with three players: the coconut's holder, seat 2, starts
        ("", "P3", WIN),
    ],
)
def test_the_ghost_game_starts_with_the_coin(extra, card, outcome):
    """Two players and the Ghost (seat 2): seat 0 or 1 starts, not the coconut's holder."""
    deal = make_deal(hands=COCONUT_AT_2, extra=extra)
    assert deal.first == {" ; ghost ; first 0": 0, " ; ghost ; first 1": 1, "": 2}[extra]
    check(deal, plain(1, positions=fixed(card)), outcome)


@pytest.mark.parametrize("first, outcome", [(0, WIN), (1, LOSS)])
def test_the_ghost_plays_its_own_cards(first, outcome):
    """P1 G1 B1 needs seats 0, 1 and then the Ghost (seat 2); starting at seat 1, P1 never comes first."""
    deal = make_deal(extra=f" ; ghost ; first {first}")
    assert deal.players == 2 and deal.seats == 3
    check(deal, plain(3, positions=fixed("P1", "G1", "B1")), outcome)


@pytest.mark.parametrize("hammocks, outcome", [((1, 0, 0), WIN), ((0, 1, 1), LOSS)])
def test_the_ghost_game_uses_the_three_player_hammocks(hammocks, outcome):
    """P1 (seat 0) then B1 (the Ghost's) needs one hammock: the 3-player number counts for two players."""
    m = mission(2, specials=False, hammocks=hammocks, positions=fixed("P1", "B1"))
    check(make_deal(extra=" ; ghost ; first 0"), m, outcome)


# --- objectives (MOD3, no hammocks, no special cards) -----------------------------------------------


@pytest.mark.parametrize(
    "row, outcome",
    [
        (0, WIN),  # P1 G1 B1 B2 B3: B1 at position 3, in the white row
        (1, LOSS),  # five cards: the grey row is position 5 alone, seat 1's; B1 is seat 2's
    ],
)
def test_a_card_in_a_row(row, outcome):
    in_row = [0, 0, 0]
    in_row[row] = parse_cards("B1")
    check(make_deal(), plain(5, in_row=tuple(in_row)), outcome)


@pytest.mark.parametrize(
    "cards, outcome",
    [
        (3, WIN),  # P1 G1 B1
        (2, LOSS),  # B1 (seat 2's) comes at position 3 at the earliest
    ],
)
def test_a_card_anywhere(cards, outcome):
    check(make_deal(), plain(cards, anywhere=parse_cards("B1")), outcome)


@pytest.mark.parametrize(
    "order, outcome",
    [
        (("P1", "B1"), WIN),  # P1 G1 B1
        (("B1", "P1"), LOSS),  # in three cards B1 can only be the last, with P1 before it
    ],
)
def test_cards_in_order(order, outcome):
    check(make_deal(), plain(3, order=tuple(map(parse_card, order))), outcome)


@pytest.mark.parametrize(
    "forbid, outcome",
    [
        ("", WIN),  # P1 G1 B1
        ("G1", LOSS),  # after P1 seat 1 may play P2, P5 or G1, and only G1 leads on to B1
    ],
)
def test_a_forbidden_card(forbid, outcome):
    m = plain(3, positions=fixed("P1"), anywhere=parse_cards("B1"), forbidden=parse_cards(forbid))
    check(make_deal(), m, outcome)


@pytest.mark.parametrize(
    "rule, outcome",
    [
        (None, WIN),  # P1 G1 B1
        (NON_INCREASING, WIN),  # P1 G1 B1: 1, 1, 1
        (INCREASING, LOSS),  # B1 lies at position 3: two smaller numbers would have to come first
    ],
)
def test_a_row_rule_inside_the_row(rule, outcome):
    m = plain(3, in_row=(parse_cards("B1"), 0, 0), row_rules=(rule, None, None))
    check(make_deal(), m, outcome)


# Rulebook: "If the numbers must increase or decrease, the beginning of the gray row directly follows the end
# of the white row. The same goes for the gray and black rows." Our reading: a row's rule also compares its
# first card with the last card of the row before it, so at a row boundary the later row's rule applies.


@pytest.mark.parametrize(
    "white, grey, last, outcome",
    [
        # G4 at position 5 (seat 1's); position 4 (seat 0) must be P4, G3 or G6 to lead to it.
        (INCREASING, None, "G4", WIN),  # P1 P2 P3 P4 G4: the grey row has no rule
        (INCREASING, NON_INCREASING, "G4", WIN),  # P1 P2 P3 P4 G4: grey's rule from position 4, 4 >= 4
        (INCREASING, INCREASING, "G4", LOSS),  # G3 at 4 (below 4), and below 3 only 1 and 2 for positions 1-3
        # G7 at position 5; position 4 must be G3, G6 or P7 to lead to it.
        (NON_INCREASING, None, "G7", WIN),  # P7 P5 G5 G3 G7
        (NON_INCREASING, INCREASING, "G7", WIN),  # P7 P5 G5 G3 G7: grey's rule from position 4, 3 < 7
        (NON_INCREASING, NON_INCREASING, "G7", LOSS),  # P7 at 4, and seat 0 has no other 7 for position 1
    ],
)
def test_a_row_rule_across_the_row_boundary(white, grey, last, outcome):
    m = plain(5, row_rules=(white, grey, None), positions=((5, parse_card(last)),))
    check(make_deal(), m, outcome)


@pytest.mark.parametrize(
    "rules, position, card, outcome",
    [
        # Five cards, one at position 4 (seat 0's); position 5 is seat 1's: after P7 only P2, P5 or G7.
        ((None, INCREASING, None), 4, "P7", LOSS),  # the grey row starts above the white row's 7: none of them
        ((None, INCREASING, None), 4, "P4", WIN),  # P1 P2 P3 P4 P5: 5 > 4
        ((None, None, None), 4, "P7", WIN),  # P1 P2 P3 P7 P5: without rules any of them
        ((INCREASING, None, None), 4, "P7", WIN),  # P1 P2 P3 P7 P5: the white row's rule ends with the row
        ((None, INCREASING, None), 5, "G1", LOSS),  # an increasing grey row cannot open with a 1 after any card
        # Nine cards, G7 at position 8 (seat 1's); position 9 (seat 2's) follows it with G2, G5 or B7.
        ((None, None, INCREASING), 8, "G7", LOSS),  # the black row starts above the grey row's 7: none of them
        ((None, None, None), 8, "G7", WIN),  # P1 P2 P3 P4 P5 P6 P7 G7 G2
    ],
)
def test_a_row_rule_binds_the_first_card_of_its_row(rules, position, card, outcome):
    """The later row's rule, though the earlier row has no rule (or another one)."""
    m = plain(9 if position == 8 else 5, row_rules=rules, positions=((position, parse_card(card)),))
    check(make_deal(), m, outcome)


@pytest.mark.parametrize(
    "position, outcome",
    [
        (3, WIN),  # P1 G1 B1
        (2, LOSS),  # position 2 is seat 1's turn, and B1 is seat 2's
    ],
)
def test_a_card_at_a_fixed_position(position, outcome):
    check(make_deal(), plain(3, positions=((position, parse_card("B1")),)), outcome)


@pytest.mark.parametrize(
    "rows, outcome",
    [
        ((), WIN),  # P1 G1 B1 B2 B3 B4: B1 at 3 and B4 at 6
        ((0,), LOSS),  # seat 2 plays only position 3 of the white row
        ((1,), LOSS),  # ... and only position 6 of the grey row (positions 5-6)
        ((0, 1), WIN),
    ],
)
def test_count_at_least_in_rows(rows, outcome):
    """At least two of B1 B4 B7 (all seat 2's), in the given rows."""
    count = CardCount(parse_cards("B1 B4 B7"), rows, at_least=2)
    check(make_deal(), plain(6, counts=(count,)), outcome)


@pytest.mark.parametrize(
    "at_most, outcome",
    [
        (2, WIN),  # P1 G1 B1 is the only line
        (1, LOSS),  # ... and it plays both G1 and B1
    ],
)
def test_count_at_most(at_most, outcome):
    count = CardCount(parse_cards("G1 B1"), at_most=at_most)
    check(make_deal(), plain(3, positions=fixed("P1"), anywhere=parse_cards("B1"), counts=(count,)), outcome)


@pytest.mark.parametrize(
    "rows, outcome",
    [
        ((1,), WIN),  # P1 G1 B1 B2 B3: G1 lies in the white row, none in the grey row
        ((0,), LOSS),  # with P1 first and B1 at position 3, position 2 must be G1
    ],
)
def test_count_at_most_in_a_row(rows, outcome):
    count = CardCount(parse_cards("G1"), rows, at_most=0)
    check(make_deal(), plain(5, positions=fixed("P1"), anywhere=parse_cards("B1"), counts=(count,)), outcome)


@pytest.mark.parametrize(
    "row_length, row, outcome",
    [
        (4, 0, WIN),  # P1 P2 P3 G3 G4 G5 G6 G7 B7: G3 at position 4, the end of the white row of four
        (3, 0, LOSS),  # in rows of three position 4 opens the grey row; positions 2 and 3 are not seat 0's
        (3, 1, WIN),  # the same line, G3 first in the grey row
    ],
)
def test_rows_of_three(row_length, row, outcome):
    """Nine cards, P1 first: seat 0's G3 can only come at position 4 or 7."""
    in_row = [0, 0, 0]
    in_row[row] = parse_cards("G3")
    check(make_deal(), plain(9, row_length=row_length, positions=fixed("P1"), in_row=tuple(in_row)), outcome)


@pytest.mark.parametrize(
    "grey, outcome",
    [
        (None, WIN),  # P1 P2 P3 G3 G4 G5 G6 G7 B7
        (NON_INCREASING, WIN),  # P1 P2 P3 G3 G1 B1 B2 B3 B4: the grey row 3, 1, 1
        (INCREASING, LOSS),  # 3 and 4 are neighbours: position 3 must be G2, below it only a 1
    ],
)
def test_rows_of_three_link_positions_3_and_4(grey, outcome):
    """Nine cards in rows of three, white increasing, G3 at position 4: position 3 (seat 2) is G2, G5 or P3."""
    m = plain(9, row_length=3, row_rules=(INCREASING, grey, None), positions=((4, parse_card("G3")),))
    check(make_deal(), m, outcome)


# --- apply_turn refuses illegal turns ----------------------------------------------------------------

P1, P2, P4, P7, B6 = map(parse_card, ("P1", "P2", "P4", "P7", "B6"))


def start(specials="1 2 3", aside="4 5 6", shell=0, **fields):
    deal = make_deal(specials, aside, shell)
    return initial_state(deal, mission(fields.pop("cards", 4), **fields))


def test_legal_turns_are_applied():
    state = apply_turn(start("3 1 4", "2 5 6"), Turn(0, plays=(Play(P1), Play(P4))))
    assert state.row == (P1, P4) and state.seat == 1 and not state.specials[0]
    swap = Trade(partner=2, give=P2, receive=special_item(4))
    state = apply_turn(state, Turn(1, trade=swap, plays=(Play(B6, frozenset({4})),)))
    assert state.row == (P1, P4, B6) and state.seat == 2
    assert state.hands[2] & parse_cards("P2") and state.specials == (0, 0, 0)
    state = apply_turn(state, Turn(2, hammock=True))
    assert state.plain == 2 and state.shell_up and state.pool == 0  # 4 tokens, the shell's among them
    state = apply_turn(state, Turn(0, hammock=True, shell=True, shell_card=6))  # the last card set aside
    assert state.plain == 2 and not state.shell_up and state.pool == 1 << 6 and state.aside == 1 << 2 | 1 << 5
    state = apply_turn(state, Turn(1, plays=(Play(parse_card("G4"), frozenset({6})),)))  # B6 -> G4: a knight's move
    assert state.pool == 0 and state.finished


def test_without_special_cards_the_shell_turns_over_none():
    state = initial_state(make_deal(), mission(4, specials=False))
    with pytest.raises(IllegalTurn, match="special card 4 is not set aside"):
        apply_turn(state, Turn(0, hammock=True, shell=True, shell_card=4))
    assert apply_turn(state, Turn(0, hammock=True, shell=True)).pool == 0


@pytest.mark.parametrize(
    "turn, words, compact, as_json",
    [
        (Turn(1, hammock=True), "seat 1: hammock", "-", {"seat": 1, "hammock": True}),
        (Turn(1, hammock=True, shell=True, shell_card=4), "seat 1: hammock, shell: S4 face up", "-S4",
         {"seat": 1, "hammock": True, "shell": "S4"}),
        (Turn(1, hammock=True, shell=True), "seat 1: hammock, shell: no special card", "-S",
         {"seat": 1, "hammock": True, "shell": None}),
    ],
)
def test_a_hammock_in_words_compact_and_json(turn, words, compact, as_json):
    assert (describe_turn(turn), compact_turn(turn), turn_json(turn)) == (words, compact, as_json)


def test_the_shell_may_be_found_without_taking_a_card():
    """"You may then turn over one of the face-down special cards": taking none is legal (and never better)."""
    state = apply_turn(start(), Turn(0, hammock=True, shell=True))
    assert not state.shell_up and state.pool == 0 and state.aside == 0b1110000 and state.plain == 3


@pytest.mark.parametrize(
    "fields, before, turn, words",
    [
        ({}, [], Turn(1, plays=(Play(P2),)), "seat 0's turn"),
        ({}, [], Turn(0, plays=(Play(P2),)), "may not play P2"),  # P2 is seat 1's
        ({}, [Turn(0, plays=(Play(P1),))], Turn(1, plays=(Play(B6),)), "may not play B6"),  # no common step
        ({}, [Turn(0, plays=(Play(P1),))], Turn(1, plays=(Play(B6, frozenset({4})),)), "special card 4"),
        ({}, [], Turn(0, plays=(Play(P1), Play(P4))), "special card 3"),  # seat 0 holds card 1
        ({"hammocks": NONE}, [], Turn(0, hammock=True), "no hammock"),
        ({"cards": 1}, [Turn(0, plays=(Play(P1),))], Turn(1, plays=(Play(P2),)), "all its cards"),
        ({"hammocks": (1, 1, 1)}, [Turn(0, hammock=True, shell=True, shell_card=4)], Turn(1, hammock=True),
         "no hammock"),
        # the shell: its token laid out and face up, a card set aside, only with a hammock
        ({"hammocks": (1, 1, 1)}, [], Turn(0, hammock=True), "only the shell's token is left"),
        ({"shell": 4}, [], Turn(0, hammock=True, shell=True, shell_card=4), "not laid out"),  # 4 tokens: 0-3
        ({"shell": 3}, [Turn(0, hammock=True, shell=True, shell_card=4)], Turn(1, hammock=True, shell=True),
         "already turned over"),
        ({}, [], Turn(0, hammock=True, shell=True, shell_card=1), "special card 1 is not set aside"),  # seat 0's
        ({}, [], Turn(0, hammock=True, shell=True, shell_card=7), "special card 7 is not set aside"),
        ({}, [], Turn(0, hammock=True, shell_card=4), "only the shell's token turns over"),
        ({}, [], Turn(0, plays=(Play(P1),), shell=True, shell_card=4), "only a hammock finds the shell"),
        ({}, [], Turn(0, hammock=True, plays=(Play(P1),)), "hammock ends the turn"),
        ({}, [], Turn(0, plays=()), "one colour card"),
        ({}, [], Turn(0, trade=Trade(1, P2, parse_card("P5")), plays=(Play(P1),)), "seat 0 does not hold P2"),
        ({}, [], Turn(0, trade=Trade(0, P4, P7), plays=(Play(P1),)), "cannot trade with seat 0"),
        ({}, [Turn(0, plays=(Play(P1),))], Turn(1, trade=Trade(0, P2, P4), plays=(Play(P2),)), "special card 1"),
    ],
)
def test_illegal_turns_are_refused(fields, before, turn, words):
    state = start(shell=fields.pop("shell", 0), **fields)
    for legal in before:
        state = apply_turn(state, legal)
    with pytest.raises(IllegalTurn, match=words):
        apply_turn(state, turn)


def test_more_cards_than_the_mission_plays_are_refused():
    """Seat 0 holds card 3, but a one-card mission has no room for a second card."""
    state = start("3 1 2", "4 5 6", cards=1)
    with pytest.raises(IllegalTurn, match="only 1 colour cards"):
        apply_turn(state, Turn(0, plays=(Play(P1), Play(P4))))
    assert apply_turn(start("3 1 2", "4 5 6", cards=2), Turn(0, plays=(Play(P1), Play(P4)))).finished


def test_replay_names_the_illegal_turn():
    deal = make_deal()
    with pytest.raises(IllegalTurn, match="turn 2: "):
        replay(deal, mission(3), [Turn(0, plays=(Play(P1),)), Turn(1, plays=(Play(P7),))])
