"""``--export-py OUT --api torch --ddp``: a script that ``torchrun`` runs with DistributedDataParallel on 2 CPU
processes (gloo) prints the single-process script's per-step losses (same global batch) to 1e-6."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import app
from core.nodegraph.export.script import ExportError, export_script
from core.nodegraph.files import io as files

ROOT = Path(__file__).resolve().parents[2]
CLASSIFIER = ROOT / "core/nodegraph/assets/examples/playground-classifier.json"


def losses(stdout: str) -> dict:
    """``{(kind, step): value}`` of the ``loss``/``val_loss``/``val_accuracy`` lines a script printed."""
    out = {}
    for line in stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] in ("loss", "val_loss", "val_accuracy"):
            out[(parts[0], int(parts[1]))] = float(parts[2])
    return out


def run(command: list, tmp_path) -> str:
    """The command's output, run in a plain environment (what earlier tests left in os.environ stays out).

    A launch that dies in gloo's teardown ("terminate called without an active exception", SIGABRT) on a busy
    machine is launched once more: that is torch's process group, not the exported script.
    """
    env = {key: os.environ[key] for key in ("PATH", "HOME", "LANG", "TMPDIR") if key in os.environ}
    env.update(PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1")
    for _attempt in range(2):
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=180, cwd=tmp_path)
        if done.returncode == 0 or "terminate called without an active exception" not in done.stderr:
            break
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_torchrun_on_two_processes_prints_the_single_process_losses(tmp_path, torch, capsys):
    torchrun = shutil.which("torchrun", path=str(Path(sys.executable).parent)) or shutil.which("torchrun")
    if torchrun is None:
        pytest.skip("torchrun (it comes with PyTorch) is not on this machine")
    single, ddp = tmp_path / "single.py", tmp_path / "ddp.py"
    assert app.main(["--headless", str(CLASSIFIER), "--export-py", str(single), "--api", "torch", "--train", "10"]) == 0
    assert app.main(["--headless", str(CLASSIFIER), "--export-py", str(ddp), "--api", "torch", "--ddp",
                     "--train", "10"]) == 0
    assert "DistributedDataParallel" in capsys.readouterr().out
    expected = losses(run([sys.executable, str(single)], tmp_path))
    got = losses(run([torchrun, "--standalone", "--nproc_per_node=2", str(ddp)], tmp_path))
    assert sorted(got) == sorted(expected) and ("loss", 9) in got and ("val_loss", 9) in got
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, abs=1e-6), key


def test_the_ddp_script_shards_batches_with_a_distributed_sampler():
    text = export_script(files.load(CLASSIFIER), "torch", steps=2, ddp=True)
    assert "DistributedDataParallel(_Graph()" in text and "DistributedSampler(range(len(t))" in text
    assert "_shard(_rec('n1.x', step))" in text and "'nccl' if cuda else 'gloo'" in text


def test_ddp_needs_the_torch_api():
    with pytest.raises(ExportError, match="--api torch"):
        export_script(files.load(CLASSIFIER), "core", steps=2, ddp=True)


def test_ddp_refuses_a_loss_that_sums_over_the_batch():
    g = files.load(CLASSIFIER)
    g.nodes["n3"].params["reduction"] = "sum"
    with pytest.raises(ExportError, match="node 'n3'.*reduction 'mean'"):
        export_script(g, "torch", steps=2, ddp=True)


def test_ddp_refuses_a_graph_that_does_not_train():
    from core.nodegraph.files.examples import default_graph

    with pytest.raises(ExportError, match="training script"):
        export_script(default_graph(), "torch", ddp=True)


def test_ddp_without_a_torch_export_is_a_usage_error(capsys):
    assert app.main(["--headless", str(CLASSIFIER), "--ddp"]) == 2
    assert "--ddp goes with --export-py OUT --api torch" in capsys.readouterr().err
