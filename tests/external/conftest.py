"""The fetched scripts are data the corpus runs, not tests: some sources ship their own ``test_*.py`` (Captum's),
which pytest would otherwise collect from ``scripts/``."""

collect_ignore = ["scripts"]
