"""The one error type for bad input; its message is a single line naming the problem."""


class InputError(ValueError):
    """A card, deal, task, mission or option that cannot be used as given."""
