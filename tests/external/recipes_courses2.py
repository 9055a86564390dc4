"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table."""

from __future__ import annotations

RECIPES: list[dict] = []
