"""fastprogress's stand-in for the corpus (not installed): ``progress_bar`` iterates what it wraps and ``master_bar``
writes its table rows as lines, as fastprogress prints them outside a notebook. The runner installs it as
``fastprogress``."""

from __future__ import annotations


class progress_bar:
    def __init__(self, gen, total=None, display=True, leave=True, parent=None, master=None, comment=""):
        self.gen, self.comment = gen, comment

    def __iter__(self):
        return iter(self.gen)

    def __len__(self) -> int:
        return len(self.gen)


class master_bar(progress_bar):
    def write(self, line, table=False):
        print("  ".join(str(item) for item in line) if table else line)

    def update_graph(self, graphs, x_bounds=None, y_bounds=None, figsize=(6, 4)):
        pass
