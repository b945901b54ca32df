"""The trick-taking game's rule variants: what changes play beyond the plain rules.

variants (PlayRules: stage-space and Ghost rules as every engine applies them), ghost (the
two-player display: dealing and notation), spaces (Journey's stage spaces: names, options,
draws), chance (mission 12's random pass, drawn with the deal).
"""
