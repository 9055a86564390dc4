"""Saving and loading a large document stay linear, and the faster writer keeps the file's layout exactly.

The layout rule (a list or object whose one-line JSON fits in ``files.WIDTH`` columns stays on one line) is
restated here with ``json.dumps``, as the writer applied it before it learned to stop early; the writer must
give the same text. Work is counted (characters serialised), never timed.
"""

from __future__ import annotations

import json

import core.nodegraph.model.nodes  # noqa: F401 - registers the node types
from core.nodegraph.files import io as files
from core.nodegraph.model import commands as cmd
from core.nodegraph.model.document import Graph


def _reference_format(value, level: int = 0) -> str:
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, (dict, list)) or not value:
        return flat
    if not (isinstance(value, dict) and "id" in value and "type" in value) and len(flat) + 2 * level <= files.WIDTH:
        return flat
    pad, end = "  " * (level + 1), "  " * level
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(str(k), ensure_ascii=False)}: {_reference_format(v, level + 1)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    return "[\n" + ",\n".join(pad + _reference_format(v, level + 1) for v in value) + "\n" + end + "]"


def _document(n: int = 60) -> Graph:
    g = Graph()
    cmd.AddNode({"id": "n1", "type": "source.tensor", "title": "x «é» \u2028",
                 "params": {"tensor": [[0.5, -1e-7, 1e300], [2.0, 3.0, float("nan")]]}}).do(g)
    cmd.AddNode({"id": "n2", "type": "source.tensor", "params": {"tensor": [float(k) for k in range(40)]}}).do(g)
    for k in range(3, n + 1):
        cmd.AddNode({"id": f"n{k}", "type": "math.add", "position": [k * 1.5, -k]}).do(g)
        cmd.Connect(f"n{k - 1}", "out", f"n{k}", "a").do(g)
        cmd.Connect("n1", "out", f"n{k}", "b").do(g)
    cmd.AddComment({"text": "a group " * 20, "nodes": [f"n{k}" for k in range(1, 40)]}).do(g)
    return g


def test_saved_text_keeps_the_one_line_when_it_fits_layout():
    data = files.to_file_dict(_document())
    assert files.dumps(_document()) == _reference_format(data) + "\n"


def test_saving_serialises_each_element_a_bounded_number_of_times(monkeypatch):
    written = {"chars": 0}
    flat = files._flat

    def counting(value):
        text = flat(value)
        written["chars"] += len(text)
        return text

    monkeypatch.setattr(files, "_flat", counting)
    sizes = {}
    for n in (100, 400):
        written["chars"] = 0
        text = files.dumps(_document(n))
        sizes[n] = (written["chars"], len(text))
    ratio = [w / t for w, t in sizes.values()]
    assert max(ratio) < 1  # each character of the file is serialised about once (it was twice and more per level)
    assert abs(ratio[1] - ratio[0]) < 0.2

