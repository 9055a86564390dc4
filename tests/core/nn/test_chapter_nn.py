"""The chapter's nn snippets run verbatim with ``import core as torch`` and give PyTorch's numbers."""

import numpy as np

import core


def test_chapter_training_loop_runs_verbatim_and_prints_three_finite_losses(capsys):
    import core as torch

    torch.manual_seed(0)
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

    for step in range(3):
        xb = torch.randn(8, 4)
        yb = torch.randn(8, 1)

        pred = model(xb)
        loss = torch.nn.functional.mse_loss(pred, yb)

        optimizer.zero_grad()   # 1. clear old gradients
        loss.backward()         # 2. compute new gradients
        optimizer.step()        # 3. update parameters

        print(step, float(loss))
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["0", "1", "2"]
    assert all(np.isfinite(float(line.split()[1])) for line in lines)


def test_chapter_training_loop_follows_torch_step_for_step(torch):
    rng = np.random.default_rng(0)
    batches = [(rng.standard_normal((8, 4)), rng.standard_normal((8, 1))) for _ in range(3)]
    losses = {}
    ref = torch.nn.Linear(4, 1).double()
    for lib in (torch, core):
        model = lib.nn.Linear(4, 1).double()
        model.load_state_dict({k: lib.tensor(v.numpy()) for k, v in ref.state_dict().items()})
        optimizer = lib.optim.SGD(model.parameters(), lr=0.01)
        out = []
        for xs, ys in batches:
            loss = lib.nn.functional.mse_loss(model(lib.tensor(xs)), lib.tensor(ys))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            out.append(loss.item())
        losses[lib.__name__] = (out, model.weight.detach().numpy().copy())
    np.testing.assert_allclose(losses["core"][0], losses["torch"][0], rtol=1e-12)
    np.testing.assert_allclose(losses["core"][1], losses["torch"][1], rtol=1e-12)
