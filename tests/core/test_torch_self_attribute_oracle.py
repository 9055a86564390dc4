"""``torch.torch`` is the module itself (torch's ``__init__`` runs ``import torch``): kornia annotates with
``torch.torch.Tensor`` at import time (``kornia.geometry.keypoints``), which raised AttributeError under core."""

import core


def test_the_module_names_itself(torch):
    assert torch.torch is torch
    assert core.torch is core
    assert core.torch.torch.Tensor is core.Tensor
    assert ("torch" in dir(core)) == ("torch" in dir(torch))
