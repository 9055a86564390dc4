"""Nodegrad's entry point: ``python app.py [FILE]``, ``--screenshot OUT.png [--forward] [--backward] [--train N]``,
or ``--headless [FILE] [--check] [--forward] [--backward] [--train N] [--export-py OUT [--api core|torch]]``
(see core/nodegraph/export/cli.py)."""

from __future__ import annotations

import argparse
import sys


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="nodegrad", description="A desktop playground for tensors and autograd.")
    parser.add_argument("file", nargs="?", help="a graph file to open")
    parser.add_argument("--screenshot", metavar="OUT.png", help="render the window to a PNG and exit")
    parser.add_argument("--headless", action="store_true",
                        help="no window: run FILE's actions, or print the chapter's example without FILE")
    parser.add_argument("--forward", action="store_true", help="with --screenshot/--headless: run the forward pass")
    parser.add_argument("--backward", action="store_true", help="with --screenshot/--headless: backward from the loss")
    parser.add_argument("--train", type=int, default=0, metavar="N",
                        help="with --screenshot/--headless: N training steps")
    parser.add_argument("--dock", metavar="NAME", help="with --screenshot: raise this training dock (e.g. autograd)")
    from core.nodegraph.export.cli import add_arguments  # headless options, no Qt

    add_arguments(parser)
    return parser.parse_args(argv)


def run_headless(args=None) -> int:
    """The headless command line (core.nodegraph.export.cli); without arguments, the chapter's example."""
    from core.nodegraph.export.cli import chapter_example, run

    return chapter_example() if args is None else run(args)


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.headless:
        return run_headless(args)
    from gui.launch import run  # Qt loads only for the window

    return run(args)


if __name__ == "__main__":
    sys.exit(main())
