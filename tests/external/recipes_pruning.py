"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Torch-Pruning and geoopt, two libraries that lean on torch's own machinery, on core (2026-12-05, corpus helper
PRUNE): VainF/Torch-Pruning at its v1.6.1 release (MIT) traces a model by running it and walking ``grad_fn`` /
``next_functions`` by node name (``ConvolutionBackward0``, ``AddmmBackward0``, ``CatBackward0``...), so core's graph
must match torch's; geoopt/geoopt at its v0.5.1 release (Apache-2.0) subclasses ``torch.Tensor`` and
``nn.Parameter`` (``ManifoldTensor``, ``ManifoldParameter``) and writes its own optimizers. Each script holds its
library's whole Python package beside it (``TP_PACKAGE``, ``GEOOPT_PACKAGE``, and torchvision's v0.28.0 package
from ``recipes_torchvision`` for the scripts that prune its models), which the runner loads in both runs
(``runner._fetched_packages``; geoopt's SciPy line-search import is ``fake_pruning_deps.py``).

- Torch-Pruning's own tests, each a script with its ``if __name__ == '__main__':`` runner. Edits: 224x224 inputs
  become 32x32 (and Inception's 299x299 75x75), ``pretrained=True`` is dropped (no downloads), iterative steps are cut
  where a test would take seconds, and a test that asserts the 224 input size of torchvision's ViT keeps it.
- Its QuickStart notebook and the library's API through ``corpus_pruning.py``'s drivers: the dependency graph's
  nodes and groups, every importance criterion, every pruner with its regularisation, the pruning functions,
  ``count_ops_and_params``, ``tp.state_dict``, torchvision's ResNet, MobileNetV2 and ViT pruned.
- geoopt's own tests run as pytest would run them (``corpus_pruning.run_tests``: parametrized cases expanded,
  fixtures resolved) and drivers of its manifolds and optimizers.
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_torchvision import TV, TV_PACKAGE

RECIPES: list[dict] = []

TP = ("VainF/Torch-Pruning", "e80127d7c6935c319a7dd6719b8a72e3c1fcbff9", "MIT")  # the v1.6.1 release
GEOOPT = ("geoopt/geoopt", "8af79c13f765035887eee5288153bffee1d262b6", "Apache-2.0")  # the v0.5.1 release

_TP_MODULES = {
    "": "__init__ _helpers ops serialization",
    "dependency": "__init__ constants dependency graph group index_mapping node shape_infer",
    "pruner": "__init__ function importance",
    "pruner/algorithms": "__init__ base_pruner batchnorm_scale_pruner compatibility group_norm_pruner "
                         "growing_reg_pruner scheduler",
    "utils": "__init__ benchmark compute_mat_grad op_counter utils",
}
_GEOOPT_MODULES = {
    "": "__init__ docutils tensor utils",
    "datasets": "__init__ stereographic",
    "layers": "__init__ stereographic",
    "linalg": "__init__ batch_linalg",
    "manifolds": "__init__ base birkhoff_polytope euclidean product scaled sphere stiefel "
                 "symmetric_positive_definite",
    "manifolds/lorentz": "__init__ math",
    "manifolds/siegel": "__init__ bounded_domain csym_math siegel upper_half vvd_metrics",
    "manifolds/stereographic": "__init__ manifold math",
    "optim": "__init__ mixin radam rlinesearch rsgd sparse_radam sparse_rsgd",
    "samplers": "__init__ base rhmc rsgld sgrhmc",
}


def _files(root, modules):
    return ["/".join(filter(None, (root, folder, f"{name}.py"))) for folder, names in modules.items()
            for name in names.split()]


TP_PACKAGE = [(p, p) for p in _files("torch_pruning", _TP_MODULES)]
GEOOPT_PACKAGE = [(p, p) for p in _files("geoopt", _GEOOPT_MODULES)]
WITH_TV = [*TP_PACKAGE, *((*TV[:2], path, target) for path, target in TV_PACKAGE)]
SMALL = ("224, 224", "32, 32")  # an ImageNet-sized input becomes CIFAR-sized (each occurrence is one edit)
SMALL_ = ("224,224", "32,32")
NO_PRETRAINED = ("pretrained=True", "")  # torchvision's weights would download
FEWER_STEPS = ("iterative_steps = 5", "iterative_steps = 1")  # 20 pruner-importance pairs pruned in one step, not 5


def _tp_test(name, edits=(), torchvision=True, **kw):
    """tests/test_NAME.py, one of Torch-Pruning's own tests, run as its ``__main__`` runs it."""
    return _r(f"tp_test_{name}", TP, f"tests/test_{name}.py", edits, support=WITH_TV if torchvision else TP_PACKAGE,
              **kw)


RECIPES += [
    _tp_test("cascaded_concat", torchvision=False),
    _tp_test("concat", torchvision=False),
    _tp_test("concat_split", torchvision=False),
    _tp_test("customized_layer", torchvision=False),
    _tp_test("dependency_graph", [SMALL_]),
    _tp_test("dependency_lenet", torchvision=False),
    _tp_test("flops", [SMALL]),
    _tp_test("fully_connected_layers", torchvision=False),
    _tp_test("group_prune", [SMALL_, SMALL_, NO_PRETRAINED, NO_PRETRAINED]),
    _tp_test("hessian_importance", [SMALL, SMALL, NO_PRETRAINED, ("randn(10, 3, 32, 32)", "randn(2, 3, 32, 32)")]),
    _tp_test("importance_reduction", [SMALL_]),
    _tp_test("interactive_pruner", [SMALL]),
    _tp_test("isomorphic", [SMALL, SMALL, FEWER_STEPS]),
    _tp_test("load", [SMALL, ("iterative_steps = 5", "iterative_steps = 2")]),
    _tp_test("multiple_inputs_and_outputs", torchvision=False),
    _tp_test("non_feature_dim_cat", torchvision=False),
    _tp_test("pruner", [SMALL, SMALL, FEWER_STEPS]),
    _tp_test("pruning_fn"),
    _tp_test("single_channel_output", torchvision=False),
    _tp_test("soft_pruning", [SMALL]),
    _tp_test("split", torchvision=False),
    _tp_test("taylor_importance", [SMALL, NO_PRETRAINED]),
    _tp_test("unused_parameters", torchvision=False),
]

RECIPES += [  # Torch-Pruning's QuickStart notebook, cell by cell; its last pruning loop ends at the output's shape
    _r("tp_quickstart", TP, "examples/notebook/0 - QuickStart.ipynb", [NO_PRETRAINED, SMALL_, NO_PRETRAINED, SMALL],
       support=WITH_TV),
]

DRIVERS = "cp = __import__('corpus_pruning')"


def _tp_api(name, *calls, torchvision=False):
    """torch_pruning/__init__.py run as the package's module, ``corpus_pruning``'s ``calls`` appended."""
    first = '"""Torch-Pruning: A framework for structural pruning of PyTorch models.'
    last = '__email__ = "gongfan@u.nus.edu"'
    return _r(f"tp_{name}", TP, "torch_pruning/__init__.py",
              [(first, f"__package__ = 'torch_pruning'  # run as the package's module\n{first}"),
               (last, "\n".join([last, "", "import torch", DRIVERS, *calls, ""]))],
              support=WITH_TV if torchvision else TP_PACKAGE)


RECIPES += [
    _tp_api("graph", "cp.tp_graph()"),
    _tp_api("importances", "cp.tp_importances()"),
    _tp_api("pruners_meta", "cp.tp_pruners(['meta', 'meta_global', 'meta_isomorphic', 'meta_round_to'])"),
    _tp_api("pruners_regularized", "cp.tp_pruners(['magnitude_taylor', 'bn_scale', 'group_norm', 'growing_reg'])"),
    _tp_api("functions", "cp.tp_functions()"),
    _tp_api("custom_models", "cp.tp_custom_and_rnn()"),
    _tp_api("resnet18", "cp.tp_torchvision(['resnet18'])", torchvision=True),
    _tp_api("mobilenet_v2", "cp.tp_torchvision(['mobilenet_v2'])", torchvision=True),
    _tp_api("vit", "cp.tp_vit(True)", torchvision=True),
]

FIRST_LINES = {"tensor_api": "import geoopt", "product_manifold": "from geoopt import ProductManifold",
               "scaling": "import geoopt", "origin": "import pytest", "euclidean": "import pytest",
               "random": "import pytest", "lorentz_math": "import torch", "wrapped_normal": "import pytest",
               "gyrovector_math": '"""', "manifold_basic": "import geoopt"}


def _geo_test(name, module, *args):
    """tests/test_MODULE.py, one of geoopt's own test modules, run by pytest in the script's process
    (``corpus_pruning.run_pytest``: pytest imports the file as a module and the script stops there); ``args``:
    pytest's, a ``-k`` selection where the whole module takes more than a second or two."""
    first = FIRST_LINES[module]
    run = (f"if __name__ == '__main__':  # the module run by pytest, which imports it again\n"
           f"    __import__('corpus_pruning').run_pytest(__file__, *{args!r})\n    raise SystemExit\n")
    return _r(f"geo_test_{name}", GEOOPT, f"tests/test_{module}.py", [(first, run + first)], support=GEOOPT_PACKAGE)


RECIPES += [
    _geo_test("tensor_api", "tensor_api"),
    _geo_test("product_manifold", "product_manifold"),
    _geo_test("scaling", "scaling"),
    _geo_test("origin", "origin"),
    _geo_test("euclidean", "euclidean"),
    _geo_test("random", "random"),
    _geo_test("lorentz_math", "lorentz_math"),
    _geo_test("wrapped_normal", "wrapped_normal"),
    _geo_test("gyrovector_math_30", "gyrovector_math", "-k", "30-float64"),
    _geo_test("gyrovector_math_35", "gyrovector_math", "-k", "35-float32"),
    _geo_test("manifold_basic_sphere", "manifold_basic", "-k", "1-torch and (Sphere or Euclidean)"),
    _geo_test("manifold_basic_stiefel", "manifold_basic", "-k", "2-torch and Stiefel"),
    _geo_test("manifold_basic_ball", "manifold_basic", "-k", "3-torch and (PoincareBall or Stereographic)"),
    _geo_test("manifold_basic_spd_lorentz", "manifold_basic", "-k", "4-torch and (SPD or Lorentz or Birkhoff)"),
]

GEO_DRIVERS = "\n".join(["", "", "import torch", DRIVERS])


def _geo_api(name, *calls):
    """examples/mobius_linear_example.py (geoopt's Mobius linear layer), ``corpus_pruning``'s ``calls`` appended."""
    last = "    return output"
    return _r(f"geo_{name}", GEOOPT, "examples/mobius_linear_example.py",
              [(last, "\n".join([last, GEO_DRIVERS, *calls, ""]))], support=GEOOPT_PACKAGE)


RECIPES += [
    _geo_api("mobius_linear", "torch.manual_seed(0)", "layer = MobiusLinear(4, 3, nonlin=torch.tanh, c=1.0)",
             "x = geoopt.PoincareBall().projx(torch.randn(5, 4) * 0.3)",
             "optimizer = geoopt.optim.RiemannianAdam(layer.parameters(), lr=0.01)",
             "for step in range(5):",
             "    optimizer.zero_grad()",
             "    loss = layer.ball.dist0(layer(x)).pow(2).mean()",
             "    loss.backward()",
             "    optimizer.step()",
             "    print(step, f'{loss.item():.7f}')",
             "cp.full('weight', layer.weight)", "cp.full('bias', layer.bias)", "print(layer.bias)",
             "cp.full('out', layer(x))"),
    _geo_api("manifolds", "cp.geo_manifolds()"),
    _geo_api("optimizers", "cp.geo_optimizers()"),
    _geo_api("tensors_layers", "cp.geo_tensors_and_layers()"),
]
