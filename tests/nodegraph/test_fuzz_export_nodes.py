"""Every node kind, its inputs fed by random (3, 3) tensors, exports to a core script that computes what the session
shows: the script's ``--json`` values equal the session's, or the script raises where the session keeps an error
on a node. A graph the exporter can't write is refused with one ``ExportError``."""

import contextlib
import io
import json
import sys

import numpy as np
import pytest

import core
import core.nodegraph.model.nodes  # the node types
from core.nodegraph.export.script import ExportError, export_script
from core.nodegraph.model import commands as cmd
from core.nodegraph.model.document import Graph, GraphError
from core.nodegraph.model.spec import all_specs
from core.nodegraph.run.session import Session

KINDS = [s.type_id for s in all_specs() if not s.type_id.startswith(("test.", "tt."))]


def _fed(type_id: str) -> Graph:
    g = Graph()
    c = cmd.AddNode({"type": type_id})
    c.do(g)
    for i, port in enumerate(g.port_names(c.node["id"])[0]):
        src = cmd.AddNode({"type": "source.randn", "params": {"shape": [3, 3], "requires_grad": True, "seed": i}})
        src.do(g)
        cmd.Connect(src.node["id"], "out", c.node["id"], port).do(g)
    return g


def _run_script(text: str) -> dict[str, object]:
    out, argv = io.StringIO(), sys.argv
    sys.argv = ["exported.py", "--json"]
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(text, "<exported>", "exec"), {"__name__": "__main__"})
    finally:
        sys.argv = argv
    return {key: json.loads(v) for kind, key, v in (line.split(" ", 2) for line in out.getvalue().splitlines())
            if kind == "value"}


@pytest.mark.filterwarnings("ignore::UserWarning")  # kl_div's reduction note, as PyTorch warns it
@pytest.mark.parametrize("type_id", KINDS)
def test_each_node_kind_exports_to_a_script_that_computes_the_sessions_values(type_id):
    try:
        g = _fed(type_id)
    except GraphError:
        return  # the kind takes no tensor on some input (refused when connected, with a message)
    session = Session(g)
    session.forward()
    try:
        text = export_script(g)
    except ExportError as exc:
        assert str(exc)
        return
    try:
        values = _run_script(text)
    except Exception:
        assert session.errors, "the script raised where the session showed no error"
        return
    if session.errors:
        return
    for key, value in values.items():
        got = session.value(*key.split(".", 1))
        want = got.detach().numpy() if isinstance(got, core.Tensor) else got
        assert np.allclose(np.asarray(value, dtype=float), np.asarray(want, dtype=float), equal_nan=True), key
