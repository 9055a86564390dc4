"""torch.__version__ is a TorchVersion: a str that compares as a version with strings and tuples, as PyTorch's."""

import operator

import pytest

import core
from core.torch_version import TorchVersion

VERSIONS = ["2.13.0+cpu", "2.13.0", "2.13", "2.2", "2.13.1", "2.13.0rc1", "2.13.0a0+git123", "2.13.0.dev20250101",
            "2.13.0.post1", "1.10.0", "2.13.0+cu121", "3", "2.13.0+cpu.1", "not a version"]
OTHERS = [*VERSIONS, (2, 0), (2, 13), (2, 13, 0), [3, 0]]
OPS = [operator.lt, operator.le, operator.eq, operator.ne, operator.ge, operator.gt]


def _outcome(op, a, b):
    try:
        return op(a, b)
    except TypeError as e:
        return type(e)


@pytest.mark.parametrize("version", VERSIONS)
def test_version_comparisons_agree_with_torchs_torch_version(torch, version):
    from torch.torch_version import TorchVersion as Theirs

    for other in OTHERS:
        for op in OPS:
            assert _outcome(op, TorchVersion(version), other) == _outcome(op, Theirs(version), other), (op, other)


def test_torch_version_compares_as_a_version_not_as_text(torch):
    for lib in (core, torch):
        assert lib.__version__ >= "2.2" and lib.__version__ >= (2, 0) and lib.__version__ < "3"
        assert isinstance(lib.__version__, str) and lib.__version__.split("+")[0] == "2.13.0"


def test_torch_version_against_a_number_raises_type_error_as_torch(torch):
    for lib in (core, torch):
        with pytest.raises(TypeError):
            lib.__version__ >= 2  # noqa: B015
