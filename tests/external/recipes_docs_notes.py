"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

PyTorch's own documentation pages (2026-12-04): the code a learner copies from ``docs/source/notes/*.rst``
(autograd mechanics, broadcasting, extending, modules, randomness, serialization, numerical accuracy, the FAQ...)
and from the reference pages' examples (tensor views, tensor attributes, ``torch.func``'s whirlwind tour...). Each
page is one script of its code blocks in order (``corpus_docs_notes.rst_to_script``: ``>>>`` lines run, a bare
expression shows its ``repr`` as the doctest does, the page's printed outputs dropped), run cell by cell (a page's
snippets raise on purpose or lean on names a learner supplies). The preamble each recipe writes over the first line
imports torch, seeds it and gives the page's placeholders (``model``, ``input``, ``loss_fn``) small stand-ins.
pytorch/pytorch is too large to clone: each page is pinned at the commit its file was read at.
"""

from __future__ import annotations

from corpus_docs_notes import PREAMBLE
from recipe_kit import _r

RECIPES: list[dict] = []

IMPORTS = "import torch\ntorch.manual_seed(0)\nimport torch.nn as nn\nimport torch.nn.functional as F\n"


def _page(name, commit, path, preamble="", edits=(), **kw):
    """A documentation page's code cells, after ``IMPORTS`` and the page's ``preamble`` (its placeholders)."""
    source = ("pytorch/pytorch", commit, "BSD-3-Clause")
    first = (PREAMBLE, f"# preamble (our edit): imports, seed, stand-ins\n{IMPORTS}{preamble}")
    return _r(name, source, path, [first, *edits], keep_going=True, **kw)


FAQ = """model = nn.Linear(3, 1)
input = torch.randn(5, 3)
criterion = lambda output: output.pow(2).mean()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
def run_model(n):
    return model(input[:n])
batch_size = 4
"""

AUTOGRAD = """import os, tempfile, threading, uuid
tmp_dir = tempfile.mkdtemp()
input = torch.randn(2, 3)
def fn(grad):
    print("hook:", grad)
"""
SAVED_HOOKS = "y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook)"

USE_LINEAR = """x = torch.randn(4, 3, requires_grad=True)
w = torch.randn(2, 3, requires_grad=True)
b = torch.randn(2, requires_grad=True)
out = linear(x, w, b)
out.sum().backward()
print(out, x.grad, w.grad, b.grad, sep="\\n")"""
USE_MUL_CONSTANT = """x = torch.randn(3, requires_grad=True)
y, z = MulConstant.apply(x, 3), MulConstant.apply(x, 5)
y.sum().backward()
print(y, z, x.grad, sep="\\n")"""

OPTIM = """import torch.optim as optim
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.base = nn.Linear(3, 4)
        self.classifier = nn.Linear(4, 2)
    def forward(self, x):
        return self.classifier(self.base(x).relu())
model = Model()
var1, var2 = model.base.weight, model.classifier.weight
dataset = [(torch.randn(5, 3), torch.randint(0, 2, (5,))) for _ in range(3)]
loss_fn = nn.CrossEntropyLoss()
"""

AMP = """class AmpScaler(torch.amp.GradScaler):  # the draft's name: today's GradScaler, on the CPU
    def __init__(self, enabled=True):
        super().__init__("cpu", enabled=enabled)
    unscale = torch.amp.GradScaler.unscale_
model, model0, model1 = nn.Linear(3, 2), nn.Linear(3, 2), nn.Linear(3, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
optimizer0 = torch.optim.SGD(model0.parameters(), lr=0.1)
optimizer1 = torch.optim.Adam(model1.parameters(), lr=0.1)
def loss_fn(output, target):
    loss = F.mse_loss(output, target)
    print(round(loss.item(), 6))
    return loss
data = [(torch.randn(4, 3), torch.randn(4, 2)) for _ in range(4)]
max_norm, iters_to_accumulate = 1.0, 2
class args:
    use_mixed_precision = False
"""

# the migration page's functorch halves (the deprecated package, which would import the real torch): left out
NO_FUNCTORCH = "pass  # the functorch (deprecated) line: our edit"
FUNCTORCH_LINES = ["import functorch", "fmodel, params = functorch.make_functional(model)",
                   "grads = functorch.grad(compute_loss)(params, inputs, targets)", "import functorch",
                   "fmodel, params = functorch.make_functional(model)",
                   "jacobians = functorch.jacrev(fmodel)(params, inputs)", "import functorch",
                   "fmodel, params, buffers = functorch.combine_state_for_ensemble(models)",
                   "output = functorch.vmap(fmodel, (0, 0, None))(params, buffers, data)",
                   "assert output.shape == (num_models, batch_size, out_features)"]

RECIPES += [
    _page("docs_notes_broadcasting", "0b4ba994954aad0750a314af7d917933d3cbe786", "docs/source/notes/broadcasting.rst"),
    _page("docs_tensor_view", "0b6d29dfa15259a8b409593db04254e75874db0b", "docs/source/tensor_view.rst"),
    _page("docs_tensor_attributes", "0296f356fcb6bc222650838097ff6aabbe94bd69", "docs/source/tensor_attributes.rst"),
    _page("docs_notes_faq", "06d47f46385229413d2bf3808fbfc86993f02f7d", "docs/source/notes/faq.rst", FAQ,
          [("range(10000)", "range(100)"), ("    total_loss += loss\n", "    total_loss += loss\nprint(total_loss)\n")]),
    _page("docs_notes_autograd", "94eeb1b22fe4aed51a9fa85e145a6d83d4dc8368", "docs/source/notes/autograd.rst",
          AUTOGRAD, [(SAVED_HOOKS, SAVED_HOOKS + "\nprint(y.grad_fn._saved_self.equal(x))\ny.sum().backward()\nprint(x.grad)"),
                     ("    y = x * x", "    y = x * x\nprint(x is y.grad_fn._saved_self, y.grad_fn._saved_self is y.grad_fn._saved_other, "
                                     "x.equal(y.grad_fn._saved_other))")]),
    _page("docs_notes_randomness", "03d697c503ed5184c9da924a34087c2c1ea6e811", "docs/source/notes/randomness.rst", "",
          [("np.random.seed(0)", "np.random.seed(0)\nprint(torch.rand(2), np.random.rand(2), torch.backends.cudnn.deterministic)")]),
    _page("docs_notes_numerical_accuracy", "017943b70f6920c395e3b6dac100e2cd7ecfa92a",
          "docs/source/notes/numerical_accuracy.rst", "",
          [("a.norm() #", "print(a.norm()) #"), ("a.double().norm() #", "print(a.double().norm()) #")]),
    _page("docs_func_whirlwind_tour", "1490fe67cbb2fec137952d353890c058d5577b37", "docs/source/func.whirlwind_tour.rst", "",
          [("result = vmap(model)(examples)", "result = vmap(model)(examples)\nprint(result)"),
           ("(*inputs)", "(*inputs)\nprint(grad_weight_per_example)"),
           ("vjps = vjp_fn(*cotangents)", "vjps = vjp_fn(*cotangents)\nprint(outputs, vjps)"),
           ("assert torch.allclose(output, x + y)", "assert torch.allclose(output, x + y)\nprint(output)"),
           ("assert jacobian.shape == (64, 5, 5)", "assert jacobian.shape == (64, 5, 5)\nprint(jacobian[0])"),
           ("assert torch.allclose(neg_sin_x, -x.sin())",
            "assert torch.allclose(neg_sin_x, -x.sin())\nprint(cos_x, neg_sin_x)")]),
    _page("docs_notes_extending", "0337521dbbea97d23ce6158dcf4080962b42f5ba", "docs/source/notes/extending.rst",
          "from torch.autograd import Function\nimport logging\n",
          [("linear = LinearFunction.apply", "linear = LinearFunction.apply\n" + USE_LINEAR),
           ("from torch.autograd import gradcheck", USE_MUL_CONSTANT + "\nfrom torch.autograd import gradcheck"),
           ("self.input_features, self.output_features, self.bias is not None\n        )",
            "self.input_features, self.output_features, self.bias is not None\n        )\n"
            "print(Linear(3, 2))\nprint(Linear(3, 2, bias=False)(torch.ones(1, 3)))"),
           ("class SubTensor(torch.Tensor):\n    pass", "class SubTensor(torch.Tensor):\n    pass\n"
            "class SubTensor2(SubTensor):  # (our stand-ins for the page's other subclasses)\n    pass\n"
            "class OtherSubTensor(torch.Tensor):\n    pass")]),
    _page("docs_notes_modules", "16b4dbe59ce05f9f69b9f8a6ed8a6a8e814fc350", "docs/source/notes/modules.rst", "",
          [("for _ in range(10000):", "for _ in range(200):")]),
    _page("docs_notes_serialization", "002da161b824321a1a6791fc20e2504cce68ed6f", "docs/source/notes/serialization.rst",
          "", [("from torch._subclasses.fake_tensor import FakeTensorMode",  # a private module of torch's
                "raise ImportError('torch._subclasses (FakeTensorMode) is private to torch: our edit')")]),
    _page("docs_optim", "00f97a87246a6a7a144b1c3ffb3ebbdcfbe9dd5c", "docs/source/optim.rst", OPTIM,
          [("optim.SGD([", "print(optim.SGD(["), ("], lr=1e-2, momentum=0.9)", "], lr=1e-2, momentum=0.9))"),
           ("optimizer.step()\n", "optimizer.step()\n    print(loss.item())\n"),
           ("    optimizer.step(closure)", "    print(optimizer.step(closure))")]),
    _page("docs_notes_extending_func", "318a916eb63f312ea79c00d63208dd9adfe8dc91", "docs/source/notes/extending.func.rst",
          "import numpy as np\n",
          [("assert torch.allclose(grad_x, torch.ones_like(x))", "assert torch.allclose(grad_x, torch.ones_like(x))\n"
            "print(grad_x, numpy_sort(x), torch.func.jacrev(numpy_sort)(x[0]), sep='\\n')"),
           ("assert torch.allclose(ggx, 6 * x)", "assert torch.allclose(ggx, 6 * x)\nprint(x, ggx)"),
           ("assert torch.allclose(result, x ** 3)", "assert torch.allclose(result, x ** 3)\nprint(result)"),
           ("assert torch.allclose(result, numpy_sort(result, 1))",
            "assert torch.allclose(result, numpy_sort(result, 1))\nprint(x, result, sep='\\n')")]),
    _page("docs_tensors_2017", "001058266dc1bec37f7f2426ea350246326bcb7c", "docs/source/tensors.rst"),
    _page("docs_notes_amp_examples_draft", "0483d09a734aa95e616d3af90ea1973d4e4d4d2c", "docs/source/notes/amp_examples.rst",
          AMP),
    _page("docs_notes_numpy_compatibility", "40af0c799b11c92f6872c94606165bf46843cd36",
          "docs/source/notes/numpy_compatibility.rst",
          xfail="torch.from_numpy(a).numpy().base: torch's numpy() wraps the tensor's memory, so its base is the tensor; "
                "core's numpy() hands back its own NumPy array, whose base is None (pure Python can't make a tensor "
                "an array's base)"),
    _page("docs_complex_numbers", "10c0f9fc472065b91281c3f53dc9837d2d4b5fac", "docs/source/complex_numbers.rst"),
    _page("docs_func_migrating", "27009cfa4d458bde262ce1f5b2ed7b5b1eb96a87", "docs/source/func.migrating.rst", "",
          [*[(line, NO_FUNCTORCH) for line in FUNCTORCH_LINES],
           ("grads = torch.func.grad(compute_loss)(params, inputs, targets)",
            "grads = torch.func.grad(compute_loss)(params, inputs, targets)\nprint(grads)"),
           ("(params, (inputs,))", "(params, (inputs,))\nprint({k: v.shape for k, v in jacobians.items()}, "
            "jacobians['bias'][0])"),
           ("assert output.shape == (num_models, batch_size, out_features)",  # (torch.func's: the first is out)
            "assert output.shape == (num_models, batch_size, out_features)\nprint(output[:, 0])")]),
    _page("docs_size", "0aafd810d15fe1943f9badd40228f29e25a5014f", "docs/source/size.rst", "",
          [("__shown = (len(s))", "__shown = (len(s), s.numel(), s + (4,), s[1:], s.count(20), s.index(30), "
            "torch.Size([2, 3]) == (2, 3), x.shape[-2:])")]),
]
