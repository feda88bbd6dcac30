"""The tracer from Python on the mock libcupti, in this process."""

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import accelprof

from conftest import run_child, testing

KERNEL_COLUMNS = ["name", "start_ns", "end_ns", "device", "stream", "correlation"]


_made = []


def tracer(**kw):
    kw.setdefault("vendor", "cupti")
    kw.setdefault("library", testing.cupti_library())
    kw.setdefault("synchronize", testing.cupti_synchronize)
    t = accelprof.Tracer(**kw)
    _made.append(t)
    return t


@pytest.fixture(autouse=True)
def _stop_tracers():
    """A failed test's tracer is stopped all the same (one session per process)."""
    yield
    while _made:
        _made.pop().stop()


# A process keeps the libcupti it loaded, so its version: each version in a process of its own.
VERSION_CHILD = """
import numpy as np, pyarrow as pa, accelprof
from accelprof._native import _testing as T
T.cupti_reset(%d)
got = []
t = accelprof.Tracer(vendor="cupti", library=T.cupti_library(), synchronize=T.cupti_synchronize)
t.register({"kernel": %r}, got.append)
t.start()
T.cupti_launch("k_small", 7, 1)
T.cupti_launch("k_big", 3, 2)
t.flush()  # the fence: every record of the launches is in, and the callback ran on it
assert got, "the callback ran"
for cols in got:
    assert set(cols) == {"kernel"}, "only the families asked for"
    assert isinstance(cols["kernel"], pa.RecordBatch)
    assert cols["kernel"].schema.names == %r, "the columns asked for, in order"
kernels = pa.Table.from_batches([c["kernel"] for c in got])
assert kernels.num_rows == 10, kernels.num_rows
names = kernels.column("name").to_pylist()
assert names.count("k_small") == 7 and names.count("k_big") == 3, names
assert sorted(set(kernels.column("stream").to_pylist())) == [1, 2]
# Timestamps are Unix ns (within this test's minute) and each kernel ends after it starts.
start = kernels.column("start_ns").to_numpy()
end = kernels.column("end_ns").to_numpy()
assert start.dtype == np.int64 and (end > start).all()
info = t.session_info()
assert abs(int(start[0]) - info["session_start_unix_ns"]) < 60 * 10**9, (start[0], info)
assert info["vendor"] == "cupti" and info["library_version"] == "%d", info
report = t.stop()
assert report["rows"]["kernel"] == 10 and report["complete"], report
stats = t.stats()
assert stats["rows_handed"] == 10 and stats["callback_errors"] == 0, stats
print("kernels", kernels.num_rows)
"""


@pytest.mark.parametrize("version", [28, 130001], ids=["cupti-12.9", "cupti-13.0"])
def test_kernels_arrive_as_arrow_columns_with_the_right_counts(version):
    out = run_child(VERSION_CHILD % (version, KERNEL_COLUMNS, KERNEL_COLUMNS, version), {})
    assert "kernels 10" in out.stdout


def test_a_zero_copy_numpy_view_shares_the_arrow_buffer(cupti):
    got = []
    t = tracer()
    t.register(["kernel"], got.append)
    t.start()
    cupti.cupti_launch("k", 4)
    t.flush()
    batch = got[0]["kernel"]
    view = batch.column("start_ns").to_numpy(zero_copy_only=True)
    buffer = batch.column("start_ns").buffers()[1]
    assert view.__array_interface__["data"][0] == buffer.address + batch.column("start_ns").offset * 8
    assert batch.schema.names == accelprof.columns("kernel"), "a bare family: all its columns"
    t.stop()


def test_raw_timestamps_map_to_unix_time_with_the_offset(cupti):
    raw, unix = [], []
    t = tracer()
    t.register({"kernel": ["start_ns"]}, raw.append, unix_time=False)
    t.register({"kernel": ["start_ns"]}, unix.append)
    t.start()
    cupti.cupti_launch("k", 3)
    t.flush()
    r = np.concatenate([c["kernel"].column("start_ns").to_numpy() for c in raw])
    u = np.concatenate([c["kernel"].column("start_ns").to_numpy() for c in unix])
    assert (t.to_unix_ns(r) == u).all()
    assert t.to_unix_ns(0) == 0
    t.stop()


def test_a_raising_callback_is_counted_reported_once_and_never_fatal(cupti, capfd):
    good = []

    def bad(cols):
        raise ValueError("observer bug")

    t = tracer()
    t.register(["kernel"], bad)
    t.register(["kernel"], good.append)
    t.start()
    for _ in range(3):
        cupti.cupti_launch("k", 2)
        t.flush()
    stats = t.stats()
    assert stats["callback_errors"] == 3, stats
    assert "observer bug" in stats["first_callback_error"]
    assert sum(c["kernel"].num_rows for c in good) == 6, "the other observer got every row"
    t.stop()
    err = capfd.readouterr().err
    assert err.count("ValueError: observer bug") == 1, err


def test_flush_inside_a_callback_raises_there_instead_of_hanging(cupti):
    t = tracer()
    t.register(["kernel"], lambda cols: t.flush())
    t.start()
    cupti.cupti_launch("k", 1)
    t.flush()
    stats = t.stats()
    assert stats["callback_errors"] == 1
    assert "inside a registered callback" in stats["first_callback_error"]
    t.stop()


def test_unregister_stops_the_calls(cupti):
    got = []
    t = tracer()
    obs = t.register(["kernel"], got.append)
    t.start()
    cupti.cupti_launch("k", 2)
    t.flush()
    assert t.unregister(obs) is True
    assert t.unregister(obs) is False, "idempotent"
    cupti.cupti_launch("k", 5)
    t.flush()
    assert sum(c["kernel"].num_rows for c in got) == 2
    t.stop()


def test_unknown_families_and_columns_are_refused():
    t = tracer()
    with pytest.raises(ValueError, match="no record family"):
        t.register(["kernels"], print)
    with pytest.raises(ValueError, match="has no column"):
        t.register({"kernel": ["nme"]}, print)
    with pytest.raises(ValueError, match="callable"):
        t.register(["kernel"], 3)
    t.stop()


def test_the_context_manager_writes_readable_files(cupti, tmp_path):
    parquet, chrome = tmp_path / "t.parquet", tmp_path / "t.json"
    with accelprof.trace(
        str(parquet), str(chrome), vendor="cupti", library=testing.cupti_library(), synchronize=testing.cupti_synchronize
    ) as t:
        cupti.cupti_launch("k_ctx", 6)
    report = t.stop()  # the report, again
    assert report["rows"]["kernel"] == 6
    table = pq.read_table(parquet)
    kernels = table.filter(pa.compute.equal(table.column("family"), "kernel"))
    assert kernels.num_rows == 6
    doc = json.loads(chrome.read_text())
    assert sum(1 for e in doc["traceEvents"] if e.get("cat") == "kernel") == 6


def test_external_id_chains_and_collective_metadata(cupti):
    got = []
    t = tracer(families=["kernel", "api", "external_correlation"])
    t.register({"external_correlation": ["external_id", "correlation"], "kernel": ["correlation"]}, got.append)
    t.start()
    step = t.push_external_correlation_id()
    allreduce = t.push_external_correlation_id()
    assert t.current_external_correlation_id() == allreduce
    assert t.add_collective_metadata(process_group={"name": "0", "ranks": [0, 1]}) == allreduce
    t.add_collective_metadata(process_group={"size": 2}, input_sizes=[[4]])
    cupti.cupti_launch("nccl_allreduce", 1)
    assert t.pop_external_correlation_id() == allreduce
    cupti.cupti_launch("k_step", 1)
    assert t.pop_external_correlation_id() == step
    assert t.pop_external_correlation_id() is None, "an extra pop does nothing"
    t.flush()
    assert t.external_id_chain(allreduce) == (step, allreduce)
    meta = t.take_external_metadata()
    assert meta == {allreduce: {"process_group": {"name": "0", "ranks": [0, 1], "size": 2}, "input_sizes": [[4]]}}
    assert t.take_external_metadata() == {}
    ext = pa.Table.from_batches([c["external_correlation"] for c in got if "external_correlation" in c])
    linked = dict(zip(ext.column("correlation").to_pylist(), ext.column("external_id").to_pylist()))
    assert sorted(linked.values()) == sorted([allreduce, step]), linked
    t.stop()


def test_the_seed_monitor_surface(cupti):
    from accelprof.monitor import Monitor, _reset_for_test

    _reset_for_test()
    assert accelprof.configure(vendor="cupti", library=testing.cupti_library(), synchronize=testing.cupti_synchronize)
    with pytest.warns(UserWarning):
        assert not accelprof.configure(vendor="mspti"), "first come first served"
    assert accelprof.get_config()["vendor"] == "cupti"
    m = Monitor()
    assert m is Monitor()
    assert m.push_external_correlation_id() is None, "not started"
    got, calls = [], []
    obs = m.register({"kernel": ["name"]}, got.append)  # starts the monitor
    assert m.stats()["started"] and m.session_info()["vendor"] == "cupti"
    cupti.cupti_launch("k", 1)
    m.flush(sync=True)
    launch = None
    # The launch's API row names the (domain, cbid) to register a handler for.
    t = m.tracer
    api = []
    probe = t.register({"api": ["name", "api_domain", "cbid"]}, api.append)
    cupti.cupti_launch("k", 1)
    m.flush()
    t.unregister(probe)
    rows = pa.Table.from_batches([c["api"] for c in api]).to_pylist()
    launch = next(r for r in rows if r["name"].startswith("cudaLaunchKernel"))
    h = m.register_callback_handler((launch["api_domain"], launch["cbid"]), lambda d, c, rows: calls.append(rows.num_rows))
    def broken(d, c, rows):
        raise RuntimeError("handler bug")

    h2 = m.register_callback_handler(launch["api_domain"], launch["cbid"], broken)
    cupti.cupti_launch("k", 3)
    m.flush()
    assert sum(calls) == 3, "a raising handler does not silence the others"
    assert m.stats()["callback_handler_errors"] == 1
    m.unregister_callback_handler(h2)
    m.unregister_callback_handler(h)
    m.unregister(obs)  # the last one: the monitor stops
    assert not m.stats()["started"]
    assert sum(c["kernel"].num_rows for c in got) == 5
    _reset_for_test()


def test_a_rust_counter_counts_what_the_python_observer_gets(cupti):
    got = []
    t = tracer()
    counter = t.register_counter(["kernel", "api"])
    t.register(["kernel", "api"], got.append)
    t.start()
    cupti.cupti_launch("k", 6)
    t.flush()
    rows = t.counter_rows(counter)
    assert rows["kernel"] == 6 == sum(c["kernel"].num_rows for c in got if "kernel" in c)
    assert rows["api"] == sum(c["api"].num_rows for c in got if "api" in c) >= 6
    with pytest.raises(ValueError):
        t.counter_rows(counter + 100)
    t.stop()


def test_a_callback_whose_finalizer_registers_again_does_not_deadlock_unregister():
    # unregister drops the last reference to the callback; its __del__ registers another observer,
    # which takes the observers' lock again: it must not be held then.
    out = run_child(
        """
        import accelprof
        from accelprof._native import _testing as T
        T.cupti_reset()
        t = accelprof.Tracer(vendor="cupti", library=T.cupti_library(), synchronize=T.cupti_synchronize)
        class Observer:
            def __call__(self, cols):
                pass
            def __del__(self):
                t.register(["kernel"], print)
        obs = t.register(["kernel"], Observer())
        assert t.unregister(obs)
        t.stop()
        print("unregistered")
        """,
        {},
        timeout=30,
    )
    assert "unregistered" in out.stdout


def test_batches_pyarrow_cannot_take_are_counted_apart_not_handed():
    out = run_child(
        """
        import sys
        sys.modules["pyarrow"] = None  # an environment without pyarrow: the import fails
        import accelprof
        from accelprof._native import _testing as T
        T.cupti_reset()
        calls = []
        t = accelprof.Tracer(vendor="cupti", library=T.cupti_library(), synchronize=T.cupti_synchronize)
        t.register(["kernel"], calls.append)
        t.start()
        T.cupti_launch("k", 3)
        t.flush()
        s = t.stats()
        assert calls == [], "the callback never ran"
        assert s["import_errors"] == 1 and s["callback_errors"] == 0, s
        assert s["rows_unencodable"] == 3 and s["rows_handed"] == 0, s
        assert "pyarrow" in s["first_callback_error"], s
        t.stop()
        print("counted")
        """,
        {},
    )
    assert "counted" in out.stdout
