"""Stand-ins for recipes_papers' scripts (Papers in 100 Lines of Code and others; our code, committed).

``load_data()`` is ``keras.datasets.mnist.load_data`` on seeded NumPy noise: ``((x_train, y_train), (x_test,
y_test))`` with Keras's shapes and dtypes (uint8 N x 28 x 28 images, uint8 labels), 300 training and 100 test
images. ``seaborn`` is a namespace whose functions draw nothing. ``make_swiss_roll`` is scikit-learn's recipe on a
seeded ``RandomState``, NumPy's global one by default as there (its numbers are not scikit-learn's).
"""

from __future__ import annotations

import types

import numpy as np

TRAIN, TEST = 300, 100


def load_data(path="mnist.npz", train=TRAIN, test=TEST):
    rng = np.random.default_rng(7)
    x_train = rng.integers(0, 256, size=(train, 28, 28), dtype=np.uint8)
    y_train = rng.integers(0, 10, size=train).astype(np.uint8)
    x_test = rng.integers(0, 256, size=(test, 28, 28), dtype=np.uint8)
    y_test = rng.integers(0, 10, size=test).astype(np.uint8)
    return (x_train, y_train), (x_test, y_test)


class _Drawing:
    """What seaborn's functions return here: every attribute and call gives another (``ax.set(...)``)."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Drawing()

    def __call__(self, *args, **kwargs):
        return _Drawing()

    def __getitem__(self, key):
        return _Drawing()


seaborn = _Drawing()


def make_swiss_roll(n_samples=100, *, noise=0.0, random_state=None, hole=False):
    rng = np.random.mtrand._rand if random_state is None else np.random.RandomState(random_state)  # NumPy's global
    t = 1.5 * np.pi * (1 + 2 * rng.uniform(size=n_samples))
    y = 21 * rng.uniform(size=n_samples)
    x, z = t * np.cos(t), t * np.sin(t)
    X = np.vstack((x, y, z)).T + noise * rng.standard_normal(size=(3, n_samples)).T
    return X, t


def nerf_rays(path, allow_pickle=False):
    """The NeRF scripts' ``np.load('training_data.pkl')``: float32 rows of ray origin, direction and pixel colour (9
    columns), 64 rays for a ``training`` file and 16 (one 4 x 4 image) for a ``testing`` one, origins on a sphere of
    radius 4 looking at the centre, as the scripts' Blender scenes between their near (2) and far (6) planes."""
    rng = np.random.default_rng(11 if "training" in path else 12)
    n = 64 if "training" in path else 16
    origins = rng.normal(size=(n, 3))
    origins *= 4.0 / np.linalg.norm(origins, axis=1, keepdims=True)
    directions = -origins / 4.0 + 0.1 * rng.normal(size=(n, 3))
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    pixels = rng.uniform(size=(n, 3))
    return np.concatenate([origins, directions, pixels], axis=1).astype(np.float32)


def _camera():
    """``skimage.data.camera()``'s dtype (a uint8 grey image), 16 x 16 of seeded noise instead of 512 x 512."""
    return np.random.default_rng(13).integers(0, 256, size=(16, 16), dtype=np.uint8)


skimage = types.SimpleNamespace(data=types.SimpleNamespace(camera=_camera))  # scikit-image is not installed


def _loadmat(path, *args, **kwargs):
    """``scipy.io.loadmat('Data/frey_rawface.mat')``: its ``ff`` matrix's dtype and layout (uint8, one 28 x 20 face a
    column), 200 faces of seeded noise instead of 1 965."""
    return {"ff": np.random.default_rng(17).integers(0, 256, size=(28 * 20, 200), dtype=np.uint8)}


def _ppf(q):
    """``scipy.stats.norm.ppf``: the standard normal's quantiles (Python's ``statistics.NormalDist``)."""
    from statistics import NormalDist

    return np.vectorize(NormalDist().inv_cdf, otypes=[np.float64])(q)


scipy = types.SimpleNamespace(io=types.SimpleNamespace(loadmat=_loadmat))  # SciPy is not installed
norm = types.SimpleNamespace(ppf=_ppf)


def gaussian_scene(n=300, frames=2):
    """A stand-in for the Gaussian-splatting scripts' trained scene: float32 arrays ``(pos, opacity_raw, f_dc, f_rest,
    scale_raw, q_raw, orbit_c2ws)`` of ``n`` Gaussians in the unit ball (scales ~0.05, random rotations, SH colour
    coefficients) and ``frames`` camera-to-world matrices on a circle of radius 3 looking at the centre (OpenCV's
    axes: x right, y down, z forward), and the camera's metadata (a 32 x 32 image, focal length 30)."""
    rng = np.random.default_rng(19)
    pos = rng.uniform(-1, 1, size=(n, 3))
    c2ws = []
    for angle in np.linspace(0, np.pi / 2, frames):
        centre = np.array([3 * np.cos(angle), 3 * np.sin(angle), 0.5])
        forward = -centre / np.linalg.norm(centre)
        right = np.cross(forward, [0.0, 0.0, 1.0])
        right /= np.linalg.norm(right)
        down = np.cross(forward, right)
        c2w = np.eye(4)
        c2w[:3, :3] = np.stack([right, down, forward], axis=1)
        c2w[:3, 3] = centre
        c2ws.append(c2w)
    arrays = (pos, rng.normal(size=n), rng.normal(size=(n, 3)), 0.1 * rng.normal(size=(n, 45)),
              np.log(0.05) + 0.3 * rng.normal(size=(n, 3)), rng.normal(size=(n, 4)), np.stack(c2ws))
    camera = {"height": 32, "width": 32, "fx": 30.0, "fy": 30.0}
    return (*(a.astype(np.float32) for a in arrays), camera)
