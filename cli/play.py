"""`crew play`: one game of a deal played by the hidden-information crew, trick by trick, with what each player
believed."""

import json

import click

from cli.deals import seated_cards
from cli.main import deal_options, solve_request
from solver import api
from solver.core.cards import card_set, format_card
from solver.core.deal import format_deal
from solver.core.solution import Outcome
from solver.trick.ghost import GHOST_SEAT, format_ghost_deal
from solver.trick.spaces import TRAIN


@click.command()
@deal_options
@click.option("--samples", type=click.IntRange(min=1), default=16, show_default=True,
              help="Deals each decision samples from what its player knows.")
@click.option("--crew-seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="The seed of the crew's samples (--seed draws the deal and its tasks).")
@click.option("--crew-nodes", type=click.IntRange(min=1), default=api.CREW_NODES, show_default=True,
              help="Card plays a sample's solve may take; past them the sample is open (half a win for a card to play).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def play(samples, crew_seed, crew_nodes, as_json, **options):
    """Play a deal with a crew whose players each see only their own hand (and the plays, the voids they show,
    the cards communicated): each decision takes the option that keeps the mission winnable in the most of its
    sampled deals, each solved exactly. Prints each trick with every legal card's share of the samples, and the
    deal's perfect-information answer beside the crew's result.

    --budget applies to each solve of a sample too (--max-nodes: to the deal's perfect-information solve).
    """
    options["distress"] = False
    answer = api.play(api.PlayRequest(solve_request(**options), samples, crew_seed, crew_nodes))
    click.echo(json.dumps(game_json(answer)) if as_json else "\n".join(game_lines(answer)))


def wins_text(wins: int, samples: int, unknown: int = 0) -> str:
    """Return an option's wins over the samples it was solved on (`-`: none, the best before it won every one),
    with those whose solve ran out of its budget (`3+1?/5`: won in 3, open in 1, of 5)."""
    if not samples:
        return "-"
    return f"{wins}+{unknown}?/{samples}" if unknown else f"{wins}/{samples}"


def card_share_text(share) -> str:
    """Return a card's share as `wins_text` writes it."""
    return wins_text(share.wins, share.samples, share.open)


def card_shares_json(shares) -> dict:
    """Return each card's [wins, samples solved on, samples open] (see card_share_text)."""
    return {format_card(s.card): [s.wins, s.samples, s.open] for s in shares}


def sled_line(sled, leader: int, samples: int, scored: bool) -> str:
    """Return the dog sled's driver's weighing before a trick: its cards' shares, the leader's, and what it chose
    (`leader`: the seat it left the lead to, -1 when it opened; `scored`: a special mission's mean best scores)."""
    own = " ".join(f"{format_card(s.card)} {share_text(s, scored)}" for s in sled.shares)
    chose = "opens" if leader < 0 else f"leaves it to seat {leader}"
    leading = f"{sled.leader_wins / samples:.2f}" if scored else wins_text(sled.leader_wins, samples, sled.leader_open)
    return f"  the driver, seat {sled.driver}, {chose} (its cards: {own}; the leader leading: {leading})"


def vespa_line(vespa) -> str:
    """Return the Vespa's swap with the options each of the two weighed (won/solved; an option that left the race
    before its first sample is not listed)."""
    offers = ", ".join(f"seat {member} {format_card(card)} {wins_text(*tally)}"
                       for (member, card), tally in zip(vespa.offers, vespa.offer_wins) if tally[1])
    answers = ", ".join(f"{format_card(card)} {wins_text(*tally)}"
                        for card, tally in zip(vespa.answers, vespa.answer_wins) if tally[1])
    return (f"the Vespa: seat {vespa.holder} gives {format_card(vespa.given)} to seat {vespa.partner} for "
            f"{format_card(vespa.taken)} (seat {vespa.holder}'s offers: {offers}; seat {vespa.partner}'s answers: "
            f"{answers})")


def vespa_json(vespa) -> dict:
    """Return the Vespa's swap as `crew play --json` prints it."""
    return {"holder": vespa.holder, "partner": vespa.partner, "given": format_card(vespa.given),
            "taken": format_card(vespa.taken),
            "offers": [{"seat": member, "card": format_card(card), "wins": wins, "samples": tried}
                       for (member, card), (wins, tried) in zip(vespa.offers, vespa.offer_wins)],
            "answers": [{"card": format_card(card), "wins": wins, "samples": tried}
                        for card, (wins, tried) in zip(vespa.answers, vespa.answer_wins)]}


def share_text(share, scored: bool) -> str:
    """Return a card's share of its samples: won/solved, or for a special mission its mean best score (`-` when it
    left the race before its first sample)."""
    if not scored:
        return card_share_text(share)
    return f"{share.wins / share.samples:.2f}" if share.samples else "-"


def task_text(mission, task: int) -> str:
    """Return a task card with its token, as crew solve writes it (`b7 [1]`)."""
    token = mission.tokens[task]
    return format_card(mission.cards[task]) + (f" [{token}]" if token is not None else "")


def picked_text(game, index: int) -> str:
    """Return what a drafted pick took: a Deep Sea card (`card 44`) or a task card with its token."""
    if game.drafted:
        return "card " + game.drafted[index].split("/", 1)[1]
    return task_text(game.mission, index)


def pick_lines(answer: api.PlayAnswer) -> list[str]:
    """Return the setup chosen and the tasks' picks, each with its options' wins, in the order they were made (Deep
    Sea's cards are drafted before the setup)."""
    game, lines, setup = answer.game, [], []
    samples, mission = game.samples, game.mission
    if game.setup_wins:
        options = ", ".join(f"{label or '(none)'} {wins_text(w, samples)}"
                            for label, w in zip(game.offered, game.setup_wins))
        setup = [f"setup: {game.setup.label} (the Commander's samples won: {options})"]
    if not game.drafted:
        lines += setup
    for pick in game.picks:
        if pick.drafted:
            head = f"seat {pick.chooser} takes {picked_text(game, pick.task)}"
            options = ", ".join(f"{picked_text(game, t)} {wins_text(w, n)}"
                                for (t, _), w, n in zip(pick.options, pick.wins, pick.tried))
        else:
            head = f"the Commander gives {task_text(mission, pick.task)} to seat {pick.seat}"
            options = ", ".join(f"seat {seat} {wins_text(w, n)}"
                                for (_, seat), w, n in zip(pick.options, pick.wins, pick.tried))
        lines.append(head + (f" ({options})" if options else " (the only option)"))
    if game.drafted:
        lines += setup
    for handover in game.handovers:
        options = ", ".join(f"{task_text(mission, t)} -> seat {to} {wins_text(w, samples)}"
                            for (t, to), w in zip(handover.options, handover.wins))
        if handover.made < 0:
            head = f"seat {handover.seat} keeps its tasks"
        else:
            task, to = handover.options[handover.made]
            head = f"seat {handover.seat} hands {task_text(mission, task)} to seat {to}"
        fresh = (f"; on fresh samples keeping {wins_text(handover.confirmed[0], samples)}, handing over "
                 f"{wins_text(handover.confirmed[1], samples)}" if handover.confirmed else "")
        lines.append(f"{head} (keeping {wins_text(handover.keep, samples)}; {options}{fresh})")
    tasks = ", ".join(f"{task_text(mission, i)} -> " + (f"seat {owner}" if owner >= 0 else "anyone")
                      for i, owner in enumerate(mission.owners))
    lines.append(f"tasks: {tasks or 'none'}")
    return lines


def game_lines(answer: api.PlayAnswer) -> list[str]:
    """Return `crew play`'s text: the deal, the picks, then each trick with its plays' shares, then the result."""
    game, players = answer.game, answer.deal.players
    space = answer.stage.space
    on = f"on the {space}; " if space != TRAIN else ""
    if answer.ghost is not None:
        on += f"seat {GHOST_SEAT}'s display played by seat {answer.ghost.controller}; "
    deal = format_ghost_deal(answer.deal, answer.stage.display) if answer.stage.display else format_deal(answer.deal)
    lines = [f"deal: {deal} (Commander: seat {answer.deal.commander}; {on}{game.samples} samples a decision)"]
    lines += pick_lines(answer)
    if game.vespa is not None:
        lines.append(vespa_line(game.vespa))
    shown = {}
    for s in game.shown:
        shown.setdefault(s.trick, []).append(s)
    for number, trick in enumerate(game.walked.tricks, 1):
        lines.append(f"trick {number:2d}: {seated_cards(trick)}  -> seat {trick.winner}"
                     + (f"  done: {' '.join(format_card(c) for c in trick.completed)}" if trick.completed else ""))
        said = ", ".join(f"seat {c.seat} {format_card(c.card)} ({c.token or 'no token'})"
                         for c in shown.get(number, []))
        if said:
            lines.append(f"  shown before it: {said}")
        lost = ", ".join(f"seat {seat}" for seat, trick in game.tiles_lost if trick == number)
        if lost:
            lines.append(f"  communication tile flicked red before it (used up): {lost}")
        for decision in game.decisions[(number - 1) * players : number * players]:
            if decision.sled is not None:
                lines.append(sled_line(decision.sled, trick.leader if decision.seat != decision.sled.driver else -1,
                                       game.samples, game.score is not None))
            if decision.shares:
                believed = " ".join(f"{format_card(s.card)} {share_text(s, game.score is not None)}"
                                    for s in decision.shares)
                lines.append(f"  {decision.seat}:{format_card(decision.card):3s} of {believed}")
            if decision.tasks:
                alone = " ".join(f"{format_card(s.card)} {card_share_text(s)}" for s in decision.tasks)
                lines.append(f"      lost in every sample; (sample, task) pairs still winnable alone: {alone}")
        if number <= len(game.tabled):
            laid = game.tabled[number - 1]
            ghost = answer.ghost is not None and laid.seat == GHOST_SEAT
            for_ghost = f" (the Ghost: seat {answer.ghost.controller} decides)" if ghost else ""
            lines.append(f"  then seat {laid.seat}{for_ghost} lays {format_card(laid.card)} on the table (of "
                         + " ".join(f"{format_card(s.card)} {card_share_text(s)}" for s in laid.shares) + ")")
        if game.given and number == game.mission.random_pass.after:  # before the skis and the crew's passes
            lines.append("  then the random pass: " + ", ".join(f"seat {seat} gives {format_card(c)}"
                                                                for seat, c in enumerate(game.given)))
        if card_set(trick.cards) & game.mission.space.skis and not game.walked.ended.endswith(f"trick {number}"):
            lines.append("  then the skis: every hand passes whole to the left")
        if number == game.mission.space.redeal_after:
            lines.append("  then the redeal of the discards: " + ", ".join(
                f"seat {seat} draws {' '.join(map(format_card, cards))}" if seat >= 0 else
                f"left over {' '.join(map(format_card, cards))}" for seat, cards in game.redeal_draws().items()))
        lines += [pass_line(game, made) for made in game.passes if made.after == number]
    lines.append(result_line(answer))
    return lines


def pass_line(game, made) -> str:
    """Return the line of a pass the crew made (the jeep's exchange, a helicopter's pass): each seat's cards, their
    wins among the choices it weighed (a special mission: the mean best score of its samples), and on the jeep the
    two it took."""
    def weighed(choice) -> str:
        total, tried = choice.chosen_wins
        return f"{total / tried:.2f}" if game.score is not None else wins_text(total, tried)

    if made.after != game.mission.space.jeep_after:
        return "  then the helicopter: " + "; ".join(
            f"seat {c.seat} passes {format_card(c.cards[0])} ({weighed(c)}, {best_of(c, 'card')})"
            for c in made.choices)
    takes = jeep_takes(game, made)
    line = "  then the jeep: " + "; ".join(
        f"seat {c.seat} puts {' '.join(map(format_card, c.cards))} in ({weighed(c)}, "
        f"{best_of(c, 'pair')}) and takes {' '.join(map(format_card, took))}"
        for c, took in zip(made.choices, takes))
    if made.placed is None:
        return line
    lay = ", ".join(f"{format_card(new)} where {format_card(old)} lay"
                    for old, new in zip(made.placed.cards, takes[made.placed.seat]))
    return f"{line}; his controller lays {lay} ({weighed(made.placed)}, {best_of(made.placed, 'order')})"


def best_of(choice, noun: str) -> str:
    """Return how a seat's choice of a pass stood among those it weighed (`noun` what it chose)."""
    return f"the best of {len(choice.options)} {noun}s" if len(choice.options) > 1 else f"its only {noun}"


def jeep_takes(game, made) -> list[tuple[int, ...]]:
    """Return the cards each seat took from the jeep's middle (`made`, the crew's exchange), lowest first, as the
    deal's shuffle dealt them."""
    middle = sorted(c for choice in made.choices for c in choice.cards)
    order = game.mission.space.jeep_order
    return [tuple(c for c, taker in zip(middle, order) if taker == choice.seat) for choice in made.choices]


def passes_json(game) -> dict:
    """Return the crew's passes in `crew play --json`: "jeep" its exchange (each seat's pair, the two it took and
    the pairs weighed), "helicopter" each pass (the trick it followed, each seat's card and the cards weighed)."""
    jeep = [made for made in game.passes if made.after == game.mission.space.jeep_after]
    heli = [made for made in game.passes if made.after != game.mission.space.jeep_after]
    return {
        **({"jeep": [{"seat": c.seat, "put": [format_card(card) for card in c.cards],
                      "took": [format_card(card) for card in took],
                      "pairs": [{"pair": [format_card(card) for card in pair], "wins": wins, "samples": tried}
                                for pair, (wins, tried) in zip(c.options, c.wins)],
                      **({"placed": [format_card(card) for card in jeep[0].placed.cards],
                          "orders": [{"pair": [format_card(card) for card in pair], "wins": wins, "samples": tried}
                                     for pair, (wins, tried) in zip(jeep[0].placed.options, jeep[0].placed.wins)]}
                         if jeep[0].placed is not None and jeep[0].placed.seat == c.seat else {})}
                     for c, took in zip(jeep[0].choices, jeep_takes(game, jeep[0]))]} if jeep else {}),
        **({"helicopter": [{"after": made.after, "passes": [
            {"seat": c.seat, "passed": format_card(c.cards[0]),
             "cards": [{"card": format_card(card), "wins": wins, "samples": tried}
                       for (card,), (wins, tried) in zip(c.options, c.wins)]} for c in made.choices]}
                           for made in heli]} if heli else {}),
    }


def result_line(answer: api.PlayAnswer) -> str:
    """Return the crew's result beside the perfect-information answer of the deal (a special mission: the scores)."""
    game = answer.game
    if game.score is not None:
        best = answer.best
        return (f"result: score {game.score} ({game.outcome.value.upper()}); perfect information: best score "
                f"{'' if best.exact else '>='}{best.score}")
    perfect = answer.perfect.outcome
    reading = {(Outcome.LOSS, Outcome.WIN): "lost by the crew although winnable",
               (Outcome.LOSS, Outcome.LOSS): "not winnable even seeing every hand"}.get((game.outcome, perfect), "")
    return (f"result: {game.outcome.value.upper()} ({game.walked.ended}; {game.tasks_done} of "
            f"{len(game.mission.cards)} tasks done); perfect information: {perfect.value.upper()}"
            + (f": {reading}" if reading else ""))


def picked_json(game, index: int) -> str:
    """Return what a pick took in `crew play --json`: a Deep Sea card's id, or a task card."""
    return game.drafted[index] if game.drafted else format_card(game.mission.cards[index])


def game_json(answer: api.PlayAnswer) -> dict:
    """Return what `crew play --json` prints."""
    game = answer.game
    cards = game.mission.cards
    return {
        "result": game.outcome.value, "ended": game.walked.ended, "tasks_done": game.tasks_done,
        "tasks": len(cards), "lost_in": game.lost_in, "perfect": answer.perfect.outcome.value,
        **({"score": game.score, "perfect_score": answer.best.score, "perfect_score_exact": answer.best.exact}
           if game.score is not None else {}),
        "samples": game.samples, "space": str(answer.stage.space), "setup": game.setup.label,
        **({"ghost_controller": answer.ghost.controller} if answer.ghost is not None else {}),
        "setup_wins": dict(zip(game.offered, game.setup_wins)),
        "owners": {format_card(c): owner for c, owner in zip(cards, game.mission.owners)},
        "picks": [{"chooser": p.chooser, "drafted": p.drafted, "task": picked_json(game, p.task), "seat": p.seat,
                   "options": [{"task": picked_json(game, t), "seat": s, "wins": w, "samples": n}
                               for (t, s), w, n in zip(p.options, p.wins or (None,) * len(p.options),
                                                       p.tried or (None,) * len(p.options))]}
                  for p in game.picks],
        "handovers": [{"seat": h.seat, "keep": h.keep, "best": h.best, "confirmed": list(h.confirmed), "made": h.made,
                       "options": [{"task": format_card(cards[t]), "to": to, "wins": w}
                                   for (t, to), w in zip(h.options, h.wins)]} for h in game.handovers],
        "random_pass": {str(seat): format_card(c) for seat, c in enumerate(game.given)},
        **({"redeal": {("left" if seat < 0 else str(seat)): [format_card(c) for c in cards]
                       for seat, cards in redeal.items()}} if (redeal := game.redeal_draws()) else {}),
        **({"vespa": vespa_json(game.vespa)} if game.vespa is not None else {}),
        **passes_json(game),
        **({"tabled": [{"seat": d.seat, "card": format_card(d.card),
                        "shares": card_shares_json(d.shares)} for d in game.tabled]}
           if game.tabled else {}),
        "shown": [{"before_trick": s.trick, "seat": s.seat, "card": format_card(s.card), "token": s.token}
                  for s in game.shown],
        "tiles_lost": [{"before_trick": trick, "seat": seat} for seat, trick in game.tiles_lost],
        "plays": [{"seat": d.seat, "card": format_card(d.card),
                   "shares": card_shares_json(d.shares)}
                  | ({"tasks": card_shares_json(d.tasks)} if d.tasks else {})
                  | ({"sled": {"driver": d.sled.driver, "leader_wins": d.sled.leader_wins,
                               "leader_open": d.sled.leader_open,
                               "shares": card_shares_json(d.sled.shares)}}
                     if d.sled is not None else {})
                  for d in game.decisions],
        "load_seconds": round(answer.load_seconds, 6),
    }

