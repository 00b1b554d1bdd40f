"""The test set-up itself: no Hypothesis deadline, and the markers a quick run skips."""

from __future__ import annotations

import tomllib
from pathlib import Path

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
    slowest_listed = 'pytest --durations=15 "$@"' in dev  # the 15 slowest tests printed
    assert slowest_listed and "run_tests \"$@\"" in dev
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
