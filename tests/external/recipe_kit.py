"""What every corpus recipe is made of: ``_r`` (one recipe), the sources' pins and the edits several share.

Each recipe names a public repository, a commit, a path and the licence, and lists its edits as
literal ``(old, new)`` replacements of the first occurrence (``fetch_corpus.py`` refuses a recipe
whose ``old`` text is missing). The scripts' text is never committed: it is fetched into
``tests/external/scripts/`` (git-ignored). ``waits_for`` names a core feature another piece of work
adds; ``xfail`` names a known difference (the test marks it ``xfail(strict=True)``, so a fix shows).
The recipes themselves are in ``recipes_classics.py``, ``recipes_tutorials.py`` and ``recipes_courses.py``.
"""

from __future__ import annotations

JCJ = ("jcjohnson/pytorch-examples", "0003fcdc606a79951e53bf8f46f8574fa4739f23", "MIT")
MORVAN = ("MorvanZhou/PyTorch-Tutorial", "dbe154a9e56635e51c6b0c2ccea8ae36cfb585a7", "MIT")
MICROGRAD = ("karpathy/micrograd", "c911406e5ace8742e5841a7e0df113ecb5d54685", "MIT")
NG = ("karpathy/ng-video-lecture", "52201428ed7b46804849dea0b3ccf0de9df1a5c3", "none stated")
YUNJEY = ("yunjey/pytorch-tutorial", "0500d3df5a2a8080ccfccbc00aca0eacc21818db", "MIT")
NZH = ("karpathy/nn-zero-to-hero", "73c3fcc741f0ec104ca850b1fb0df90e7e8d4cde", "MIT")
EXAMPLES = ("pytorch/examples", "77f55b912142e11fcfdf5b530231fb9c52f181e8", "BSD-3-Clause")
DIDL = ("ShusenTang/Dive-into-DL-PyTorch", "09c8bacc08599eb86236551454ba43b82cb91498", "Apache-2.0")
RASBT = ("rasbt/LLMs-from-scratch", "28c65cdfbc3338e2e040016eea4b7fdf556e4d57", "Apache-2.0")
VERDICT = ("ch02/01_main-chapter-code/the-verdict.txt", "the-verdict.txt")
NO_TIKTOKEN_VERSION = ('print("tiktoken version:", version("tiktoken"))', "")  # the stand-in has no package metadata
MINGPT = ("karpathy/minGPT", "37baab71b9abea1b76ab957409a1cc2fbfba8a26", "MIT")
MINGPT_PACKAGE = [(f"mingpt/{f}.py", f"mingpt/{f}.py") for f in ("__init__", "model", "trainer", "utils")]
NO_ITER_DT = ("iter_dt {trainer.iter_dt * 1000:.2f}ms; ", "")  # a wall-clock time
NANOGPT = ("karpathy/nanoGPT", "3adf61e154c3fe3fca428ad6bc3818b27a3b8291", "MIT")
MAKEMORE = ("karpathy/makemore", "988aa59e4d8fefa526d06f3b453ad116258398d4", "MIT")


def _makemore(kind):
    """makemore.py training a ``kind`` model for 21 steps, evaluating and sampling at step 20."""
    args = ["--type", kind, "--max-steps", "21", "--num-workers", "0", "--work-dir", "out"]
    return _r(f"makemore_{kind}", MAKEMORE, "makemore.py",
              [("args = parser.parse_args()", f"args = parser.parse_args({args!r})"),
               (" | step time {(t1-t0)*1000:.2f}ms", ""),  # a wall-clock time
               ("step % 500 == 0", "step % 20 == 0"), ("step % 200 == 0", "step % 20 == 0")],
              support=[("names.txt", "names.txt")])


NAMES = ("karpathy/makemore", "988aa59e4d8fefa526d06f3b453ad116258398d4", "names.txt", "names.txt")

SEED = ("import torch\n", "import torch\ntorch.manual_seed(0)\n")
SHORT = ("range(500)", "range(50)")
NO_WORKERS = ("num_workers=2", "num_workers=0")
DATASETS_MNIST = ("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")
FASHION_STOP = ("train_iter, test_iter = d2l.load_data_fashion_mnist(",  # its training needs the dataset
                "raise SystemExit\ntrain_iter, test_iter = d2l.load_data_fashion_mnist(")
MNIST = ("torchvision.datasets.MNIST(", "__import__('corpus_support').fake_mnist(")


NO_ELAPSED = ("    s = now - since\n", "    s = 0  # the elapsed time differs between runs\n")  # timeSince() in prints


def _tut(commit):
    """pytorch/tutorials is too large to clone: each recipe pins the commit its file was read at."""
    return ("pytorch/tutorials", commit, "BSD-3-Clause")


def _didl(name, path, edits=(), **kw):
    helpers = [("code/d2lzh_pytorch/__init__.py", "d2lzh_pytorch/__init__.py"),
               ("code/d2lzh_pytorch/utils.py", "d2lzh_pytorch/utils.py")]
    return _r(name, DIDL, f"code/{path}", edits, support=helpers, **kw)


def _r(name, source, path, edits=(), *, waits_for=None, xfail=None, support=(), keep_going=False):
    repo, commit, licence = source
    return {"name": name, "repo": repo, "commit": commit, "licence": licence, "path": path, "edits": list(edits),
            "waits_for": waits_for, "xfail": xfail, "support": list(support), "keep_going": keep_going}

# an xfail reason that starts so is not strict (test_corpus): core's outcome depends on what ran before it in the same
# runner process (its __torch_function__ dispatch, once switched on, stays on)
ORDER_DEPENDENT = "core's result depends on the scripts run before it in the same process: "

FASHION = ("datasets.FashionMNIST(", "__import__('corpus_support').fake_fashion_mnist(")
