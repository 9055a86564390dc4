"""What torchvision's Python code asks of the tensor library (its tv_tensors subclasses, its geometry kernels),
compared with torch: a Tensor subclass built by its own ``__new__`` with keyword arguments, and ``tensor_split``'s
keyword spellings."""

import pytest

import core


def _boxes_class(lib):
    class Boxes(lib.Tensor):
        """torchvision's ``BoundingBoxes`` pattern: ``__new__`` makes a tensor, ``as_subclass`` and attributes."""

        def __new__(cls, data, *, format, canvas_size, dtype=None):
            boxes = lib.as_tensor(data, dtype=dtype).as_subclass(cls)
            boxes.format, boxes.canvas_size = format, canvas_size
            return boxes

    return Boxes


def test_subclass_new_with_keywords_skips_tensor_init(torch):
    ours = _boxes_class(core)([[1, 2, 3, 4]], format="XYXY", canvas_size=(8, 8), dtype=core.float32)
    theirs = _boxes_class(torch)([[1, 2, 3, 4]], format="XYXY", canvas_size=(8, 8), dtype=torch.float32)
    assert type(ours).__name__ == type(theirs).__name__ == "Boxes"
    assert ours.tolist() == theirs.tolist() and str(ours.dtype) == str(theirs.dtype)
    assert (ours.format, ours.canvas_size) == (theirs.format, theirs.canvas_size)
    assert (ours + 1).tolist() == (theirs + 1).tolist()


def test_plain_subclass_still_builds_from_data(torch):
    class Mine(core.Tensor):
        pass

    class Theirs(torch.Tensor):
        pass

    assert Mine([1.0, 2.0]).tolist() == Theirs([1.0, 2.0]).tolist()
    assert Mine(2, 3).shape == Theirs(2, 3).shape


@pytest.mark.parametrize("kwargs", [{"indices": (-1,)}, {"indices": [2, 5], "dim": 0}, {"sections": 3},
                                    {"tensor_indices_or_sections": [2, 5]}, {"tensor_indices_or_sections": 4}])
def test_tensor_split_keywords(torch, kwargs):
    def run(lib):
        x = lib.arange(24).reshape(6, 4)
        kw = {k: lib.tensor(v) if k == "tensor_indices_or_sections" else v for k, v in kwargs.items()}
        return [t.tolist() for t in lib.tensor_split(x, **kw)], [t.tolist() for t in x.tensor_split(**kw)]

    assert run(core) == run(torch)


@pytest.mark.parametrize("kwargs", [{"indices": 2}, {"sections": [2]}, {}])
def test_tensor_split_refuses_what_torch_refuses(torch, kwargs):
    with pytest.raises(TypeError) as theirs:
        torch.tensor_split(torch.arange(6), **kwargs)
    with pytest.raises(TypeError) as ours:
        core.tensor_split(core.arange(6), **kwargs)
    assert str(ours.value) == str(theirs.value)


def test_full_like_takes_layout_and_pin_memory(torch):
    ours = core.full_like(core.ones(2, 3, dtype=core.float64), 4, layout=core.strided, pin_memory=False,
                          dtype=core.int32)
    theirs = torch.full_like(torch.ones(2, 3, dtype=torch.float64), 4, layout=torch.strided, pin_memory=False,
                             dtype=torch.int32)
    assert ours.tolist() == theirs.tolist() and str(ours.dtype) == str(theirs.dtype)
    assert str(ours.layout) == str(theirs.layout)


@pytest.mark.parametrize("name", ["Hardswish", "Hardsigmoid", "ReLU", "SiLU", "ReLU6", "Mish"])
def test_inplace_activation_reprs(torch, name):
    for inplace in (False, True):
        assert repr(getattr(core.nn, name)(inplace=inplace)) == repr(getattr(torch.nn, name)(inplace=inplace))


@pytest.mark.parametrize("shape, k, dim", [((0,), 0, -1), ((0, 3), 0, 0), ((3, 0), 0, 1), ((0, 3), 2, 1),
                                           ((2, 0, 4), 3, 2)])
def test_topk_of_empty_tensors(torch, shape, k, dim):
    """A detector's post-processing takes ``topk`` of the scores left after thresholding, often none."""
    ours = core.zeros(shape, requires_grad=True).topk(k, dim)
    theirs = torch.zeros(shape, requires_grad=True).topk(k, dim)
    for a, b in zip(ours, theirs):
        assert tuple(a.shape) == tuple(b.shape) and str(a.dtype) == str(b.dtype)
    ours.values.sum().backward()
    theirs.values.sum().backward()
