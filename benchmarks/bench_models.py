"""Mid-size training steps of real model shapes, core vs PyTorch side by side in one process.

    PYTHONPATH=. python benchmarks/bench_models.py [--repeat 5] [--only unet,resnet,dcgan,transformer,...]
                                                   [--profile NAME] [--core-only]

Four workloads, each one full training step (zero_grad, forward, loss, backward, optimizer step) on a
fixed float32 batch:

- ``unet``: a small UNet (double 3x3 convs with BatchNorm2d + ReLU, max_pool2d down, ConvTranspose2d up,
  channel concat; 64 -> 128 -> 256 channels), batch 4, 3x64x64 input, cross-entropy over 2 classes, Adam.
- ``resnet``: a CIFAR ResNet-18-like net (basic blocks 64-128-256-512, two per stage), batch 32,
  3x32x32, cross-entropy, SGD with momentum.
- ``dcgan``: a DCGAN generator (ConvTranspose2d + BatchNorm2d + ReLU, 100 -> 3x32x32) and discriminator
  (Conv2d + BatchNorm2d + LeakyReLU), batch 64, one discriminator and one generator step with BCE, Adam.
- ``transformer``: a 4-layer ``nn.TransformerEncoder`` (d_model 256, 8 heads, GELU, batch_first), seq 128,
  batch 16, mean-squared loss, AdamW.

Four more time what d2l's AlexNet and VGG notebooks do with one 1x3x224x224 image (issue #23):
``alexnet`` and ``vgg11`` run the layer-by-layer shape check (``for layer in net: X = layer(X)``, parameters
requiring grad), ``vgg11_bwd`` that forward and a backward of its sum, ``vgg11_init`` builds the model
(its 133M parameters' default init, most of a VGG shape-check script's time).

Columns: core with its defaults, PyTorch with one thread, PyTorch with every thread. Each is the median
of ``--repeat`` wall-clock runs, the three interleaved within each repeat (a busy shared machine then
favours none) after one warm-up step each, with 0.2 s of sleep before each run so the previous library's
idle threads stop spinning. ``--profile NAME`` runs cProfile over three core steps of one workload and
prints the top functions by own time. ``--core-only`` drops the PyTorch columns: run it with
``PYTHONPATH`` set to another checkout to compare two versions of core.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import core


def _double_conv(nn, cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                         nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


def _unet(lib):
    nn = lib.nn

    class UNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.inc = _double_conv(nn, 3, 64)
            self.down1 = _double_conv(nn, 64, 128)
            self.down2 = _double_conv(nn, 128, 256)
            self.up2 = nn.ConvTranspose2d(256, 128, 2, stride=2)
            self.conv2 = _double_conv(nn, 256, 128)
            self.up1 = nn.ConvTranspose2d(128, 64, 2, stride=2)
            self.conv1 = _double_conv(nn, 128, 64)
            self.outc = nn.Conv2d(64, 2, 1)

        def forward(self, x):
            x1 = self.inc(x)
            x2 = self.down1(nn.functional.max_pool2d(x1, 2))
            x3 = self.down2(nn.functional.max_pool2d(x2, 2))
            y = self.conv2(lib.cat([x2, self.up2(x3)], 1))
            y = self.conv1(lib.cat([x1, self.up1(y)], 1))
            return self.outc(y)

    return UNet()


def unet_case(lib, seed=0):
    lib.manual_seed(seed)
    model = _unet(lib)
    opt = lib.optim.Adam(model.parameters(), lr=1e-3)
    rng = np.random.default_rng(seed)
    x = lib.tensor(rng.standard_normal((4, 3, 64, 64)).astype(np.float32))
    y = lib.tensor(rng.integers(0, 2, (4, 64, 64)))

    def step():
        opt.zero_grad()
        lib.nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    return step


def _resnet(lib):
    nn = lib.nn

    class Block(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.c1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.b1 = nn.BatchNorm2d(cout)
            self.c2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.b2 = nn.BatchNorm2d(cout)
            self.short = nn.Sequential()
            if stride != 1 or cin != cout:
                self.short = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

        def forward(self, x):
            out = nn.functional.relu(self.b1(self.c1(x)))
            return nn.functional.relu(self.b2(self.c2(out)) + self.short(x))

    layers = [nn.Conv2d(3, 64, 3, 1, 1, bias=False), nn.BatchNorm2d(64), nn.ReLU()]
    cin = 64
    for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
        layers += [Block(cin, cout, stride), Block(cout, cout, 1)]
        cin = cout
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 10)]
    return nn.Sequential(*layers)


def resnet_case(lib, seed=0):
    lib.manual_seed(seed)
    model = _resnet(lib)
    opt = lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    rng = np.random.default_rng(seed)
    x = lib.tensor(rng.standard_normal((32, 3, 32, 32)).astype(np.float32))
    y = lib.tensor(rng.integers(0, 10, 32))

    def step():
        opt.zero_grad()
        lib.nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    return step


def dcgan_case(lib, seed=0):
    nn = lib.nn
    lib.manual_seed(seed)
    gen = nn.Sequential(
        nn.ConvTranspose2d(100, 256, 4, 1, 0, bias=False), nn.BatchNorm2d(256), nn.ReLU(True),
        nn.ConvTranspose2d(256, 128, 4, 2, 1, bias=False), nn.BatchNorm2d(128), nn.ReLU(True),
        nn.ConvTranspose2d(128, 64, 4, 2, 1, bias=False), nn.BatchNorm2d(64), nn.ReLU(True),
        nn.ConvTranspose2d(64, 3, 4, 2, 1, bias=False), nn.Tanh())
    disc = nn.Sequential(
        nn.Conv2d(3, 64, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, True),
        nn.Conv2d(64, 128, 4, 2, 1, bias=False), nn.BatchNorm2d(128), nn.LeakyReLU(0.2, True),
        nn.Conv2d(128, 256, 4, 2, 1, bias=False), nn.BatchNorm2d(256), nn.LeakyReLU(0.2, True),
        nn.Conv2d(256, 1, 4, 1, 0, bias=False), nn.Sigmoid(), nn.Flatten())
    opt_g = lib.optim.Adam(gen.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_d = lib.optim.Adam(disc.parameters(), lr=2e-4, betas=(0.5, 0.999))
    rng = np.random.default_rng(seed)
    real = lib.tensor(rng.uniform(-1, 1, (64, 3, 32, 32)).astype(np.float32))
    noise = lib.tensor(rng.standard_normal((64, 100, 1, 1)).astype(np.float32))
    ones, zeros = lib.ones(64, 1), lib.zeros(64, 1)
    bce = nn.functional.binary_cross_entropy

    def step():
        opt_d.zero_grad()
        fake = gen(noise)
        (bce(disc(real), ones) + bce(disc(fake.detach()), zeros)).backward()
        opt_d.step()
        opt_g.zero_grad()
        bce(disc(fake), ones).backward()
        opt_g.step()
    return step


def transformer_case(lib, seed=0):
    nn = lib.nn
    lib.manual_seed(seed)
    layer = nn.TransformerEncoderLayer(256, 8, dim_feedforward=1024, dropout=0.0, activation="gelu",
                                       batch_first=True)
    model = nn.TransformerEncoder(layer, 4, enable_nested_tensor=False)
    opt = lib.optim.AdamW(model.parameters(), lr=1e-4)
    rng = np.random.default_rng(seed)
    x = lib.tensor(rng.standard_normal((16, 128, 256)).astype(np.float32))
    target = lib.tensor(rng.standard_normal((16, 128, 256)).astype(np.float32))

    def step():
        opt.zero_grad()
        nn.functional.mse_loss(model(x), target).backward()
        opt.step()
    return step


def _alexnet(lib):
    nn = lib.nn
    return nn.Sequential(
        nn.Conv2d(3, 96, 11, stride=4, padding=1), nn.ReLU(), nn.MaxPool2d(3, stride=2),
        nn.Conv2d(96, 256, 5, padding=2), nn.ReLU(), nn.MaxPool2d(3, stride=2),
        nn.Conv2d(256, 384, 3, padding=1), nn.ReLU(), nn.Conv2d(384, 384, 3, padding=1), nn.ReLU(),
        nn.Conv2d(384, 256, 3, padding=1), nn.ReLU(), nn.MaxPool2d(3, stride=2), nn.Flatten(),
        nn.Linear(6400, 4096), nn.ReLU(), nn.Dropout(0.5), nn.Linear(4096, 4096), nn.ReLU(), nn.Dropout(0.5),
        nn.Linear(4096, 10))


def _vgg11(lib):
    nn = lib.nn
    layers, cin = [], 3
    for convs, cout in ((1, 64), (1, 128), (2, 256), (2, 512), (2, 512)):
        for _ in range(convs):
            layers += [nn.Conv2d(cin, cout, 3, padding=1), nn.ReLU()]
            cin = cout
        layers.append(nn.MaxPool2d(2, 2))
    return nn.Sequential(*layers, nn.Flatten(), nn.Linear(512 * 7 * 7, 4096), nn.ReLU(), nn.Dropout(0.5),
                         nn.Linear(4096, 4096), nn.ReLU(), nn.Dropout(0.5), nn.Linear(4096, 10))


def _shape_check_case(build, backward=False):
    def case(lib, seed=0):
        lib.manual_seed(seed)
        net = build(lib)
        x = lib.tensor(np.random.default_rng(seed).standard_normal((1, 3, 224, 224)).astype(np.float32))

        def step():
            out = x
            for layer in net:
                out = layer(out)
            if backward:
                out.sum().backward()
        return step
    return case


def vgg11_init_case(lib, seed=0):
    lib.manual_seed(seed)
    return lambda: _vgg11(lib)


CASES = {"unet": unet_case, "resnet": resnet_case, "dcgan": dcgan_case, "transformer": transformer_case,
         "alexnet": _shape_check_case(_alexnet), "vgg11": _shape_check_case(_vgg11),
         "vgg11_bwd": _shape_check_case(_vgg11, backward=True), "vgg11_init": vgg11_init_case}
DEFAULT = "unet,resnet,dcgan,transformer"


def _wall(fn) -> float:
    time.sleep(0.2)
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _torch_threads(torch, n):
    def run(fn):
        torch.set_num_threads(n)
        return _wall(fn)
    return run


def run_case(name, repeat, torch):
    core_step = CASES[name](core)
    runners = [("core", core_step, _wall)]
    if torch is not None:
        torch_step = CASES[name](torch)
        all_threads = torch.get_num_threads()
        runners += [("torch 1t", torch_step, _torch_threads(torch, 1)),
                    (f"torch {all_threads}t", torch_step, _torch_threads(torch, all_threads))]
    for _, step, timer in runners:
        timer(step)  # warm-up: first-call caches, optimizer state
    times = {label: [] for label, _, _ in runners}
    for _ in range(repeat):
        for label, step, timer in runners:
            times[label].append(timer(step))
    if torch is not None:
        torch.set_num_threads(all_threads)
    return {label: statistics.median(ts) for label, ts in times.items()}


def profile_case(name, steps=3, top=25):
    import cProfile
    import pstats
    step = CASES[name](core)
    step()
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(steps):
        step()
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", default=DEFAULT, help=f"comma-separated, of: {','.join(CASES)}")
    parser.add_argument("--profile", choices=sorted(CASES))
    parser.add_argument("--core-only", action="store_true", help="no PyTorch columns (to compare two core trees)")
    args = parser.parse_args()
    if args.profile:
        profile_case(args.profile)
        return
    try:
        import torch
    except ImportError:
        torch = None
    if args.core_only:
        torch = None
    print(f"{'workload':<12} {'core s':>8} {'torch 1t s':>11} {'torch Nt s':>11} {'core/1t':>8} {'core/Nt':>8}")
    for name in args.only.split(","):
        res = run_case(name, args.repeat, torch)
        vals = list(res.values())
        if len(vals) == 3:
            print(f"{name:<12} {vals[0]:8.3f} {vals[1]:11.3f} {vals[2]:11.3f} {vals[0] / vals[1]:8.2f} "
                  f"{vals[0] / vals[2]:8.2f}", flush=True)
        else:
            print(f"{name:<12} {vals[0]:8.3f}", flush=True)


if __name__ == "__main__":
    main()
