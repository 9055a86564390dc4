"""Tensor's device flags for backends core does not have (``is_xpu``, ``is_mps``...) answer False as on a CPU tensor:
device-generic code asks them (pytorch/examples' DCGAN: ``if (input.is_cuda or input.is_xpu) and self.ngpu > 1``)."""

import core

FLAGS = ("is_xpu", "is_mps", "is_ipu", "is_maia", "is_mtia", "is_vulkan", "is_xla", "is_sparse_csr")


def test_backend_flags_match_torchs_answers_for_a_cpu_tensor(torch):
    ours, theirs = core.zeros(2, 3), torch.zeros(2, 3)
    for name in FLAGS:
        assert getattr(ours, name) is getattr(theirs, name) is False, name


def test_every_is_property_torch_has_exists_on_core_tensors(torch):
    theirs = torch.zeros(1)
    names = [n for n in dir(torch.Tensor) if n.startswith("is_") and not callable(getattr(theirs, n))]
    ours = core.zeros(1)
    assert [n for n in names if not hasattr(ours, n)] == []
    assert {n: getattr(ours, n) for n in names} == {n: getattr(theirs, n) for n in names}
