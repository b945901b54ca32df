"""What every game and layer shares: errors, bit sets, the 40-card deck, deals, trick rules, answers.

errors (InputError and its kinds), bitops (the kernel's bit intrinsics), cards (the deck as bit
positions and plain-int card sets), deal (hands, Commander, seeded dealing), rules (legal plays
and trick winners), solution (Outcome, Limits, Solution), mission_file (reading any game's
mission file, every problem collected).
"""
