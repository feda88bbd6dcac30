"""The package used wrongly: each misuse ends in an exception or a count, never a hang, a crash or
records lost without a count. Whatever could hang runs in a child with a timeout."""

import json
import math
import time

import pytest

import accelprof

from conftest import run_child, testing


def tracer(**kw):
    kw.setdefault("vendor", "cupti")
    kw.setdefault("library", testing.cupti_library())
    kw.setdefault("synchronize", testing.cupti_synchronize)
    return accelprof.Tracer(**kw)


CHILD = """
import os, sys, threading, time, gc
import accelprof
from accelprof._native import _testing as T
T.cupti_reset()
def tracer(**kw):
    kw.setdefault("vendor", "cupti")
    kw.setdefault("library", T.cupti_library())
    kw.setdefault("synchronize", T.cupti_synchronize)
    return accelprof.Tracer(**kw)
"""


def test_flush_or_stop_inside_the_synchronize_callable_raises_there_instead_of_hanging():
    # The synchronize callable runs inside the flush's fence: a flush or stop from there waited
    # for itself (the fence's lock, the tracer's lock), for ever.
    out = run_child(
        CHILD
        + """
refused = []
def sync():
    T.cupti_synchronize()
    for call in (t.flush, t.stop):
        try:
            call()
        except RuntimeError as e:
            refused.append(str(e))
    return True
t = tracer(synchronize=sync)
t.start()
T.cupti_launch("k", 3)
t.flush()
assert len(refused) == 2 and all("synchronize" in e for e in refused), refused
report = t.stop()  # its own fence calls sync again: refused again, and the stop completes
assert report["rows"]["kernel"] == 3, report["rows"]
print("ok", len(refused))
""",
        {},
        timeout=60,
    )
    assert "ok 4" in out.stdout


def test_stop_while_other_threads_flush_and_read_stats_does_not_deadlock():
    # A flush held the tracer's lock while its synchronize waited for the GIL; stop waited for
    # that lock (as a writer) and stats(), on a third thread with the GIL held, queued behind stop:
    # the three waited for each other.
    out = run_child(
        CHILD
        + """
got = []
t = tracer(flush_period_s=0.001)
t.register(["kernel"], lambda cols: (got.append(cols["kernel"].num_rows), t.stats()))
t.start()
done = False
def flusher():
    while not done:
        T.cupti_launch("k", 5)
        try:
            t.flush(sync=False)
        except RuntimeError:
            return  # stopped
def reader():
    while not done:
        t.stats()
threads = [threading.Thread(target=f) for f in (flusher, flusher, reader, reader)]
for th in threads:
    th.start()
time.sleep(0.5)
report = t.stop()
done = True
for th in threads:
    th.join()
stats = t.stats()
assert sum(got) == report["rows"]["kernel"] == stats["rows_handed"], (sum(got), report["rows"], stats)
print("ok", sum(got))
""",
        {},
        timeout=60,
    )
    assert out.stdout.startswith("ok ")


def test_a_forked_child_neither_hangs_nor_crashes_on_the_parents_tracer():
    # The child has a copy of the tracer without its threads: stop (its own call, the atexit
    # hook's, the one of dropping it) waited for them for ever, after a panic.
    out = run_child(
        CHILD
        + """
got = []
t = tracer(flush_period_s=0.001)
t.register(["kernel"], got.append)
t.start()
T.cupti_launch("k", 5)
t.flush(sync=False)
pid = os.fork()
if pid == 0:
    refused = 0
    for call in (t.stats, t.flush, t.stop, t.session_info, t.push_external_correlation_id,
                 lambda: t.register(["kernel"], print), lambda: t.unregister(1)):
        try:
            call()
        except RuntimeError as e:
            assert "forked" in str(e), e
            refused += 1
    t.__exit__(None, None, None)  # leaving a `with` block in the child: the parent's tracer is left alone
    assert refused == 7, refused
    u = t
    del t, u
    gc.collect()
    sys.exit(0)  # the atexit hook runs
deadline = time.monotonic() + 30
while True:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        break
    if time.monotonic() > deadline:
        os.kill(pid, 9)
        raise SystemExit("the forked child hung")
    time.sleep(0.05)
assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
T.cupti_launch("k", 2)
report = t.stop()
assert report["rows"]["kernel"] == 7 == sum(c["kernel"].num_rows for c in got), report["rows"]
print("ok")
""",
        {},
        timeout=90,
    )
    assert "ok" in out.stdout


@pytest.mark.parametrize("period", [1e300, 1e-300, math.nan, math.inf, -1.0])
def test_a_flush_period_out_of_range_is_a_value_error(cupti, period):
    # 1e300 panicked in the conversion to a Duration; 1e-300 made a period of 0 ns (a flush loop
    # without a pause).
    with pytest.raises(ValueError, match="flush_period_s"):
        tracer(flush_period_s=period)


def test_a_synchronize_that_is_not_callable_is_refused(cupti):
    with pytest.raises(ValueError, match="synchronize"):
        tracer(synchronize=5)


def test_the_report_and_stats_after_stop_are_data(cupti, tmp_path):
    # report["traces"] held Rust debug strings; stats()["counts"] went None at stop.
    parquet, chrome = tmp_path / "t.parquet", tmp_path / "t.json"
    t = tracer(outputs=[str(parquet), str(chrome)])
    t.start()
    cupti.cupti_launch("k", 4)
    report = t.stop()
    traces = sorted(report["traces"], key=lambda x: x["path"])
    assert [x["path"] for x in traces] == [str(chrome), str(parquet)], traces
    for x in traces:
        assert x["events"] > 0 and x["bytes"] > 0 and "error" not in x, x
    stats = t.stats()
    assert stats["stopped"] and stats["counts"] == report["counts"], stats
    assert stats["counts"]["adds_up"], stats["counts"]


def test_two_threads_stopping_at_once_get_the_same_report():
    # The second stop found the tracer already taken, the report not made yet: "not started".
    out = run_child(
        CHILD
        + """
def slow_sync():
    time.sleep(0.3)  # the stop's fence runs long enough for the other stop to arrive
    return T.cupti_synchronize()
t = tracer(synchronize=slow_sync)
t.start()
T.cupti_launch("k", 3)
reports, errors = [], []
def stop():
    try:
        reports.append(t.stop())
    except Exception as e:
        errors.append(repr(e))
threads = [threading.Thread(target=stop) for _ in range(3)]
for th in threads:
    th.start()
for th in threads:
    th.join()
assert not errors, errors
assert len(reports) == 3 and all(r == reports[0] for r in reports)
print("ok", reports[0]["rows"]["kernel"])
""",
        {},
        timeout=60,
    )
    assert "ok 3" in out.stdout


def test_one_name_where_names_go_is_taken_as_one_name(cupti, tmp_path):
    # families="kernel" asked for the family "k"; outputs="t.json" for the outputs "t", ".", ...
    out = tmp_path / "t.json"
    got = []
    t = tracer(families="kernel", outputs=str(out))
    t.register("kernel", got.append)
    counter = t.register_counter("kernel")
    t.start()
    cupti.cupti_launch("k", 2)
    report = t.stop()
    assert t.counter_rows(counter)["kernel"] == 2 == sum(c["kernel"].num_rows for c in got)
    assert report["rows"]["api"] == 0 and report["traces"][0]["path"] == str(out), report
    assert json.loads(out.read_text())["traceEvents"]


def test_the_monitors_last_observer_leaving_inside_its_callback_stops_the_monitor(cupti, capfd):
    # The monitor's stop ran inside the callback: RuntimeError there (counted, printed), the
    # report lost, the session ended only when the garbage collector got to the tracer.
    from accelprof.monitor import Monitor, _reset_for_test

    _reset_for_test()
    accelprof.configure(vendor="cupti", library=testing.cupti_library(), synchronize=testing.cupti_synchronize)
    m = Monitor()
    got = []

    def once(cols):
        got.append(cols["kernel"].num_rows)
        m.unregister(observer)

    observer = m.register(["kernel"], once)
    tracer = m.tracer
    cupti.cupti_launch("k", 3)
    tracer.flush()
    assert got == [3] and m.tracer is None
    for _ in range(200):  # the stop runs on a thread of its own once the callback returned
        if m.stats()["last_report"] is not None:
            break
        time.sleep(0.05)
    assert m.stats()["last_report"]["rows"]["kernel"] == 3, m.stats()
    assert tracer.stats()["callback_errors"] == 0, tracer.stats()
    assert "raised" not in capfd.readouterr().err
    again = []
    m.register(["kernel"], again.append)  # a new session
    cupti.cupti_launch("k", 2)
    m.flush()
    assert sum(c["kernel"].num_rows for c in again) == 2
    _reset_for_test()


def test_ctrl_c_while_waiting_for_a_slow_callback_raises_at_once_and_loses_nothing():
    # flush(sync=True) and stop() waited for the callbacks without looking at signals: Ctrl-C
    # raised only once the slowest callback returned (never, for one that blocks for good).
    out = run_child(
        CHILD
        + """
import signal
signal.signal(signal.SIGINT, signal.default_int_handler)  # even where SIGINT came ignored
got = []
def slow(cols):
    time.sleep(3)
    got.append(cols["kernel"].num_rows)
t = tracer()
t.register(["kernel"], slow)
t.start()
T.cupti_launch("k", 3)
for call in (t.flush, t.stop):
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
    begun = time.monotonic()
    try:
        call()
        raise SystemExit("no KeyboardInterrupt")
    except KeyboardInterrupt:
        waited = time.monotonic() - begun
    assert waited < 2, waited
report = t.stop()  # the stop was done; this one waits for the callbacks and returns the report
assert sum(got) == report["rows"]["kernel"] == 3 == t.stats()["rows_handed"], (got, report["rows"])
print("ok")
""",
        {},
        timeout=60,
    )
    assert "ok" in out.stdout


EXIT_CHILD = """
import atexit, os, signal, sys, threading, time, gc
signal.signal(signal.SIGINT, signal.default_int_handler)  # even where SIGINT came ignored
got = []
# Registered before accelprof's hook, so it runs after it: what the callbacks got by the end.
atexit.register(lambda: print("handed", sum(got), flush=True))
import accelprof
from accelprof._native import _testing as T
T.cupti_reset()
def slow(cols):
    for _ in range(40):
        time.sleep(0.005)  # the GIL taken again and again
    got.append(cols["kernel"].num_rows)
t = accelprof.Tracer(vendor="cupti", library=T.cupti_library(), synchronize=T.cupti_synchronize)
t.register(["kernel"], slow)
t.start()
for _ in range(4):
    T.cupti_launch("k", 5)
    t.flush(sync=False)
"""


def test_exiting_with_callbacks_of_a_collected_tracer_pending_hands_them_over_and_exits_cleanly():
    # The dispatch thread went on calling the callbacks while the interpreter finalized: taking the
    # GIL there aborted the process (PyGILState_Release) or crashed it.
    out = run_child(EXIT_CHILD + "del t\ngc.collect()\n", {}, timeout=60)
    assert "handed 20" in out.stdout, out


def test_ctrl_c_twice_at_exit_cuts_the_waits_and_still_exits_cleanly():
    # The first Ctrl-C cuts the exit hook's stop short of the callbacks, the second its wait for
    # the batches still queued: the rows left are said on stderr, and no callback runs after.
    code = EXIT_CHILD + (
        "def interrupt():\n"
        "    for _ in range(2):\n"
        "        time.sleep(0.1)\n"
        "        os.kill(os.getpid(), signal.SIGINT)\n"
        # Run before accelprof's hook (registered after it): the signals come during the exit.
        "atexit.register(lambda: threading.Thread(target=interrupt, daemon=True).start())\n"
    )
    out = run_child(code, {}, timeout=60)
    handed = int(out.stdout.split("handed ")[1].split()[0])
    assert handed < 20, out
    assert f"{20 - handed} rows queued for callbacks were not handed over" in out.stderr, out


def test_ctrl_c_inside_the_synchronize_callable_is_a_keyboard_interrupt():
    # The engine keeps only the message of what the callable raised: Ctrl-C came out of flush()
    # as a RuntimeError, past the program's `except KeyboardInterrupt`.
    out = run_child(
        CHILD
        + """
import signal
signal.signal(signal.SIGINT, signal.default_int_handler)  # even where SIGINT came ignored
def slow_sync():
    time.sleep(3)
    return T.cupti_synchronize()
t = tracer(synchronize=slow_sync)
t.start()
T.cupti_launch("k", 2)
for call in (t.flush, t.stop):
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
    try:
        call()
        raise SystemExit("no KeyboardInterrupt")
    except KeyboardInterrupt:
        pass
report = t.stop()  # the one the interrupted stop made
assert report["rows"]["kernel"] == 2 and report["errors"], report
print("ok")
""",
        {},
        timeout=60,
    )
    assert "ok" in out.stdout


def test_a_tracer_its_callbacks_refer_to_is_collected_and_its_last_batches_reach_them():
    # The cycle tracer -> callback -> tracer went through Rust, where the garbage collector did not
    # see it: the tracer was never freed, ran until exit, and no other tracer could start.
    out = run_child(
        CHILD
        + """
got = []
def make():
    t = tracer()
    def slow(cols, t=t):  # refers to its tracer
        time.sleep(0.05)
        got.append(cols["kernel"].num_rows)
        t.stats()
    t.register(["kernel"], slow)
    t.start()
    for _ in range(4):
        T.cupti_launch("k", 5)
        t.flush(sync=False)
make()
gc.collect()  # finds the cycle: the tracer ends, its queued batches still go to `slow`
deadline = time.monotonic() + 20
while sum(got) < 20 and time.monotonic() < deadline:
    time.sleep(0.05)
assert sum(got) == 20, got
gc.collect()
u = tracer()  # the session was ended: a new one starts
u.start()
T.cupti_launch("k", 1)
assert u.stop()["rows"]["kernel"] == 1
print("ok")
""",
        {},
        timeout=60,
    )
    assert "ok" in out.stdout and "raised" not in out.stderr, out


def test_daemon_threads_inside_native_calls_at_exit_do_not_abort_the_process():
    # A daemon thread coming back from a call that had released the GIL, while the interpreter
    # finalized, was ended by CPython inside our frames: "FATAL: exception not rethrown", abort.
    code = CHILD + """
t = tracer(flush_period_s=0.001)
t.register(["kernel"], lambda cols: None)
t.start()
def work():
    while True:
        T.cupti_launch("k", 5)  # releases the GIL, as the tracer's own calls do
        try:
            t.flush()
            t.stats()
        except RuntimeError:
            pass  # stopped at exit
for _ in range(3):
    threading.Thread(target=work, daemon=True).start()
time.sleep(0.2)
print("exiting")
"""
    for _ in range(3):
        out = run_child(code, {}, timeout=60)
        assert "exiting" in out.stdout


def test_a_callback_that_forks_and_returns_in_the_child_ends_the_child():
    # The child's only thread is the dispatch thread, back in its loop with nothing to hand it
    # batches: the child waited for good.
    out = run_child(
        CHILD
        + """
children = []
def forks(cols):
    pid = os.fork()
    if pid == 0:
        print("in the child", flush=True)
        return
    children.append(pid)
t = tracer()
t.register(["kernel"], forks)
t.start()
T.cupti_launch("k", 3)
t.flush()
deadline = time.monotonic() + 30
while True:
    done, status = os.waitpid(children[0], os.WNOHANG)
    if done:
        break
    if time.monotonic() > deadline:
        os.kill(children[0], 9)
        raise SystemExit("the forked child hung")
    time.sleep(0.05)
assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
assert t.stop()["rows"]["kernel"] == 3
print("ok")
""",
        {},
        timeout=90,
    )
    assert "ok" in out.stdout and "in the child" in out.stdout
