"""Writes the Inspect logs in this folder with inspect_ai itself, so their format is real.

    python tests/data/inspect_logs/make_logs.py        # needs inspect-ai and inspect-evals

The tasks are MADE UP (no GAIA question or answer): each sample is shaped as inspect_evals'
GAIA task builds it (``id`` = the task id, ``target`` = the final answer, metadata
``level`` and ``Annotator Metadata``) and is scored by inspect_evals' own ``gaia_scorer``.
A canned solver answers instead of a model; one task raises, so its sample carries an
error and no score.

Files:

* ``gaia_made_up.eval``: the current ``.eval`` format (a zip of JSON entries, zstd-compressed
  by inspect_ai >= 0.3.1xx), two epochs (the second answers one task differently).
* ``gaia_made_up_deflate.eval``: the same entries re-zipped with deflate, the compression
  the standard library reads without zstd support.
* ``gaia_made_up.json``: a JSON log, one epoch, scored by two scorers (Inspect's
  ``match()`` first, then ``gaia_scorer``).

The script prints the versions it ran with; README.md records them.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

import inspect_ai
import inspect_evals
import zipfile_zstd  # noqa: F401  (zstd in the standard zipfile, to re-zip the entries)
from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ModelOutput
from inspect_ai.scorer import match
from inspect_ai.solver import Generate, TaskState, solver
from inspect_evals.gaia.scorer import gaia_scorer

HERE = Path(__file__).resolve().parent

# (task id, question, final answer, level, canned answer for epoch 1, for epoch 2)
TASKS = [
    ("0a1b2c3d-0000-4000-8000-000000000001", "How many legs has the made-up zorb?", "17", 1, "17", "17"),
    ("0a1b2c3d-0000-4000-8000-000000000002", "Name the two made-up moons of Quux.", "Ilo, Ama", 2, "ama, ilo", "Ilo, Ama"),
    ("0a1b2c3d-0000-4000-8000-000000000003", "What colour is the made-up flag of Vell?", "teal", 1, "FINAL ANSWER: teal", "Teal"),
    ("0a1b2c3d-0000-4000-8000-000000000004", "What did the made-up tool return?", "4,096", 3, None, None),
    ("0a1b2c3d-0000-4000-8000-000000000005", "Which made-up river is longest?", "Sarn River", 2, "Sarn river", "the Sarn"),
]
CANNED = {(t[0], 1): t[4] for t in TASKS} | {(t[0], 2): t[5] for t in TASKS}


@solver
def canned():
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        answer = CANNED[(state.sample_id, state.epoch)]
        if answer is None:
            raise RuntimeError("made-up tool failure")
        state.output = ModelOutput.from_content(model="mockllm/model", content=answer)
        state.messages.append(state.output.message)
        return state

    return solve


def dataset() -> MemoryDataset:
    return MemoryDataset(
        [
            Sample(
                id=tid,
                input=question,
                target=truth,
                metadata={"level": level, "Annotator Metadata": {"Steps": "made up"}},
            )
            for tid, question, truth, level, _, _ in TASKS
        ],
        name="gaia-made-up",
    )


def run(scorers, epochs: int, log_format: str, out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        task = Task(dataset=dataset(), solver=canned(), scorer=scorers, name="gaia")
        [log] = eval(task, model="mockllm/model", epochs=epochs, log_format=log_format, log_dir=tmp, fail_on_error=False, display="none")
        shutil.copyfile(log.location, out)


def redeflate(src: Path, dst: Path) -> None:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", compression=zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zout.writestr(info.filename, zin.read(info))


def main() -> None:
    run(gaia_scorer(), 2, "eval", HERE / "gaia_made_up.eval")
    redeflate(HERE / "gaia_made_up.eval", HERE / "gaia_made_up_deflate.eval")
    run([match(), gaia_scorer()], 1, "json", HERE / "gaia_made_up.json")
    print(f"python {sys.version.split()[0]}, inspect_ai {inspect_ai.__version__}, inspect_evals {getattr(inspect_evals, '__version__', '?')}")


if __name__ == "__main__":
    main()
