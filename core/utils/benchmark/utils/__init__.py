"""``torch.utils.benchmark.utils``: the timer (``timer``), its results (``common``) and their table (``compare``)."""
