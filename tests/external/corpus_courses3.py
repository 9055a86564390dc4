"""Stand-ins and drivers for ``recipes_courses3`` (our code, committed; corpus helper s29 COURSES).

``install_rainbow()`` registers, for the running script only, what Kaixhin's Rainbow imports beside torch and NumPy:
``atari_py`` (an ALE whose screens are seeded NumPy noise and whose rewards, lives and game overs follow the frame
count, so episodes are short and the same in both runs), ``cv2.resize`` (nearest-pixel sampling) and ``plotly``'s
few names (plots draw nothing). ``show_rainbow(dqn, mem)`` prints what the training loop left: every parameter's
sum with all its digits, the replay memory's priorities and the greedy Q-values of a fixed state.
``install_bolts()`` and ``bolts_*()`` drive lightning-bolts' pure-PyTorch components (U-Net, DCGAN, pix2pix, the
ResNet autoencoder parts, RL networks and losses, self-supervised losses) on seeded data: outputs, first gradients
and a few Adam steps, printed as absolute sums and norms.
"""

from __future__ import annotations

import os
import sys
import types

import numpy as np
import torch  # the runner's torch: core under the alias, or PyTorch


def _script_module(name: str) -> types.ModuleType:
    """A module the runner forgets after the script: its ``__file__`` is in the script's folder."""
    module = types.ModuleType(name)
    module.__file__ = os.path.join(os.getcwd(), f"{name}.py")
    sys.modules[name] = module
    return module


class FakeALE:
    """``atari_py.ALEInterface``: 6 actions; an episode lasts ``EPISODE`` frames and loses a life every ``LIFE``."""

    EPISODE, LIFE = 72, 28

    def __init__(self):
        self.ints, self.frame, self.episodes, self.last_action = {}, 0, 0, 0
        self.rng = np.random.default_rng(0)

    def setInt(self, key, value):  # (the ALE's names)
        self.ints[key] = value

    def setFloat(self, key, value):
        pass

    def setBool(self, key, value):
        pass

    def loadROM(self, path):
        self.rom = path

    def getMinimalActionSet(self):
        return [0, 1, 3, 4, 11, 12]

    def reset_game(self):
        self.episodes += 1
        self.frame = 0
        self.rng = np.random.default_rng(self.ints.get("random_seed", 0) * 1000 + self.episodes)

    def act(self, action):
        self.frame += 1
        self.last_action = int(action)
        return float((self.frame * 7 + self.last_action * 3) % 13 == 0) - float(self.frame % 31 == 0)

    def game_over(self):
        return self.frame >= self.EPISODE

    def lives(self):
        return 3 - self.frame // self.LIFE

    def getScreenGrayscale(self):
        screen = self.rng.integers(0, 64, size=(210, 160), dtype=np.uint8)
        screen[self.frame % 200:self.frame % 200 + 10, 20 * self.last_action % 150:][:, :10] = 255  # a moving block
        return screen


def _resize(image, size, interpolation=None):
    """``cv2.resize`` to ``size`` (width, height) by nearest-pixel sampling (our stand-in, the same in both runs)."""
    width, height = size
    rows = np.arange(height) * image.shape[0] // height
    cols = np.arange(width) * image.shape[1] // width
    return image[np.ix_(rows, cols)]


class _Plotted:
    """``plotly.graph_objs.Scatter``/``Line``: keeps its arguments, draws nothing."""

    def __init__(self, **kwargs):
        self.kwargs = kwargs


def install_rainbow() -> None:
    atari_py = _script_module("atari_py")
    atari_py.ALEInterface = FakeALE
    atari_py.get_game_path = lambda game: f"{game}.bin"
    atari_py.list_games = lambda: ["space_invaders", "pong"]
    cv2 = _script_module("cv2")
    cv2.INTER_LINEAR = 1
    cv2.resize = _resize
    cv2.destroyAllWindows = lambda: None
    plotly = _script_module("plotly")
    plotly.offline = types.SimpleNamespace(plot=lambda *args, **kwargs: None)
    graph_objs = _script_module("plotly.graph_objs")
    graph_objs.Scatter = _Plotted
    graph_objs.scatter = _script_module("plotly.graph_objs.scatter")
    graph_objs.scatter.Line = _Plotted
    plotly.graph_objs = graph_objs


def show_rainbow(dqn, mem, state) -> None:
    """The trained agent: parameter sums, the memory's priority total and the Q-values of ``state``."""
    for name, p in dqn.online_net.named_parameters():
        p = p.detach().double()
        print(name, tuple(p.shape), repr(p.sum().item()), repr(p.abs().sum().item()))
    print("priority total", repr(float(mem.transitions.total())), "max", repr(float(mem.transitions.max)))
    dqn.eval()
    with torch.no_grad():
        q = dqn.online_net(state.unsqueeze(0))
    print("distribution", q[0, :, :5].tolist())
    print("act", dqn.act(state), "evaluate_q", repr(dqn.evaluate_q(state)))


def install_bolts() -> None:
    """``pl_bolts.utils.stability.under_review`` for the running script (its real module imports Lightning): the
    decorator that marks code under review, here returning what it decorates unchanged."""
    stability = _script_module("pl_bolts.utils.stability")
    stability.under_review = lambda: (lambda obj: obj)


def _digits(name, t) -> None:
    """``t``'s absolute sum and 2-norm with all their digits (not its signed sum: a gradient whose elements cancel,
    as batch norm's and softmax's do, sums to a few float32 roundings that follow the order of its reductions)."""
    t = t.detach().double()
    print(name, tuple(t.shape), repr(t.abs().sum().item()), repr(t.norm().item()))


def _steps(model, batch, loss_fn, steps=3, lr=1e-3):
    """``steps`` Adam steps of ``loss_fn(model, *batch)``: each loss, then the gradients' and parameters' sums."""
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for step in range(steps):
        opt.zero_grad()
        loss = loss_fn(model, *batch)
        loss.backward()
        print("step", step, repr(loss.item()))
        if step == 0:
            for name, p in model.named_parameters():
                if p.grad is not None:
                    _digits("grad " + name, p.grad)
        opt.step()
    for name, p in model.named_parameters():
        _digits(name, p)


def bolts_unet() -> None:
    from pl_bolts.models.vision.unet import UNet
    torch.manual_seed(0)
    for bilinear in (False, True):
        model = UNet(num_classes=3, input_channels=2, num_layers=3, features_start=4, bilinear=bilinear)
        x, y = torch.randn(2, 2, 16, 16), torch.randint(0, 3, (2, 16, 16))
        print(model if not bilinear else "bilinear", model(x).shape)
        _steps(model, (x, y), lambda m, x, y: torch.nn.functional.cross_entropy(m(x), y))
    try:
        UNet(num_classes=2, num_layers=0)
    except ValueError as error:
        print("ValueError", error)


def bolts_dcgan() -> None:
    from pl_bolts.models.gans.dcgan.components import DCGANDiscriminator, DCGANGenerator
    torch.manual_seed(0)
    gen, disc = DCGANGenerator(latent_dim=8, feature_maps=4, image_channels=1), DCGANDiscriminator(4, 1)
    print(gen, disc)
    noise, real = torch.randn(4, 8, 1, 1), torch.rand(4, 1, 64, 64) * 2 - 1
    fake = gen(noise)
    _digits("fake", fake)
    _digits("disc(real)", disc(real))
    bce = torch.nn.BCELoss()
    ones, zeros = torch.ones(4), torch.zeros(4)
    _steps(disc, (real, fake.detach()), lambda d, r, f: bce(d(r), ones) + bce(d(f), zeros), lr=2e-4)
    _steps(gen, (noise,), lambda g, z: bce(disc(g(z)), ones), lr=2e-4)


def bolts_pix2pix() -> None:
    from pl_bolts.models.gans.pix2pix.components import Generator, PatchGAN
    torch.manual_seed(0)
    gen, patch = Generator(3, 3), PatchGAN(6)
    x, y = torch.rand(1, 3, 256, 256), torch.rand(1, 3, 256, 256)
    fake = gen(x)
    _digits("generated", fake)
    _digits("patch", patch(fake, x))
    gen.eval()
    with torch.no_grad():
        _digits("generated eval", gen(x))
    _steps(patch, (x, y), lambda p, x, y: torch.nn.functional.binary_cross_entropy_with_logits(
        p(y, x), torch.ones_like(p(y, x))), steps=2)


def bolts_autoencoders() -> None:
    from pl_bolts.models.autoencoders.components import (
        resnet18_decoder,
        resnet18_encoder,
        resnet50_decoder,
        resnet50_encoder,
    )
    torch.manual_seed(0)
    resnets = ((resnet18_encoder, resnet18_decoder, 512), (resnet50_encoder, resnet50_decoder, 2048))
    for enc_fn, dec_fn, width in resnets:
        for first_conv, maxpool1 in ((False, False), (True, True)):
            enc, dec = enc_fn(first_conv, maxpool1), dec_fn(16, 32, first_conv, maxpool1)
            model = torch.nn.ModuleDict({"enc": enc, "fc": torch.nn.Linear(width, 16), "dec": dec})
            x = torch.rand(2, 3, 32, 32)
            print(enc_fn.__name__, first_conv, maxpool1, enc(x).shape, dec(torch.randn(2, 16)).shape)
            _steps(model, (x,), lambda m, x: torch.nn.functional.mse_loss(m["dec"](m["fc"](m["enc"](x))), x), steps=2)


def bolts_rl_networks() -> None:
    from pl_bolts.models.rl.common import networks as n
    torch.manual_seed(0)
    obs, img = torch.randn(5, 4), torch.rand(5, 4, 40, 40)
    net = n.MLP((4,), 3, hidden_size=16)  # (its DuelingMLP's forward names a layer it does not have: left out)
    print(net)
    _digits("MLP", net(obs))
    for cls in (n.CNN, n.DuelingCNN, n.NoisyCNN):
        net = cls((4, 40, 40), 3)
        _digits(cls.__name__, net(img))
    noisy = n.NoisyLinear(4, 3)
    _digits("noisy", noisy(obs))
    _steps(noisy, (obs,), lambda m, x: m(x).pow(2).mean())
    ac = n.ActorCriticMLP((4,), 2, 16)
    logits, value = ac(obs)
    _digits("actor-critic logits", logits)
    _digits("actor-critic value", value)
    actor = n.ActorCategorical(n.MLP((4,), 3, 16))
    pi, actions = actor(obs)
    print("categorical", actions.tolist(), actor.get_log_prob(pi, actions).tolist())
    cont = n.ActorContinous(n.MLP((4,), 2, 16), 2)
    pi, actions = cont(obs)
    print("normal", actions.tolist(), cont.get_log_prob(pi, actions).tolist())
    mlp = n.ContinuousMLP((4,), 2, hidden_size=16, action_bias=0.5, action_scale=2.0)
    dist = mlp(obs)
    action, z = dist.rsample_with_z()
    _digits("tanh normal action", action)
    _digits("log_prob_from_z", dist.log_prob_with_z(action, z))
    print("get_action", mlp.get_action(obs).tolist())


def bolts_rl_losses() -> None:
    from pl_bolts.losses.rl import double_dqn_loss, dqn_loss, per_dqn_loss
    from pl_bolts.models.rl.common.networks import MLP
    torch.manual_seed(0)
    net, target = MLP((4,), 3, 16), MLP((4,), 3, 16)
    batch = (torch.randn(8, 4), torch.randint(0, 3, (8,)), torch.randn(8), torch.tensor([False, True] * 4),
             torch.randn(8, 4))
    _steps(net, (), lambda m: dqn_loss(batch, m, target))
    _steps(net, (), lambda m: double_dqn_loss(batch, m, target, gamma=0.9))
    weights = torch.linspace(0.2, 1.0, 8).tolist()
    loss, priorities = per_dqn_loss(batch, weights, net, target)
    print("per", repr(loss.item()), priorities.tolist())


def bolts_ssl_losses() -> None:
    from pl_bolts.losses.self_supervised_learning import (
        AmdimNCELoss,
        CPCTask,
        FeatureMapContrastiveTask,
        nt_xent_loss,
        tanh_clip,
    )
    torch.manual_seed(0)
    a, b = torch.randn(6, 8, requires_grad=True), torch.randn(6, 8)
    loss = nt_xent_loss(torch.nn.functional.normalize(a, dim=1), torch.nn.functional.normalize(b, dim=1), 0.5)
    loss.backward()
    print("nt_xent", repr(loss.item()))
    _digits("nt_xent grad", a.grad)
    _digits("tanh_clip", tanh_clip(torch.linspace(-30, 30, 13), 10.0))
    cpc = CPCTask(num_input_channels=8, target_dim=8)
    z = torch.randn(2, 8, 6, 6)
    print("cpc", repr(cpc(z).item()))
    task = FeatureMapContrastiveTask("00, 11", bidirectional=True)
    maps1 = (torch.randn(4, 8, 4, 4), torch.randn(4, 8, 2, 2))
    maps2 = (torch.randn(4, 8, 4, 4), torch.randn(4, 8, 2, 2))
    loss, regularizer = task(maps1, maps2)
    print("feature map task", loss.tolist(), repr(regularizer.item()))
    nce = AmdimNCELoss(tclip=10.0)
    anchor, positive = torch.randn(4, 8), torch.randn(8, 4 * 3)
    print("amdim", [repr(t.item()) for t in nce(anchor, positive, torch.eye(4))])


def bolts_basic_gan() -> None:
    from pl_bolts.models.gans.basic.components import Discriminator, Generator
    torch.manual_seed(0)
    gen, disc = Generator(latent_dim=8, img_shape=(1, 8, 8), hidden_dim=16), Discriminator((1, 8, 8), hidden_dim=32)
    print(gen, disc)
    z, real = torch.randn(6, 8), torch.rand(6, 1, 8, 8)
    bce = torch.nn.functional.binary_cross_entropy
    _steps(disc, (real, gen(z).detach()), lambda d, r, f: bce(d(r), torch.ones(6, 1)) + bce(d(f), torch.zeros(6, 1)))
    _steps(gen, (z,), lambda g, z: bce(disc(g(z)), torch.ones(6, 1)))


def bolts_pixel_cnn() -> None:
    from pl_bolts.models.vision.pixel_cnn import PixelCNN
    torch.manual_seed(0)
    model = PixelCNN(input_channels=4, hidden_channels=8, num_blocks=2)
    print(model)
    z = torch.randn(2, 4, 7, 7)
    _digits("context", model(z))
    _steps(model, (z,), lambda m, z: (m(z) - z).pow(2).mean())


def bolts_optimizers() -> None:
    """LARS under LinearWarmupCosineAnnealingLR and linear_warmup_decay, training SSLEvaluator (dropout on)."""
    from pl_bolts.models.self_supervised.evaluator import SSLEvaluator
    from pl_bolts.optimizers.lars import LARS
    from pl_bolts.optimizers.lr_scheduler import LinearWarmupCosineAnnealingLR, linear_warmup_decay
    torch.manual_seed(0)
    x, y = torch.randn(16, 12), torch.randint(0, 3, (16,))
    for name in ("cosine", "lambda"):
        model = SSLEvaluator(n_input=12, n_classes=3, n_hidden=8, p=0.2)
        opt = LARS(model.parameters(), lr=0.5, momentum=0.9, weight_decay=1e-4, nesterov=name == "lambda")
        sched = (LinearWarmupCosineAnnealingLR(opt, warmup_epochs=3, max_epochs=10, warmup_start_lr=0.01)
                 if name == "cosine" else torch.optim.lr_scheduler.LambdaLR(opt, linear_warmup_decay(3, 10)))
        for epoch in range(10):
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            sched.step()
            print(name, epoch, repr(loss.item()), sched.get_last_lr())
        model.eval()
        _digits("eval logits", model(x))
    print(model)


def bolts_swav() -> None:
    from pl_bolts.models.self_supervised.swav.loss import SWAVLoss
    from pl_bolts.models.self_supervised.swav.swav_resnet import resnet18
    torch.manual_seed(0)
    model = resnet18(normalize=True, output_dim=16, hidden_mlp=32, num_prototypes=10, first_conv=False,
                     maxpool1=False)
    crit = SWAVLoss(temperature=0.1, crops_for_assign=(0, 1), num_crops=(2, 1), sinkhorn_iterations=3,
                    epsilon=0.05, gpus=0, num_nodes=1)
    crops = [torch.rand(4, 3, 32, 32), torch.rand(4, 3, 32, 32), torch.rand(4, 3, 16, 16)]
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for step in range(2):
        with torch.no_grad():
            w = model.prototypes.weight.data.clone()
            model.prototypes.weight.copy_(torch.nn.functional.normalize(w, dim=1, p=2))
        embedding, output = model(crops)
        loss, queue, use_queue = crit(output, embedding.detach(), model.prototypes.weight, batch_size=4)
        opt.zero_grad()
        loss.backward()
        print("step", step, repr(loss.item()), queue, use_queue)
        _digits("embedding", embedding)
        _digits("prototype grad", model.prototypes.weight.grad)
        opt.step()
    q = crit.sinkhorn(torch.exp(output[:4].detach() / 0.05).t(), 3)
    print("assignments", q.argmax(1).tolist())
    _digits("sinkhorn", q)


def bolts_ssl_encoders() -> None:
    """CPC's LayerNorm ResNet-50 (a training step) and the self-supervised ResNets (ResNet-18 with every feature map,
    ResNeXt-50 32x4d's grouped convolutions) in eval mode with their input gradients."""
    from pl_bolts.models.self_supervised.cpc.networks import cpc_resnet50
    from pl_bolts.models.self_supervised.resnets import resnet18, resnext50_32x4d
    torch.manual_seed(0)
    x = torch.rand(2, 3, 32, 32)
    cpc = cpc_resnet50(x)
    _digits("cpc features", cpc(x))
    _steps(cpc, (x,), lambda m, x: m(x).pow(2).mean(), steps=2)
    for build, kwargs in ((resnet18, {"first_conv": False, "maxpool1": False, "return_all_feature_maps": True}),
                          (resnext50_32x4d, {"num_classes": 10})):
        model = build(**kwargs).eval()
        x = torch.rand(2, 3, 32, 32, requires_grad=True)
        maps = model(x)
        for i, m in enumerate(maps):
            _digits(f"{build.__name__} map {i}", m)
        sum(m.pow(2).mean() for m in maps).backward()
        _digits("input grad", x.grad)


def bolts_metrics() -> None:
    """``pl_bolts.metrics``' accuracy, top-k precision and nested means, and ``utils.shaping.tile``."""
    from pl_bolts.metrics.aggregation import accuracy, mean, precision_at_k
    from pl_bolts.utils.shaping import tile
    torch.manual_seed(0)
    logits, labels = torch.randn(20, 7), torch.randint(0, 7, (20,))
    print("accuracy", repr(accuracy(logits, labels).item()))
    print("precision_at_k", [t.tolist() for t in precision_at_k(logits, labels, top_k=(1, 3, 5))])
    print("mean", repr(mean([{"loss": torch.tensor(1.5)}, [{"loss": torch.tensor(2.0)}, {"loss": torch.tensor(4.5)}]],
                            "loss").item()))
    a = torch.arange(12.0).view(3, 4)
    print("tile", tile(a, 0, 2).tolist(), tile(a, 1, 3).tolist())


def fake_fetch_openml(name, version=None, return_X_y=False, **kwargs):
    """``sklearn.datasets.fetch_openml('mnist_784', return_X_y=True)`` as NumPy arrays (what it returned before
    scikit-learn 0.24's data frames): 400 seeded noise images of 784 float64 pixels in 0..255, string labels."""
    rng = np.random.default_rng(5)
    labels = rng.integers(0, 10, size=400).astype(str).astype(object)
    return rng.integers(0, 256, size=(400, 784)).astype(np.float64), labels
