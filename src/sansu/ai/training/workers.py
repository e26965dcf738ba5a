"""Where the heavy work of training runs: here, a local process pool, or a Ray cluster.

A :class:`Mapper` applies a function to tasks and yields ``(key, result)``
in the tasks' order, with a progress bar, so that what a run computes does
not depend on where it ran. Ray is an optional extra (``sansu[ray]``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any


def progress_bar(desc: str, total: int) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="task", file=sys.stderr, disable=None, leave=False)


class Mapper:
    """Runs tasks on ``jobs`` local processes (1: in this process), or on Ray at ``ray``."""

    def __init__(self, jobs: int = 1, ray: str | None = None) -> None:
        if jobs <= 0:
            raise ValueError(f"jobs must be positive, not {jobs}")
        self.jobs = jobs
        self.ray = ray
        self._pool: Any = None
        if ray is not None:
            try:
                import ray as ray_module
            except ImportError:
                raise ValueError(
                    "--ray needs Ray, which is not installed: pip install 'sansu[ray]'"
                ) from None
            if not ray_module.is_initialized():
                # "local" starts a Ray instance in this machine; else join the cluster.
                address = None if ray == "local" else ray
                ray_module.init(address=address, include_dashboard=False, log_to_driver=False)

    def map(
        self, func: Callable[[Any], Any], todo: Sequence[tuple[Any, Any]], desc: str
    ) -> Iterator[tuple[Any, Any]]:
        """``(key, func(task))`` for each ``(key, task)`` of ``todo``, in order, as they finish."""
        if not todo:
            return
        bar = progress_bar(desc, len(todo))
        try:
            for key, result in zip((k for k, _ in todo), self._results(func, todo), strict=True):
                bar.update(1)
                yield key, result
        finally:
            bar.close()

    def _results(self, func: Callable[[Any], Any], todo: Sequence[tuple[Any, Any]]) -> Iterator:
        tasks = [t for _, t in todo]
        if self.ray is not None:
            import ray

            remote = ray.remote(func)
            refs = [remote.remote(t) for t in tasks]
            for ref in refs:
                yield ray.get(ref)
        elif self.jobs == 1 or len(tasks) == 1:
            for t in tasks:
                yield func(t)
        else:
            yield from self._local_pool().imap(func, tasks)

    def _local_pool(self) -> Any:
        if self._pool is None:
            import multiprocessing

            self._pool = multiprocessing.get_context("spawn").Pool(self.jobs)
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool = None

    def __enter__(self) -> Mapper:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
