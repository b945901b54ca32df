"""crew-solver: exact perfect-information solving for The Crew card games."""

__version__ = "0.1.0"
