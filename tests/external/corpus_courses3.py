"""Stand-ins and drivers for ``recipes_courses3`` (our code, committed; corpus helper s29 COURSES).

``install_rainbow()`` registers, for the running script only, what Kaixhin's Rainbow imports beside torch and NumPy:
``atari_py`` (an ALE whose screens are seeded NumPy noise and whose rewards, lives and game overs follow the frame
count, so episodes are short and the same in both runs), ``cv2.resize`` (nearest-pixel sampling) and ``plotly``'s
few names (plots draw nothing). ``show_rainbow(dqn, mem)`` prints what the training loop left: every parameter's
sum with all its digits, the replay memory's priorities and the greedy Q-values of a fixed state.
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
