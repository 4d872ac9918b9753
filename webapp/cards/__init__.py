"""The card pool outside the engine: listing and exporting (`python -m webapp.cards`)."""
