"""Advanced-indexing results and nonzero() have PyTorch 2.13's strides (#19): the index kernel's TensorIterator
lays the result out in the input's dim order (a transposed, permuted, sliced or channels-last input gives a result
laid out as torch's, with torch's strides on size-1 dims), and nonzero()/argwhere() are column-major (strides
(1, n)). Values, shapes, ``.stride()`` and ``is_contiguous()`` are compared element for element."""

from __future__ import annotations

import pytest

import core

INPUTS = {
    "contiguous": lambda lib: lib.arange(24.).reshape(2, 3, 4),
    "transposed": lambda lib: lib.arange(24.).reshape(2, 3, 4).transpose(0, 2),
    "permuted": lambda lib: lib.arange(24.).reshape(2, 3, 4).permute(1, 2, 0),
    "sliced": lambda lib: lib.arange(24.).reshape(2, 3, 4)[:, ::2],
    "channels_last": lambda lib: lib.arange(48.).reshape(2, 3, 4, 2).to(memory_format=lib.channels_last),
}

EXPRESSIONS = [
    "x[:, [0]]", "x[[0, 1]]", "x[[1, 0]]", "x[x > 5]", "x.nonzero()", "lib.argwhere(x)", "x[..., [0, 2]]",
    "x[:, [0, 1], [1, 0]]", "x[[0], :, [1]]", "x[[[0], [1]], [0, 1]]", "x[lib.tensor([0, 1])]", "x[0, [0, 1]]",
    "x[[0, 1], 0]", "x[:, :, [1]]", "x[[0]][..., [1]]", "x.nonzero(as_tuple=True)[0]", "x[x[..., :1] > 5]",
    "x[None, [0]]", "x[[0, 1], None]", "x[:, None, [0]]", "x[..., [0]][:, [0]]", "x[[0, 1], :, [0, 1]]",
    "x[:, [[0, 1]]]", "x[x.sum(-1) > 0]", "x[:, lib.tensor([True, False])]", "x.take(lib.tensor([[0, 3]]).t())",
]


def _seen(lib, make, expression: str):
    try:
        r = eval(expression, {"x": make(lib), "lib": lib})  # (the test's own text)
    except IndexError as e:  # (a mask of another shape than the dims it indexes: the refusal is compared)
        return str(e)
    return tuple(r.shape), r.stride(), r.is_contiguous(), r.tolist()


@pytest.mark.parametrize("layout", sorted(INPUTS))
@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_an_advanced_index_result_has_torchs_strides(expression, layout, torch):
    assert _seen(core, INPUTS[layout], expression) == _seen(torch, INPUTS[layout], expression)


@pytest.mark.parametrize("shape", [(3,), (2, 3), (1, 3), (2, 3, 4)])
def test_nonzero_is_column_major_as_torch(shape, torch):
    def seen(lib):
        x = lib.arange(float(len(shape) and 1)).new_ones(shape)
        x.view(-1)[::2] = 0
        r = x.nonzero()
        return tuple(r.shape), r.stride(), r.tolist(), lib.argwhere(x).stride()
    assert seen(core) == seen(torch)
