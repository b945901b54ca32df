"""Trick-taking missions: the mission format and its data, and what a mission becomes on a deal.

mission (the TOML format and reader; planet_nine.toml and journey.toml are the built-in data),
tasks (TaskMission, the solvers' input), conditions (trick counters, balance, sequences), pattern
(special stages' table patterns), setup (a mission's choices on a deal), special (special stages'
deals and redeals), stage (a mission's cases on a stage space, the Ghost included).
"""
