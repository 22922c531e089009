"""Mutation testing of src/reverie with mutmut, one module at a time, on SQLite.

Each module gets its own scratch folder under build/mutation/<module>/ holding a copy of src/, tests/,
README.md and bench/ plus a pyproject.toml whose [tool.mutmut] section mutates only that module and
selects only the test files relevant to it (mutmut then runs, per mutant, only the selected tests that
reach the mutated function). The checkout itself is never touched: mutmut's mutants/ folder lives inside
the scratch folder, and build/ is ignored by git, ruff, mypy and pytest.

    .venv/bin/python bench/mutation_report.py                       # every module (hours)
    .venv/bin/python bench/mutation_report.py extract/keys.py       # one module
    .venv/bin/python bench/mutation_report.py --report              # the table of what has run
    .venv/bin/python bench/mutation_report.py --survivors extract/keys.py   # diffs of survivors

Runs are incremental: a second run of a module retests only functions whose source changed and mutants
not yet checked; pass --fresh to start over, or --retest to recheck the survivors (after adding tests).
See tests/MUTATION.md for the goals, timings and the survivors nobody could observe.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from mutation_equivalent import declared, sql_case_mutants

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "reverie"
WORK = ROOT / "build" / "mutation"
MUTMUT = Path(sys.executable).parent / "mutmut"

# Test files that exercise each module through real parts. A module not listed here is tested against
# DEFAULT_TESTS; mutmut narrows either list, per mutant, to the tests that reached the mutated function.
# tests/test_mutation_kills_<stem>.py joins a module's list when it exists.
TESTS: dict[str, tuple[str, ...]] = {
    "embed/integer.py": ("test_embed_local.py",),
    "extract/keys.py": ("test_merge_policy.py", "test_memory.py", "test_rules.py"),
    # The claim parser's own tests and the merge tests that judge pairs by their claims (33 mutants
    # of _lemma_set were reached by none of the first three).
    "extract/claims.py": (
        "test_claims.py",
        "test_claims_shapes.py",
        "test_merge_shapes.py",
        "test_merge_kinds.py",
        "test_merge_reworded.py",
        "test_merge_policy.py",
        "test_memory.py",
        "test_rules.py",
    ),
    "extract/claims_fallback.py": ("test_claims_shapes.py", "test_merge_policy.py", "test_claims.py"),
    "extract/merge_verdict.py": (
        "test_claims_shapes.py",
        "test_claims.py",
        "test_merge_shapes.py",
        "test_merge_policy.py",
    ),
    "extract/fact_vectors.py": (
        "test_mutation_kills_merge.py",
        "test_memory.py",
        "test_semantic.py",
    ),
    "extract/merge.py": (
        "test_merge_policy.py",
        "test_claims.py",
        "test_memory.py",
        "test_rules.py",
        "test_portability.py",
        "test_preferences.py",
        "test_consolidation.py",
        "test_working_scopes.py",
        "test_semantic.py",
    ),
    "store/memories.py": (
        "test_memory.py",
        "test_maintenance.py",
        "test_retention.py",
        "test_keyword_window.py",
        "test_tool_observe.py",
        "test_export_everything.py",
        "test_ranking_limits.py",
    ),
    "extract/phrases.py": ("test_phrases.py", "test_rules.py", "test_properties.py", "test_memory.py"),
    "retrieve/hybrid.py": (
        "test_ranking_limits.py",
        "test_search_context.py",
        "test_semantic.py",
        "test_memory.py",
    ),
    "retrieve/timeexpr.py": ("test_semantic.py", "test_properties.py", "test_timeutil.py"),
    "accounts.py": ("test_auth.py", "test_authz_matrix.py", "test_hardening.py"),
    "server/auth.py": (
        "test_auth.py",
        "test_authz_matrix.py",
        "test_hardening.py",
        "test_mutation_kills_accounts.py",
    ),
    "server/deps.py": ("test_auth.py", "test_authz_matrix.py", "test_server.py"),
    "sensors.py": ("test_sensors_audio.py",),
    "llm/transcribe.py": ("test_sensors_audio.py",),
    "working.py": ("test_observations.py", "test_working_scopes.py", "test_hardening.py"),
    "core/people.py": (
        "test_working_scopes.py",
        "test_this_is.py",
        "test_this_is_doors.py",
        "test_voice_speakers.py",
        "test_documents_per_user.py",
        "test_memory.py",
        "test_cli.py",
    ),
    "core/preferences.py": (
        "test_preferences.py",
        "test_phrases.py",
        "test_memory.py",
        "test_search_context.py",
    ),
    "core/memory_core.py": (
        "test_memory.py",
        "test_search_context.py",
        "test_semantic.py",
        "test_ranking_limits.py",
        "test_context_floor.py",
        "test_said_on_every_door.py",
        "test_preferences.py",
        "test_episodes_ranking.py",
    ),
    "core/summaries.py": (
        "test_memory.py",
        "test_search_context.py",
        "test_consolidation.py",
        "test_portability.py",
        "test_privacy.py",
    ),
    "retrieve/timeutil.py": (
        "test_timeutil.py",
        "test_properties.py",
        "test_search_context.py",
        "test_memory.py",
    ),
    "retrieve/identifiers.py": ("test_docs_identifiers.py", "test_properties.py"),
    "retrieve/relevant.py": ("test_search_context.py", "test_semantic.py", "test_assistant_chat.py"),
    "store/conversations.py": (
        "test_memory.py",
        "test_working_scopes.py",
        "test_privacy.py",
        "test_consolidation.py",
        "test_episodes_ranking.py",
        "test_episodes_context.py",
        "test_keyword_window.py",
        "test_retention.py",
        "test_search_context.py",
        "test_indexer.py",
    ),
    "store/summaries.py": (
        "test_memory.py",
        "test_search_context.py",
        "test_consolidation.py",
        "test_portability.py",
        "test_privacy.py",
        "test_mutation_kills_summaries.py",
    ),
    # Users, threads, interfaces and speakers, passwords, tokens and sessions: the sign-in and
    # permission tests, the people and speakers tests, the CLI's users and tokens, and export.
    "store/accounts.py": (
        "test_auth.py",
        "test_authz_matrix.py",
        "test_hardening.py",
        "test_mutation_kills_accounts.py",
        "test_mutation_kills_people.py",
        "test_this_is.py",
        "test_this_is_doors.py",
        "test_speakers.py",
        "test_voice_speakers.py",
        "test_export_everything.py",
        "test_cli.py",
        "test_sessions_ws.py",
    ),
    "store/documents.py": (
        "test_docs.py",
        "test_documents.py",
        "test_documents_http.py",
        "test_documents_per_user.py",
        "test_documents_quota_race.py",
        "test_export_documents.py",
        "test_docs_identifiers.py",
    ),
    # The memory block of the prompt: budgets, sections, fences, ranking of facts and the guard.
    "retrieve/context.py": (
        "test_search_context.py",
        "test_ranking_limits.py",
        "test_context_floor.py",
        "test_guard.py",
        "test_memory.py",
        "test_preferences.py",
        "test_topics.py",
        "test_documents.py",
    ),
    "retrieve/search.py": (
        "test_search_context.py",
        "test_semantic.py",
        "test_memory.py",
        "test_ranking_limits.py",
        "test_working_scopes.py",
        "test_first_hour.py",
    ),
    # Every test that opens a memory reaches build_semantic, so a survivor there runs them all:
    # the tests of users, the settings, remote embeddings and their cache, fusion and the indexer.
    "core/build.py": (
        "test_config.py",
        "test_this_is.py",
        "test_embed_remote.py",
        "test_mutation_kills_hybrid.py",
        "test_indexer.py",
    ),
    "core/speakers.py": (
        "test_speakers.py",
        "test_this_is.py",
        "test_this_is_doors.py",
        "test_voice_speakers.py",
        "test_exchange_learning.py",
        # A speaker who leaves the device's users loses the switch (SpeakerBoard.clear).
        "test_mutation_kills_people.py",
    ),
    "core/parts.py": ("test_memory.py",),
}
# A module's own kills file is test_mutation_kills_<its name>.py; these share a name with another
# module (core/summaries.py, conversations.py, ...), so theirs says its package too.
OWN_TESTS = {
    module: f"test_mutation_kills_store_{module.removeprefix('store/')}"
    for module in ("store/accounts.py", "store/conversations.py", "store/summaries.py", "store/documents.py")
} | {
    # server/speakers.py and docs/search.py share these names.
    "core/speakers.py": "test_mutation_kills_core_speakers.py",
    "retrieve/search.py": "test_mutation_kills_retrieve_search.py",
}
# Browser tests need Chromium, PostgreSQL tests skip on SQLite, and the API fuzzer is slow and random.
# The architecture tests read the source files themselves, and mutmut rewrites the mutated one (a
# trampoline per function and an import of mutmut): the 600-line limit failed on it (211 lines of
# store/accounts.py became 2,963), so mutmut's first run of the tests stopped and no mutant was checked.
DEFAULT_EXCLUDED = ("test_web_ui.py", "test_postgres.py", "test_fuzz_api.py", "test_architecture.py")
# The modules issue 24 names first; a run without arguments starts with them.
PRIORITY = tuple(TESTS)
# A mutant is stopped after this many times its tests' CPU time (mutmut's default is 15).
TIMEOUT_MULTIPLIER = 4.0
TIMEOUT_CONSTANT = 15.0
# Tests that fail on a loaded machine for reasons no mutant causes (timing), left out of the runs.
# A module's run leaves out only those of its own test files (changing a run's pytest arguments makes
# mutmut forget its results), so adding one here costs no other module its results.
DESELECT: tuple[str, ...] = (
    "tests/test_semantic.py::test_reindex_is_resumable",
    # A wall-clock limit that mutmut's trampolines (a wrapper around every call) push over.
    "tests/test_properties.py::test_power_phrases_are_linear_in_length",
)
# Tests left out for some modules only: their recorded runs left them out, and putting a test back
# makes mutmut forget a module's results. Drop an entry once its modules are rerun from scratch.
DESELECT_FOR: dict[str, tuple[str, ...]] = {
    # Failed in the checkout from 905a48b to 2a35b05 (the setup page's form changed before its test).
    "tests/test_auth.py::test_first_run_setup_creates_the_admin_from_this_machine_only": ("accounts.py",),
}


@dataclass
class Row:
    """One module's mutants by outcome."""

    module: str
    mutants: int = 0
    killed: int = 0
    survived: int = 0
    timeout: int = 0
    no_tests: int = 0
    unchecked: int = 0
    other: int = 0
    seconds: float | None = None
    # Survivors (or mutants no test reaches) that no program could tell from the real code: only the
    # case of an SQL string changed, or declared in mutation_equivalent.DECLARED with the reason.
    equivalent: int = 0

    @property
    def killed_share(self) -> float:
        """Killed or timed out (the tests stopped the mutant either way), over the mutants checked."""
        checked = self.mutants - self.unchecked
        return (self.killed + self.timeout) / checked if checked else 0.0

    @property
    def goal_share(self) -> float:
        """The goal figure: killed or timed out over the mutants checked that are not equivalent."""
        checked = self.mutants - self.unchecked - self.equivalent
        return (self.killed + self.timeout) / checked if checked else 1.0


def all_modules() -> list[str]:
    """Every module of the package, the issue's priority modules first."""
    found = sorted(
        str(p.relative_to(PACKAGE))
        for p in PACKAGE.rglob("*.py")
        if "__pycache__" not in p.parts and p.name != "__main__.py"
    )
    return [m for m in PRIORITY if m in found] + [m for m in found if m not in PRIORITY]


def slug(module: str) -> str:
    """The scratch folder's name for a module: extract/keys.py -> extract.keys."""
    return module.removesuffix(".py").replace("/", ".")


def tests_for(module: str, *, own: bool = True) -> list[str]:
    """The test files (relative to the project) selected for one module (``own``: with its kills file)."""
    if module in TESTS:
        names = list(TESTS[module])
    else:
        names = sorted(p.name for p in (ROOT / "tests").glob("test_*.py") if p.name not in DEFAULT_EXCLUDED)
    kills = _own_tests(module)
    if own and (ROOT / "tests" / kills).exists() and kills not in names:
        names.append(kills)
    return [f"tests/{name}" for name in names if (ROOT / "tests" / name).exists()]


def _skipped(part: str) -> bool:
    """Caches, build output and test artifacts are not part of the copy."""
    return part.startswith(".") or part == "__pycache__" or part.endswith(".egg-info") or part == "artifacts"


def _sync(src: Path, dst: Path) -> None:
    """Mirror src into dst, copying only changed files so mutmut's caches stay valid."""
    dst.mkdir(parents=True, exist_ok=True)
    wanted = set()
    for path in src.rglob("*"):
        rel = path.relative_to(src)
        if any(_skipped(part) for part in rel.parts) or path.suffix in {".pyc", ".db"}:
            continue
        wanted.add(rel)
        target = dst / rel
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        elif not target.exists() or not filecmp.cmp(path, target, shallow=False):
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)
    for path in sorted(dst.rglob("*"), reverse=True):
        rel = path.relative_to(dst)
        if rel not in wanted and not any(_skipped(part) for part in rel.parts):
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)


def _toml_list(items: list[str]) -> str:
    return "[" + ", ".join(json.dumps(i) for i in items) + "]"


def prepare(module: str, fresh: bool, own: bool = True) -> Path:
    """Build (or refresh) the module's scratch folder and its mutmut configuration."""
    work = WORK / slug(module)
    if fresh and work.exists():
        shutil.rmtree(work)
    for folder in ("src", "tests", "bench"):
        _sync(ROOT / folder, work / folder)
    shutil.copy2(ROOT / "README.md", work / "README.md")
    selected = tests_for(module, own=own)
    left_out = [*DESELECT, *(test for test, modules in DESELECT_FOR.items() if module in modules)]
    args = [item for test in left_out if test.split("::")[0] in selected for item in ("--deselect", test)]
    config = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    config += (
        "\n[tool.mutmut]\n"
        'source_paths = ["src"]\n'
        f'only_mutate = ["src/reverie/{module}"]\n'
        f"pytest_add_cli_args_test_selection = {_toml_list(selected)}\n"
        f"pytest_add_cli_args = {_toml_list(['-p', 'no:cacheprovider', *args])}\n"
        'also_copy = ["README.md", "bench"]\n'
        "use_git_change_detection = false\n"
        # mutmut's default (15x the tests' CPU time) lets one endless-loop mutant hold a core for minutes.
        f"timeout_multiplier = {TIMEOUT_MULTIPLIER}\n"
        # ... plus this many seconds: mutmut's deadline is wall-clock time, and forking a mutant and
        # starting its tests takes seconds on a loaded machine (1 s gave false timeouts).
        f"timeout_constant = {TIMEOUT_CONSTANT}\n"
        # Fork each mutant from a server that has only collected the tests: forking mutmut's own
        # process, which ran them, inherits thread pools whose threads are gone (search would hang).
        'process_isolation = "forkserver"\n'
    )
    (work / "pyproject.toml").write_text(config, encoding="utf-8")
    return work


def _meta_path(work: Path, module: str) -> Path:
    return work / "mutants" / "src" / "reverie" / (module + ".meta")


def _meta_file(work: Path, module: str) -> dict[str, Any]:
    path = _meta_path(work, module)
    return dict(json.loads(path.read_text(encoding="utf-8"))) if path.exists() else {}


def _meta(work: Path, module: str) -> dict[str, int | None]:
    codes: dict[str, int | None] = _meta_file(work, module).get("exit_code_by_key", {})
    return codes


def _keep_earlier_kills(work: Path, module: str, earlier: dict[str, Any], rechecked: set[str]) -> None:
    """Put back the kills of a run before this one where mutmut forgot them.

    Adding a test file changes the test selection, and mutmut then forgets every result; a
    recheck of the survivors leaves the mutants killed before unchecked. Tests were only added,
    so a mutant killed before is still killed, as long as its function's source is unchanged.
    """
    now = _meta_file(work, module)
    if not now or not earlier:
        return
    old_hashes, new_hashes = earlier.get("hash_by_function_name", {}), now.get("hash_by_function_name", {})
    for name, code in earlier.get("exit_code_by_key", {}).items():
        function = name.rsplit(".", 1)[-1].split("__mutmut_")[0]  # e.g. x__window, xǁSemanticǁnearest
        same_source = old_hashes.get(function, "") == new_hashes.get(function) != ""
        if (
            name not in rechecked
            and now["exit_code_by_key"].get(name, 0) is None
            and _status(code) in {"killed", "timeout"}
            and same_source
        ):
            now["exit_code_by_key"][name] = code
    _meta_path(work, module).write_text(json.dumps(now, indent=4), encoding="utf-8")


def _status(code: int | None) -> str:
    from mutmut.stats import status_by_exit_code

    return str(status_by_exit_code[code])


def tally(module: str) -> Row:
    """Count one module's mutants by outcome from mutmut's result files."""
    work = WORK / slug(module)
    row = Row(module)
    for code in _meta(work, module).values():
        row.mutants += 1
        status = _status(code)
        if status == "killed":
            row.killed += 1
        elif status == "survived":
            row.survived += 1
        elif status == "timeout":
            row.timeout += 1
        elif status == "no tests":
            row.no_tests += 1
        elif status == "not checked":
            row.unchecked += 1
        else:
            row.other += 1
    timing = work / "seconds.txt"
    if timing.exists():
        row.seconds = float(timing.read_text())
    row.equivalent = sum(len(names) for names in equivalents(module).values())
    return row


def equivalents(module: str) -> dict[str, list[str]]:
    """The module's surviving mutants that are equivalent, by reason: "sql case" (found by reading each
    mutant against its original) or the reason written in mutation_equivalent.DECLARED."""
    work = WORK / slug(module)
    left = survivors(module)
    by_reason: dict[str, list[str]] = {}
    hashes = _meta_file(work, module).get("hash_by_function_name", {})
    for name, reason in declared(module, left, hashes).items():
        by_reason.setdefault(reason, []).append(name)
    seen = {name for names in by_reason.values() for name in names}
    mutated = work / "mutants" / "src" / "reverie" / module
    sql = [name for name in sql_case_mutants(mutated, left) if name not in seen]
    if sql:
        by_reason[SQL_CASE] = sql
    return by_reason


SQL_CASE = "only the case of an SQL string changes (SQL keywords and unquoted names ignore case)"


def survivors(module: str) -> list[str]:
    """Names of the module's mutants that no selected test noticed (survived or reached by no test)."""
    return sorted(
        name
        for name, code in _meta(WORK / slug(module), module).items()
        if _status(code) in {"survived", "no tests"}
    )


def _unsettled(module: str, *, checked_only: bool = False) -> list[str]:
    """Mutants worth checking again: survivors, timeouts and those whose check was cut short
    (``checked_only``: not those never checked, left to a full run)."""
    done = {"killed", "caught by type check", *(("not checked",) if checked_only else ())}
    return sorted(
        name for name, code in _meta(WORK / slug(module), module).items() if _status(code) not in done
    )


def run(
    module: str,
    *,
    fresh: bool,
    retest: bool,
    children: int,
    own: bool = True,
    checked_only: bool = False,
    only: tuple[str, ...] = (),
) -> Row:
    """Mutate one module, run its tests against every mutant, and return its row.

    ``only``: with ``retest``, recheck just these of the module's unsettled mutants (names or their
    endings, e.g. ``authenticate_token__mutmut_15``).
    """
    names = _unsettled(module, checked_only=checked_only) if retest else []
    if only:
        names = [name for name in names if any(name.endswith(ending) for ending in only)]
        if not names:  # mutmut given no names would run every mutant
            print(f"{module}: none of {', '.join(only)} is left to recheck", file=sys.stderr)
            return tally(module)
    work = prepare(module, fresh, own)
    started = time.monotonic()
    earlier = _meta_file(work, module)
    env = {**os.environ, "TZ": "UTC"}
    env.pop("PYTHONPATH", None)
    with open(work / "mutmut.log", "a", encoding="utf-8") as log:
        log.write(f"\n=== {time.strftime('%Y-%m-%d %H:%M:%S')} mutmut run {module}\n")
        log.flush()
        cmd = [str(MUTMUT), "run", "--max-children", str(children), *names]
        done = subprocess.run(cmd, cwd=work, stdout=log, stderr=subprocess.STDOUT, env=env, check=False)
    elapsed = time.monotonic() - started
    if retest:
        _keep_earlier_kills(work, module, earlier, set(names))
    elif done.returncode == 0:
        (work / "seconds.txt").write_text(f"{elapsed:.0f}")
    row = tally(module)
    if done.returncode != 0:
        print(f"{module}: mutmut exited {done.returncode}; see {work / 'mutmut.log'}", file=sys.stderr)
    _remember_before(module, row)
    return row


def _remember_before(module: str, row: Row) -> None:
    """Keep a finished run's row as the module's score before tests were written for its survivors."""
    work = WORK / slug(module)
    config = (work / "pyproject.toml").read_text(encoding="utf-8")
    finished = row.mutants and not row.other and not row.unchecked
    if finished and _own_tests(module) not in config and not (work / "before.json").exists():
        (work / "before.json").write_text(json.dumps(asdict(row)), encoding="utf-8")


def _own_tests(module: str) -> str:
    """The file of tests written for a module's surviving mutants."""
    return OWN_TESTS.get(module) or f"test_mutation_kills_{slug(module).rsplit('.', 1)[-1]}.py"


def before(module: str) -> Row | None:
    """The module's row from its last run without tests written for its survivors, if any."""
    path = WORK / slug(module) / "before.json"
    return Row(**json.loads(path.read_text(encoding="utf-8"))) if path.exists() else None


def show(module: str) -> str:
    """The diff of every surviving mutant of one module."""
    work = WORK / slug(module)
    parts = []
    for name in survivors(module):
        cmd = [str(MUTMUT), "show", name]
        out = subprocess.run(cmd, cwd=work, capture_output=True, text=True, check=False)
        parts.append(out.stdout.strip())
    return "\n\n".join(parts)


def table(rows: list[Row]) -> str:
    """The per-module table: mutants by outcome, killed share and run time."""
    head = f"{'module':34} {'mutants':>7} {'killed':>6} {'survived':>8} {'timeout':>7} {'no tests':>8} "
    head += f"{'unchecked':>9} {'killed %':>8} {'equiv':>5} {'goal %':>7} {'minutes':>7}"
    lines = [head, "-" * len(head)]
    for r in rows:
        minutes = f"{r.seconds / 60:7.1f}" if r.seconds is not None else f"{'-':>7}"
        lines.append(
            f"{r.module:34} {r.mutants:7} {r.killed:6} {r.survived:8} {r.timeout:7} {r.no_tests:8} "
            f"{r.unchecked:9} {100 * r.killed_share:7.1f}% {r.equivalent:5} {100 * r.goal_share:6.1f}% "
            f"{minutes}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("modules", nargs="*", help="modules under src/reverie, e.g. extract/keys.py")
    parser.add_argument("--report", action="store_true", help="print the table of finished runs only")
    parser.add_argument("--survivors", action="store_true", help="print the diffs of surviving mutants")
    parser.add_argument("--fresh", action="store_true", help="discard earlier results of these modules")
    parser.add_argument("--retest", action="store_true", help="recheck survivors and timeouts")
    parser.add_argument(
        "--before",
        action="store_true",
        help="leave out tests/test_mutation_kills_<module>.py: the 'before' row when it was written first",
    )
    parser.add_argument(
        "--checked-only",
        action="store_true",
        help="with --retest: recheck only mutants checked before, not those a stopped run never reached",
    )
    parser.add_argument(
        "--only",
        nargs="+",
        default=(),
        metavar="MUTANT",
        help="with --retest: recheck only these survivors (e.g. xǁAccountsǁcreate_token__mutmut_15)",
    )
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args(argv)
    modules = args.modules or all_modules()
    unknown = [m for m in modules if not (PACKAGE / m).is_file()]
    if unknown:
        parser.error(f"not modules under src/reverie: {', '.join(unknown)}")
    if args.report or args.survivors:
        done = [m for m in modules if (WORK / slug(m) / "mutants").exists()]
        if args.survivors:
            for m in done:
                print(f"### {m}\n{show(m)}\n")
            return 0
        rows = [tally(m) for m in done]
        for row in rows:
            _remember_before(row.module, row)
        earlier = [row for row in (before(m) for m in done) if row is not None]
        if earlier:
            print("Before tests were written for the survivors:")
            print(table(earlier))
            print()
        print(table(rows))
        print(
            "\ngoal % = (killed + timeout) / (mutants checked - equiv); equiv: survivors no program could "
            "tell from the real code (bench/mutation_equivalent.py):"
        )
        for m in done:
            for reason, names in equivalents(m).items():
                short = ", ".join(name.rsplit(".", 1)[-1] for name in names)
                print(f"- {m}: {len(names)}, {reason}: {short}")
        return 0
    rows = []
    for module in modules:
        rows.append(
            run(
                module,
                fresh=args.fresh,
                retest=args.retest,
                children=args.max_children,
                own=not args.before,
                checked_only=args.checked_only,
                only=tuple(args.only),
            )
        )
        print(table(rows[-1:]).splitlines()[-1], flush=True)
    print()
    print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
