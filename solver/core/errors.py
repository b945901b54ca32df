"""The error types for bad input, all InputError: its message is a single line naming the problem."""


class InputError(ValueError):
    """A card, deal, task, mission or option that cannot be used as given."""


class UnsupportedMission(InputError):
    """A mission holding rules an engine does not model; the message names the engine and those rules.

    `engine` is the engine's name, `families` the short names of the rule families it lacks
    (e.g. "trick-counters"), `phrases` the same in words, as the message gives them, and `hint`
    what to use instead.
    """

    def __init__(self, engine: str, families: tuple[str, ...], phrases: tuple[str, ...], hint: str = ""):
        self.engine = engine
        self.families = tuple(families)
        self.phrases = tuple(phrases)
        self.hint = hint
        message = f"the {engine} engine does not model {', '.join(phrases)}"
        super().__init__(f"{message}; {hint}" if hint else message)

    def __reduce__(self):
        # Pickled with its fields (a sweep's worker processes send errors back).
        return type(self), (self.engine, self.families, self.phrases, self.hint)
