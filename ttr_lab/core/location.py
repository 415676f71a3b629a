"""Where results live: a folder on any filesystem pyarrow knows. A plain path is a local folder;
a URI (``s3://bucket/prefix``, ``gs://bucket/prefix``, ``file:///shared/mount/out``) is read
and written through ``pyarrow.fs``, with credentials from the usual environment
(``AWS_ACCESS_KEY_ID``, ``AWS_ENDPOINT_URL``, ``GOOGLE_APPLICATION_CREDENTIALS``, ...).

Every file is written whole or not at all: under a temporary name, then moved into place (a
rename on a local or shared filesystem; a server-side copy on an object store, where an object
appears only once complete), so a writer killed at any point leaves at most a ``.tmp``."""

from __future__ import annotations

import os
import posixpath
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.fs as pafs


def is_uri(where: str | Path) -> bool:
    return isinstance(where, str) and "://" in where


class Location:
    """A folder: ``where`` is a path or a URI. Picklable as its text alone, so that a worker on
    another machine builds its own filesystem with its own credentials."""

    def __init__(self, where: str | Path) -> None:
        self.uri = str(where)
        if is_uri(self.uri):
            try:
                self.fs, root = pafs.FileSystem.from_uri(self.uri)
            except (pa.ArrowException, OSError, ValueError) as exc:
                from ttr_lab.core.errors import ConfigError

                raise ConfigError(f"cannot open results location {self.uri}: {str(exc).strip().splitlines()[0]}") from None
            self.root = root.rstrip("/")
            self.local = isinstance(self.fs, pafs.LocalFileSystem)
        else:
            self.fs, self.root, self.local = pafs.LocalFileSystem(), os.path.abspath(self.uri), True

    def __reduce__(self) -> tuple[Any, ...]:
        return (Location, (self.uri,))

    def __str__(self) -> str:
        return self.uri

    def path(self, *names: str) -> str:
        """The full path (within ``fs``) of ``names`` under this folder."""
        return posixpath.join(self.root, *names) if names else self.root

    def files(self, sub: str, suffix: str) -> list[str]:
        """The names of the files in ``sub`` ending with ``suffix``, sorted (none when ``sub``
        does not exist)."""
        selector = pafs.FileSelector(self.path(sub), allow_not_found=True)
        infos = self.fs.get_file_info(selector)
        return sorted(i.base_name for i in infos if i.type == pafs.FileType.File and i.base_name.endswith(suffix))

    def exists(self, *names: str) -> bool:
        return self.fs.get_file_info(self.path(*names)).type != pafs.FileType.NotFound

    def size(self, *names: str) -> int | None:
        info = self.fs.get_file_info(self.path(*names))
        return None if info.type == pafs.FileType.NotFound else info.size

    def mkdir(self, sub: str) -> None:
        self.fs.create_dir(self.path(sub), recursive=True)

    def read_bytes(self, *names: str) -> bytes:
        with self.fs.open_input_stream(self.path(*names), compression=None) as f:
            return f.read()

    def open(self, *names: str) -> Any:
        """A seekable file (what Parquet reading needs)."""
        return self.fs.open_input_file(self.path(*names))

    def write_whole(self, sub: str, name: str, data: bytes) -> None:
        """``data`` as ``sub/name``, whole or not at all (see the module's docstring)."""
        tmp = self.path(sub, name + ".tmp")
        if self.local:  # a worker may be the first to write into a folder of a shared mount
            self.fs.create_dir(self.path(sub), recursive=True)
        with self.fs.open_output_stream(tmp, compression=None) as f:
            f.write(data)
        self.fs.move(tmp, self.path(sub, name))

    def move(self, sub: str, name: str, new: str) -> None:
        self.fs.move(self.path(sub, name), self.path(sub, new))

    def delete(self, sub: str, name: str) -> None:
        try:
            self.fs.delete_file(self.path(sub, name))
        except FileNotFoundError:
            pass  # deleted by another (a compaction racing a resume): what was asked is done
