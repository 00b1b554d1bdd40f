"""The CI workflows, read as GitHub reads them (PyYAML): every job's steps are the
project's own commands, each check fails its job on its own, and every file a step names
is in the repository."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))


def _load(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _dev_checks() -> list[str]:
    """The checks ./dev test runs before pytest: `ruff check .`, `mypy`, `lint-imports`."""
    dev = (ROOT / "dev").read_text(encoding="utf-8")
    return [match.group(1).strip() for match in
            re.finditer(r'echo "== [^"]*"; \.venv/bin/([^\n;]+)', dev)]


def _commands(run: str) -> list[str]:
    """The commands of a step's script, one per line (continued lines joined)."""
    joined = re.sub(r"\\\n\s*", " ", run)
    return [line.strip() for line in joined.splitlines()
            if line.strip() and not line.strip().startswith("#")]


def _shell(job: dict[str, Any], step: dict[str, Any]) -> str:
    default = job.get("defaults", {}).get("run", {}).get("shell")
    runner = str(job.get("runs-on", ""))
    return str(step.get("shell") or default or ("pwsh" if "windows" in runner else "bash"))


def _jobs() -> list[tuple[str, str, dict[str, Any]]]:
    return [(path.name, name, job) for path in WORKFLOWS
            for name, job in _load(path)["jobs"].items()]


def test_the_checks_are_the_ones_dev_runs() -> None:
    assert _dev_checks() == ["ruff check .", "mypy", "lint-imports"]


@pytest.mark.parametrize(("workflow", "name", "job"), _jobs(), ids=lambda v: v
                         if isinstance(v, str) else "")
def test_every_step_fails_on_its_own_errors(workflow: str, name: str,
                                            job: dict[str, Any]) -> None:
    if "uses" in job:  # a reusable workflow (release.yml calls ci.yml): checked there
        assert job["uses"] == "./.github/workflows/ci.yml"
        return
    for step in job["steps"]:
        assert ("uses" in step) != ("run" in step), step
        if "run" not in step:
            continue
        commands, shell = _commands(step["run"]), _shell(job, step)
        assert commands, step
        # GitHub runs bash with -e (and pipefail): the first failing command fails the
        # step. PowerShell counts only the last program's exit code, unless told to stop.
        if len(commands) > 1 and shell == "pwsh":
            assert commands[0].startswith("$PSNativeCommandUseErrorActionPreference = $true"), \
                (workflow, name, step.get("name"))
        assert shell in ("bash", "pwsh"), (workflow, name, shell)


@pytest.mark.parametrize("name", ["windows", "macos"])
def test_each_check_and_the_tests_are_steps_of_their_own(name: str) -> None:
    job = _load(ROOT / ".github" / "workflows" / "ci.yml")["jobs"][name]
    sole = [_commands(step["run"]) for step in job["steps"] if "run" in step]
    for check in _dev_checks():
        assert [check] in sole, (name, check)
    tests = [c for c in sole if any(line.startswith("python -m pytest") for line in c)]
    assert len(tests) == 1 and len(tests[0]) == 1, (name, tests)
    arguments = shlex.split(tests[0][0])[3:]
    assert arguments in ([], ["-m", "not slow"]), arguments


def test_linux_runs_dev_test_through_ci_run() -> None:
    job = _load(ROOT / ".github" / "workflows" / "ci.yml")["jobs"]["linux"]
    runs = [_commands(step["run"]) for step in job["steps"] if "run" in step]
    assert [".ci/run"] in runs
    ci_run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "set -euo pipefail" in ci_run and "\n./dev test\n" in ci_run


def test_every_file_a_step_names_is_in_the_repository() -> None:
    named = set()
    for _workflow, _name, job in _jobs():
        for step in job.get("steps", []):
            for word in re.split(r"[\s\"']+", step.get("run", "")):
                word = word.replace("\\", "/")
                if re.match(r"^(\.ci|tests|packaging)/[\w./-]+$", word) and "*" not in word:
                    named.add(word)
    assert {".ci/run", "tests/postgres_server.sh", "packaging/carwars-desktop.spec"} <= named
    assert [word for word in sorted(named) if not (ROOT / word).exists()] == []


def test_every_bundle_started_with_smoke_is_also_self_checked() -> None:
    """``--smoke`` starts the app, opens the database and builds every workspace;
    ``--self-check`` also serves the phones page (aiohttp, the page's files) from the
    bundle: CI runs both wherever it starts a bundle."""
    for path in WORKFLOWS:
        for job in _load(path).get("jobs", {}).values():
            runs = [str(step.get("run", "")) for step in job.get("steps", [])]
            smoked = [run.replace(" --smoke", "") for run in runs if run.endswith(" --smoke")]
            checked = [run.replace(" --self-check", "") for run in runs
                       if run.endswith(" --self-check")]
            assert smoked == checked, path.name
    check = (ROOT / "packaging" / "check_linux.sh").read_text(encoding="utf-8")
    smoked = re.findall(r"^  smoke (\w+) (\S+)$", check, re.MULTILINE)
    checked = re.findall(r"^  smoke (\w+) (\S+) --self-check$", check, re.MULTILINE)
    assert smoked and smoked == checked
