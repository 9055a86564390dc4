"""Node specs validate their parameters with clear messages and register once."""

import pytest

from core.nodegraph.model.spec import NodeSpec, Param, ParamError, Port, register, unregister


def _spec(type_id="test.scale"):
    return NodeSpec(type_id, "Test", "Scale", "multiply by a factor", lambda ctx, inputs, params: inputs["x"],
                    inputs=(Port("x"),), params=(Param("factor", "float", 1.0, minimum=0.0),
                                                 Param("shape", "shape", (2,)),
                                                 Param("mode", "choice", "a", choices=("a", "b"))))


def test_defaults_are_filled_in_and_values_normalised():
    assert _spec().validate_params({"shape": [3, 4]}) == {"factor": 1.0, "shape": (3, 4), "mode": "a"}


@pytest.mark.parametrize(("values", "message"), [
    ({"factor": -1}, "'factor' must be >= 0.0"),
    ({"factor": "x"}, "'factor' must be a number"),
    ({"shape": [2, -1]}, "'shape' has a negative size"),
    ({"shape": [10 ** 6, 10 ** 6]}, "'shape' is too large"),
    ({"mode": "c"}, "'mode' must be one of a, b"),
    ({"nope": 1}, "has no parameter 'nope'"),
])
def test_bad_parameter_values_name_the_parameter(values, message):
    with pytest.raises(ParamError, match=message):
        _spec().validate_params(values)


def test_a_misspelt_choice_is_refused_with_the_nearest_choice():
    import core.nodegraph.model.nodes  # noqa: F401 - registers the built-in node types
    from core.nodegraph.model.spec import get_spec

    with pytest.raises(ParamError) as refused:
        get_spec("source.randn").validate_params({"dtype": "flaot32"})
    assert str(refused.value).endswith("got 'flaot32' (did you mean 'float32'?)")
    with pytest.raises(ParamError) as far:
        get_spec("source.randn").validate_params({"dtype": "quaternion"})
    assert "did you mean" not in str(far.value)  # nothing near: no guess
    with pytest.raises(ParamError) as bare:
        get_spec("source.randn").validate_params({"dtype": "complex"})
    assert str(bare.value).endswith("(did you mean 'complex64'?)")


def test_a_type_id_registers_once():
    register(_spec("test.once"))
    try:
        with pytest.raises(ValueError, match="already registered"):
            register(_spec("test.once"))
    finally:
        unregister("test.once")


@pytest.mark.parametrize("rows", [[[1, 2], [3]], [[1.0], [2.0, 3.0]], [[[1, 2], [3, 4]], [[5, 6]]]])
def test_a_ragged_tensor_literal_is_refused_in_torch_tensors_words(rows):
    """``[[1, 2], [3]]`` typed as a literal: the refusal says where it stops being rectangular as torch.tensor says
    it, not NumPy's 'setting an array element with a sequence ... inhomogeneous shape'."""
    torch = pytest.importorskip("torch")
    with pytest.raises(ValueError) as expected:
        torch.tensor(rows)
    with pytest.raises(ParamError) as refused:
        Param("tensor", "tensor", 0.0).validate(rows)
    assert str(refused.value) == f"parameter 'tensor' must be a rectangular list of numbers: {expected.value}"
