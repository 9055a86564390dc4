"""``torch._dynamo.config``, ``torch._functorch.config`` and ``torch._inductor.config`` are modules a script can import
by name and set flags on (gpt-fast's ``generate.py`` does all three before compiling); core compiles no kernels, so
the flags only need PyTorch's names and defaults."""

import importlib

import pytest

import core

DYNAMO = ("suppress_errors", "verbose", "recompile_limit", "cache_size_limit", "accumulated_cache_size_limit",
          "optimize_ddp", "capture_scalar_outputs", "capture_dynamic_output_shape_ops", "automatic_dynamic_shapes",
          "assume_static_by_default")


@pytest.mark.parametrize("name", ["_dynamo.config", "_functorch.config", "_inductor.config"])
def test_config_modules_import_by_name_as_torchs(torch, name):
    for lib in (core, torch):
        module = importlib.import_module(f"{lib.__name__}.{name}")
        assert module.__name__ == f"{lib.__name__}.{name}"
        parent, attr = name.split(".")
        assert getattr(getattr(lib, parent), attr) is module


def test_dynamo_flags_have_torchs_defaults(torch):
    ours, theirs = importlib.import_module("core._dynamo.config"), importlib.import_module("torch._dynamo.config")
    assert {f: getattr(ours, f) for f in DYNAMO} == {f: getattr(theirs, f) for f in DYNAMO}


def test_gpt_fast_flags_have_torchs_defaults_and_can_be_set(torch):
    values = []
    for lib in (core, torch):
        inductor = importlib.import_module(f"{lib.__name__}._inductor.config")
        functorch = importlib.import_module(f"{lib.__name__}._functorch.config")
        values.append((inductor.triton.unique_kernel_names, inductor.triton.cudagraph_trees, inductor.fx_graph_cache,
                       functorch.enable_autograd_cache))
    assert values[0] == values[1]
    config = importlib.import_module("core._functorch.config")
    config.enable_autograd_cache = False
    try:
        assert core._functorch.config.enable_autograd_cache is False
    finally:
        config.enable_autograd_cache = True
