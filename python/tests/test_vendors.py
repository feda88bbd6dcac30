"""MSPTI and rocprofiler-sdk from Python, on their mocks, each in a process of its own: MSPTI is
started with its library preloaded (as its copies and collectives need), rocprofiler-sdk
configures a tool once per process."""

import os

from conftest import run_child, testing


def mspti_env() -> dict:
    library, home = testing.mspti_paths()
    lib64 = os.path.join(home, "lib64")
    old = os.environ.get("LD_LIBRARY_PATH")
    return {
        "LD_PRELOAD": library,
        "MSPTI_LIBRARY_PATH": library,
        "ASCEND_HOME_PATH": home,
        "LD_LIBRARY_PATH": f"{lib64}:{old}" if old else lib64,
    }


def test_mspti_delivers_kernels_as_arrow():
    out = run_child(
        """
        import pyarrow as pa, accelprof
        from accelprof._native import _testing as T
        T.mspti_init()  # aclInit before the tracer: MSPTI's subscriber needs what it loads
        got = []
        t = accelprof.Tracer(vendor="mspti")
        info = t.session_info()
        assert info["vendor"] == "mspti" and info["found"] == "already loaded in this process", info
        t.register({"kernel": ["name", "start_ns", "end_ns", "device"], "api": ["name"]}, got.append)
        t.start()
        ext = t.push_external_correlation_id()
        T.mspti_launch(4)
        assert t.pop_external_correlation_id() == ext
        t.flush()
        kernels = pa.Table.from_batches([c["kernel"] for c in got if "kernel" in c])
        assert kernels.num_rows == 4, kernels
        assert set(kernels.column("name").to_pylist()) == {"add_custom"}
        assert set(kernels.column("device").to_pylist()) == {0}
        assert sum(c["api"].num_rows for c in got if "api" in c) >= 4, "the launches"
        assert t.session_info()["external_ids_on_vendor_stack"]
        report = t.stop()
        assert report["rows"]["kernel"] == 4 and report["complete"], report
        print("mspti kernels", kernels.num_rows)
        """,
        mspti_env(),
    )
    assert "mspti kernels 4" in out.stdout


def test_rocprofiler_delivers_kernels_as_arrow(tmp_path):
    out = run_child(
        f"""
        import pyarrow as pa, pyarrow.parquet as pq, accelprof
        from accelprof._native import _testing as T
        got = []
        with accelprof.trace({str(tmp_path / "r.parquet")!r}, vendor="rocprofiler", library=T.rocprofiler_library()) as t:
            skipped = [s["family"] for s in t.session_info()["skipped"]]
            assert skipped == ["memset", "collective"], skipped
            t.register({{"kernel": ["name", "device", "start_ns"]}}, got.append)
            T.rocprofiler_launch("vector_add", 5, 1)
            T.rocprofiler_synchronize()  # the program's hipDeviceSynchronize: the kernels completed
            t.flush()
            kernels = pa.Table.from_batches([c["kernel"] for c in got])
            assert kernels.num_rows == 5, kernels
            assert set(kernels.column("name").to_pylist()) == {{"vector_add"}}
            # The SDK's clock is not Unix time: the columns are mapped by the engine's offset.
            info = t.session_info()
            assert info["time_offset_ns"] != 0, info
            start = kernels.column("start_ns").to_pylist()[0]
            assert abs(start - info["session_start_unix_ns"]) < 60 * 10**9, (start, info)
            # Chains are kept on rocprofiler-sdk too; its records carry no external ids.
            a = t.push_external_correlation_id(); b = t.push_external_correlation_id()
            assert t.external_id_chain(b) == (a, b)
            assert not t.session_info()["external_ids_on_vendor_stack"]
            t.pop_external_correlation_id(); t.pop_external_correlation_id()
        table = pq.read_table({str(tmp_path / "r.parquet")!r})
        assert table.filter(pa.compute.equal(table.column("family"), "kernel")).num_rows == 5
        print("rocprofiler kernels", kernels.num_rows)
        """,
        {},
    )
    assert "rocprofiler kernels 5" in out.stdout
