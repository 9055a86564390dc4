"""The ``--ddp`` variant of an exported torch training script: ``torchrun --nproc_per_node=N script.py`` trains
with ``DistributedDataParallel`` (gloo on CPU, nccl on GPU) and prints the same per-step losses as the
single-process script.

How it stays equal: every process replays the same global batch the session used and keeps its own rows of it,
picked by a ``DistributedSampler`` over the batch's rows (no shuffling: the session already shuffled); every
trainable tensor of the graph sits in one module that ``DistributedDataParallel`` wraps, so the gradients are
averaged over the processes, which for a loss that averages over its rows is the gradient of the whole batch.
Each process steps the same optimizer on the same gradients, so the parameters stay equal; rank 0 prints the
loss averaged over the processes. The script also runs without torchrun, as a group of one.

What can't be split this way is refused with ``ExportError``: a loss that sums instead of averaging, batch
norm (its statistics would be per process), random values other than the dataset's batches (dropout masks,
random sources), and graphs that don't train.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph, Node

__all__ = ["HELPERS", "check", "shard", "main_code", "unused_parameters"]

ErrorType = Callable[[str], Exception]  # builds the exception to raise from its message (``ExportError``)

_BATCH_STATS = ("nn.batch_norm",)

HELPERS = '''
import os

import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data.distributed import DistributedSampler

RANK, WORLD = 0, 1


def _ddp_start():
    """Join the process group torchrun set up (gloo on CPU, nccl on GPU); a plain run is a group of one."""
    global RANK, WORLD, DEVICE
    cuda = DEVICE.startswith('cuda')
    backend = 'nccl' if cuda else 'gloo'
    if 'WORLD_SIZE' in os.environ:
        dist.init_process_group(backend)
    else:
        dist.init_process_group(backend, store=dist.HashStore(), rank=0, world_size=1)
    RANK, WORLD = dist.get_rank(), dist.get_world_size()
    if cuda:
        DEVICE = f"cuda:{int(os.environ.get('LOCAL_RANK', 0))}"
        torch.cuda.set_device(DEVICE)


def _shard(t):
    """This process's rows of the step's global batch (all of them while validating)."""
    if not TRAINING or WORLD == 1:
        return t
    if len(t) % WORLD:
        raise SystemExit(f'a batch of {len(t)} rows does not split evenly across {WORLD} processes')
    return t[list(DistributedSampler(range(len(t)), num_replicas=WORLD, rank=RANK, shuffle=False))]


class _Graph(torch.nn.Module):
    """Every trainable tensor of the graph in one module, so DistributedDataParallel averages their gradients;
    its forward is the graph's and returns the loss (the step's other values stay in ``values``)."""

    def __init__(self):
        super().__init__()
        self.params = torch.nn.ParameterList(PARAMS.values())
        self.values = {}

    def forward(self, step):
        self.values = forward(step)
        return self.values[LOSS]


_ddp_start()
'''


def unused_parameters(graph: Graph, loss: str, parameters: Iterable[str]) -> bool:
    """Whether some of ``parameters`` (``node.name`` keys) belong to nodes the loss doesn't depend on."""
    needed = graph.ancestors(loss)
    return any(not any(key.startswith(nid + ".") for nid in needed) for key in parameters)


def check(graph: Graph, mode: str, loss: str | None, error: ErrorType) -> None:
    """Refuse (``error(message)``, an exception) what a ``--ddp`` script can't split across processes."""
    if mode != "train" or loss is None:  # a training graph has a loss
        raise error("--ddp exports a training script: the graph needs a loss and trainable parameters")
    if graph.nodes[loss].params.get("reduction", "mean") != "mean":
        raise error(f"node '{loss}': a --ddp script needs a loss that averages over the batch (reduction 'mean'), "
                    "so that averaging the processes' gradients gives the whole batch's")
    for nid, node in graph.nodes.items():
        if node.type in _BATCH_STATS:
            raise error(f"node '{nid}' ({node.type}): its batch statistics would differ per process in a --ddp "
                        "script")


def shard(node: Node, expr: str, error: ErrorType) -> str:
    """A recorded value in a ``--ddp`` script: the dataset's batches are split by rows, anything else refused."""
    if node.type != "data.dataset":
        raise error(f"node '{node.id}' ({node.type}): its random values can't be split across processes in a "
                    "--ddp script")
    return f"_shard({expr})"


def main_code(optimizer: str, loss_key: str, validate: str | None, unused: bool) -> str:
    """``main()``: the training loop through ``DistributedDataParallel``; ``validate``: the condition on ``step``
    of the steps that measure the held-out rows (None: none); ``unused``: some parameters don't reach the loss."""
    run = (f"LOSS = {loss_key!r}\n\n\n"
           "def main():\n"
           "    cuda = DEVICE.startswith('cuda')\n"
           "    net = DistributedDataParallel(_Graph(), device_ids=[DEVICE] if cuda else None,\n"
           f"                                  find_unused_parameters={unused!r})\n"
           f"{optimizer}"
           "    for step in range(STEPS):\n"
           "        for p in PARAMS.values():\n"
           "            p.grad = None\n"
           "        loss = net(step)\n"
           "        loss.backward()\n"
           "        with torch.no_grad():\n"
           "            opt.step()\n"
           "        if sched is not None:\n"
           "            sched.step()\n"
           "        total = loss.detach().clone()\n"
           "        dist.all_reduce(total)\n"
           "        if RANK == 0:\n"
           "            print('loss', step, repr(total.item() / WORLD), flush=True)\n")
    if validate:
        run += (f"        if RANK == 0 and ({validate}):\n"
                "            val_loss, val_accuracy = _validate(step)\n"
                "            print('val_loss', step, repr(val_loss))\n"
                "            if val_accuracy is not None:\n"
                "                print('val_accuracy', step, repr(val_accuracy))\n")
    return run + ("    if RANK == 0:\n"
                  "        for key, t in PARAMS.items():\n"
                  "            _show('param', key, t)\n"
                  "    dist.barrier()  # no process leaves while another still talks to the group\n"
                  "    dist.destroy_process_group()\n")
