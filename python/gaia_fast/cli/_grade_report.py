"""What ``gaia-fast grade`` prints for one GAIA archive, on either engine (local, Ray):
the warnings about the input on stderr, the per-level table and the row counts, and where
the outputs went."""

from __future__ import annotations

from typing import Any


def print_input_warnings(
    err,
    *,
    skipped: list[Any],
    differ: int,
    duplicates: int,
    examples: list[str],
    policy: str = "all",
    not_graded: int = 0,
    truth_side: str = "metadata",
) -> None:
    """Skipped lines (each named by file and line), rows whose truth differs from the
    metadata's, and task ids that occur more than once (the first few), with the rerun
    policy that picked the rows graded."""
    for s in skipped:
        err.print(f"[yellow]skipped[/] {s}", markup=True, highlight=False)
    if differ:
        side = "the metadata's is used (--truth archive: the archive's)" if truth_side == "metadata" else "the archive's is used (--truth archive)"
        err.print(
            f"[yellow]warning:[/] {differ} row(s) carry a truth that differs from the metadata's; {side}",
            markup=True,
            highlight=False,
        )
    if duplicates:
        how = (
            "every row is graded"
            if policy == "all"
            else f"--duplicates {policy}: {not_graded} rerun row(s) not graded"
        )
        err.print(
            f"[yellow]warning:[/] {duplicates} task id(s) occur more than once ({how}): {', '.join(examples)}",
            markup=True,
            highlight=False,
        )


def _cut(v: Any, limit: int = 60) -> str:
    if v is None:
        return "∅"
    s = str(v).replace("\r", "\\r").replace("\n", "\\n")
    return s if len(s) <= limit else s[: limit - 1] + "…"


def print_audits(console, audit: dict[str, Any], limit: int) -> None:
    """The audits of one GAIA archive (``result["audit"]``): how rows were joined, truth
    conflicts (every one), the framework's own verdict beside the official rule (every
    disagreement, with the rule that decided it) and answers still carrying a template."""
    from rich.table import Table

    join = audit.get("join")
    if join:
        if join.get("on") == "question":
            console.print(
                f"No task ids: joined on the question text: {join.get('exact', 0)} exact, "
                f"{join.get('normalised', 0)} with whitespace normalised, {join.get('unmatched', 0)} unmatched"
                + (" (graded against the truth the archive carries)" if join.get("unmatched") and join.get("file_truth_for_unmatched") else "")
            )
        else:
            console.print(f"No task ids: graded against {join.get('graded_against')}")
    dup = audit.get("duplicates") or {}
    if dup.get("task_ids"):
        what = "question(s) (no task ids)" if dup.get("key") == "question" else "task id(s)"
        console.print(
            f"Reruns: {dup['task_ids']} {what} occur more than once; --duplicates {dup['policy']}: "
            f"{dup.get('rows_not_graded', 0)} row(s) not graded"
        )
    conf = audit.get("conflicts")
    if conf and conf["count"]:
        t = Table(title=f"{conf['count']} truth conflict(s): the archive's truth differs from the metadata's", title_justify="left")
        for c in ("task_id", "archive truth", "metadata truth", "graded against"):
            t.add_column(c)
        for r in conf["rows"]:
            t.add_row(_cut(r["task_id"]), _cut(r["archive_truth"]), _cut(r["metadata_truth"]), _cut(r["graded_against"]))
        console.print(t)
    v = audit.get("verdict")
    if v:
        console.print(
            f"Framework verdict vs the official rule: {v['agree']} agree, {v['disagree']} disagree "
            f"({v['rows']} row(s) carry a verdict)"
        )
        if v["disagree"]:
            t = Table(title="Disagreements with the framework's own verdict", title_justify="left")
            for c in ("task_id", "truth", "prediction", "framework", "official", "rule (explanation)"):
                t.add_column(c)
            for r in v["disagreements"]:
                t.add_row(
                    _cut(r.get("task_id")), _cut(r.get("truth")), _cut(r.get("prediction")),
                    str(r.get("framework")), str(r.get("official")), _cut(r.get("reason"), 80),
                )
            console.print(t)
    tm = audit.get("templates") or {}
    if tm.get("any"):
        console.print(
            f"Answers still carrying a template: {tm['any']} (FINAL ANSWER:/Final answer: {tm['final_answer']}, "
            f"<answer> tags {tm['answer_tag']}, number with a trailing period {tm['number_period']})"
        )
        if "correct_stripped" in tm:
            console.print(f"  correct as written: {tm['correct_as_written']}; with the templates stripped (--strip-template): {tm['correct_stripped']}")
        else:
            console.print("  graded as written; --strip-template grades them as the template meant")
        rows = tm.get("rows") or []
        for r in rows[: limit or None]:
            console.print(f"  {_cut(r.get('task_id'))}: {_cut(r.get('prediction'))} -> {_cut(r.get('stripped'))}", markup=False)
        if len(rows) < tm["any"]:
            console.print(f"  … {tm['any'] - len(rows)} more")


def print_summary(console, result: dict[str, Any], scorer: str, *, engine: str | None = None) -> None:
    """The archive line, the accuracy by level, the rows by status, exclusions and
    skipped lines of ``result`` (the command's JSON payload)."""
    from gaia_fast.cli.grade import _level_table

    src = f" against {result['metadata']} ({result['split']})" if result["metadata"] else ""
    how = f", engine {engine}" if engine else ""
    console.print(f"{result['archive']} ({result['layout']} layout, {result['input_rows']} rows{how}){src}")
    console.print(_level_table(f"Accuracy by level — scorer {scorer}", result, scorer == "gaia-graded"))
    counts = ", ".join(f"{k} {v}" for k, v in result["status_counts"].items())
    console.print(f"Rows: {result['rows']} ({counts})")
    if result["excluded"]:
        console.print(f"Excluded from accuracy (no truth / task not in metadata): {result['excluded']}")
    if result["skipped_lines"]:
        console.print(f"Skipped lines: {len(result['skipped_lines'])}")


def print_outputs(console, result: dict[str, Any]) -> None:
    """Where ``answer_comparison.csv`` and ``--out`` were written."""
    if result["comparison"]:
        console.print(f"Comparison written to {result['comparison']['path']} ({result['comparison']['rows']} rows)")
    else:
        console.print("No comparison written (--comparison none)")
    if result["out"]:
        console.print(f"All rows written to {result['out']}")
