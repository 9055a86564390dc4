"""``torch.fx`` in core: symbolic tracing of modules into graphs, the graphs' text and Python code, graph
surgery, and running graphs node by node.

``symbolic_trace(model)`` returns a :class:`GraphModule` whose ``graph`` lists the model's operations as
:class:`Node` objects and whose ``code`` is the ``forward`` torch 2.13 would write for it; :class:`Interpreter`
and :class:`Transformer` run or rewrite a graph; ``core.fx.passes.shape_prop`` records tensor shapes;
``replace_pattern`` swaps a traced pattern for a traced replacement.
Tracing uses core's ``__torch_function__`` protocol (``core._torch_function``), switched on when ``core.fx`` is
imported: from then on ``torch.relu`` is the same object in user code (``{F.relu: ...}`` tables, ``node.target ==
torch.add``) as in the nodes a trace records.
Not here yet: FX passes beyond ``shape_prop``, the subgraph rewriter's ``ignore_literals``,
most of ``torch.fx.experimental``.
"""

from core import _torch_function
from core.fx import experimental, passes, subgraph_rewriter
from core.fx._symbolic_trace import PH, Tracer, symbolic_trace, wrap
from core.fx.graph import Graph
from core.fx.graph_module import GraphModule
from core.fx.interpreter import Interpreter, Transformer
from core.fx.node import Node, map_arg
from core.fx.proxy import Proxy
from core.fx.subgraph_rewriter import replace_pattern

__all__ = ["Graph", "GraphModule", "Interpreter", "Node", "PH", "Proxy", "Tracer", "Transformer", "map_arg",
           "experimental", "passes", "replace_pattern", "subgraph_rewriter", "symbolic_trace", "wrap"]

_torch_function.activate()
