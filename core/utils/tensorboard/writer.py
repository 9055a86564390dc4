"""``torch.utils.tensorboard.SummaryWriter`` without TensorBoard: every ``add_*`` call is kept in memory.

PyTorch's writer needs the separate ``tensorboard`` package and writes protobuf event files under ``log_dir``. core
has neither: this writer accepts PyTorch's arguments for each method, converts what it is given as PyTorch would
(a scalar must hold one value; tensors become NumPy arrays) and keeps it, so training scripts that log run
unchanged and a learner (or a test) can read what was logged:

- ``writer.scalars[tag]`` -> ``[(step, value), ...]`` from ``add_scalar``; ``add_scalars(main_tag, {name: v})``
  files each value under ``f"{main_tag}/{name}"``;
- ``writer.histograms``, ``writer.images``, ``writer.texts`` likewise, as ``{tag: [(step, value), ...]}``;
- ``writer.hparams`` -> ``[(hparam_dict, metric_dict), ...]``; ``writer.graphs`` -> ``[(model, input), ...]``;
- ``writer.events`` -> every call in order, as ``(method name, tag, step, value)``.

No file or directory is created; ``log_dir`` is computed as PyTorch computes it (``runs/<date>_<host><comment>``)
and only reported by ``get_logdir``.
"""

from __future__ import annotations

import os
import socket
from collections import defaultdict
from datetime import datetime

import numpy as np

import core

__all__ = ["SummaryWriter"]


def _to_numpy(value) -> np.ndarray:
    """PyTorch's ``make_np``: tensors, arrays and numbers as a NumPy array (lists are refused, as there)."""
    if isinstance(value, np.ndarray):
        return value
    if np.isscalar(value):
        return np.array([value])
    if isinstance(value, core.Tensor):
        return value.detach().cpu().numpy()
    raise NotImplementedError(f"Got {type(value)}, but numpy array or torch tensor are expected.")


def _to_scalar(value) -> float:
    array = _to_numpy(value).squeeze()
    if array.ndim != 0:
        raise AssertionError(f"Tensor should contain one element (0 dimensions). Was given size: {array.size} "
                             f"and {array.ndim} dimensions.")
    return float(array)


class SummaryWriter:
    """Logs scalars, histograms, images, text, hparams and graphs in memory (module docstring)."""

    def __init__(self, log_dir=None, comment="", purge_step=None, max_queue=10, flush_secs=120,
                 filename_suffix="") -> None:
        if not log_dir:
            stamp = datetime.now().strftime("%b%d_%H-%M-%S")
            log_dir = os.path.join("runs", stamp + "_" + socket.gethostname() + comment)
        self.log_dir = log_dir
        self.purge_step = purge_step
        self.max_queue = max_queue
        self.flush_secs = flush_secs
        self.filename_suffix = filename_suffix
        self.scalars: dict[str, list] = defaultdict(list)
        self.histograms: dict[str, list] = defaultdict(list)
        self.images: dict[str, list] = defaultdict(list)
        self.texts: dict[str, list] = defaultdict(list)
        self.hparams: list[tuple[dict, dict]] = []
        self.graphs: list[tuple] = []
        self.events: list[tuple] = []
        self.closed = False

    def _log(self, method: str, tag, step, value, store: dict | None = None) -> None:
        self.events.append((method, tag, step, value))
        if store is not None:
            store[tag].append((step, value))

    def get_logdir(self):
        """The directory PyTorch would write to (core writes nothing there)."""
        return self.log_dir

    def add_scalar(self, tag, scalar_value, global_step=None, walltime=None, new_style=False,
                   double_precision=False) -> None:
        self._log("add_scalar", tag, global_step, _to_scalar(scalar_value), self.scalars)

    def add_scalars(self, main_tag, tag_scalar_dict, global_step=None, walltime=None) -> None:
        for name, value in tag_scalar_dict.items():
            self._log("add_scalars", f"{main_tag}/{name}", global_step, _to_scalar(value), self.scalars)

    def add_tensor(self, tag, tensor, global_step=None, walltime=None) -> None:
        self._log("add_tensor", tag, global_step, _to_numpy(tensor))

    def add_histogram(self, tag, values, global_step=None, bins="tensorflow", walltime=None, max_bins=None) -> None:
        values = _to_numpy(values)
        if values.size == 0:
            raise ValueError("The input has no element.")
        self._log("add_histogram", tag, global_step, values, self.histograms)

    def add_histogram_raw(self, tag, min, max, num, sum, sum_squares, bucket_limits, bucket_counts,
                          global_step=None, walltime=None) -> None:
        if len(bucket_limits) != len(bucket_counts):
            raise ValueError("len(bucket_limits) != len(bucket_counts), see the document.")
        raw = {"min": min, "max": max, "num": num, "sum": sum, "sum_squares": sum_squares,
               "bucket_limits": list(bucket_limits), "bucket_counts": list(bucket_counts)}
        self._log("add_histogram_raw", tag, global_step, raw, self.histograms)

    def add_image(self, tag, img_tensor, global_step=None, walltime=None, dataformats="CHW") -> None:
        self._log("add_image", tag, global_step, _to_numpy(img_tensor), self.images)

    def add_images(self, tag, img_tensor, global_step=None, walltime=None, dataformats="NCHW") -> None:
        self._log("add_images", tag, global_step, _to_numpy(img_tensor), self.images)

    def add_image_with_boxes(self, tag, img_tensor, box_tensor, global_step=None, walltime=None, rescale=1,
                             dataformats="CHW", labels=None) -> None:
        self._log("add_image_with_boxes", tag, global_step, _to_numpy(img_tensor), self.images)

    def add_figure(self, tag, figure, global_step=None, close=True, walltime=None) -> None:
        self._log("add_figure", tag, global_step, figure)

    def add_video(self, tag, vid_tensor, global_step=None, fps=4, walltime=None) -> None:
        self._log("add_video", tag, global_step, _to_numpy(vid_tensor))

    def add_audio(self, tag, snd_tensor, global_step=None, sample_rate=44100, walltime=None) -> None:
        self._log("add_audio", tag, global_step, _to_numpy(snd_tensor))

    def add_text(self, tag, text_string, global_step=None, walltime=None) -> None:
        self._log("add_text", tag, global_step, str(text_string), self.texts)

    def add_graph(self, model, input_to_model=None, verbose=False, use_strict_trace=True) -> None:
        """Records the model and its example input; core draws no graph (the app's canvas is the graph view)."""
        self.graphs.append((model, input_to_model))
        self._log("add_graph", type(model).__name__, None, model)

    def add_onnx_graph(self, prototxt) -> None:
        self._log("add_onnx_graph", None, None, prototxt)

    def add_embedding(self, mat, metadata=None, label_img=None, global_step=None, tag="default",
                      metadata_header=None) -> None:
        self._log("add_embedding", tag, global_step, _to_numpy(mat))

    def add_pr_curve(self, tag, labels, predictions, global_step=None, num_thresholds=127, weights=None,
                     walltime=None) -> None:
        self._log("add_pr_curve", tag, global_step, (_to_numpy(labels), _to_numpy(predictions)))

    def add_pr_curve_raw(self, tag, true_positive_counts, false_positive_counts, true_negative_counts,
                         false_negative_counts, precision, recall, global_step=None, num_thresholds=127,
                         weights=None, walltime=None) -> None:
        counts = (true_positive_counts, false_positive_counts, true_negative_counts, false_negative_counts,
                  precision, recall)
        self._log("add_pr_curve_raw", tag, global_step, tuple(_to_numpy(c) for c in counts))

    def add_custom_scalars_multilinechart(self, tags, category="default", title="untitled") -> None:
        self._log("add_custom_scalars_multilinechart", category, None, (title, list(tags)))

    def add_custom_scalars_marginchart(self, tags, category="default", title="untitled") -> None:
        if len(tags) != 3:
            raise AssertionError(f"Expected 3 tags, got {len(tags)}.")
        self._log("add_custom_scalars_marginchart", category, None, (title, list(tags)))

    def add_custom_scalars(self, layout) -> None:
        self._log("add_custom_scalars", None, None, layout)

    def add_mesh(self, tag, vertices, colors=None, faces=None, config_dict=None, global_step=None,
                 walltime=None) -> None:
        self._log("add_mesh", tag, global_step, _to_numpy(vertices))

    def add_hparams(self, hparam_dict, metric_dict, hparam_domain_discrete=None, run_name=None,
                    global_step=None) -> None:
        if type(hparam_dict) is not dict or type(metric_dict) is not dict:
            raise TypeError("hparam_dict and metric_dict should be dictionary.")
        self.hparams.append((dict(hparam_dict), dict(metric_dict)))
        self._log("add_hparams", None, global_step, (dict(hparam_dict), dict(metric_dict)))

    def flush(self) -> None:
        """Nothing to write: everything is already in memory."""

    def close(self) -> None:
        self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.close()
