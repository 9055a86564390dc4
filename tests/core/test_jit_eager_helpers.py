"""The private ``torch.jit``/``torch._C``/``torch._dynamo`` helpers library code calls at import or run time
(torchvision's models and ops): outside TorchScript and tracing they are pass-throughs, as in PyTorch."""

import core


def test_script_if_tracing_calls_the_function_when_not_tracing(torch):
    def area(w, h):
        """Width times height."""
        return w * h

    for lib in (core, torch):
        wrapped = lib.jit._script_if_tracing(area)
        assert wrapped(lib.tensor(3.0), 4).item() == 12.0
        assert wrapped.__name__ == "area" and wrapped.__doc__ == "Width times height."
        assert getattr(wrapped, "__original_fn") is area


def test_overload_method_leaves_the_last_definition_in_force(torch):
    def make(lib):
        class Layer(lib.nn.Module):
            @lib.jit._overload_method
            def forward(self, x: list):
                pass

            @lib.jit._overload_method
            def forward(self, x: lib.Tensor):  # noqa: F811
                pass

            def forward(self, x):  # noqa: F811
                return x * 2 if isinstance(x, lib.Tensor) else lib.cat(x) * 2

        return Layer()

    assert make(core)([core.ones(1), core.ones(2)]).tolist() == make(torch)([torch.ones(1), torch.ones(2)]).tolist()
    assert core.jit._overload(len) is len


def test_broadcasting_list_annotations_subscript_to_none(torch):
    from core.jit.annotations import BroadcastingList2

    assert BroadcastingList2[int] is None
    assert torch.jit.annotations.BroadcastingList2[int] is None


def test_tracing_state_and_usage_log(torch):
    assert core._C._get_tracing_state() is None and torch._C._get_tracing_state() is None
    assert core._C._log_api_usage_once("torchvision.models.resnet") is None
    assert torch._C._log_api_usage_once("torchvision.models.resnet") is None


def test_is_compile_supported_is_torchs_answer_per_device(torch):
    import torch._dynamo.utils

    from core._dynamo.utils import is_compile_supported

    for device in ("cpu", "meta"):
        assert is_compile_supported(device) == torch._dynamo.utils.is_compile_supported(device)
    assert is_compile_supported("cpu") is True


def test_jit_annotations_hands_on_typing_names(torch):
    """``from torch.jit.annotations import List`` (timm's DenseNet): the same ``typing`` objects as torch's."""
    import typing

    import core.jit.annotations as ours

    for name in ("Any", "Dict", "List", "Optional", "Tuple", "Union"):
        assert getattr(ours, name) is getattr(torch.jit.annotations, name) is getattr(typing, name)
