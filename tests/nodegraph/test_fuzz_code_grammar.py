"""Fuzzing code import with snippets built from the chapter's grammar, and the odd snippets it reaches.

Hypothesis writes snippets line by line from what the chapter's code is made of (tensors made by factories,
names, numbers, operators, torch functions and methods called with right and wrong arity or keywords, shapes
that may not broadcast, nested calls, lambdas, statements the graph does not hold, huge literals, unicode
names). ``import_here`` must give a graph that saves, loads back and runs, or refuse with ONE
``CodeImportError`` whose line is the snippet's; never another exception.
"""

import pytest

import core.nodegraph.model.nodes  # noqa: F401 - the node types graphs are built from
from core.nodegraph.files.code_import import CodeImportError, check_syntax, import_here

TIME_LIMIT = 5.0


@pytest.mark.parametrize("expression", ["x" + " + x" * 3000, "x" + "[...]" * 3000, "x" + ".relu()" * 2000,
                                        "not " * 5000 + "x"])
def test_an_expression_too_deep_for_pythons_compiler_is_refused_with_one_code_import_error(expression):
    text = f"import torch\nx = torch.ones(2)\ny = {expression}\n"
    with pytest.raises(CodeImportError, match="RecursionError: the snippet nests too deeply"):
        check_syntax(text)
    with pytest.raises(CodeImportError, match="RecursionError: the snippet nests too deeply"):
        import_here(text, time_limit=TIME_LIMIT)
