"""The README's example, as written, on the mock libcupti found by the tracer's own search."""

import pathlib
import re

from conftest import run_child, testing

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def example() -> str:
    text = README.read_text()
    section = text.split("## Example", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_readme_example_runs_on_the_mock(tmp_path):
    code = (
        "from accelprof._native import _testing as T\n"
        "T.cupti_reset()\n"
        "def work():\n"
        "    T.cupti_launch('k_train', 9)\n" + example()
    )
    out = run_child(code, {"CUPTI_LIBRARY_PATH": testing.cupti_library()}, cwd=str(tmp_path))
    assert out.stdout.strip() == "9 kernels; 9 in t.parquet", out.stdout
    assert (tmp_path / "t.parquet").stat().st_size > 0
