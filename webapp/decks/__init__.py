"""Decks and the collection they are built from: deck checks, deck codes, curves, decks built for the player, packs, card search."""
