"""The seed's ``CuptiMonitor`` surface over :class:`accelprof.Tracer`, for every vendor.

``Monitor()`` is the process-wide monitor (one tracer at a time per process: every vendor's
records are process-wide). Registering the first observer starts it, unregistering the last stops
it, as the seed's does. See README.md for each method next to the seed's.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, NamedTuple, Optional

import numpy as np

from . import Selection, Tracer, _pin_config


class CallbackHandler(NamedTuple):
    """What :meth:`Monitor.register_callback_handler` returns: hand it back to unregister."""

    domain: int
    cbid: int
    fn: Callable[..., None]


class Monitor:
    """The process-wide monitor: ``Monitor()`` returns the one instance."""

    _instance: Optional["Monitor"] = None
    _instance_lock = threading.Lock()

    def __new__(cls) -> "Monitor":
        with cls._instance_lock:
            if cls._instance is None:
                inst = super().__new__(cls)
                inst._init()
                cls._instance = inst
            return cls._instance

    def _init(self) -> None:
        self._config = _pin_config()
        self._lock = threading.RLock()
        self._tracer: Optional[Tracer] = None
        self._observers: set[int] = set()
        self._handlers: dict[tuple[int, int], tuple[Callable[..., None], ...]] = {}
        self._handler_observer: Optional[int] = None
        self._last_report: Optional[dict[str, Any]] = None
        self._handler_errors = 0

    # -- lifecycle ------------------------------------------------------------------------------
    @property
    def tracer(self) -> Optional[Tracer]:
        return self._tracer

    def start(self) -> None:
        with self._lock:
            if self._tracer is not None:
                raise RuntimeError("the monitor is already started")
            self._tracer = Tracer(**self._config)
            self._tracer.start()

    def stop(self) -> Optional[dict[str, Any]]:
        """Stops the monitor; its report (``stats()["last_report"]`` keeps it), None when it was not
        started. Inside one of its callbacks (the last observer unregistering itself) the tracer
        stops on a thread of its own once the callback returns, and this returns None."""
        with self._lock:
            tracer, self._tracer = self._tracer, None
            self._observers.clear()
            self._handler_observer = None
        if tracer is None:
            return None
        if tracer._native.in_callback():
            # The last observer left inside one of the tracer's callbacks, where a stop would wait
            # for itself: the tracer stops on a thread of its own once the callback returns.
            def finish() -> None:
                self._last_report = tracer.stop()

            threading.Thread(target=finish, name="accelprof-monitor-stop").start()
            return None
        self._last_report = tracer.stop()
        return self._last_report

    def flush(self, sync: bool = True) -> None:
        tracer = self._tracer
        if tracer is not None:
            tracer.flush(sync)

    def _ensure_started(self) -> Tracer:
        with self._lock:
            if self._tracer is None:
                self.start()
            assert self._tracer is not None
            return self._tracer

    def _stop_if_idle(self) -> None:
        with self._lock:
            idle = not self._observers and not self._handlers
        if idle:
            self.stop()

    # -- observers ------------------------------------------------------------------------------
    def register(self, activities: Selection, callback: Callable[[dict], Any]) -> int:
        """``callback({family: pyarrow.RecordBatch})`` per batch of the selected families (the
        monitor starts with the first observer)."""
        tracer = self._ensure_started()
        try:
            observer = tracer.register(activities, callback)
        except Exception:
            self._stop_if_idle()
            raise
        with self._lock:
            self._observers.add(observer)
        return observer

    def unregister(self, observer: int) -> None:
        """Idempotent; the monitor stops once no observer and no callback handler is left."""
        with self._lock:
            if observer not in self._observers:
                return
            self._observers.discard(observer)
            tracer = self._tracer
        if tracer is not None:
            tracer.unregister(observer)
        self._stop_if_idle()

    # -- API-call handlers ----------------------------------------------------------------------
    def register_callback_handler(self, key: Any, cbid_or_fn: Any, fn: Any = None) -> CallbackHandler:
        """``fn(domain, cbid, rows)`` for the API calls of ``(domain, cbid)``: ``rows`` is the
        ``pyarrow.RecordBatch`` of those calls' ``api`` rows. Called with ``((domain, cbid), fn)``
        or ``(domain, cbid, fn)``. Unlike the seed's, it runs on the dispatch thread after the
        call, not inside it (see README.md)."""
        if fn is None:
            (domain, cbid), fn = key, cbid_or_fn
        else:
            domain, cbid = key, cbid_or_fn
        handler = CallbackHandler(int(domain), int(cbid), fn)
        tracer = self._ensure_started()
        with self._lock:
            k = (handler.domain, handler.cbid)
            self._handlers[k] = self._handlers.get(k, ()) + (fn,)
            need_observer = self._handler_observer is None
        if need_observer:
            self._handler_observer = tracer.register({"api": "all"}, self._dispatch_api)
        return handler

    def unregister_callback_handler(self, handler: CallbackHandler) -> None:
        with self._lock:
            k = (handler.domain, handler.cbid)
            remaining = tuple(f for f in self._handlers.get(k, ()) if f is not handler.fn)
            if remaining:
                self._handlers[k] = remaining
            else:
                self._handlers.pop(k, None)
            drop = not self._handlers and self._handler_observer is not None
            observer, tracer = self._handler_observer, self._tracer
            if drop:
                self._handler_observer = None
        if drop and tracer is not None and observer is not None:
            tracer.unregister(observer)
        self._stop_if_idle()

    def _dispatch_api(self, cols: dict) -> None:
        rows = cols.get("api")
        if rows is None or rows.num_rows == 0:
            return
        handlers = dict(self._handlers)
        if not handlers:
            return
        domains = rows.column("api_domain").to_numpy()
        cbids = rows.column("cbid").to_numpy()
        for (domain, cbid), fns in handlers.items():
            mask = (domains == domain) & (cbids == cbid)
            if not mask.any():
                continue
            import pyarrow as pa

            picked = rows.filter(pa.array(mask))
            for fn in fns:
                # One raising handler must not silence the others; the tracer counts the raise.
                try:
                    fn(domain, cbid, picked)
                except Exception:
                    self._handler_errors += 1
                    if self._handler_errors == 1:
                        import logging

                        logging.getLogger(__name__).exception(
                            "accelprof callback handler failed (domain=%d cbid=%d); later failures are "
                            "only counted (stats()['callback_handler_errors'])",
                            domain,
                            cbid,
                        )

    # -- external correlation (None when not started, as the seed's) ----------------------------
    def push_external_correlation_id(self) -> Optional[int]:
        t = self._tracer
        return None if t is None else t.push_external_correlation_id()

    def pop_external_correlation_id(self) -> Optional[int]:
        t = self._tracer
        return None if t is None else t.pop_external_correlation_id()

    def current_external_correlation_id(self) -> Optional[int]:
        t = self._tracer
        return None if t is None else t.current_external_correlation_id()

    def external_id_chain(self, innermost_id: int) -> tuple[int, ...]:
        t = self._tracer
        return (innermost_id,) if t is None else t.external_id_chain(innermost_id)

    def add_collective_metadata(self, **fields: Any) -> None:
        t = self._tracer
        if t is not None and fields:
            t.add_collective_metadata(**fields)

    def take_external_metadata(self) -> dict[int, dict[str, Any]]:
        t = self._tracer
        return {} if t is None else t.take_external_metadata()

    # -- state ----------------------------------------------------------------------------------
    def session_info(self) -> dict[str, Any]:
        t = self._tracer
        if t is None:
            return {"started": False, "config": dict(self._config)}
        info = t.session_info()
        info["started"] = True
        info["config"] = dict(self._config)
        return info

    def stats(self) -> dict[str, Any]:
        t = self._tracer
        if t is None:
            return {"started": False, "observers": 0, "last_report": self._last_report}
        s = t.stats()
        s["observers"] = len(self._observers)
        s["callback_handlers"] = sum(len(v) for v in self._handlers.values())
        s["callback_handler_errors"] = self._handler_errors
        return s

    def convert_time(self, value: int) -> int:
        t = self._tracer
        return value if t is None else t.to_unix_ns(value)

    def convert_time_array(self, values: np.ndarray) -> np.ndarray:
        t = self._tracer
        return values.astype(np.int64) if t is None else t.to_unix_ns(values)


def _reset_for_test() -> None:
    """Test-only: stop and drop the monitor and the process-wide configuration."""
    import accelprof

    with Monitor._instance_lock:
        inst, Monitor._instance = Monitor._instance, None
    if inst is not None:
        inst.stop()
    with accelprof._config_lock:
        accelprof._config.clear()
        accelprof._configured = False
