"""Family Adventure turns: the state of a mission in play, and which turns the rules allow.

A turn is either a hammock (turn one token over) or a play turn: optionally a
trade (special card 1, done first), then one colour card, or two with special
card 3. Each colour card may carry modifiers, the special cards that change
that one play: 2 (receive it from whoever holds it), 4 (any card), 5
(diagonal), 6 (knight's move); see solver.family.rules for the steps. A special
card is used from the player's hand or from the crew's face-up pool and is then
out of play. Our readings, as in docs/family.md:

- the crew sees which laid-out hammock token hides the shell (perfect
  information) and chooses which token to turn: a plain one while any is left
  face up, or the shell's token if the mission laid it out (deal field `shell`
  below the number laid out) and it is still face up; whoever finds the shell
  chooses which of the set-aside special cards goes face up into the crew's
  pool ("may then turn over one of the face-down special cards that were set
  aside"); `apply_turn` also allows taking none, `successors` leaves that out
  (a pool card never has to be used), and when no card lies aside (a mission
  without special cards) the shell's token is just another token, so
  `successors` turns it only when no plain one is left;
- the trade comes before the turn's colour cards (a later trade never allows
  more); both traded cards are the crew's choice, colour or special cards,
  never the trade card itself, and a received special card may be used at once;
- each modifier goes with one colour card; the card 2 names must be playable
  with that card's other modifiers, and may be in anyone's hand (a player's own
  card too, which is then simply played);
- using a special card without need only loses it: `apply_turn` allows it
  (a modifier just has to make its card legal), `successors` leaves such
  turns out (each modifier of a play is needed: without it the card is not
  playable).

The state is plain data; `successors` lists every legal turn with the state it
leads to and `apply_turn` checks one turn (the replay of a solver's witness).
"""

from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from solver.core.errors import InputError
from solver.family.cards import CARD_COUNT, bit, format_card, scan
from solver.family.deal import FamilyDeal
from solver.family.mission import FamilyMission
from solver.family.rules import ANY, DIAGONAL, KNIGHT, STRAIGHT, followers

TRADE, RECEIVE, DOUBLE, ANY_CARD, DIAGONAL_CARD, KNIGHT_CARD = range(1, 7)
MODIFIERS = (RECEIVE, ANY_CARD, DIAGONAL_CARD, KNIGHT_CARD)
MOVES = {ANY_CARD: ANY, DIAGONAL_CARD: DIAGONAL, KNIGHT_CARD: KNIGHT}


def special_item(k: int) -> int:
    """Return the trade item of special card k (colour cards are items 0-20)."""
    return CARD_COUNT + k - 1


def format_item(item: int) -> str:
    return format_card(item) if item < CARD_COUNT else f"S{item - CARD_COUNT + 1}"


class IllegalTurn(InputError):
    """A turn the rules do not allow in this state."""


@dataclass(frozen=True)
class Play:
    """One colour card played, with the modifier special cards used for it."""

    card: int
    modifiers: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Trade:
    """Special card 1: the player gives `give` to `partner` and gets `receive` (items, see special_item)."""

    partner: int
    give: int
    receive: int


@dataclass(frozen=True)
class Turn:
    """One turn: a hammock (with `shell`: the shell's token, and `shell_card`, the set-aside special
    card it puts face up, or None) or a play turn (an optional trade, then one or two plays)."""

    seat: int
    hammock: bool = False
    trade: Trade | None = None
    plays: tuple[Play, ...] = ()
    shell: bool = False
    shell_card: int | None = None

    @property
    def used(self) -> frozenset[int]:
        """Return the special cards this turn uses."""
        used = {m for play in self.plays for m in play.modifiers}
        return frozenset(used | ({TRADE} if self.trade else set()) | ({DOUBLE} if len(self.plays) == 2 else set()))


class FamilyState(NamedTuple):
    hands: tuple[int, ...]  # colour card sets, by seat
    specials: tuple[int, ...]  # special card sets (bit k = card k), by seat
    pool: int  # special cards face up for the crew
    aside: int  # special cards set aside face down (bit k = card k); the shell's finder takes one
    seat: int  # whose turn it is
    plain: int  # plain hammock tokens (no shell under them) still face up
    shell_up: bool  # the shell's token is laid out and not turned over yet
    goal: int  # colour cards the mission plays
    row: tuple[int, ...] = ()  # colour cards played, in order

    @property
    def finished(self) -> bool:
        return len(self.row) == self.goal

    @property
    def tokens_left(self) -> int:
        """Return the hammock tokens still face up, the shell's included."""
        return self.plain + self.shell_up


def initial_state(deal: FamilyDeal, mission: FamilyMission) -> FamilyState:
    specials = tuple(bit(k) if mission.specials else 0 for k in deal.specials)
    aside = sum(bit(k) for k in deal.aside) if mission.specials else 0
    laid_out = mission.hammocks_for(deal.players)
    shell_up = deal.shell < laid_out  # the mission lays out the first N of the six shuffled tokens
    return FamilyState(
        deal.hands, specials, 0, aside, deal.first, laid_out - shell_up, shell_up, mission.cards,
    )


def holdings(state: FamilyState, seat: int) -> list[int]:
    """Return the items a seat could trade: its colour cards and special cards."""
    return list(scan(state.hands[seat])) + [special_item(k) for k in scan(state.specials[seat])]


def move_item(state: FamilyState, item: int, source: int, target: int) -> FamilyState:
    """Return the state with `item` moved from seat `source` to seat `target` (it must be there)."""
    field = "hands" if item < CARD_COUNT else "specials"
    flag = bit(item if item < CARD_COUNT else item - CARD_COUNT + 1)
    sets = list(getattr(state, field))
    if not sets[source] & flag:
        raise IllegalTurn(f"seat {source} does not hold {format_item(item)}")
    sets[source] ^= flag
    sets[target] |= flag
    return state._replace(**{field: tuple(sets)})


def use_special(state: FamilyState, k: int) -> FamilyState:
    """Return the state with special card k used by the seat in turn (from its hand, else the pool)."""
    seat = state.seat
    if state.specials[seat] & bit(k):
        return state._replace(specials=state.specials[:seat] + (state.specials[seat] ^ bit(k),) + state.specials[seat + 1:])
    if state.pool & bit(k):
        return state._replace(pool=state.pool ^ bit(k))
    raise IllegalTurn(f"special card {k} is not available to seat {seat}")


def playable(state: FamilyState, modifiers: frozenset[int]) -> int:
    """Return the colour cards the seat in turn may play next with these modifiers."""
    last = state.row[-1] if state.row else None
    allowed = followers(last, STRAIGHT)
    for k in modifiers & MOVES.keys():
        allowed |= followers(last, MOVES[k])
    source = sum(state.hands) if RECEIVE in modifiers else state.hands[state.seat]
    return allowed & source


def play_card(state: FamilyState, play: Play) -> FamilyState:
    """Return the state after one colour card (its modifiers already used)."""
    if not playable(state, play.modifiers) & bit(play.card):
        raise IllegalTurn(f"seat {state.seat} may not play {format_card(play.card)} here")
    hands = tuple(hand & ~bit(play.card) for hand in state.hands)
    return state._replace(hands=hands, row=state.row + (play.card,))


def hammock(state: FamilyState, shell: bool = False, card: int | None = None) -> FamilyState:
    """Return the state after turning over a plain token, or the shell's (taking set-aside `card`, or none)."""
    if not state.tokens_left:
        raise IllegalTurn("no hammock token left")
    if not shell:
        if card is not None:
            raise IllegalTurn("only the shell's token turns over a special card")
        if not state.plain:
            raise IllegalTurn("only the shell's token is left face up")
        return state._replace(plain=state.plain - 1)
    if not state.shell_up:
        raise IllegalTurn("the shell's token is not laid out, or already turned over")
    if card is None:
        return state._replace(shell_up=False)
    if not 1 <= card <= 6 or not state.aside & bit(card):
        raise IllegalTurn(f"special card {card} is not set aside")
    return state._replace(shell_up=False, aside=state.aside ^ bit(card), pool=state.pool | bit(card))


def hammocks(state: FamilyState):
    """Yield (turn, next state) for the hammock choices worth trying: a plain token, then the shell's
    with each set-aside card (or, with none aside, the shell's token when no plain one is left)."""
    seat, following = state.seat, (state.seat + 1) % len(state.hands)
    if state.plain:
        yield Turn(seat, hammock=True), hammock(state)._replace(seat=following)
    if state.shell_up:
        cards = list(scan(state.aside)) or ([None] if not state.plain else [])
        for k in cards:
            yield Turn(seat, hammock=True, shell=True, shell_card=k), hammock(state, True, k)._replace(seat=following)


def trade(state: FamilyState, swap: Trade) -> FamilyState:
    seat, partner = state.seat, swap.partner
    if partner == seat or not 0 <= partner < len(state.hands):
        raise IllegalTurn(f"seat {seat} cannot trade with seat {partner}")
    state = use_special(state, TRADE)
    state = move_item(state, swap.give, seat, partner)
    return move_item(state, swap.receive, partner, seat)


def apply_turn(state: FamilyState, turn: Turn) -> FamilyState:
    """Return the state after `turn`; raise IllegalTurn naming the first broken rule."""
    if state.finished:
        raise IllegalTurn("the mission has all its cards")
    if turn.seat != state.seat:
        raise IllegalTurn(f"it is seat {state.seat}'s turn, not seat {turn.seat}'s")
    if turn.hammock:
        if turn.trade or turn.plays:
            raise IllegalTurn("a hammock ends the turn: no cards with it")
        state = hammock(state, turn.shell, turn.shell_card)
    else:
        if turn.shell or turn.shell_card is not None:
            raise IllegalTurn("only a hammock finds the shell")
        if not 1 <= len(turn.plays) <= 2:
            raise IllegalTurn("a play turn plays one colour card, or two with special card 3")
        if len(state.row) + len(turn.plays) > state.goal:
            raise IllegalTurn(f"the mission plays only {state.goal} colour cards")
        modifiers = [play.modifiers for play in turn.plays]
        if any(m - set(MODIFIERS) for m in modifiers) or len(turn.plays) == 2 and modifiers[0] & modifiers[1]:
            raise IllegalTurn("each of special cards 2, 4, 5, 6 goes with one colour card")
        if turn.trade:
            state = trade(state, turn.trade)
        for k in sorted(turn.used - {TRADE}):
            state = use_special(state, k)
        for play in turn.plays:
            state = play_card(state, play)
    return state._replace(seat=(state.seat + 1) % len(state.hands))


def subsets(cards: int) -> list[frozenset[int]]:
    ks = list(scan(cards))
    return [frozenset(c) for size in range(len(ks) + 1) for c in combinations(ks, size)]


def trades(state: FamilyState) -> list[Trade | None]:
    """Return no trade, and every trade the seat in turn could make now."""
    seat = state.seat
    if not (state.specials[seat] | state.pool) & bit(TRADE):
        return [None]
    own = [item for item in holdings(state, seat) if item != special_item(TRADE)]
    return [None] + [
        Trade(partner, give, receive)
        for partner in range(len(state.hands))
        if partner != seat
        for give in own
        for receive in holdings(state, partner)
    ]


def play_sequences(state: FamilyState, available: int, count: int):
    """Yield (plays, state after them) for `count` colour cards with modifiers from `available`."""
    if count == 0:
        yield (), state
        return
    for modifiers in subsets(available & sum(bit(k) for k in MODIFIERS)):
        needed = playable(state, modifiers)
        for k in modifiers:  # a card playable without modifier k does not use it
            needed &= ~playable(state, modifiers - {k})
        for c in scan(needed):
            play = Play(c, modifiers)
            after = play_card(state, play)
            rest = available & ~sum(bit(k) for k in modifiers)
            for plays, final in play_sequences(after, rest, count - 1):
                yield (play,) + plays, final


def successors(state: FamilyState):
    """Yield (turn, next state) for every legal turn that needs each special card it uses: plays
    without a trade, the hammocks (see `hammocks`), then trades."""
    if state.finished:
        return
    options = trades(state)
    yield from play_turns(state, options[0])
    yield from hammocks(state)
    for swap in options[1:]:
        yield from play_turns(state, swap)


def play_turns(state: FamilyState, swap: Trade | None):
    """Yield (turn, next state) for the play turns that start with this trade (or none)."""
    seat = state.seat
    traded = trade(state, swap) if swap else state
    available = traded.specials[seat] | traded.pool
    counts = [1, 2] if available & bit(DOUBLE) and len(state.row) + 2 <= state.goal else [1]
    for count in counts:
        start = use_special(traded, DOUBLE) if count == 2 else traded
        for plays, final in play_sequences(start, available & ~bit(DOUBLE), count):
            turn = Turn(seat, False, swap, plays)
            for k in turn.used - {TRADE, DOUBLE}:
                final = use_special(final, k)
            yield turn, final._replace(seat=(seat + 1) % len(state.hands))


def replay(deal: FamilyDeal, mission: FamilyMission, turns) -> FamilyState:
    """Return the state after playing `turns` from the deal; raise IllegalTurn at the first illegal one."""
    state = initial_state(deal, mission)
    for number, turn in enumerate(turns, 1):
        try:
            state = apply_turn(state, turn)
        except IllegalTurn as error:
            raise IllegalTurn(f"turn {number}: {error}") from None
    return state
