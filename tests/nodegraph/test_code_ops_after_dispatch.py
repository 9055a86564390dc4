"""The op registry names core's ops the same whether ``__torch_function__`` dispatch turned on before or after it was
first read. Turning dispatch on makes each public function, in place, a wrapper of a new copy of its op (and gives an
alias its own wrapper), and a registry read before missed them: a full test run failed in one order only (an earlier
test had read the registry, a later test module's Tensor subclass turned dispatch on, and ``gradcheck(torch.sin,
...)`` in a snippet got no ``sin(x)`` formula). Dispatch stays on for the rest of a process: each order runs in a
fresh one."""

import json
import subprocess
import sys

import pytest

# prints, once a Tensor subclass turned dispatch on, the registry name of every table function, of each function it
# wraps and of what each of core's op namespaces holds (what the recorder patches), and a gradcheck's formula
_SCRIPT = """
import inspect, json, sys
import core
import core.nn.functional as F
from core.nodegraph.files.code_import import import_here
from core.nodegraph.model import code_ops

if sys.argv[1] == "read first":
    code_ops.op_table()
class Sub(core.Tensor):
    pass
core.ones(2).as_subclass(Sub) + 1
names = {key: [code_ops.name_of(g) for g in code_ops.wrapped_chain(fn)] + [code_ops.name_of(inspect.unwrap(fn))]
         for key, fn in code_ops.op_table().items()}
for prefix, module in (("", core), ("F.", F), ("linalg.", core.linalg), ("special.", core.special)):
    names.update({"holds " + prefix + attr: [code_ops.name_of(g) for g in code_ops.wrapped_chain(fn)]
                  for attr, fn in vars(module).items() if inspect.isfunction(fn)})
text = ("import torch\\nx = torch.rand(3, dtype=torch.float64, requires_grad=True)\\n"
        "good = torch.autograd.gradcheck(torch.sin, (x,), atol=1e-4)\\n")
formulas = [n.params["formula"] for n in import_here(text).graph.nodes.values() if n.type == "check.gradcheck"]
print(json.dumps({"names": names, "formulas": formulas, "dispatches": hasattr(core.sin, "__wrapped__")}))
"""


def _run(order: str) -> dict:
    done = subprocess.run([sys.executable, "-c", _SCRIPT, order], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def orders() -> dict:
    return {order: _run(order) for order in ("read first", "dispatch first")}


def test_a_gradcheck_of_a_core_op_reads_its_formula_when_dispatch_turned_on_after_the_registry_was_read(orders):
    assert orders["read first"]["dispatches"]  # the subclass did turn dispatch on
    assert orders["read first"]["formulas"] == orders["dispatch first"]["formulas"] == ["sin(x)"]


def test_the_registry_names_every_op_alike_whether_read_before_or_after_dispatch_turned_on(orders):
    first, after = orders["read first"]["names"], orders["dispatch first"]["names"]
    assert first["sin"] == ["sin", "sin", "sin"]  # the dispatching function, its op, and what unwrap finds
    assert {k: (first.get(k), after.get(k)) for k in first.keys() | after.keys() if first.get(k) != after.get(k)} == {}
