"""Helpers for the node-type tests: evaluate one node headless and compare results exactly."""

import math

import numpy as np

import core
import core.nodegraph.model.nodes  # registers every node type
from core.nodegraph.model.spec import EvalContext, get_spec


def run(type_id, inputs=None, params=None, ctx=None):
    """Validate ``params`` and evaluate one node; a single value comes back as {"out": value}."""
    spec = get_spec(type_id)
    out = spec.evaluate(ctx or EvalContext(), dict(inputs or {}), spec.validate_params(params or {}))
    return out if isinstance(out, dict) else {"out": out}


def assert_same(ours, expected, path="out"):
    """Same type, shape, dtype and values (nan equal to nan) -- recursively through dicts."""
    if isinstance(expected, dict):
        assert isinstance(ours, dict) and set(ours) == set(expected), f"{path}: keys {ours} vs {expected}"
        for k in expected:
            assert_same(ours[k], expected[k], f"{path}.{k}")
    elif isinstance(expected, core.Tensor):
        assert isinstance(ours, core.Tensor), f"{path}: not a tensor: {ours!r}"
        assert ours.shape == expected.shape, f"{path}: shape {ours.shape} vs {expected.shape}"
        assert ours.dtype == expected.dtype, f"{path}: dtype {ours.dtype} vs {expected.dtype}"
        a, b = ours.detach().cpu().numpy(), expected.detach().cpu().numpy()
        assert np.allclose(a, b, rtol=1e-6, atol=1e-7, equal_nan=True), f"{path}: {a} vs {b}"
    elif isinstance(expected, float) and math.isnan(expected):
        assert math.isnan(ours), path
    else:
        assert ours == expected, f"{path}: {ours!r} vs {expected!r}"
