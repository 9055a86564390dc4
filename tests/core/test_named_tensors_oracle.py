"""Named tensors as PyTorch 2.13 has them: not at all. Its factories refuse ``names=``, a tensor has no ``names``,
``refine_names``, ``rename``, ``align_to``, ``align_as`` or ``has_names``, and a dimension given by name is refused
as any other non-int dim. Core raises the same errors, so code written for an older PyTorch stops where it
stops under torch 2.13 (a dim name's TypeError is worded as core's own check words it)."""

import pytest

import core
from tests.core.oracle import raised

FACTORIES = {
    "zeros": lambda lib: lib.zeros(2, 3, names=("N", "C")),
    "ones": lambda lib: lib.ones(2, 3, names=["N", "C"]),
    "empty": lambda lib: lib.empty(2, names=("N",)),
    "full": lambda lib: lib.full((2,), 1.0, names=("N",)),
    "tensor": lambda lib: lib.tensor([1.0], names=("N",)),
    "rand": lambda lib: lib.rand(2, 3, names=("N", "C")),
    "randn": lambda lib: lib.randn(2, 3, names=("N", None)),
}


@pytest.mark.parametrize("name", list(FACTORIES))
def test_factories_refuse_names_as_torch(torch, name):
    ours, theirs = (raised(lambda lib=lib: FACTORIES[name](lib)) for lib in (core, torch))
    assert ours == theirs and ours[0] == "TypeError"


@pytest.mark.parametrize("attribute", ["names", "refine_names", "rename", "rename_", "align_to", "align_as",
                                       "has_names"])
def test_tensors_have_no_named_tensor_members_as_torch(torch, attribute):
    ours, theirs = (raised(lambda lib=lib: getattr(lib.zeros(2, 3), attribute)) for lib in (core, torch))
    assert ours == theirs and ours[0] == "AttributeError"
    assert (attribute in dir(core.zeros(2))) == (attribute in dir(torch.zeros(2)))


def test_assigning_names_sets_a_plain_attribute_as_torch(torch):
    for lib in (core, torch):
        t = lib.zeros(2, 3)
        t.names = ("N", "C")
        assert t.names == ("N", "C") and tuple(t.shape) == (2, 3)


DIM_NAMES = {
    "sum": lambda lib, x: x.sum("C"),
    "softmax": lambda lib, x: x.softmax("C"),
    "size": lambda lib, x: x.size("C"),
    "transpose": lambda lib, x: x.transpose("N", "C"),
    "unflatten": lambda lib, x: x.unflatten("C", (("C1", 1), ("C2", 3))),
    "flatten": lambda lib, x: x.flatten(["N", "C"], "NC"),
    "mean": lambda lib, x: lib.mean(x, "N"),
}


@pytest.mark.parametrize("name", list(DIM_NAMES))
def test_a_dimension_name_is_refused_with_a_type_error_as_torch(torch, name):
    ours, theirs = (raised(lambda lib=lib: DIM_NAMES[name](lib, lib.zeros(2, 3))) for lib in (core, torch))
    assert ours[0] == theirs[0] == "TypeError"
