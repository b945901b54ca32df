"""The trick-taking game's rule variants: what changes play beyond the plain rules.

variants (PlayRules: stage-space and Ghost rules as every engine applies them), ghost (the
two-player display: dealing and notation), spaces (Journey's stage spaces, one unit a space:
texts, options, draws, rules of play, the crew's choices; a registry by name), chance (mission 12's random pass, drawn with the deal).
"""
