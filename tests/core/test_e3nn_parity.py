"""What e3nn and torchsde (``tests/external/recipes_e3nn.py``) need of core, against PyTorch: tolerances given as
0-dim tensors (e3nn's tests pass ``atol=float_tolerance``, a 0-dim tensor) and ``torch.jit.Error``, which
e3nn's ``assert_auto_jitable`` names in an ``except`` clause."""

import numpy as np
import pytest

import core


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
def test_isclose_and_allclose_take_one_element_tensor_tolerances(torch, dtype):
    a = np.array([1.0, 2.0, 3.0, -1.0])
    b = a + np.array([1e-4, 2e-3, 0.0, -5e-4])
    results = []
    for lib in (core, torch):
        x, y = lib.tensor(a).to(getattr(lib, dtype)), lib.tensor(b).to(getattr(lib, dtype))
        close = lib.isclose(x, y, rtol=lib.tensor(0.0), atol=lib.tensor(1e-3))
        results.append((close.tolist(), lib.allclose(x, x, atol=lib.tensor(1e-3)),
                        lib.allclose(x, y, rtol=lib.tensor(1e-3), atol=0.0),
                        x.isclose(y, atol=lib.tensor(1e-3)).tolist()))
    assert results[0] == results[1]


@pytest.mark.parametrize("tolerance", [[1e-3], [1e-3, 1e-3]])
def test_allclose_refuses_a_tolerance_tensor_that_is_not_0_dim(torch, tolerance):
    errors = []
    for lib in (core, torch):
        x = lib.ones(2)
        with pytest.raises(TypeError) as info:
            lib.allclose(x, x, atol=lib.tensor(tolerance))
        errors.append(str(info.value))
    assert errors[0] == errors[1]


def test_jit_error_is_the_exception_class_torchscript_raises(torch):
    shapes = []
    for lib in (core, torch):
        error = lib.jit.Error
        shapes.append(([c.__name__ for c in error.__mro__], issubclass(error, RuntimeError)))
        try:  # an except clause that names it, as e3nn's assert_auto_jitable has
            raise RuntimeError("bad shape")
        except (lib.jit.Error, RuntimeError) as exc:
            shapes.append(type(exc).__name__)
    assert shapes[0] == shapes[2] and shapes[1] == shapes[3]
