"""``torch.utils.benchmark.utils.compare``: ``Compare``, a table of many measurements' medians.

Measurements are grouped by ``label`` (one table each); within a table, rows are the thread count and
``sub_label`` (or the statement), columns the ``description``. Times share one unit per table. The layout
follows PyTorch's (a title bar, a header, a "N threads:" line per thread count, the unit below); with
``trim_significant_figures()`` each median shows only the digits its spread supports. ``colorize()`` is
accepted and draws nothing.
"""

from __future__ import annotations

import enum

from core.utils.benchmark.utils import common

__all__ = ["Compare", "Colorize"]


class Colorize(enum.Enum):
    NONE = "none"
    COLUMNWISE = "columnwise"
    ROWWISE = "rowwise"


class Compare:
    """Collects measurements; ``print()`` (or ``str``) renders one table per label."""

    def __init__(self, results: list):
        self._results: list = []
        self.extend_results(results)
        self._trim_significant_figures = False
        self._colorize = Colorize.NONE
        self._highlight_warnings = False

    def __str__(self) -> str:
        return "\n".join(self._render())

    def extend_results(self, results) -> None:
        for r in results:
            if not isinstance(r, common.Measurement):
                raise ValueError(f"Expected an instance of `Measurement`, got {type(r)} instead.")
        self._results.extend(results)

    def trim_significant_figures(self) -> None:
        self._trim_significant_figures = True

    def colorize(self, rowwise: bool = False) -> None:
        self._colorize = Colorize.ROWWISE if rowwise else Colorize.COLUMNWISE

    def highlight_warnings(self) -> None:
        self._highlight_warnings = True

    def print(self) -> None:
        print(str(self))

    def _render(self) -> list:
        tables = []
        for label in common.ordered_unique(r.label for r in common.Measurement.merge(self._results)):
            group = [r for r in common.Measurement.merge(self._results) if r.label == label]
            tables.append(self._table(label, group))
        return tables

    def _cell(self, m, scale: float) -> str:
        value = m.median / scale
        if self._trim_significant_figures:
            value = common.trim_sigfig(value, m.significant_figures)
        text = f"{value:.1f}"
        return text + (" (! {:.0f}%)".format(m.iqr / m.median * 100) if self._highlight_warnings
                       and m.has_warnings else "")

    def _table(self, label, group: list) -> str:
        unit, scale = common.select_unit(min(m.median for m in group))
        columns = common.ordered_unique(m.description for m in group)
        rows = common.ordered_unique((m.num_threads, m.as_row_name) for m in group)
        cells = {(m.num_threads, m.as_row_name, m.description): self._cell(m, scale) for m in group}
        name_width = max(len(name) for _, name in rows) + 8  # six spaces before a row's name, two after
        widths = [max([len(str(c or ""))] + [len(cells.get((t, n, c), "")) for t, n in rows]) + 4 for c in columns]
        header = " " * name_width + "|" + "|".join(f"{str(c or ''):^{w}}" for c, w in zip(columns, widths))
        width = len(header)
        title = f" {label} " if label else " "
        lines = [f"[{title:-^{width - 2}}]", header]
        for threads in common.ordered_unique(t for t, _ in rows):
            prefix = f"{threads} threads: "
            lines.append(prefix + "-" * max(width - len(prefix), 0))
            for t, name in rows:
                if t == threads:
                    lines.append(f"      {name:<{name_width - 6}}|" + "|".join(
                        f"{cells.get((t, name, c), ''):^{w}}" for c, w in zip(columns, widths)))
        lines += ["", f"Times are in {common.unit_to_english(unit)}s ({unit}).", ""]
        return "\n".join(lines)
