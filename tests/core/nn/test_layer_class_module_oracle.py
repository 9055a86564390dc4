"""A layer class's ``__module__`` is PyTorch's module path for it, as in PyTorch 2.13.

Libraries print layer classes (THOP's ``[INFO] Register count_normalization() for <class
'torch.nn.modules.batchnorm.BatchNorm2d'>``, ``print(type(layer))`` in tutorials). Core defines its layers by its own
families (BatchNorm in ``normalization``, the containers in ``core.nn.containers``), so each class's ``__module__`` is
set to the ``core.nn.modules.<name>`` that mirrors PyTorch's; pickles name that module and load in a new process.
"""

import pickle
import subprocess
import sys

import core


def _module_classes(lib):
    return {name: obj for name in dir(lib.nn) if isinstance(obj := getattr(lib.nn, name), type)
            and issubclass(obj, lib.nn.Module)}


def test_every_layer_class_prints_torchs_module_path(torch):
    ours, theirs = _module_classes(core), _module_classes(torch)
    shared = sorted(set(ours) & set(theirs))
    assert len(shared) > 100
    differ = [(name, str(ours[name]), str(theirs[name])) for name in shared
              if str(ours[name]).replace("'core.", "'torch.") != str(theirs[name])]
    assert differ == []


def test_a_pickled_model_loads_in_a_new_process(tmp_path):
    model = core.nn.Sequential(core.nn.BatchNorm2d(3), core.nn.Embedding(4, 2), core.nn.ModuleList([core.nn.Flatten()]))
    path = tmp_path / "model.pkl"
    path.write_bytes(pickle.dumps(model))
    code = f"import pickle; m = pickle.loads(open({str(path)!r}, 'rb').read()); print(type(m[0]), type(m[2]))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == ("<class 'core.nn.modules.batchnorm.BatchNorm2d'> "
                           "<class 'core.nn.modules.container.ModuleList'>")
