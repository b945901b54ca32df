"""The Crew: Family Adventure: 21 colour cards laid in rows under a number-or-colour rule."""
