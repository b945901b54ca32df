"""The 96 Deep Sea task cards (solver/missions/deep_sea.toml): a hand-built WIN and LOSS deal for every card.

Each row is one card on one tiny deal, drafted alone (`drafted_cards`: the captain takes it), solved by
the plain reference engine, the kernel and the CP-SAT model over every setup (`mission_setups`: the drafted
holder, and one setup per alternative of an `any` rule); the mission is won when some setup is won. The card alone as a mission
(deep-sea/44) is held by the player the crew chooses: `test_card_alone_is_the_crews_choice`. The comment above each card quotes its condition
(../shared/missions/deep-sea-tasks.md); each row's `why` says in a few words why the outcome is forced.

Conventions of the deals: seats are numbered clockwise from 0; the holder of r4 (submarine 4) is the
captain and leads trick 1; in a deal without r4 the row names the captain (`commander`). With one card
the captain holds it, but cards 4-6 go to the next seat clockwise (captain + 1). Deals are three
players unless they have more hands. Words used in the `why`s: "top pink" = the highest pink left, so
it wins a pink trick when nobody can trump; "forced" = the only legal card.

Cards 90 and 91 (announce the trick count) never fail under perfect information (the holder announces
the count of a winning line), so they have WIN rows only; `test_every_card_has_both_outcomes` checks
that every other card has at least one WIN and one LOSS row.
"""

import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import check_witness

import solver.missions
from solver.api import SolveRequest, solve
from solver.core.deal import parse_deal
from solver.core.solution import Outcome
from solver.engines import cpsat, reference
from solver.engines.kernel import KernelSolver
from solver.missions.mission import drafted_cards, find_mission
from solver.missions.setup import mission_setups

W, L = Outcome.WIN, Outcome.LOSS
NEVER_FAILS = {"90", "91"}  # the announcement cards: a LOSS deal cannot exist
ENGINES = {"reference": reference.solve, "kernel": KernelSolver(tt_bits=16).solve, "cpsat": cpsat.solve}


@dataclass(frozen=True)
class Row:
    card: str  # the card's number, or the name of an alternative reading ("46-colour-only")
    tag: str  # "win", "loss", or "win-..."/"loss-..." when a card has several of one kind
    deal: str
    commander: int | None  # the captain when r4 is not dealt (None: the holder of r4)
    outcome: Outcome
    why: str

    @property
    def id(self) -> str:
        return f"{self.card}-{self.tag}"

    @property
    def mission(self) -> str:
        return f"deep-sea/{self.card}"


ROWS = [
    # 1: "At the end, holder's trick count > the count of each other player (strict)."
    Row("1", "win", "r4 r3 p1 p2 | p5 p6 p7 p8 | p9 b1 b2 b3", None, W,
        "p1 to seat 2's forced p9, seat 2 leads blue and r3 trumps, r4, then p2 to seat 1: 2 / 1 / 1"),
    Row("1", "loss", "r4 p1 | p5 p6 | b1 b2", None, L,
        "the holder wins only with r4 (p1 always meets a higher pink of seat 1): 1 / 1 / 0, a tie"),
    # 2: "At the end, holder's tricks > sum of all other players' tricks."
    Row("2", "win", "r4 r3 p1 | p5 p6 p7 | b1 b2 b3", None, W,
        "r4 and r3 win, p1 loses to seat 1: 2 > 1"),
    Row("2", "loss", "r4 r3 p1 p2 | p5 p6 p7 p8 | p9 b1 b2 b3", None, L,
        "two trumps, and both pinks meet higher pinks: at most 2 of 4 tricks, 2 > 2 fails (card 1 wins here)"),
    # 3: "At the end, holder's count < the count of each other player (strict)."
    Row("3", "win", "p1 p2 | p5 b9 | p6 b2", 0, W,
        "p1 to seat 2's forced p6, seat 2 leads b2 to seat 1's b9: 0 / 1 / 1"),
    Row("3", "loss", "p1 p2 | p5 p6 | b1 b2", 0, L,
        "only pinks are ever led and seat 1 wins both: seat 2 has 0 too, 0 < 0 fails"),
    # 4: "Holder != captain. At the end, holder's count > captain's count." (holder: captain + 1 = seat 1)
    Row("4", "win", "p1 p2 | p8 p9 | b1 b2", 0, W,
        "seat 1 beats both of the captain's pinks: 2 > 0"),
    Row("4", "loss", "p8 p9 | p1 p2 | b1 b2", 0, L,
        "the captain's pinks beat seat 1's: 0 > 2 fails"),
    Row("4", "loss-r4", "r4 p1 | p8 p9 | b1 b2", None, L,
        "the captain (r4) wins the r4 trick, seat 1 the p1 trick: 1 > 1 fails"),
    # 5: "Holder != captain. At the end, holder's count < captain's count." (holder: seat 1)
    Row("5", "win", "p8 p9 | p1 p2 | b1 b2", 0, W,
        "the captain's pinks beat seat 1's: 0 < 2"),
    Row("5", "loss", "p1 p2 | p8 p9 | b1 b2", 0, L,
        "seat 1 beats both of the captain's pinks: 2 < 0 fails"),
    Row("5", "loss-r4", "r4 p1 | p8 p9 | b1 b2", None, L,
        "the captain (r4) wins the r4 trick, seat 1 the p1 trick: 1 < 1 fails"),
    # 6: "Holder != captain. At the end, holder's count = captain's count." (holder: seat 1)
    Row("6", "win", "p9 p1 | p8 p2 | b1 b2", 0, W,
        "seat 1 plays p2 under p9, then p8 over p1: 1 = 1"),
    Row("6", "win-r4", "r4 p1 | p8 p9 | b1 b2", None, W,
        "the captain is the holder of r4 (seat 0) and wins the r4 trick, seat 1 the p1 trick: 1 = 1"),
    Row("6", "loss", "p8 p9 | p1 p2 | b1 b2", 0, L,
        "the captain's pinks beat seat 1's: 2 against 0"),
    # 7: "Holder wins >= 1 trick with no submarine in which every card has value <= 6."
    Row("7", "win", "p6 p5 | p1 p2 | b1 b2", 0, W,
        "the holder's p6 wins a trick of p6, p1/p2, b1/b2"),
    Row("7", "loss", "p6 p5 | p1 p2 | b7 b8", 0, L,
        "every trick holds b7 or b8 of seat 2"),
    Row("7", "loss-submarine", "r3 r2 | p1 p2 | b1 b2", 0, L,
        "the holder holds only submarines, so every trick he wins holds one"),
    # 8: "Holder wins >= 1 trick in which every card has value >= 6" (a submarine spoils it).
    Row("8", "win", "p9 p8 | p6 p7 | b6 b7", 0, W,
        "every card is 6 or higher and the top pinks win"),
    Row("8", "loss", "p9 p8 | p6 p7 | b5 b4", 0, L,
        "every trick holds b5 or b4 of seat 2"),
    Row("8", "loss-submarine", "r4 r3 | p6 p7 | b6 b7", None, L,
        "the holder holds only submarines (numbers 4 and 3), so every trick he wins holds one"),
    # 9: "Holder wins >= 1 trick whose winning card is a colour 6."
    Row("9", "win", "p6 p1 | p2 p3 | b1 b2", 0, W, "the holder leads p6, the top pink"),
    Row("9", "loss", "p6 p1 | p7 p8 | b1 b2", 0, L, "seat 1 always has a pink above p6"),
    # 10: "As 9 with a colour 5."
    Row("10", "win", "p5 p1 | p2 p3 | b1 b2", 0, W, "the holder leads p5, the top pink"),
    Row("10", "loss", "p5 p1 | p6 p7 | b1 b2", 0, L, "seat 1 always has a pink above p5"),
    # 11: "As 9 with a colour 3."
    Row("11", "win", "p3 p1 | p2 b1 | b2 b3", 0, W, "the holder leads p3, seat 1's p2 is forced"),
    Row("11", "loss", "p3 p1 | p4 p5 | b1 b2", 0, L, "seat 1 always has a pink above p3"),
    # 15: "As 9 with a colour 2."
    Row("15", "win", "p2 b1 | p1 b2 | g1 g2", 0, W, "the holder leads p2, seat 1's p1 is forced"),
    Row("15", "loss", "p2 p1 | p3 p4 | b1 b2", 0, L, "seat 1 always has a pink above p2"),
    # 12: "Holder wins >= 1 trick whose winning card is a colour 7 and which also contains a colour 5."
    Row("12", "win", "p7 p1 | p5 p2 | b1 b2", 0, W, "the holder leads p7 and seat 1 plays p5 under it"),
    Row("12", "loss", "p7 p5 | p1 p2 | b1 b2", 0, L,
        "the only 5 is the holder's own, played in another trick than his p7"),
    # 13: "Holder wins >= 1 trick whose winning card is a colour 4 and which contains a colour 8."
    Row("13", "win", "p4 p1 | p2 p3 | b8 b1", 0, W, "the holder leads p4, seat 2 discards b8 on it"),
    Row("13", "loss", "p4 p1 | p2 p3 | p8 b1", 0, L,
        "the 8 is pink: seat 2 must play p8 on the first pink lead (trick 1) and it beats p4"),
    # 14: "Holder wins >= 1 trick whose winning card is a colour 6 and which contains another colour 6."
    Row("14", "win", "p6 p1 | p2 p3 | b6 b1", 0, W, "the holder leads p6, seat 2 discards b6 on it"),
    Row("14", "loss", "p6 b6 | p2 p3 | g1 g2", 0, L,
        "both 6s are the holder's, in two tricks: each of his 6-wins holds one 6 only"),
    # 16: "Holder wins the trick containing pink 3."
    Row("16", "win", "p9 p1 | p3 p2 | b1 b2", 0, W, "the holder leads p9 and seat 1 plays p3 under it"),
    Row("16", "loss", "p2 b9 g9 | p3 b1 g1 | p1 y1 y2", 0, L,
        "seat 1 follows blue and green with b1, g1 and plays p3 only on pink, over p2 "
        "(the holder can win p1, via b9 and seat 2's discard: not the card)"),
    # 17: "Holder wins the trick containing yellow 1."
    Row("17", "win", "y9 p1 | y1 p2 | b1 b2", 0, W, "the holder leads y9, seat 1's y1 is forced"),
    Row("17", "loss", "p1 p2 | p3 y1 | b1 b2", 0, L,
        "seat 1 wins trick 1 with the forced p3 and leads y1, which nobody can beat"),
    # 18: "Holder wins the trick containing blue 4."
    Row("18", "win", "b9 p1 | b4 p2 | g1 g2", 0, W, "the holder leads b9, seat 1's b4 is forced"),
    Row("18", "loss", "b3 p1 | b4 p2 | g1 g2", 0, L, "b4 only ever meets the holder's b3, which it beats"),
    # 19: "Holder wins the trick containing green 6."
    Row("19", "win", "g9 p1 | g6 p2 | b1 b2", 0, W, "the holder leads g9, seat 1's g6 is forced"),
    Row("19", "loss", "g5 p1 | g6 p2 | b1 b2", 0, L, "g6 only ever meets the holder's g5, which it beats"),
    # 20: "Holder wins all four colour 3s."
    Row("20", "win", "p9 b9 | p3 b3 | g3 y3", 0, W, "the holder's p9 and b9 win both tricks, every card a 3"),
    Row("20", "loss", "p9 b1 | p3 b3 | g3 y3", 0, L,
        "b1 loses to seat 1's b3 (kept for the blue trick), and every trick holds a 3 of seat 2"),
    # 21: "Holder wins >= 3 of the four colour 5s."
    Row("21", "win", "p9 b9 | p5 b5 | g5 y1", 0, W, "the holder wins both tricks: p5, b5, g5"),
    Row("21", "loss", "p9 b1 | p5 b5 | g5 y1", 0, L,
        "b1 loses to seat 1's b5, so the holder wins one trick: at most p5 and g5"),
    # 22: "Holder wins >= 3 of the four colour 9s."
    Row("22", "win", "r4 r3 | p9 p8 | g9 b9", None, W, "the trumps win both tricks: p9, g9, b9"),
    Row("22", "loss", "r4 p1 | p9 p8 | g9 b9", None, L,
        "p1 always loses to a pink of seat 1 and that trick holds a 9 of seat 2: at most two 9s"),
    # 23: "Holder wins >= 2 of the four colour 7s."
    Row("23", "win", "p9 b9 | p7 b7 | g1 b1", 0, W, "the holder's top p9 and b9 win p7 and b7"),
    Row("23", "loss", "p9 b1 | p7 b7 | g1 b9", 0, L,
        "the 7s are one seat's, so in two tricks; the blue trick goes to b7 or b9, never to b1"),
    # 24: "Holder wins all four colour 9s." (four players)
    Row("24", "win", "r4 r3 | p9 p2 | g9 g1 | y9 b9", None, W, "the trumps win both tricks, every 9 among them"),
    Row("24", "loss", "r4 p1 | p9 p2 | g9 g1 | y9 b9", None, L,
        "p1 loses to seat 1's pink, and that trick holds y9 or b9 of seat 3"),
    # 25: "At the end, holder has won exactly 3 colour 6s."
    Row("25", "win", "p9 b9 | p6 b6 | g6 y1", 0, W, "the holder wins both tricks: p6, b6, g6"),
    Row("25", "loss", "p9 b9 | p6 b6 | g6 y6", 0, L, "the holder's top pink and blue win both tricks: four 6s"),
    # 26: "At the end, holder has won exactly 2 colour 9s."
    Row("26", "win", "r4 p1 | p9 p8 | g9 b1", None, W, "p9 and g9 discarded on r4, p1 loses"),
    Row("26", "loss", "r4 r3 | p9 b9 | g9 y9", None, L, "the trumps win both tricks: four 9s"),
    # 27: "Holder wins blue 1, blue 2 and blue 3."
    Row("27", "win", "b9 b8 | b1 b2 | b3 p1", 0, W, "the holder's top blues win both tricks"),
    Row("27", "loss", "b9 b1 | b2 b3 | p1 p2", 0, L, "the holder's own b1 meets a higher blue of seat 1"),
    # 28: "Holder wins blue 6 and yellow 7."
    Row("28", "win", "b9 y9 | b6 y7 | p1 p2", 0, W, "b9 and y9 draw the forced b6 and y7"),
    Row("28", "loss", "b9 y1 | b6 y7 | p1 p2", 0, L, "y7 only ever meets the holder's y1, which it beats"),
    # 29: "Holder wins pink 5 and yellow 6."
    Row("29", "win", "p9 y9 | p5 y6 | b1 b2", 0, W, "p9 and y9 draw the forced p5 and y6"),
    Row("29", "loss", "p9 y1 | p5 y6 | b1 b2", 0, L, "y6 only ever meets the holder's y1, which it beats"),
    # 30: "Holder wins green 5 and blue 8."
    Row("30", "win", "g9 b9 | g5 b8 | p1 p2", 0, W, "g9 and b9 draw the forced g5 and b8"),
    Row("30", "loss", "g9 b1 | g5 b8 | p1 p2", 0, L, "b8 only ever meets the holder's b1, which it beats"),
    # 31: "Holder wins blue 5 and pink 8."
    Row("31", "win", "b9 p9 | b5 p8 | g1 g2", 0, W, "b9 and p9 draw the forced b5 and p8"),
    Row("31", "loss", "b9 p1 | b5 p8 | g1 g2", 0, L, "p8 only ever meets the holder's p1, which it beats"),
    # 32: "Holder wins pink 9 and yellow 8."
    Row("32", "win", "r4 y9 | p9 y8 | b1 b2", None, W, "seat 1 discards p9 on r4, then y9 draws y8"),
    Row("32", "loss", "r4 y1 | p9 y8 | y2 y3", None, L,
        "y1 always loses (seat 2 keeps a yellow above it) and that trick holds p9 or y8 of seat 1"),
    # 33: "Holder wins pink 1 and green 7."
    Row("33", "win", "p9 g9 | p1 g7 | b1 b2", 0, W, "p9 and g9 draw the forced p1 and g7"),
    Row("33", "loss", "p9 g1 | p1 g7 | b1 b2", 0, L, "g7 only ever meets the holder's g1, which it beats"),
    # 34: "Holder wins yellow 9 and blue 7."
    Row("34", "win", "r4 b9 | y9 b7 | p1 p2", None, W, "seat 1 discards y9 on r4, then b9 draws b7"),
    Row("34", "loss", "r4 b1 | y9 b7 | b2 b3", None, L,
        "b1 always loses (seat 2 keeps a blue above it) and that trick holds y9 or b7 of seat 1"),
    # 35: "Holder wins green 3, yellow 4 and yellow 5."
    Row("35", "win", "g9 y9 | g3 y4 | y5 p1", 0, W, "g9 draws g3 (seat 2 discards p1), y9 draws y4 and y5"),
    Row("35", "loss", "g9 y3 | g3 y4 | y5 p1", 0, L, "the yellow trick's y3 loses to seat 1's y4"),
    # 36: "Holder wins trick T (the last) and it contains green 2."
    Row("36", "win", "p9 g9 | p1 g2 | b1 b2", 0, W, "p9 first, then g9 draws g2 in the last trick"),
    Row("36", "loss", "g2 p9 | g1 p1 | g3 g4", 0, L,
        "the green 2 is the holder's own and loses to seat 2's g3/g4 whenever it is led"),
    # 37: "At the end, holder has won exactly 1 pink and exactly 1 green card."
    Row("37", "win", "b9 b8 | p1 b1 | g1 b2", 0, W, "the top blues win both tricks: p1 and g1"),
    Row("37", "loss", "b9 b8 | p1 p2 | g1 b2", 0, L, "the top blues win both tricks: two pinks"),
    # 38: "Holder wins >= 7 yellow cards."
    Row("38", "win", "y9 y8 y7 | y1 y2 y3 | y4 y5 p1", 0, W, "the top yellows win all three tricks: 8 yellows"),
    Row("38", "loss", "y9 y8 p1 | y1 y2 y3 | p2 y5 y6", 0, L,
        "7 yellows in all, but p1 loses to seat 2's p2 and that trick holds a yellow of seat 1"),
    # 39: "Holder wins >= 5 pink cards."
    Row("39", "win", "p9 p8 | p1 p2 | p3 b1", 0, W, "the top pinks win both tricks: five pinks"),
    Row("39", "loss", "p9 p8 | p1 p2 | b1 b2", 0, L, "the top pinks win both tricks, but that is four pinks"),
    # 40: "At the end, exactly 2 green cards won."
    Row("40", "win", "g9 p9 | g1 p1 | b1 b2", 0, W, "the holder wins both tricks: g9 and g1"),
    Row("40", "loss", "g9 g8 | g1 p1 | b1 b2", 0, L, "the top greens win both tricks: three greens"),
    # 41: "At the end, exactly 2 blue cards won."
    Row("41", "win", "b9 p9 | b1 p1 | g1 g2", 0, W, "the holder wins both tricks: b9 and b1"),
    Row("41", "loss", "b9 b8 | b1 p1 | g1 g2", 0, L, "the top blues win both tricks: three blues"),
    # 42: "At the end, exactly 1 pink card won."
    Row("42", "win", "b9 b8 | p1 b1 | g1 g2", 0, W, "the top blues win both tricks: p1 alone"),
    Row("42", "loss", "b9 b8 | p1 b1 | p2 g1", 0, L, "the top blues win both tricks: p1 and p2"),
    # 43: "Holder wins no pink card."
    Row("43", "win", "p1 b1 | p9 b2 | g1 g2", 0, W, "seat 1 beats both of the holder's cards"),
    Row("43", "loss", "b9 b8 | p1 b1 | g1 g2", 0, L, "the top blues win both tricks, p1 among them"),
    # 44: "Holder wins >= 1 card of each of the four colours (submarines irrelevant)."
    Row("44", "win", "b9 b8 | p1 y1 | g1 b1", 0, W, "the top blues win both tricks: pink, yellow, green, blue"),
    Row("44", "loss", "b9 p1 | p2 p3 | y1 g1", 0, L,
        "p1 loses to seat 1's pinks, so the holder wins one trick: three colours at most"),
    # 45: "Holder wins all 9 cards of at least one colour." (one setup per colour)
    Row("45", "win", "r4 r3 r2 p9 | p1 p2 p3 p4 | p5 p6 p7 p8", None, W,
        "three trumps and the top pink win all four tricks: all nine pinks"),
    Row("45", "loss", "r4 r3 p9 p1 | p2 p3 p4 p5 | p6 p7 p8 b1", None, L,
        "the holder's own p1 always meets a higher pink of seat 1; no other colour is dealt in full"),
    # 46: "Holder wins >= 1 trick in which every card has an even value (2, 4, 6, 8)."
    # Default reading: submarines count by their number (2 and 4 even).
    Row("46", "win", "p8 p1 | p2 p3 | p4 b1", 0, W, "p8 wins a trick of p8, p2 and the forced p4"),
    Row("46", "loss", "p8 p6 | p1 p3 | p4 p2", 0, L, "every trick holds an odd card of seat 1"),
    Row("46", "win-submarine", "r4 r2 | p2 p4 | b6 b8", None, W,
        "r4 wins a trick of r4, p2/p4, b6/b8: all even numbers (the colour-only reading loses here)"),
    # 46-colour-only: "Win a trick in which every card is an even colour card" (a submarine spoils it).
    Row("46-colour-only", "win", "p8 p1 | p2 p3 | p4 b1", 0, W, "p8 wins a trick of p8, p2 and the forced p4"),
    Row("46-colour-only", "loss", "r4 r2 | p2 p4 | b6 b8", None, L,
        "the holder holds only submarines, so every trick he wins holds one (card 46 wins here)"),
    Row("46-colour-only", "loss-odd", "p8 p6 | p1 p3 | p4 p2", 0, L, "every trick holds an odd card of seat 1"),
    # 47: "Holder wins >= 1 trick in which every card has an odd value (1, 3, 5, 7, 9)."
    # Default reading: submarines count by their number (1 and 3 odd).
    Row("47", "win", "p9 p2 | p1 p4 | p3 b2", 0, W, "p9 wins a trick of p9, p1 and the forced p3"),
    Row("47", "loss", "p9 p7 | p2 p4 | p1 p3", 0, L, "every trick holds an even card of seat 1"),
    Row("47", "win-submarine", "r3 r1 | p1 p3 | b5 b7", 0, W,
        "r3 wins a trick of r3, p1/p3, b5/b7: all odd numbers (the colour-only reading loses here)"),
    # 47-colour-only: "Win a trick in which every card is an odd colour card" (a submarine spoils it).
    Row("47-colour-only", "win", "p9 p2 | p1 p4 | p3 b2", 0, W, "p9 wins a trick of p9, p1 and the forced p3"),
    Row("47-colour-only", "loss", "r3 r1 | p1 p3 | b5 b7", 0, L,
        "the holder holds only submarines, so every trick he wins holds one (card 47 wins here)"),
    Row("47-colour-only", "loss-even", "p9 p7 | p2 p4 | p1 p3", 0, L, "every trick holds an even card of seat 1"),
    # 48: "Holder wins >= 1 trick with no submarine whose card values sum to > 23 (3p) / > 28 (4p) / > 31 (5p)."
    Row("48", "win-3p", "p9 p1 | p8 p2 | p7 b1", 0, W, "p9 wins p8 and the forced p7: 24 > 23"),
    Row("48", "loss-3p", "p9 p1 | p8 p2 | p6 b1", 0, L,
        "p1 loses to seat 1's pinks; the p9 trick is at most 9 + 8 + 6 = 23"),
    Row("48", "win-4p", "p9 p1 | p8 p2 | p7 p3 | b5 b1", 0, W, "p9 wins p8, p7, b5: 29 > 28"),
    Row("48", "loss-4p", "p9 p1 | p8 p2 | p7 p3 | b4 b1", 0, L,
        "the p9 trick is at most 9 + 8 + 7 + 4 = 28 (a win with three players' 23)"),
    Row("48", "win-5p", "p9 p1 | p8 p2 | p7 p3 | p6 p4 | b2 b1", 0, W, "p9 wins p8, p7, p6, b2: 32 > 31"),
    Row("48", "loss-5p", "p9 p1 | p8 p2 | p7 p3 | p6 p4 | b1 g1", 0, L,
        "the p9 trick is at most 9 + 8 + 7 + 6 + 1 = 31"),
    # 49: "Holder wins >= 1 trick with no submarine whose card values sum to < 8 (3p) / < 12 (4p) / < 16 (5p)."
    Row("49", "win-3p", "p4 p9 | p1 b9 | p2 b8", 0, W, "p4 first draws the forced p1 and p2: 7 < 8"),
    Row("49", "loss-3p", "p4 p9 | p1 b9 | p3 b8", 0, L,
        "the holder wins both tricks, the smaller at least 4 + 1 + 3 = 8"),
    Row("49", "win-4p", "p4 p9 | p1 b9 | p2 b8 | p3 b7", 0, W, "p4 first draws p1, p2, p3: 10 < 12"),
    Row("49", "loss-4p", "p5 p9 | p1 b9 | p2 b8 | p4 b7", 0, L,
        "the smaller of the holder's tricks is at least 5 + 1 + 2 + 4 = 12"),
    Row("49", "win-5p", "p5 p9 | p1 b9 | p2 b8 | p3 b7 | p4 b6", 0, W, "p5 first draws p1, p2, p3, p4: 15 < 16"),
    Row("49", "loss-5p", "p6 p9 | p1 b9 | p2 b8 | p3 b7 | p4 b6", 0, L,
        "the smaller of the holder's tricks is at least 6 + 1 + 2 + 3 + 4 = 16"),
    Row("49", "loss-submarine", "r1 p9 | p1 b9 | p2 b8", 0, L,
        "the r1 trick could be 1 + 1 + 2 but holds a submarine; the p9 trick is worth 12 or more"),
    # 50: "Holder wins >= 1 trick whose card values sum to exactly 22 or 23" (submarines add their number).
    Row("50", "win", "p9 p1 | p8 p2 | p5 b1", 0, W, "p9 wins p8 and the forced p5: 22"),
    Row("50", "loss", "p9 p1 | p8 p2 | p7 b1", 0, L,
        "the p9 trick with seat 2's forced p7 is 24 or 18; p1 never wins; a later p9 win is 12"),
    Row("50", "win-submarine", "r4 p1 | p9 p8 | b9 b2", None, W,
        "r4 wins p9 and b9: 4 + 9 + 9 = 22, only if the submarine counts"),
    # 51: "At the end, holder has won exactly 1 submarine."
    Row("51", "win", "r4 p1 | p9 p8 | b1 b2", None, W, "the only submarine is the holder's r4"),
    Row("51", "loss", "r4 p9 | r1 p1 | b1 b2", None, L, "seat 1 must follow r4 with r1: two in one trick"),
    # 52: "Holder wins the trick containing submarine 1 and no trick containing any other submarine."
    Row("52", "win", "p1 r1 | p2 b1 | r2 b2", 0, W,
        "seat 2 trumps p1 with r2, leads b2, and the holder trumps it with r1 alone"),
    Row("52", "loss", "r1 r2 | p1 p2 | b1 b2", 0, L, "nobody else has a trump: the holder wins r2 too"),
    # 53: "As 52 for submarine 2."
    Row("53", "win", "p1 r2 | p2 b1 | r3 b2", 0, W,
        "seat 2 trumps p1 with r3, leads b2, and the holder trumps it with r2 alone"),
    Row("53", "loss", "r2 p1 | r1 p2 | b1 b2", 0, L,
        "seat 1 must follow r2 with r1 or lead r1 into r2: the r2 trick always holds r1"),
    # 54: "Holder wins the trick containing submarine 3 (other submarines allowed)."
    Row("54", "win", "r3 p1 | p2 b1 | b2 b3", 0, W, "the holder leads r3, the only trump"),
    Row("54", "loss", "r2 p1 | r3 p2 | b1 b2", 0, L,
        "r3 is seat 1's and beats r2; p1 loses to p2 and seat 1 leads r3"),
    # 55: "At the end, exactly 2 submarines won."
    Row("55", "win", "r4 p1 | r1 p9 | b1 b2", None, W, "r1 must follow r4 (or be led into it), and p1 loses"),
    Row("55", "loss", "r4 r3 | r1 p1 | b1 b2", None, L, "the holder's two top trumps win r1 too: three"),
    # 56: "At the end, exactly 3 submarines won."
    Row("56", "win", "r4 r3 | r1 p1 | b1 b2", None, W, "the holder's two top trumps win r1 too: three"),
    Row("56", "loss", "r4 r3 | r1 r2 | b1 b2", None, L, "seat 1 must follow both trump leads: all four"),
    # 57: "Holder wins no submarine."
    Row("57", "win", "p1 p2 | r3 p9 | b1 b2", 0, W, "seat 1 wins p1 with p9 and leads r3: the holder wins nothing"),
    Row("57", "loss", "r3 p1 | p9 p8 | b1 b2", 0, L, "the holder's r3 wins whatever trick it is played to"),
    Row("57", "loss-captain", "r4 p1 | p9 p8 | b1 b2", None, L,
        "the holder is the captain, who holds r4, and r4 wins its trick"),
    # 58: "Holder wins the trick containing pink 7, and that trick contains a submarine."
    Row("58", "win", "r1 b1 | p7 b2 | g1 g2", 0, W, "seat 1 discards p7 on the holder's r1"),
    Row("58", "loss", "p9 p1 | p7 b2 | g1 g2", 0, L, "the holder can win p7 with p9, but has no submarine"),
    # 59: "As 58 with green 9."
    Row("59", "win", "r1 b1 | g9 b2 | p1 p2", 0, W, "seat 1 discards g9 on the holder's r1"),
    Row("59", "loss", "r1 g9 | g1 b2 | p1 p2", 0, L, "g9 is the holder's own, played in another trick than r1"),
    # 60: "Every trick the holder leads must be led with a green card or a submarine."
    Row("60", "win", "g9 g8 | p1 p2 | b1 b2", 0, W, "the holder leads g9 and g8"),
    Row("60", "loss", "g9 p9 | g1 p1 | b1 b2", 0, L,
        "the holder wins trick 1 whatever he leads, then leads p9 (or led it)"),
    # 61: "Every trick the holder leads must be led with blue, yellow or a submarine."
    Row("61", "win", "b9 y9 | b1 y1 | p1 p2", 0, W, "the holder leads b9 and y9"),
    Row("61", "loss", "b9 g9 | b1 g1 | p1 p2", 0, L,
        "the holder wins trick 1 whatever he leads, then leads g9 (or led it)"),
    # 62: "Holder wins no green card."
    Row("62", "win", "g1 p1 | g9 p9 | b1 b2", 0, W, "seat 1 beats both of the holder's cards"),
    Row("62", "loss", "b9 b8 | g1 b1 | p1 p2", 0, L, "the top blues win both tricks, g1 among them"),
    # 63: "Holder wins no yellow card."
    Row("63", "win", "y1 p1 | y9 p9 | b1 b2", 0, W, "seat 1 beats both of the holder's cards"),
    Row("63", "loss", "b9 b8 | y1 b1 | p1 p2", 0, L, "the top blues win both tricks, y1 among them"),
    # 64: "Holder wins no pink and no blue card."
    Row("64", "win", "g9 p1 | g1 p9 | g2 b1", 0, W, "g9 draws the forced g1, g2; seat 1 wins p1 with p9, b1 too"),
    Row("64", "loss", "g9 g8 | g1 b1 | g2 y2", 0, L, "the top greens win both tricks, b1 among them"),
    # 65: "Holder wins no yellow and no green card."
    Row("65", "win", "p9 b1 | p1 b9 | p2 g1", 0, W, "p9 draws the forced p1, p2; seat 1 wins b1 with b9, g1 too"),
    Row("65", "loss", "p9 p8 | p1 g1 | p2 y2", 0, L, "the top pinks win both tricks, g1 and y2 among them"),
    # 66: "Holder wins no colour 8 and no colour 9."
    Row("66", "win", "p7 p1 | p2 p9 | b1 b2", 0, W, "seat 1 plays p2 under p7 and wins p1 with p9"),
    Row("66", "loss", "p7 p6 | p1 p2 | b8 b9", 0, L, "the top pinks win both tricks, b8 and b9 among them"),
    # 67: "Holder wins no colour 9."
    Row("67", "win", "p7 p6 | p1 p2 | b8 b1", 0, W, "the top pinks win both tricks: an 8 but no 9"),
    Row("67", "loss", "p7 p6 | p1 p2 | b9 b1", 0, L, "the top pinks win both tricks, b9 among them"),
    # 68: "Holder wins no colour 5."
    Row("68", "win", "p7 p6 | p1 p2 | b4 b1", 0, W, "the top pinks win both tricks: no 5 dealt to them"),
    Row("68", "loss", "p7 p6 | p1 p2 | b5 b1", 0, L, "the top pinks win both tricks, b5 among them"),
    # 69: "Holder wins no colour 1 (submarine 1 allowed)."
    Row("69", "win", "r2 p9 | r1 p2 | b2 b3", 0, W, "the holder wins both tricks, submarine 1 but no colour 1"),
    Row("69", "loss", "r2 p9 | p1 p2 | b2 b3", 0, L, "the holder wins both tricks, p1 among them"),
    # 70: "Holder wins no colour 1, 2 or 3."
    Row("70", "win", "p9 p8 | p4 p5 | b4 b6", 0, W, "the top pinks win both tricks: no 1, 2 or 3 dealt"),
    Row("70", "loss", "p9 p8 | p4 p5 | b4 b3", 0, L, "the top pinks win both tricks, b3 among them"),
    # 71: "Holder wins none of tricks 1-4."
    Row("71", "win", "r4 p1 p2 p3 p4 | p5 p6 p7 p8 p9 | b1 b2 b3 b4 b5", None, W,
        "the holder follows seat 1's higher pinks four times and trumps trick 5 with r4"),
    Row("71", "loss", "r4 r3 p1 p2 p3 | p4 p5 p6 p7 p8 | b1 b2 b3 b4 b5", None, L,
        "two unbeatable trumps: at most one of them in trick 5"),
    Row("71", "loss-four-tricks", "r4 p1 p2 p3 | p4 p5 p6 p7 | b1 b2 b3 b4", None, L,
        "four tricks only: r4 wins one of tricks 1-4 (card 72 wins here)"),
    # 72: "Holder wins none of tricks 1-3."
    Row("72", "win", "r4 p1 p2 p3 | p4 p5 p6 p7 | b1 b2 b3 b4", None, W,
        "the holder follows seat 1's higher pinks three times and trumps trick 4 with r4"),
    Row("72", "loss", "r4 r3 p1 p2 | p3 p4 p5 p6 | b1 b2 b3 b4", None, L,
        "two unbeatable trumps: at most one of them in trick 4"),
    # 73: "Holder wins none of tricks 1-5."
    Row("73", "win", "r4 p1 p2 p3 b1 b2 | p7 p8 p9 b7 b8 b9 | g1 g2 g3 g4 g5 g6", None, W,
        "the holder follows seat 1's higher pinks and blues five times and trumps trick 6 with r4"),
    Row("73", "loss", "r4 r3 p1 p2 b1 b2 | p7 p8 p9 b7 b8 b9 | g1 g2 g3 g4 g5 g6", None, L,
        "two unbeatable trumps: at most one of them in trick 6"),
    # 74: "Holder wins no trick."
    Row("74", "win", "p1 p2 | p3 p4 | b1 b2", 0, W, "seat 1's pinks beat the holder's"),
    Row("74", "loss", "p1 p9 | p2 p3 | b1 b2", 0, L, "p9 wins whenever it is played: only pinks are led"),
    # 75: "Holder never wins two consecutive tricks (k and k+1)."
    Row("75", "win", "r4 r3 p1 | p2 p3 p4 | b1 b2 b3", None, W, "r4, then p1 loses, then r3 trumps seat 1's pink lead"),
    Row("75", "loss", "r4 r3 | p1 p2 | b1 b2", None, L, "the holder's trumps win both tricks"),
    # 76: "Holder wins trick T (the last); other tricks allowed."
    Row("76", "win", "p1 r4 | p2 p3 | b1 b2", None, W, "p1 loses, and r4 trumps seat 1's pink lead in the last trick"),
    Row("76", "loss", "p9 b1 | b9 b8 | g1 g2", 0, L,
        "the holder's b1 is beaten by seat 1's blues; led first, seat 1 leads blue and p9 cannot follow"),
    # 77: "Holder wins tricks 1, 2 and 3; other tricks allowed."
    Row("77", "win", "r4 r3 r2 p1 | p2 p3 p4 p5 | b1 b2 b3 b4", None, W, "three trumps led first"),
    Row("77", "loss", "r4 r3 p1 p2 | p3 p4 p5 p6 | b1 b2 b3 b4", None, L, "two trumps; the pinks lose to seat 1's"),
    # 78: "Holder wins tricks 1 and 2."
    Row("78", "win", "r4 r3 p1 | p2 p3 p4 | b1 b2 b3", None, W, "two trumps led first"),
    Row("78", "loss", "r4 p1 p2 | p3 p4 p5 | b1 b2 b3", None, L, "one trump; the pinks lose to seat 1's"),
    # 79: "Holder wins trick 1."
    Row("79", "win", "p9 p1 | p2 p3 | b1 b2", 0, W, "the holder leads p9, the top pink"),
    Row("79", "loss", "p8 b8 | p9 b9 | g1 g2", 0, L, "seat 1 follows either lead with the 9"),
    # 80: "Holder wins trick 1 and trick T; others allowed."
    Row("80", "win", "r4 r3 p1 | p2 p3 p4 | b1 b2 b3", None, W, "r4, then p1 loses, then r3 trumps the last trick"),
    Row("80", "loss", "r4 p1 p2 | p3 p4 p5 | b1 b2 b3", None, L, "one trump; the pinks lose to seat 1's"),
    # 81: "Holder wins trick T and no other trick."
    Row("81", "win", "r4 p1 p2 | p3 p4 p5 | b1 b2 b3", None, W, "p1 and p2 lose, r4 trumps the last trick"),
    Row("81", "loss", "r4 r3 p1 | p3 p4 p5 | b1 b2 b3", None, L, "two unbeatable trumps: two tricks"),
    # 82: "Holder wins trick 1 and no other trick."
    Row("82", "win", "r4 p1 p2 | p3 p4 p5 | b1 b2 b3", None, W, "r4 first, then the pinks lose"),
    Row("82", "loss", "r4 r3 p1 | p3 p4 p5 | b1 b2 b3", None, L, "two unbeatable trumps: two tricks"),
    # 83: "At the end, holder has won exactly 1 trick."
    Row("83", "win", "r4 p1 p2 | p3 p4 p5 | b1 b2 b3", None, W, "r4 wins, the pinks lose"),
    Row("83", "loss", "r4 r3 p1 | p3 p4 p5 | b1 b2 b3", None, L, "two unbeatable trumps: two tricks"),
    Row("83", "loss-none", "p1 p2 | p3 p4 | b1 b2", 0, L, "seat 1's pinks beat the holder's: no trick"),
    # 84: "At the end, exactly 2 tricks."
    Row("84", "win", "r4 r3 p1 | p3 p4 p5 | b1 b2 b3", None, W, "two trumps win, p1 loses"),
    Row("84", "loss", "r4 r3 r2 | p3 p4 p5 | b1 b2 b3", None, L, "three unbeatable trumps: three tricks"),
    # 85: "Holder wins some trick k and trick k+1."
    Row("85", "win", "r4 r3 p1 | p2 p3 p4 | b1 b2 b3", None, W, "r4 and r3 in tricks 1 and 2"),
    Row("85", "loss", "r4 p1 p2 | p3 p4 p5 | b1 b2 b3", None, L, "one trump; the pinks lose: one trick"),
    # 86: "Holder wins some tricks k, k+1, k+2."
    Row("86", "win", "r4 r3 r2 p1 | p2 p3 p4 p5 | b1 b2 b3 b4", None, W, "three trumps in tricks 1-3"),
    Row("86", "loss", "r4 r3 p1 p2 | p3 p4 p5 p6 | b1 b2 b3 b4", None, L, "two trumps; the pinks lose: two tricks"),
    # 87: "At the end, exactly 4 tricks."
    Row("87", "win", "r4 r3 r2 r1 p1 | p2 p3 p4 p5 p6 | b1 b2 b3 b4 b5", None, W, "four trumps win, p1 loses"),
    Row("87", "loss", "r4 r3 r2 p1 | p2 p3 p4 p5 | b1 b2 b3 b4", None, L, "three trumps; p1 loses: three tricks"),
    # 88: "the holder's won tricks are exactly three and they are consecutive" (remigerme's reading).
    Row("88", "win", "r4 r3 r2 p1 | p2 p3 p4 p5 | b1 b2 b3 b4", None, W, "three trumps in tricks 1-3, p1 loses"),
    Row("88", "loss", "r4 r3 p1 p2 | p3 p4 p5 p6 | b1 b2 b3 b4", None, L, "two trumps; the pinks lose: two tricks"),
    Row("88", "loss-four", "r4 r3 r2 r1 p1 | p2 p3 p4 p5 p6 | b1 b2 b3 b4 b5", None, L,
        "four unbeatable trumps: four tricks (88-longest-run wins here)"),
    # 88-longest-run: "the longest run is exactly 3, isolated extra wins allowed".
    Row("88-longest-run", "win", "r4 r3 r2 r1 p1 | p2 p3 p4 p5 p6 | b1 b2 b3 b4 b5", None, W,
        "r4 r3 r2, p1 loses, r1 trumps the last trick: a run of 3 and one more (card 88 loses here)"),
    Row("88-longest-run", "win-three", "r4 r3 r2 p1 | p2 p3 p4 p5 | b1 b2 b3 b4", None, W,
        "three trumps in tricks 1-3, p1 loses"),
    Row("88-longest-run", "loss", "r4 r3 r2 r1 | p1 p2 p3 p4 | b1 b2 b3 b4", None, L,
        "four trumps win all four tricks: a run of 4"),
    Row("88-longest-run", "loss-two", "r4 r3 p1 p2 | p3 p4 p5 p6 | b1 b2 b3 b4", None, L,
        "two trumps; the pinks lose: a run of 2 at most"),
    # 89: "As 88 with two" (remigerme's reading: exactly two tricks, consecutive).
    Row("89", "win", "r4 r3 p1 | p2 p3 p4 | b1 b2 b3", None, W, "r4 and r3 in tricks 1 and 2, p1 loses"),
    Row("89", "loss", "r4 p1 p2 | p3 p4 p5 | b1 b2 b3", None, L, "one trump; the pinks lose: one trick"),
    Row("89", "loss-three", "r4 r3 r2 p1 | p2 p3 p4 p5 | b1 b2 b3 b4", None, L,
        "three unbeatable trumps: three tricks (89-longest-run wins here)"),
    # 89-longest-run: "the longest run is exactly 2, isolated extra wins allowed".
    Row("89-longest-run", "win", "r4 r3 r2 p1 | p2 p3 p4 p5 | b1 b2 b3 b4", None, W,
        "r4 r3, p1 loses, r2 trumps the last trick: a run of 2 and one more (card 89 loses here)"),
    Row("89-longest-run", "loss", "r4 r3 r2 | p1 p2 p3 | b1 b2 b3", None, L,
        "three trumps win all three tricks: a run of 3"),
    # 90: "Before play the holder announces a number X openly; at the end he must have won exactly X tricks."
    # Never fails under perfect information: WIN rows only, with the holder winning all and none.
    Row("90", "win-all", "r4 r3 | p1 p2 | b1 b2", None, W, "the holder announces 2 and wins both tricks"),
    Row("90", "win-none", "p1 p2 | p3 p4 | b1 b2", 0, W, "the holder announces 0 and wins nothing"),
    # 91: "Same, X kept secret."
    Row("91", "win-all", "r4 r3 | p1 p2 | b1 b2", None, W, "the holder announces 2 and wins both tricks"),
    Row("91", "win-none", "p1 p2 | p3 p4 | b1 b2", 0, W, "the holder announces 0 and wins nothing"),
    # 92: "At the end, pink cards won = yellow cards won, and that number >= 1."
    Row("92", "win", "b9 b8 | p1 y1 | b1 b2", 0, W, "the top blues win both tricks: one pink, one yellow"),
    Row("92", "loss", "b9 b8 | p1 p2 | y1 b1", 0, L, "the top blues win both tricks: two pinks, one yellow"),
    Row("92", "loss-none", "b9 b8 | b1 b2 | g1 g2", 0, L, "no pink or yellow dealt: 0 = 0 is not enough"),
    # 93: "Holder wins >= 1 single trick containing as many green as yellow cards, at least one of each."
    Row("93", "win", "b9 b8 | g1 b1 | y1 b2", 0, W, "the b8 trick holds g1 and y1 (b1, b2 follow b9)"),
    Row("93", "loss", "b9 b8 | g1 y1 | b1 b2", 0, L, "g1 and y1 are one seat's: never in the same trick"),
    # 94: "As 93 with pink and blue."
    Row("94", "win", "g9 g8 | p1 g1 | b1 g2", 0, W, "the g8 trick holds p1 and b1 (g1, g2 follow g9)"),
    Row("94", "loss", "g9 g8 | p1 b1 | g1 g2", 0, L, "p1 and b1 are one seat's: never in the same trick"),
    # 95: "At the end, yellow cards won > blue cards won."
    Row("95", "win", "y9 y8 | y1 b1 | g1 g2", 0, W, "the top yellows win both tricks: three yellows, one blue"),
    Row("95", "loss", "b9 b8 | y1 b1 | g1 g2", 0, L, "the top blues win both tricks: one yellow, three blues"),
    Row("95", "loss-none", "p9 p8 | p1 p2 | g1 g2", 0, L, "no yellow dealt: 0 > 0 fails"),
    # 96: "At the end, pink cards won > green cards won."
    Row("96", "win", "p9 p8 | p1 g1 | b1 b2", 0, W, "the top pinks win both tricks: three pinks, one green"),
    Row("96", "loss", "g9 g8 | p1 g1 | b1 b2", 0, L, "the top greens win both tricks: one pink, three greens"),
]

# Rows also solved through the public API (solver.api.solve with the reference engine).
API_ROWS = [
    "1-win", "4-win", "4-loss", "6-win-r4", "16-loss", "44-win", "44-loss", "45-win", "45-loss",
    "46-win-submarine", "46-colour-only-loss", "48-win-4p", "48-loss-4p", "52-win", "57-loss-captain",
    "88-longest-run-win", "88-loss-four", "90-win-none", "92-loss-none",
]


def solve_card(row: Row, solve=reference.solve):
    """Return the setups of the row's card on its deal and the engine's outcome of each (`solve`, the reference
    unless given); replay every winning line (check_witness: legal plays, right trick winners, the setup's
    counters)."""
    deal = parse_deal(row.deal, commander=row.commander)
    setups = mission_setups(drafted_cards([find_mission(row.mission)]), deal, [])
    outcomes = []
    for setup in setups:
        solution = solve(deal, setup.mission)
        if solution.outcome is W:
            check_witness(deal, setup.mission, solution)
        outcomes.append(solution.outcome)
    return setups, outcomes


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("row", ROWS, ids=[row.id for row in ROWS])
def test_card(row, engine):
    setups, outcomes = solve_card(row, ENGINES[engine])
    assert setups
    assert all(outcome in (W, L) for outcome in outcomes), outcomes
    won = W if W in outcomes else L
    assert won is row.outcome, f"{row.id}, {engine}: expected {row.outcome.value} ({row.why}); setups {outcomes}"


def test_all_nine_of_one_colour_takes_the_dealt_colour():
    # 45: "Holder wins all 9 cards of at least one colour": only the pink alternative wins 45-win.
    row = next(row for row in ROWS if row.id == "45-win")
    setups, outcomes = solve_card(row)
    assert [("pink" in setup.label, outcome) for setup, outcome in zip(setups, outcomes)] == [
        (True, W), (False, L), (False, L), (False, L)]


def crews_choice(row: Row) -> Outcome:
    """Return the reference's outcome of the row's card alone, held by the player the crew chooses."""
    deal = parse_deal(row.deal, commander=row.commander)
    outcomes = [reference.solve(deal, setup.mission).outcome for setup in mission_setups(find_mission(row.mission), deal, [])]
    return W if W in outcomes else L


@pytest.mark.parametrize("row_id", API_ROWS)
def test_card_through_the_api(row_id):
    row = next(row for row in ROWS if row.id == row_id)
    answer = solve(SolveRequest(mission=row.mission, deal=row.deal, commander=row.commander, engine="reference"))
    assert answer.solution.outcome is crews_choice(row), f"{row.id}: {row.why}"


@pytest.mark.parametrize("row_id, outcome", [
    # 57: "Holder wins no submarine." The captain holds r4 and must win it; seat 2 (b1 b2) never wins a trick.
    ("57-loss-captain", W),
    # 74: "Holder wins no trick."
    ("74-loss", W),
    # 4: "Holder != captain. At the end, holder's count > captain's count." Seat 1 or seat 2: neither beats 2 tricks.
    ("4-loss", L),
])
def test_card_alone_is_the_crews_choice(row_id, outcome):
    # A card alone goes to the player the crew chooses: a LOSS for the captain can be a WIN for another seat.
    row = next(row for row in ROWS if row.id == row_id)
    assert crews_choice(row) is outcome, row.deal


def deep_sea_cards() -> list[str]:
    """Return the card of every mission entry of deep_sea.toml: its number, or its name."""
    with open(Path(solver.missions.__file__).parent / "deep_sea.toml", "rb") as f:
        entries = tomllib.load(f)["mission"]
    return [str(entry.get("number", entry.get("name"))) for entry in entries]


def test_every_card_has_both_outcomes():
    cards = deep_sea_cards()
    assert len(cards) == 100 and len(set(cards)) == 100
    assert {row.card for row in ROWS} == set(cards)
    for card in cards:
        outcomes = {row.outcome for row in ROWS if row.card == card}
        assert outcomes == ({W} if card in NEVER_FAILS else {W, L}), card


def test_row_ids_are_unique():
    ids = [row.id for row in ROWS]
    assert len(ids) == len(set(ids))


def test_rows_deal_equal_hands():
    for row in ROWS:
        sizes = {len(hand.split()) for hand in row.deal.split("|")}
        assert len(sizes) == 1, row.id


CAPTAIN_PLUS_ONE = {"4", "5", "6"}  # "captain may not take it"


@pytest.mark.parametrize("card", deep_sea_cards())
@pytest.mark.parametrize("deal, commander, captain", [
    ("p1 p2 | b1 b2 | g1 g2", 0, 0),  # no r4: the given captain
    ("p1 p2 | b1 b2 | g1 g2 | y1 y2", 1, 1),
    ("p1 p2 | b1 b2 | r4 g1", None, 2),  # r4's holder is the captain; captain + 1 wraps to seat 0
], ids=["3p-seat0", "4p-seat1", "3p-r4-seat2"])
def test_draft_holder(card, deal, commander, captain):
    # One card drafted: the captain takes it, unless it is 4, 5 or 6, which the next seat clockwise takes.
    # Alone, the crew chooses its holder: any seat, not the captain for 4, 5 and 6.
    deal = parse_deal(deal, commander=commander)
    assert deal.commander == captain
    setups = mission_setups(drafted_cards([find_mission(f"deep-sea/{card}")]), deal, [])
    holder = (captain + 1) % deal.players if card in CAPTAIN_PLUS_ONE else captain
    assert setups and {setup.chosen for setup in setups} == {(("holder1", holder),)}
    if card == "45":
        assert len(setups) == 4  # one setup per colour of "any"
    alone = {setup.chosen for setup in mission_setups(find_mission(f"deep-sea/{card}"), deal, [])}
    seats = set(range(deal.players)) - ({captain} if card in CAPTAIN_PLUS_ONE else set())
    assert alone == {(("holder", seat),) for seat in seats}
