"""Code import records the Tensor's transpose properties (``x.T``, ``x.mT``, ``x.H``, ``x.mH``) as ops of the graph:
they are properties, not methods, so ``x @ x.T`` imported ``x.T`` as a constant tensor node and the graph's
backward lost x's gradient through it (x.grad was half of what the snippet itself computed). The imported graph's
forward and backward give the snippet's own numbers."""

import numpy as np
import pytest

import core
import core.nodegraph.model.nodes  # registers the node types
from core.nodegraph.files.code_import import import_here
from core.nodegraph.run.session import Session

M23 = "[[0.5, 1.0, -2.0], [3.0, 4.0, 1.5]]"
CASES = {
    "T": (M23, "(x @ x.T).sum()"),
    "mT": ("[[[0.5, 1.0, -2.0], [3.0, 4.0, 1.5]], [[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]]]", "(x @ x.mT).pow(2).sum()"),
    "H": (M23, "(x.H * 3.0).sum() + (x @ x.H).sum()"),
    "mH": ("[[0.5, 1.0], [-2.0, 3.0], [4.0, 1.5]]", "(x.mH @ x).sum()"),
}


def _snippet(values: str, expression: str) -> str:
    return f"import torch\nx = torch.tensor({values}, requires_grad=True)\ny = {expression}\ny.backward()\n"


def _run_as_script(code: str) -> tuple[core.Tensor, core.Tensor]:
    """The snippet run as a script with ``torch`` being core: its y and x.grad."""
    scope: dict = {}
    exec(compile(code.replace("import torch", "import core as torch"), "snippet.py", "exec"), scope)
    return scope["y"].detach(), scope["x"].grad


@pytest.mark.parametrize("prop", sorted(CASES))
def test_an_imported_transpose_property_keeps_the_gradient_path(prop):
    code = _snippet(*CASES[prop])
    y, grad = _run_as_script(code)
    graph = import_here(code).graph
    session = Session(graph)
    session.forward()
    session.backward()
    leaves = session.leaves()
    assert len(leaves) == 1
    (x,) = leaves.values()
    assert x.grad is not None
    np.testing.assert_array_equal(x.grad.numpy(), grad.numpy())
    loss = next(n for n in graph.nodes.values() if (n.title or "") == "y")
    np.testing.assert_array_equal(session.value(loss.id).detach().numpy(), y.numpy())


def test_the_importer_loads_and_imports_once_a_tensor_subclass_turned_dispatch_on():
    """A Tensor subclass defined before the importer loads (a test module, a user's script) turns core's dispatch on;
    the importer then still loads (it read the transpose getters off the plain properties and failed:
    'DispatchingProperty' object has no attribute 'fget') and records x.T as the snippet's permute, not a constant."""
    import subprocess
    import sys

    script = ("import core\nclass Sub(core.Tensor):\n    pass\n"
              "from core.nodegraph.files.code_import import import_here\n"
              "g = import_here('import torch\\nx = torch.ones(2, 3)\\ny = (x @ x.T).sum()\\n').graph\n"
              "print(sorted(n.type for n in g.nodes.values()))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "shape.permute" in done.stdout and "reduce.sum" in done.stdout
