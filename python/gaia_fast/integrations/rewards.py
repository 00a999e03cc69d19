"""Reward functions for RL fine-tuning, in the ``trl`` GRPO convention: a callable taking
``completions`` (plus ``prompts`` and the dataset's columns as keyword arguments) and
returning one float per completion.

::

    from trl import GRPOConfig, GRPOTrainer
    from gaia_fast.integrations.rewards import gaia_reward, boxed_math_reward

    trainer = GRPOTrainer(
        model="Qwen/Qwen2.5-0.5B-Instruct",
        reward_funcs=[gaia_reward(), gaia_reward(graded=True)],   # dataset column "answer"
        train_dataset=dataset,
        args=GRPOConfig(output_dir="out"),
    )

Completions may be plain strings or conversations (a list of ``{"role", "content"}``
messages; the last message's content is scored). GAIA rewards score the text after the last
``FINAL ANSWER:`` (the whole completion without one) in one native batch call; a row with no
truth (null, or GAIA's ``?``) gets ``None``, which trl leaves out of the reward.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["boxed_math_reward", "completion_texts", "gaia_reward", "mcq_reward"]

Reward = Callable[..., list[float | None]]


def completion_texts(completions: Sequence[Any]) -> list[str]:
    """The text of each completion: a string as is, a conversation's last message content."""
    out = []
    for c in completions:
        if isinstance(c, str):
            out.append(c)
        elif isinstance(c, (list, tuple)) and c and isinstance(c[-1], dict):
            content = c[-1].get("content", "")
            if isinstance(content, list):  # multimodal parts: their text
                content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
            out.append(content if isinstance(content, str) else str(content))
        else:
            raise TypeError(f"a completion must be a str or a list of messages, got {type(c).__name__}")
    return out


def _truths(kwargs: dict[str, Any], column: str, n: int) -> list[Any]:
    if column not in kwargs:
        raise KeyError(f"the reward needs the dataset column {column!r}; columns given: {', '.join(sorted(kwargs)) or '(none)'}")
    values = list(kwargs[column])
    if len(values) != n:
        raise ValueError(f"{len(values)} values in column {column!r} for {n} completions")
    return values


def gaia_reward(truth: str = "answer", *, graded: bool = False, level: str | None = "level", extract: bool = True) -> Reward:
    """GAIA reward: 1.0/0.0 from the leaderboard's ``question_scorer``, or with
    ``graded=True`` gaia-fast's 0–1 grade (the task's level from column ``level``)."""
    from gaia_fast.scorers.gaia import last_final_answer

    def reward(completions: Sequence[Any], **kwargs: Any) -> list[float | None]:
        import gaia_fast as gf

        texts = completion_texts(completions)
        preds = [last_final_answer(t) if extract else t for t in texts]
        truths = [None if t is None else str(t) for t in _truths(kwargs, truth, len(texts))]
        levels = kwargs.get(level) if (graded and level) else None
        scores = gf.score_batch(preds, truths, "gaia-graded" if graded else "gaia", levels=list(levels) if levels is not None else None)
        return [None if s is None else float(s) for s in scores.to_list()]

    reward.__name__ = f"gaia_{'graded' if graded else 'exact'}_reward"
    return reward


def mcq_reward(truth: str = "answer", *, variant: str = "classic") -> Reward:
    """Multiple choice: 1.0 when VLMEvalKit's ``can_infer`` reads the letter in column
    ``truth`` from the completion; options from the columns ``A``, ``B``, … or ``choices``."""

    def reward(completions: Sequence[Any], **kwargs: Any) -> list[float | None]:
        from gaia_fast.scorers.vlm.mcq import can_infer

        texts = completion_texts(completions)
        answers = _truths(kwargs, truth, len(texts))
        out: list[float | None] = []
        for i, text in enumerate(texts):
            listed = kwargs.get("choices")
            if listed is not None:
                choices = {string.ascii_uppercase[j]: str(c) for j, c in enumerate(listed[i]) if c is not None}
            else:
                choices = {k: str(kwargs[k][i]) for k in string.ascii_uppercase if k in kwargs and kwargs[k][i] is not None}
            if answers[i] is None or not choices:
                out.append(None)
                continue
            out.append(1.0 if can_infer(text, choices, variant=variant) == str(answers[i]).strip() else 0.0)
        return out

    reward.__name__ = "mcq_reward"
    return reward


def boxed_math_reward(truth: str = "answer", *, precision: float = 1e-8) -> Reward:
    """Math: 1.0 when the last ``\\boxed{…}`` of the completion equals the truth under
    OlympiadBench's equivalence (SymPy in worker processes, hard per-item timeout)."""

    def reward(completions: Sequence[Any], **kwargs: Any) -> list[float | None]:
        from gaia_fast.math.olympiad import olympiad_equal
        from gaia_fast.scorers.vlm.physics import extract_boxed

        texts = completion_texts(completions)
        answers = _truths(kwargs, truth, len(texts))
        out: list[float | None] = []
        for text, answer in zip(texts, answers):
            if answer is None:
                out.append(None)
                continue
            boxed = extract_boxed(text)
            out.append(1.0 if boxed and olympiad_equal(boxed[-1], str(answer), precision=precision) else 0.0)
        return out

    reward.__name__ = "boxed_math_reward"
    return reward
