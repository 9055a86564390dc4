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


@pytest.mark.parametrize("reentrant", [False, True])
def test_checkpoint_backward_repeats_the_calls_side_effects(torch, reentrant):
    """torch's checkpoint recomputes the call in backward: a BatchNorm inside updates its running statistics twice
    and a forward hook fires twice (torchvision's DenseNet with memory_efficient=True); the gradients and the random
    stream are unchanged."""
    def run(lib):
        lib.manual_seed(0)
        block = lib.nn.Sequential(lib.nn.BatchNorm2d(3), lib.nn.Dropout(0.5), lib.nn.Conv2d(3, 2, 1))
        calls = []
        block.register_forward_hook(lambda *_: calls.append(1))
        x = lib.randn(2, 3, 4, 4, requires_grad=True)
        y = lib.utils.checkpoint.checkpoint(block, x, use_reentrant=reentrant)
        before = (len(calls), block[0].num_batches_tracked.item())
        y.square().sum().backward()
        return (before, len(calls), block[0].num_batches_tracked.item(), block[0].running_mean.tolist(),
                x.grad.flatten().tolist(), lib.rand(1).item())

    ours, theirs = run(core), run(torch)
    # (without reentrance PyTorch's recomputation stops after the last op that saved a tensor, before the
    # Sequential's hook: core's replay runs the whole call)
    assert ours[0] == theirs[0] == (1, 1) and ours[2] == theirs[2] == 2
    assert ours[1] == theirs[1] == 2 if reentrant else theirs[1] == 1
    assert ours[3] == pytest.approx(theirs[3], rel=1e-6) and ours[4] == pytest.approx(theirs[4], rel=1e-5, abs=1e-6)
    assert ours[5] == theirs[5]


def test_checkpoint_without_grad_replays_nothing(torch):
    for lib in (core, torch):
        bn = lib.nn.BatchNorm1d(2)
        with lib.no_grad():
            lib.utils.checkpoint.checkpoint(bn, lib.randn(4, 2), use_reentrant=False)
        assert bn.num_batches_tracked.item() == 1


def test_quantized_tensors_split_and_transpose_as_torch(torch):
    """torchvision's quantizable ShuffleNet chunks a quantized tensor and shuffles channels with torch.transpose:
    the parts stay quantized with the same quantizer."""
    import warnings

    def parts(lib):
        lib.manual_seed(0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x = lib.quantize_per_tensor(lib.rand(2, 4, 3, 3), 0.1, 3, lib.quint8)
        views = [*x.chunk(2, dim=1), lib.chunk(x, 2, 1)[1], lib.split(x, [1, 3], 1)[1], x.split(2, 1)[0],
                 lib.transpose(x.view(2, 2, 2, 3, 3), 1, 2).contiguous().view(2, 4, 3, 3),
                 lib.permute(x, (0, 2, 3, 1)), x.unbind(0)[1]]
        return [(v.is_quantized, tuple(v.shape), v.q_scale(), v.q_zero_point(), v.int_repr().flatten().tolist())
                for v in views]

    assert parts(core) == parts(torch)


def test_fx_graph_module_helpers_torchvision_imports(torch):
    """torchvision.models.feature_extraction imports GraphModule's private copy helpers."""
    from torch.fx import graph_module as theirs

    from core.fx import graph_module as ours

    assert ours._USER_PRESERVED_ATTRIBUTES_KEY == theirs._USER_PRESERVED_ATTRIBUTES_KEY
    body = {"a": 1}
    module = ours._CodeOnlyModule(body)
    assert module.__dict__ is body and module.a == 1 and isinstance(module, core.nn.Module)
