"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

zuko on core (2026-12-06, corpus helper s24 SNNTORCH, second library): probabilists/zuko at its 1.6.0 release
(2026-03-10, MIT), normalizing flows on torch.distributions, its own package fetched beside each script and loaded in
both runs (``runner._fetched_packages``; it needs only NumPy and torch). Three kinds of script:
- ``zuko_test_*``: six of zuko's seven test modules through pytest (``corpus_pruning.run_pytest``) with its
  ``tests/conftest.py`` beside them (float64 by default, as its CI runs them);
- ``zuko_tutorial_*``: its documentation's tutorial notebooks, run cell by cell, shortened;
- ``zuko_drive_*``: ``zuko/__init__.py`` run as a script beside the package with drivers of ours (``corpus_zuko.py``):
  each flow (NICE, RealNVP, MAF, NSF, NCSF, SOSPF, BPF, NAF, UNAF, GF, CNF) and GMM trained a few Adam steps on seeded
  moons, log-densities, seeded samples and rsample gradients; the transforms' values, inverses and log-determinants;
  the distributions; BayesianModel; the utilities (bisection, Gauss-Legendre, the adaptive ODE solver's adjoint).
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

ZUKO = ("probabilists/zuko", "1063ae415bcd53bfad1da3a27b5519491365afdd", "MIT")
ZUKO_PACKAGE = [(f"zuko/{m}.py", f"zuko/{m}.py") for m in (
    "__init__ bayesian distributions lazy mixtures nn transforms utils flows/__init__ flows/autoregressive "
    "flows/continuous flows/core flows/coupling flows/gaussianization flows/mixture flows/neural flows/polynomial "
    "flows/spline").split()]


def _test(name, xfail=None):
    """tests/test_NAME.py, one of zuko's own test modules, through pytest (its conftest.py beside it)."""
    first = "import torch\n"
    run = (first, "if __name__ == '__main__':  # (pytest imports the file as a module)\n"
           "    __import__('corpus_pruning').run_pytest(__file__)\n    raise SystemExit\n" + first)
    return _r(f"zuko_test_{name}", ZUKO, f"tests/test_{name}.py", [run],
              support=[*ZUKO_PACKAGE, ("tests/conftest.py", "conftest.py")], xfail=xfail)


# (not tests/test_flows.py: its nine flows at 256 points in float64 take minutes in either library; the drivers
# below train each flow instead)
RECIPES += [_test(name) for name in ("bayesian", "distributions", "mixtures", "nn", "transforms", "utils")]

INIT = "from . import distributions, flows, lazy, mixtures, nn, transforms, utils"


def _drive(name, *calls, xfail=None):
    """zuko/__init__.py run as a script beside its package (absolute imports), with driver ``calls`` (``corpus_zuko
    as cz``) appended, each through ``cz.guard``."""
    body = ("import torch\nimport zuko\nimport zuko.bayesian\n"
            "from zuko import distributions, flows, lazy, mixtures, nn, transforms, utils\n"
            "cz = __import__('corpus_zuko')\n" + "\n".join(f"cz.guard(lambda: cz.{c})" for c in calls) + "\n")
    return _r(f"zuko_drive_{name}", ZUKO, "zuko/__init__.py", [(INIT, body)], support=ZUKO_PACKAGE, xfail=xfail)


F = "zuko.flows."
RECIPES += [
    _drive("coupling", f"flow(zuko, lambda: {F}NICE(2, 1, transforms=2, hidden_features=(16,)))",
           f"flow(zuko, lambda: {F}RealNVP(2, 1, transforms=2, hidden_features=(16,)))"),
    _drive("maf", f"flow(zuko, lambda: {F}MAF(2, 1, transforms=2, hidden_features=(16, 16)))",
           f"flow(zuko, lambda: {F}MAF(2, transforms=3, hidden_features=(8,), randperm=True), conditional=False)"),
    _drive("nsf", f"flow(zuko, lambda: {F}NSF(2, 1, bins=4, transforms=2, hidden_features=(16,)))",
           f"flow(zuko, lambda: {F}NCSF(2, 1, bins=4, transforms=2, hidden_features=(16,)))"),
    _drive("polynomial", f"flow(zuko, lambda: {F}SOSPF(2, 1, degree=2, polynomials=2, transforms=2, "
           "hidden_features=(16,)))",
           f"flow(zuko, lambda: {F}BPF(2, 1, degree=6, transforms=2, hidden_features=(16,)))"),
    _drive("neural", f"flow(zuko, lambda: {F}NAF(2, 1, transforms=2, signal=4, hidden_features=(16,)), steps=2)",
           f"flow(zuko, lambda: {F}UNAF(2, 1, transforms=2, signal=4, hidden_features=(16,)), steps=2)"),
    _drive("gaussianization", f"flow(zuko, lambda: {F}GF(2, 1, transforms=2, components=4, "
           "hidden_features=(16,)))"),
    _drive("cnf", f"flow(zuko, lambda: {F}CNF(2, 1, hidden_features=(16, 16)), steps=2)",
           f"flow(zuko, lambda: {F}CNF(2, freqs=2, exact=False, hidden_features=(8,)), steps=2, conditional=False)",
           xfail="float32 rounding amplified by an adaptive ODE solver: CNF integrates its vector field (an MLP on the "
           "state and a cos/sin time embedding: MKL's sgemm and SLEEF's u10 sin/cos in torch, NumPy's BLAS and "
           "correctly rounded sin/cos in core) with Dormand-Prince steps whose sizes follow the error estimate; the "
           "first loss differs in the last bit (2.7663324 vs 2.7663326) and the adjoint's steps carry an rsample "
           "gradient to 0.0057148 (torch) vs 0.0057359 (core)"),
    _drive("transforms", "transforms(zuko)"),
    _drive("distributions", "distributions(zuko)"),
    _drive("mixtures", "mixtures(zuko)"),
    _drive("bayesian", "bayesian(zuko)", "utils(zuko)"),
]


def _tutorial(name, edits=(), xfail=None):
    """docs/tutorials/NAME.ipynb run cell by cell (``keep_going``), shortened: fewer epochs, steps and samples."""
    return _r(f"zuko_tutorial_{name}", ZUKO, f"docs/tutorials/{name}.ipynb", edits, support=ZUKO_PACKAGE,
              xfail=xfail, keep_going=True)


FEWER_SAMPLES = (".sample((16384,))", ".sample((256,))")
RECIPES += [
    _tutorial("basics"),
    _tutorial("forward_kl", [("trainset = data.TensorDataset(*two_moons(16384))",
                              "trainset = data.TensorDataset(*two_moons(256))"),
                             ("for epoch in range(8):", "for epoch in range(2):"),
                             ("for epoch in range(8):", "for epoch in range(2):"), *[FEWER_SAMPLES] * 3]),
    _tutorial("reverse_kl", [("for epoch in range(8):", "for epoch in range(2):"),
                             ("for _ in range(256):", "for _ in range(8):"), FEWER_SAMPLES]),
    _tutorial("bayesian_flows", [("for epoch in range(4):", "for epoch in range(1):"),
                                 ("for _ in range(1024):", "for _ in range(8):"),
                                 ("trainset = data.TensorDataset(*two_moons(16384))",
                                  "trainset = data.TensorDataset(*two_moons(256))"),
                                 ("for epoch in range(8):", "for epoch in range(2):"), *[FEWER_SAMPLES] * 2]),
]
