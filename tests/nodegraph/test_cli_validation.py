"""``app.py --headless FILE --train N`` on a graph whose dataset holds rows out: the step lines that measure the
validation rows print the session's val_loss and val_accuracy, the other lines none."""

import re

import app
from core.nodegraph.files import io as files
from core.nodegraph.run.session import Session
from tests.nodegraph.test_validation_split import split_classifier


def train_lines(capsys, tmp_path, g, n):
    path = tmp_path / "split.json"
    files.save(g, path)
    assert app.main(["--headless", str(path), "--train", str(n)]) == 0
    return capsys.readouterr().out.splitlines()


def test_the_measured_steps_print_the_sessions_val_loss_and_accuracy(capsys, tmp_path):
    g = split_classifier(val_every=3, steps=30)
    lines = train_lines(capsys, tmp_path, g, 7)
    want = {m["step"] + 1: m for m in Session(g).train(7) if "val_loss" in m}
    assert sorted(want) == [3, 6, 7]  # every 3 steps, and the last step of the call
    for line in lines:
        step = int(re.search(r" step (\d+)/7 ", line).group(1))
        if step in want:
            assert f"val_loss {want[step]['val_loss']:.6g} val_accuracy {want[step]['val_accuracy']:.6g}" in line
        else:
            assert "val_" not in line
    assert len(lines) == 7


def test_without_a_split_no_step_prints_validation_metrics(capsys, tmp_path):
    lines = train_lines(capsys, tmp_path, split_classifier(fraction=0.0), 4)
    assert len(lines) == 4 and not any("val_" in line for line in lines)
