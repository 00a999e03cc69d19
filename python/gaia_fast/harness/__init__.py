"""Run an agent on GAIA: task and result types (agent-framework compatible).

The loader is :func:`gaia_fast.datasets.gaia.load`, the runner :func:`gaia_fast.harness.runner.run`
(``run_sync`` for scripts) and the command ``gaia-fast run MODULE:FUNCTION``.
"""

from gaia_fast.harness.types import Evaluation, Evaluator, Prediction, Task, TaskResult, TaskRunner

__all__ = ["Evaluation", "Evaluator", "Prediction", "Task", "TaskResult", "TaskRunner"]
