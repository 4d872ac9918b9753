"""Blueprints: the pages of the site, one module per area."""
