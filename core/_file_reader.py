"""``torch.PyTorchFileReader`` (``torch._C.PyTorchFileReader``): the records of an archive ``torch.save`` wrote,
read by name without unpickling it. Libraries that load checkpoints lazily (Lightning's ``_lazy_load``) read
``data.pkl`` through it. Record names are relative to the archive's top folder (``data.pkl``, ``data/0``,
``byteorder``), as in torch."""

from __future__ import annotations

import os
import zipfile

__all__ = ["PyTorchFileReader"]


class PyTorchFileReader:
    """The zip archive at a path (or in a binary file object) that ``torch.save`` wrote."""

    __module__ = "core"  # PyTorch's class path (torch.PyTorchFileReader)

    def __init__(self, file) -> None:
        if isinstance(file, (str, os.PathLike)) and not os.path.exists(file):
            raise RuntimeError(f"open file failed because of errno 2 on fopen: No such file or directory, "
                               f"file path: {os.fspath(file)}")
        try:
            self._zip = zipfile.ZipFile(file)
        except zipfile.BadZipFile as error:
            raise RuntimeError("PytorchStreamReader failed reading zip archive: failed finding central "
                               "directory") from error
        names = self._zip.namelist()
        self._prefix = names[0].split("/", 1)[0] + "/" if names else ""

    def get_all_records(self) -> list[str]:
        return [name[len(self._prefix):] for name in self._zip.namelist()]

    def has_record(self, name: str) -> bool:
        return self._prefix + name in self._zip.NameToInfo

    def get_record(self, name: str) -> bytes:
        if not self.has_record(name):
            raise RuntimeError(f"PytorchStreamReader failed locating file {name}: file not found")
        return self._zip.read(self._prefix + name)

    def serialization_id(self) -> str:
        return self.get_record(".data/serialization_id").decode() if self.has_record(".data/serialization_id") \
            else ""
