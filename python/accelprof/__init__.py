"""accelprof: one tracer over NVIDIA CUPTI, AMD rocprofiler-sdk and Huawei Ascend MSPTI.

The engine is Rust (the ``accel-profiling`` crate): it finds the vendor library, decodes its
records off the vendor's threads into one column schema, writes trace files, and hands each
registered callback its families as ``pyarrow.RecordBatch`` columns (through the Arrow C data
interface: no copy, no Python object per record; decoding never holds the GIL).

    import accelprof

    with accelprof.trace("t.parquet") as t:
        t.register({"kernel": ["name", "start_ns", "end_ns"]}, lambda cols: print(cols["kernel"].num_rows))
        train_step()

See README.md for the seed monitor's surface, method by method.
"""

from __future__ import annotations

import atexit
import json
import os
import threading
import weakref
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Optional, Union

from . import _native

__all__ = [
    "Tracer",
    "Monitor",
    "trace",
    "configure",
    "get_config",
    "families",
    "columns",
]

#: A registration: family names (all their columns), or ``{family: [column, ...] | "all" | None}``.
Selection = Union[Iterable[str], Mapping[str, Union[Iterable[str], str, None]]]


def families() -> list[str]:
    """Every record family's name (``kernel``, ``memcpy``, ``api``, ...)."""
    return list(_native.families())


def columns(family: str) -> list[str]:
    """The columns of ``family``'s record batches."""
    return list(_native.columns(family))


def _normalize(selection: Selection) -> dict[str, Optional[list[str]]]:
    if isinstance(selection, str):
        selection = [selection]
    if isinstance(selection, Mapping):
        out: dict[str, Optional[list[str]]] = {}
        for family, cols in selection.items():
            if cols is None or cols == "all":
                out[str(family)] = None
            elif isinstance(cols, str):
                out[str(family)] = [cols]
            else:
                out[str(family)] = [str(c) for c in cols]
        return out
    return {str(family): None for family in selection}


def _names(names: Union[str, "os.PathLike[str]", Iterable[Any]]) -> list[str]:
    # One name (a family, a file) where names go is that one name, not its characters.
    if isinstance(names, (str, os.PathLike)):
        return [os.fspath(names)]
    return [os.fspath(n) if isinstance(n, os.PathLike) else str(n) for n in names]


_live: "weakref.WeakSet[Tracer]" = weakref.WeakSet()


@atexit.register
def _stop_all() -> None:
    # Stop the tracers still running before the interpreter goes: their last records reach the
    # callbacks while Python can still run them, and the files are finished. Then wait for the
    # batches still queued (of tracers collected since too); after that no callback runs (a thread
    # entering Python while it finalizes crashed the process). A Ctrl-C cuts a wait short, not the
    # rest: every file is finished (stop ends the tracer before it waits for the callbacks).
    for tracer in list(_live):
        try:
            tracer.stop()
        except BaseException:  # noqa: BLE001 - exiting: nothing to report to
            pass
    try:
        _native._at_exit()
    except BaseException:  # noqa: BLE001
        pass


def _forget_parents_tracers() -> None:
    # A forked child's copies of the tracers belong to the parent (their threads did not survive
    # the fork): the child's exit leaves them alone.
    _live.clear()
    _native._after_fork_in_child()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_parents_tracers)


class Tracer:
    """The vendor-neutral tracer.

    Arguments (all optional): ``vendor`` (``"auto"``, ``"cupti"``, ``"mspti"``, ``"rocprofiler"``),
    ``library`` (this exact library file; needs a vendor), ``families`` (a name or names; default
    kernels, copies, sets, API calls, markers and collectives), ``outputs`` (a trace file or files:
    ``.json``, ``.parquet``, ``.pftrace``), ``flush_period_s`` (how often the vendor's buffers are
    handed over, 1e-9 to 1.8e19 seconds; ``None`` or 0: only on flush and when buffers fill),
    ``trace_name``, ``demangle``, ``synchronize`` (a callable that waits for the device, e.g.
    ``torch.cuda.synchronize``: CUPTI's flush fence then uses it; calling ``flush`` or ``stop`` from
    inside it raises there; what it raises makes the flush raise ``RuntimeError``, a
    ``KeyboardInterrupt`` or ``SystemExit`` as it is), ``summary_top``.

    In a child forked from the process that made it the tracer is the parent's: its methods raise
    ``RuntimeError``, leaving a ``with`` block does nothing, the child's exit leaves it alone.
    """

    def __init__(
        self,
        *,
        vendor: str = "auto",
        library: Optional[str] = None,
        families: Optional[Union[str, Iterable[str]]] = None,
        outputs: Union[str, "os.PathLike[str]", Iterable[str]] = (),
        flush_period_s: Optional[float] = 1.0,
        trace_name: Optional[str] = None,
        demangle: bool = True,
        synchronize: Optional[Callable[[], Any]] = None,
        summary_top: int = 20,
    ) -> None:
        self._native = _native.Tracer(
            vendor,
            library,
            None if families is None else _names(families),
            _names(outputs),
            flush_period_s,
            trace_name,
            demangle,
            synchronize,
            summary_top,
        )
        self._report: Optional[dict[str, Any]] = None
        self._pid = os.getpid()
        _live.add(self)

    # -- collection -----------------------------------------------------------------------------
    def start(self) -> "Tracer":
        """Begins collecting (a no-op once collecting)."""
        self._native.start()
        return self

    def stop(self) -> dict[str, Any]:
        """Ends the collection; every record reached the callbacks and the files when it returns.
        The report (a dict: library, counts, rows per family, kernel summary, ``traces``: a dict per
        trace file, its ``path`` with ``events`` and ``bytes``, or ``error``). Every call, from any
        thread, returns the same report; inside a callback it raises. A signal (Ctrl-C) while it
        waits for the callbacks raises at once: the tracer is stopped, a later call returns the
        report."""
        if self._report is None:
            self._report = json.loads(self._native.stop())
            _live.discard(self)
        return self._report

    def flush(self, sync: bool = True) -> None:
        """Hands over everything collected so far (on CUPTI a fence: every record of work issued
        before the call is in). With ``sync`` (default) it returns once the callbacks have run on
        all of it (a signal, Ctrl-C, raises while it waits)."""
        self._native.flush(sync)

    # -- observers ------------------------------------------------------------------------------
    def register(
        self, selection: Selection, callback: Callable[[dict], Any], *, unix_time: bool = True
    ) -> int:
        """Calls ``callback({family: pyarrow.RecordBatch})`` on the tracer's dispatch thread with
        each batch of the selected families' rows, holding the selected columns only.
        ``selection``: family names (all columns) or ``{family: [columns] | "all"}``. With
        ``unix_time`` (default) ``start_ns``/``end_ns`` are Unix ns, else the vendor's clock
        (``unix = raw + time_offset_ns``). A callback that raises is counted
        (``stats()["callback_errors"]``); its first error is printed. Returns an id for
        :meth:`unregister`."""
        return self._native.register(_normalize(selection), callback, unix_time)

    def register_counter(self, families: Union[str, Iterable[str]]) -> int:
        """A consumer in Rust that only counts rows of ``families`` (no Arrow, no Python call): a
        baseline for what the Python path adds. Read it with :meth:`counter_rows`."""
        return self._native.register_counter(_names(families))

    def counter_rows(self, counter: int) -> dict[str, int]:
        return dict(self._native.counter_rows(counter))

    def unregister(self, observer: int) -> bool:
        """Stops calling an observer; whether it was registered. Batches already queued for it are
        counted in ``stats()["rows_unregistered"]``."""
        return self._native.unregister(observer)

    # -- external correlation ------------------------------------------------------------------
    def push_external_correlation_id(self) -> int:
        return self._native.push_external_correlation_id()

    def pop_external_correlation_id(self) -> Optional[int]:
        return self._native.pop_external_correlation_id()

    def current_external_correlation_id(self) -> Optional[int]:
        return self._native.current_external_correlation_id()

    def external_id_chain(self, innermost_id: int) -> tuple[int, ...]:
        return tuple(self._native.external_id_chain(innermost_id))

    def add_collective_metadata(self, **fields: Any) -> Optional[int]:
        """Merges ``fields`` (recursively) into the metadata of this thread's innermost external
        context; its id, or None when no context is active."""
        if not fields:
            return self.current_external_correlation_id()
        return self._native.put_external_metadata(json.dumps(fields), None)

    def put_external_metadata(self, external_id: int, **fields: Any) -> None:
        self._native.put_external_metadata(json.dumps(fields), external_id)

    def take_external_metadata(self) -> dict[int, dict[str, Any]]:
        return {int(k): v for k, v in json.loads(self._native.take_external_metadata()).items()}

    # -- state ----------------------------------------------------------------------------------
    def stats(self) -> dict[str, Any]:
        return json.loads(self._native.stats())

    def session_info(self) -> dict[str, Any]:
        return json.loads(self._native.session_info())

    @property
    def time_offset_ns(self) -> int:
        """``unix_ns = record_ns + time_offset_ns`` (0 where the vendor's clock is Unix time)."""
        return self._native.time_offset_ns

    def to_unix_ns(self, values: Any) -> Any:
        """Raw record timestamps (an int or a numpy array) as Unix ns (0 stays 0)."""
        offset = self.time_offset_ns
        try:
            import numpy as np

            if isinstance(values, np.ndarray):
                out = values.astype(np.int64)
                return np.where(out == 0, out, out + offset)
        except ImportError:  # pragma: no cover
            pass
        return values if values == 0 else values + offset

    def api_domain_name(self, domain: int) -> Optional[str]:
        return self._native.api_domain_name(domain)

    def __del__(self) -> None:
        # Unreferenced (or freed by the garbage collector with its callbacks, in a cycle): the
        # tracer ends, and its last batches reach the callbacks before they are torn down.
        try:
            native = self.__dict__.get("_native")
            if native is not None:
                native._finalize(self)
        except BaseException:  # noqa: BLE001 - a finalizer has nothing to report to
            pass

    # -- context manager ------------------------------------------------------------------------
    def __enter__(self) -> "Tracer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        if os.getpid() != self._pid:
            return  # a forked child leaving the block: the tracer is the parent's
        self.stop()


def trace(*outputs: str, **config: Any) -> Tracer:
    """A tracer writing ``outputs`` (``.json``, ``.parquet``, ``.pftrace``), for ``with``:

        with accelprof.trace("t.parquet") as t:
            ...

    ``config`` takes :class:`Tracer`'s arguments (``configure()``'s settings fill the rest). The
    report is ``t.stop()``'s (returned again after the block)."""
    merged = dict(_config)
    merged.pop("configured", None)
    merged.update(config)
    merged["outputs"] = _names(outputs) + _names(merged.get("outputs", ()))
    return Tracer(**merged)


# -- the seed monitor's process-wide configuration ----------------------------------------------
_config: dict[str, Any] = {}
_configured = False
_config_lock = threading.Lock()


def configure(**settings: Any) -> bool:
    """Process-wide defaults for :class:`Monitor` and :func:`trace` (any :class:`Tracer`
    argument). First come first served, as the seed's: a call after the first, or after the
    monitor was built, is ignored (returns False)."""
    global _configured
    with _config_lock:
        if _configured:
            import warnings

            warnings.warn("accelprof.configure() ignored: already configured", stacklevel=2)
            return False
        _config.update(settings)
        _configured = True
        return True


def get_config() -> dict[str, Any]:
    """The settings :func:`configure` pinned, whether it did, and the capability flags."""
    with _config_lock:
        return {
            **_config,
            "configured": _configured,
            "supports_callback_handlers": True,
            "callback_handlers_synchronous": False,
        }


def _pin_config() -> dict[str, Any]:
    global _configured
    with _config_lock:
        _configured = True
        return dict(_config)


from .monitor import Monitor  # noqa: E402
