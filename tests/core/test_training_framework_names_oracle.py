"""The torch names training frameworks (Lightning, accelerate) read at import and in their loops, in core as in torch:
``torch.nn.modules.module._IncompatibleKeys``, ``torch.distributed.constants``, ``torch._C._TensorMeta``,
``torch.PyTorchFileReader``, ``torch.ScriptModule``/``ScriptFunction``, ``torch.profiler.kineto_available``,
``torch.distributed.is_torchelastic_launched``, ``torch._C._nn._parse_to`` and the DataLoader's full signature."""

from __future__ import annotations

import importlib
import inspect
import io

import pytest

import core


def test_incompatible_keys_is_load_state_dicts_result_type(torch):
    for lib in (torch, core):
        keys = importlib.import_module(f"{lib.__name__}.nn.modules.module")._IncompatibleKeys
        result = lib.nn.Linear(2, 2).load_state_dict({}, strict=False)
        assert type(result) is keys
        assert result.missing_keys == ["weight", "bias"] and result.unexpected_keys == []


def test_distributed_constants_are_torchs(torch):
    theirs = importlib.import_module("torch.distributed.constants")
    ours = importlib.import_module("core.distributed.constants")
    assert ours.default_pg_timeout == theirs.default_pg_timeout
    assert ours.default_pg_nccl_timeout == theirs.default_pg_nccl_timeout


def test_tensor_meta_is_tensors_metaclass(torch):
    for lib in (torch, core):
        assert isinstance(lib.Tensor, lib._C._TensorMeta)
        assert isinstance(lib.nn.Parameter, lib._C._TensorMeta)


@pytest.mark.parametrize("writer", ["torch", "core"])
def test_file_reader_reads_the_records_of_a_saved_archive(torch, tmp_path, writer):
    path = str(tmp_path / "x.pt")
    (torch if writer == "torch" else core).save({"a": torch.arange(4.0) if writer == "torch" else core.arange(4.0)},
                                                path)
    readers = [lib.PyTorchFileReader(path) for lib in (torch, core)]
    assert sorted(readers[1].get_all_records()) == sorted(readers[0].get_all_records())
    for name in ("data.pkl", "byteorder", "data/0"):
        assert readers[1].has_record(name) and readers[1].get_record(name) == readers[0].get_record(name)
    assert readers[1].serialization_id() == readers[0].serialization_id()
    assert core._C.PyTorchFileReader is core.PyTorchFileReader
    for reader in readers:
        assert not reader.has_record("nothing")
        with pytest.raises(RuntimeError, match="PytorchStreamReader failed locating file nothing"):
            reader.get_record("nothing")


def test_file_reader_of_a_missing_file_raises_runtime_error(torch, tmp_path):
    for lib in (torch, core):
        with pytest.raises(RuntimeError, match="No such file or directory"):
            lib.PyTorchFileReader(str(tmp_path / "missing.pt"))


def test_file_reader_reads_an_archive_in_memory(torch):
    buffer = io.BytesIO()
    torch.save([1, 2], buffer)
    buffer.seek(0)
    assert core.PyTorchFileReader(buffer).get_record("data.pkl") == torch.PyTorchFileReader(
        io.BytesIO(buffer.getvalue())).get_record("data.pkl")


def test_script_module_is_not_a_scripted_modules_class_and_script_function_is_jits(torch):
    for lib in (torch, core):
        assert lib.ScriptFunction is lib.jit.ScriptFunction
        assert not isinstance(lib.jit.script(lib.nn.Linear(2, 2)), lib.ScriptModule)
        assert issubclass(lib.ScriptModule, lib.ScriptObject)
    assert core.ScriptModule.__name__ == torch.ScriptModule.__name__


def test_profiler_says_kineto_is_available_for_the_cpu(torch):
    assert core.profiler.kineto_available() == torch.profiler.kineto_available()
    assert {a.name for a in core.profiler.supported_activities()} == {
        a.name for a in torch.profiler.supported_activities()}


def test_is_torchelastic_launched_reads_the_run_id(torch, monkeypatch):
    monkeypatch.delenv("TORCHELASTIC_RUN_ID", raising=False)
    assert core.distributed.is_torchelastic_launched() == torch.distributed.is_torchelastic_launched() is False
    monkeypatch.setenv("TORCHELASTIC_RUN_ID", "x")
    assert core.distributed.is_torchelastic_launched() == torch.distributed.is_torchelastic_launched() is True


@pytest.mark.parametrize("make", [
    lambda lib: (("cpu",), {}), lambda lib: ((lib.float64,), {}),
    lambda lib: (("cpu", lib.float16), {"non_blocking": True}),
    lambda lib: ((lib.ones(2, dtype=lib.int32),), {}), lambda lib: ((), {"memory_format": lib.channels_last}),
    lambda lib: ((), {"device": "cpu", "dtype": lib.bfloat16}), lambda lib: ((lib.device("cpu"),), {}),
])
def test_parse_to_returns_device_dtype_non_blocking_and_memory_format(torch, make):
    results = []
    for lib in (torch, core):
        args, kwargs = make(lib)
        results.append(lib._C._nn._parse_to(*args, **kwargs))
    assert [str(v) for v in results[1]] == [str(v) for v in results[0]]
    assert results[1][0] is None or isinstance(results[1][0], core.device)


def test_dataloader_signature_is_torchs(torch):
    assert str(inspect.signature(core.utils.data.DataLoader.__init__).replace(return_annotation=inspect.Parameter.empty)
               ) == str(inspect.signature(torch.utils.data.DataLoader.__init__).replace(
                   parameters=[p.replace(annotation=inspect.Parameter.empty) for p in inspect.signature(
                       torch.utils.data.DataLoader.__init__).parameters.values()],
                   return_annotation=inspect.Parameter.empty))


def test_dataloader_keeps_torchs_attributes_and_takes_generator_positionally(torch):
    for lib in (torch, core):
        data = lib.utils.data.TensorDataset(lib.arange(6.0))
        generator = lib.Generator().manual_seed(3)
        loader = lib.utils.data.DataLoader(data, 2, True, None, None, 0, None, False, False, 0, None, None, generator)
        assert loader.generator is generator and loader.multiprocessing_context is None
        assert loader.pin_memory_device == "" and loader.in_order is True
    orders = [[b[0].tolist() for b in lib.utils.data.DataLoader(lib.utils.data.TensorDataset(lib.arange(6.0)), 2,
                                                               True, generator=lib.Generator().manual_seed(3))]
              for lib in (torch, core)]
    assert orders[0] == orders[1]


def test_dataloader_multiprocessing_context_errors_are_torchs(torch):
    for lib in (torch, core):
        data = lib.utils.data.TensorDataset(lib.arange(6.0))
        with pytest.raises(ValueError, match=r"multiprocessing_context can only be used with multi-process loading "
                                             r"\(num_workers > 0\), but got num_workers=0"):
            lib.utils.data.DataLoader(data, multiprocessing_context="spawn")
        with pytest.raises(ValueError, match="should specify a valid start method"):
            lib.utils.data.DataLoader(data, num_workers=1, multiprocessing_context="nothing")
        with pytest.raises(TypeError, match="should be a valid context object"):
            lib.utils.data.DataLoader(data, num_workers=1, multiprocessing_context=3)
        loader = lib.utils.data.DataLoader(data, num_workers=1, multiprocessing_context="spawn")
        assert loader.multiprocessing_context.get_start_method() == "spawn"
        with pytest.raises(TypeError):
            lib.utils.data.DataLoader(data, not_an_option=1)


GENERIC_CLASSES = ["Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler",
                   "BatchSampler", "Dataset", "IterableDataset", "TensorDataset", "ConcatDataset", "Subset",
                   "StackDataset", "ChainDataset", "DistributedSampler", "DataLoader"]


@pytest.mark.parametrize("name", GENERIC_CLASSES)
def test_data_classes_take_torchs_type_parameters(torch, name):
    theirs, ours = getattr(torch.utils.data, name), getattr(core.utils.data, name)
    assert len(ours.__parameters__) == len(theirs.__parameters__)
    if theirs.__parameters__:
        assert ours[int].__origin__ is ours


def test_a_sampler_subclass_of_a_parameterised_sampler_works(torch):
    """Lightning's demo ``class SequenceSampler(Sampler[list[int]])``: subscripting, then iterating batches."""
    results = []
    for lib in (torch, core):
        class Pairs(lib.utils.data.Sampler[list[int]]):
            def __init__(self, n):
                self.n = n

            def __iter__(self):
                return iter([[i, i + 1] for i in range(0, self.n, 2)])

            def __len__(self):
                return self.n // 2

        data = lib.utils.data.TensorDataset(lib.arange(6.0))
        results.append([b[0].tolist() for b in lib.utils.data.DataLoader(data, batch_sampler=Pairs(6))])
    assert results[0] == results[1]


def test_iterable_dataset_without_iter_cannot_be_made(torch):
    for lib in (torch, core):
        with pytest.raises(TypeError, match="Can't instantiate abstract class"):
            lib.utils.data.IterableDataset()

        class Stream(lib.utils.data.IterableDataset[int]):
            def __iter__(self):
                return iter(range(3))

        assert list(Stream()) == [0, 1, 2]
        assert isinstance(Stream(), __import__("collections.abc").abc.Iterable)


@pytest.mark.parametrize("name", ["ShardingStrategy", "StateDictType", "BackwardPrefetch"])
def test_fsdp_option_enums_are_torchs(torch, name):
    theirs = getattr(importlib.import_module("torch.distributed.fsdp"), name)
    ours = getattr(importlib.import_module("core.distributed.fsdp"), name)
    assert [(m.name, m.value) for m in ours] == [(m.name, m.value) for m in theirs]
    assert getattr(importlib.import_module("core.distributed.fsdp.api"), name) is ours


def test_fsdp_module_path_holds_the_class_and_no_plain_module_is_an_instance(torch):
    for lib in (torch, core):
        module = importlib.import_module(f"{lib.__name__}.distributed.fsdp.fully_sharded_data_parallel")
        assert module.FullyShardedDataParallel is lib.distributed.fsdp.FullyShardedDataParallel
        assert module.StateDictType is lib.distributed.fsdp.StateDictType
        assert not isinstance(lib.nn.Linear(2, 2), module.FullyShardedDataParallel)
