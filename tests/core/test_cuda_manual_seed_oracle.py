"""torch.cuda.manual_seed seeds only CUDA's stream: CPU draws after it go on as PyTorch's do."""

import core


def test_cuda_manual_seed_leaves_the_cpu_stream_as_it_was(torch):
    for lib in (core, torch):
        lib.manual_seed(42)
        lib.rand(3)
        lib.cuda.manual_seed(7)
        lib.cuda.manual_seed_all(8)
    assert core.rand(4).tolist() == torch.rand(4).tolist()


def test_cuda_manual_seed_does_not_change_the_cpu_initial_seed(torch):
    core.manual_seed(5)
    torch.manual_seed(5)
    core.cuda.manual_seed(9)
    torch.cuda.manual_seed(9)
    assert core.initial_seed() == torch.initial_seed() == 5


def test_cuda_manual_seed_returns_none_as_torch_does(torch):
    assert core.cuda.manual_seed(1) is None and torch.cuda.manual_seed(1) is None
