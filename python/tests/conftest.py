"""The package's tests run on the mock vendor libraries of accelprof-mocks: a wheel built with the
`mocks` feature has them (`accelprof._native._testing`)."""

import os
import subprocess
import sys
import tempfile
import textwrap

import pytest

import accelprof

testing = getattr(accelprof._native, "_testing", None)
if testing is None:  # pragma: no cover - a wheel without the mocks cannot run these tests
    raise RuntimeError("these tests need the wheel built with the `mocks` feature (see python/README.md)")


@pytest.fixture
def cupti():
    """A fresh mock CUPTI (13.0 unless a test asks for another version)."""
    testing.cupti_reset()
    yield testing
    testing.cupti_reset()


def run_child(code: str, env: dict, timeout: float = 120, cwd: str = None) -> subprocess.CompletedProcess:
    """Runs `code` in a fresh interpreter with `env` added (a vendor that wants its library
    preloaded, or configures once per process); fails with its output unless it exits 0."""
    full = dict(os.environ)
    full.update(env)
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=full,
        # Not the source tree: `-c` puts the working directory first on sys.path.
        cwd=cwd or tempfile.gettempdir(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, f"child exited {proc.returncode}\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
    return proc
