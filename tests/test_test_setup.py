"""The test set-up itself: no Hypothesis deadline, and the markers a quick run skips."""

from __future__ import annotations

import os
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]


def test_hypothesis_has_no_deadline() -> None:
    assert settings.default.deadline is None


def test_a_tests_own_settings_keep_no_deadline() -> None:
    assert settings(max_examples=3).deadline is None


def test_slow_is_a_declared_marker_and_dev_passes_arguments_to_pytest() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    markers = config["tool"]["pytest"]["ini_options"]["markers"]
    assert any(marker.startswith("slow:") for marker in markers)
    dev = (ROOT / "dev").read_text(encoding="utf-8")
    # One worker per core, the 15 slowest tests printed, then the caller's arguments.
    command = re.search(r'\.venv/bin/python -m pytest (.*?"\$@")', dev.replace("\\\n", ""))
    assert command is not None, "./dev test runs no pytest"
    options = shlex.split(command.group(1))
    assert options[-1] == "$@" and "--durations=15" in options
    assert options[:4] == ["-n", "${CARWARS_TEST_WORKERS:-auto}", "--dist", "loadgroup"]
    assert "run_tests \"$@\"" in dev
    # CI runs everything: .ci/run calls ./dev test with no marker filter.
    assert "./dev test\n" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_ci_runs_on_three_systems_and_the_release_reuses_it() -> None:
    workflows = ROOT / ".github" / "workflows"
    ci = (workflows / "ci.yml").read_text(encoding="utf-8")
    for trigger in ("push:", "pull_request:", "workflow_call:"):
        assert f"\n  {trigger}" in ci
    for runner in ("ubuntu-latest", "windows-latest", "macos-14"):
        assert f"runs-on: {runner}" in ci
    assert "tests/postgres_server.sh start" in ci and "run: .ci/run" in ci
    release = (workflows / "release.yml").read_text(encoding="utf-8")
    assert "uses: ./.github/workflows/ci.yml" in release and "needs: [ci]" in release


def test_the_quick_loop_holds_every_rules_storage_services_and_cli_test() -> None:
    """`./dev test -m "not slow"` leaves out only long GUI, packaging and crash tests."""
    core = ["dice", "procedures", "rules", "session", "library", "house", "services",
            "storage"]
    files = [p for folder in core for p in (ROOT / "tests" / folder).rglob("*.py")]
    files += sorted((ROOT / "tests").glob("test_*cli*.py"))
    assert len(files) > 50
    assert [str(p.relative_to(ROOT)) for p in files
            if "mark.slow" in p.read_text(encoding="utf-8")] == []


def _root_conftest(config: pytest.Config) -> Any:
    """tests/conftest.py, as pytest loaded it."""
    path = ROOT / "tests" / "conftest.py"
    [module] = [plugin for plugin in config.pluginmanager.get_plugins()
                if getattr(plugin, "__file__", None) == str(path)]
    return module


@pytest.mark.memory_folder
def test_the_tests_files_are_in_memory_where_the_system_has_it(
        request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """On Linux tmp_path and the XDG folders are in /dev/shm: a commit waits for no disk.
    A folder the caller gave (TMPDIR, PYTEST_DEBUG_TEMPROOT) is kept: they are in it."""
    given = _root_conftest(request.config).GIVEN_TEMP_ROOT
    folder = Path(given or "/dev/shm").resolve()
    assert tmp_path.resolve().is_relative_to(folder)
    assert Path(os.environ["XDG_DATA_HOME"]).resolve().is_relative_to(folder)
    if given is None:
        assert os.environ["PYTEST_DEBUG_TEMPROOT"] == "/dev/shm"


@pytest.fixture(scope="module")
def made_once_per_module() -> list[str]:
    return []


def test_tests_sharing_a_module_fixture_stay_on_one_worker(
        request: pytest.FixtureRequest, made_once_per_module: list[str]) -> None:
    group = request.node.get_closest_marker("xdist_group")
    if not request.config.pluginmanager.hasplugin("xdist"):
        assert group is None  # without pytest-xdist no marker it does not know
        return
    assert group is not None
    assert group.args == ("tests/test_test_setup.py::made_once_per_module",)


def test_tests_sharing_a_private_postgresql_server_stay_on_one_worker(
        request: pytest.FixtureRequest) -> None:
    conftest = _root_conftest(request.config)

    class Item:  # what shared_group reads of a test
        def __init__(self, *fixtures: str) -> None:
            self.fixturenames = list(fixtures)

    assert conftest.shared_group(Item("club_server", "qtbot")) == "club-server"
    assert conftest.shared_group(Item("tls_club_server")) == "club-server"
    assert conftest.shared_group(Item("tmp_path", "qtbot", "window")) is None


def test_on_several_workers_the_long_tests_start_first(request: pytest.FixtureRequest) -> None:
    """On pytest-xdist's workers the long tests come first; in one process the tests keep
    the order they were collected in (each file's tests one after the other)."""
    items = request.session.items
    if hasattr(request.config, "workerinput"):
        slow = [item.get_closest_marker("slow") is not None for item in items]
        assert slow == sorted(slow, reverse=True)
        return
    files = [item.path for item in items]
    blocks = [path for n, path in enumerate(files) if n == 0 or files[n - 1] != path]
    assert len(blocks) == len(set(blocks))  # no file's tests split by the sort
