"""Nodegrad's entry point: ``python app.py [FILE]``, ``--screenshot OUT.png [--forward] [--backward] [--train N]``,
or ``--headless``."""

from __future__ import annotations

import argparse
import sys


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="nodegrad", description="A desktop playground for tensors and autograd.")
    parser.add_argument("file", nargs="?", help="a graph file to open")
    parser.add_argument("--screenshot", metavar="OUT.png", help="render the window to a PNG and exit")
    parser.add_argument("--headless", action="store_true", help="run the chapter's example without a window")
    parser.add_argument("--forward", action="store_true", help="with --screenshot: run the forward pass first")
    parser.add_argument("--backward", action="store_true", help="with --screenshot: run backward from the loss")
    parser.add_argument("--train", type=int, default=0, metavar="N", help="with --screenshot: N training steps")
    return parser.parse_args(argv)


def run_headless() -> int:
    """Print the chapter's autograd example computed by core (no Qt needed)."""
    import core as torch

    x = torch.tensor([2.0, 3.0], requires_grad=True)
    w = torch.tensor([1.5, -0.5], requires_grad=True)
    b = torch.tensor(0.1, requires_grad=True)
    z = (x * w).sum() + b
    z.backward()
    print(f"z = {float(z):.4f}")
    print("x.grad =", x.grad)
    print("w.grad =", w.grad)
    print("b.grad =", b.grad)
    return 0


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.headless:
        return run_headless()
    from gui.main_window import run  # noqa: PLC0415 - Qt loads only for the window

    return run(args)


if __name__ == "__main__":
    sys.exit(main())
