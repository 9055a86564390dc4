"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

GeomLoss on core (2026-12-06, corpus helper s29 GEOMLOSS): jeanfeydy/geomloss at its 0.2.6 release (2023-03-23, MIT;
the ``SamplesLoss`` package most code imports, before the 0.3 rewrite of its API), its own package fetched beside
each script and loaded in both runs (``runner._fetched_packages``), without KeOps: ``pykeops`` is absent
(``fake_backpack_deps.py``), so ``import pykeops`` fails at GeomLoss' import check in both runs and every loss takes
the tensorized backend. ``gml_drive_*``: ``geomloss/__init__.py`` run as a script beside its package with drivers of
ours (``corpus_geomloss.py``): Sinkhorn divergences (p = 1 and 2, blur, unbalanced ``reach``, ``debias``, epsilon
scaling, dual potentials, a custom cost), energy, Gaussian and Laplacian kernel MMDs and Hausdorff losses on seeded
clouds, weighted and batched, in float64 and float32, with their gradients, a double backward, gradient flows and a
small generator's training. Its examples only plot (and read PNG files through imageio, or fit scikit-learn's
KernelDensity to show densities); the drivers follow their gradient flows instead. Its grid solvers
(``sinkhorn_divergence`` on images, ``ImagesBarycenter``) call KeOps' soft-min in 0.2.6 and are left out.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

GML = ("jeanfeydy/geomloss", "5804ca57f84bd95226efd1d44929022deb9cd23a", "MIT")  # the v0.2.6 release
GML_PACKAGE = [(f"geomloss/{m}.py",) * 2 for m in (
    "__init__ __version__ kernel_samples samples_loss sinkhorn_divergence sinkhorn_images sinkhorn_samples utils "
    "wasserstein_barycenter_images").split()]
INIT = "from .samples_loss import SamplesLoss"


def _drive(name, *calls, xfail=None):
    """geomloss/__init__.py run as a script beside its package (absolute imports), ``corpus_geomloss``'s ``calls``
    appended."""
    body = ("import geomloss\nfrom geomloss import SamplesLoss\nimport torch\n"
            "cg = __import__('corpus_geomloss')\n" + "\n".join(f"cg.{c}" for c in calls) + "\nraise SystemExit\n")
    return _r(f"gml_drive_{name}", GML, "geomloss/__init__.py", [(INIT, body)], support=GML_PACKAGE, xfail=xfail)


S = "loss='sinkhorn'"
RECIPES += [
    _drive("sinkhorn", f"samples('p2', {S}, p=2, blur=0.05)", f"samples('p1', {S}, p=1, blur=0.1)",
           f"samples('p2 weighted', weighted=True, {S}, p=2, blur=0.1, scaling=0.8)"),
    _drive("sinkhorn_options", f"samples('biased', {S}, debias=False, blur=0.1)",
           f"samples('unbalanced', weighted=True, {S}, reach=0.3, blur=0.05)",
           f"samples('large blur', {S}, blur=1.0, scaling=0.3)", f"samples('3d', d=3, {S}, blur=0.2, scaling=0.9)"),
    _drive("sinkhorn_batched", f"samples('batched', batch=3, {S}, blur=0.1)",
           f"samples('batched weighted', weighted=True, batch=2, {S}, blur=0.05, reach=1.0)"),
    _drive("sinkhorn_float32", f"samples('f32', dtype=torch.float32, {S}, blur=0.1)",
           f"samples('f32 weighted', weighted=True, dtype=torch.float32, {S}, p=1, blur=0.2)"),
    _drive("potentials", f"potentials('balanced', {S}, blur=0.1)", f"potentials('unbalanced', {S}, reach=0.5)",
           f"potentials('p1', {S}, p=1, blur=0.2, debias=False)"),
    _drive("kernels", "samples('energy', loss='energy')", "samples('gaussian', loss='gaussian', blur=0.3)",
           "samples('laplacian', weighted=True, loss='laplacian', blur=0.3)",
           "samples('gaussian batched', batch=2, loss='gaussian', blur=0.5)"),
    _drive("hausdorff", "samples('hausdorff', loss='hausdorff', blur=0.1)"),  # (0.2.6 looks up a kernel named None:
    # KeyError in both runs)
    _drive("custom_cost", "custom_cost('cost')"),
    _drive("double_backward", f"double_backward('sinkhorn', {S}, blur=0.1)", "double_backward('energy', loss='energy')",
           "double_backward('gaussian', loss='gaussian', blur=0.3)"),
    _drive("flows", f"flow('sinkhorn', {S}, blur=0.05)", "flow('energy', loss='energy')",
           "flow('gaussian', loss='gaussian', blur=0.2)",
           f"flow('unbalanced', {S}, reach=0.3, blur=0.05)", f"flow('float32', dtype=torch.float32, {S}, blur=0.1)"),
    _drive("train", f"train('sinkhorn', {S}, blur=0.05)", "train('energy', loss='energy')"),
]

# Two of its examples that need no image files, shortened: their figures' data printed by the KernelDensity stand-in
# (``fake_backpack_deps.py``), the transport-blur example's curves printed where it plots them, and its "online"
# (KeOps) reference solver the tensorized one.
RECIPES += [
    _r("gml_example_gradient_flows_1d", GML, "geomloss/examples/comparisons/plot_gradient_flows_1D.py",
       [("Nsteps = int(5 / lr) + 1", "Nsteps = int(0.5 / lr) + 1")], support=GML_PACKAGE),
    _r("gml_example_transport_blur", GML, "geomloss/examples/sinkhorn_multiscale/plot_transport_blur.py",
       [("for _ in range(5):", "for _ in range(2):"), ('backend="online"', 'backend="tensorized"'),
        ('    plt.plot(blurs, sink, "r-o"', '    print("sinkhorn", sink, "blurred", bwass, true_wass, mean_diff)\n'
         '    plt.plot(blurs, sink, "r-o"')], support=GML_PACKAGE),
]
