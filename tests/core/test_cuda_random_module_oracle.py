"""torch.cuda.random is there without a GPU: libraries seed through it (torchattacks' APGD, FAB, Square)."""

import core


def test_cuda_random_module_names_what_torchs_does(torch):
    assert core.cuda.random.__all__ == torch.cuda.random.__all__
    assert all(callable(getattr(core.cuda.random, name)) for name in core.cuda.random.__all__)


def test_cuda_random_manual_seed_leaves_the_cpu_stream_as_torchs(torch):
    for lib in (core, torch):
        lib.random.manual_seed(3)
        lib.rand(2)
        assert lib.cuda.random.manual_seed(11) is None
        lib.cuda.random.manual_seed_all(12)
    assert core.rand(5).tolist() == torch.rand(5).tolist()


def test_cuda_random_module_imports_by_its_dotted_name(torch):
    import torch.cuda.random as torch_random

    import core.cuda.random as core_random

    assert core_random.seed_all() is None and torch_random.seed_all() is None
    assert core_random.get_rng_state_all() == torch_random.get_rng_state_all() == []
