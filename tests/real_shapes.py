"""Leaderboard files in the shapes users export, built here (seeded), for the reading-step tests.

Each builder returns a pandas frame laid out as the tool exports it; ``write_csv`` writes it.
The numbers are synthetic; the column layout, header styles, scales and rounding follow the
public exports (the Open LLM Leaderboard v1 and v2 CSV downloads, HELM's efficiency and
calibration tables, a GEM-like per-task export with output statistics).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

#: The six benchmarks of an OLL-v2-like export.
V2_TASKS = ("IFEval", "BBH", "MATH Lvl 5", "GPQA", "MUSR", "MMLU-PRO")


def oll_v2_like(n: int = 348, seed: int = 0) -> pd.DataFrame:
    """An OLL-v2-like export: metadata columns, an average under a header no name list catches
    ("Open LLM score"), six benchmarks (0-100, two decimals) and IFEval again on a 0-1 scale
    ("IFEval Raw"). Systems ``top-a`` and ``top-b`` split the six benchmarks 3-3 and beat every
    other model on each; ``top-a`` has the higher average and wins on the repeated benchmark."""
    rng = np.random.default_rng(seed)
    scores = rng.uniform(2, 60, (n, 6))
    scores[0] = [88, 72, 52, 20, 20, 45]  # top-a: wins IFEval, BBH, MATH (and has the higher mean)
    scores[1] = [80, 66, 45, 25, 25, 50]  # top-b: wins GPQA, MUSR, MMLU-PRO
    scores[2:, :3] = np.minimum(scores[2:, :3], [79, 65, 44])
    scores[2:, 3:] = np.minimum(scores[2:, 3:], [19, 19, 44])
    scores = np.round(scores, 2)
    frame = pd.DataFrame({
        "eval_name": [f"org{k % 17}/model-{k}" for k in range(n)],
        "Precision": rng.choice(["bfloat16", "float16"], n),
        "Type": rng.choice(["pretrained", "fine-tuned", "chat"], n),
        "Open LLM score": np.round(scores.mean(axis=1), 2),
    })
    frame.loc[0, "eval_name"], frame.loc[1, "eval_name"] = "top-a", "top-b"
    for j, task in enumerate(V2_TASKS):
        frame[task] = scores[:, j]
        if task == "IFEval":
            frame["IFEval Raw"] = np.round(scores[:, j] / 100, 4)
    frame["#Params (B)"] = np.round(rng.uniform(0.5, 72, n), 2)
    frame["Hub License"] = rng.choice(["apache-2.0", "mit", "other"], n)
    frame["Hub ❤️"] = rng.integers(0, 5000, n)
    return frame


def oll_v1_like(n: int = 40, seed: int = 1) -> pd.DataFrame:
    """An OLL-v1-like export with a plain ``Parameters`` column (billions); ``huge-model`` has by
    far the most parameters and mediocre scores."""
    rng = np.random.default_rng(seed)
    tasks = ("ARC", "HellaSwag", "MMLU", "TruthfulQA", "Winogrande", "GSM8K")
    scores = np.round(rng.uniform(30, 80, (n, len(tasks))), 1)
    frame = pd.DataFrame({"Model": [f"model-{k}" for k in range(n)]})
    frame.loc[0, "Model"] = "huge-model"
    scores[0] = np.round(np.median(scores, axis=0), 1)
    for j, t in enumerate(tasks):
        frame[t] = scores[:, j]
    params = np.round(rng.uniform(1, 13, n), 1)
    params[0] = 180.0
    frame["Parameters"] = params
    frame["Architecture"] = rng.choice(["LlamaForCausalLM", "MistralForCausalLM"], n)
    return frame


HELM_SCENARIOS = ("NarrativeQA", "NaturalQuestions (open-book)", "QuAC", "MMLU", "IMDB", "CivilComments")


def helm_efficiency_like(n: int = 12, seed: int = 2) -> pd.DataFrame:
    """A HELM-like efficiency table: "Mean win rate" and one "<scenario> - Observed inference time
    (s)" column per scenario. ``fast-model`` is the fastest everywhere, ``slow-model`` the slowest."""
    rng = np.random.default_rng(seed)
    times = np.round(rng.uniform(0.4, 3.0, (n, len(HELM_SCENARIOS))), 3)
    times[0] = 0.1  # fast-model
    times[1] = 9.0  # slow-model
    frame = pd.DataFrame({"Model/adapter": [f"model-{k}" for k in range(n)]})
    frame.loc[0, "Model/adapter"], frame.loc[1, "Model/adapter"] = "fast-model", "slow-model"
    frame["Mean win rate"] = np.round(1 - (times.argsort(axis=0).argsort(axis=0).mean(axis=1) / (n - 1)), 3)
    for j, s in enumerate(HELM_SCENARIOS):
        frame[f"{s} - Observed inference time (s)"] = times[:, j]
    return frame


def helm_calibration_like(n: int = 12, seed: int = 3) -> pd.DataFrame:
    """A HELM-like calibration table: "Mean win rate" and "<scenario> - ECE (10-bin)" columns;
    ``calibrated`` has the smallest error everywhere, ``overconfident`` the largest."""
    rng = np.random.default_rng(seed)
    ece = np.round(rng.uniform(0.05, 0.3, (n, 4)), 3)
    ece[0] = 0.01
    ece[1] = 0.6
    frame = pd.DataFrame({"Model/adapter": [f"model-{k}" for k in range(n)]})
    frame.loc[0, "Model/adapter"], frame.loc[1, "Model/adapter"] = "calibrated", "overconfident"
    frame["Mean win rate"] = np.round(rng.uniform(0, 1, n), 3)
    for j, s in enumerate(HELM_SCENARIOS[:4]):
        frame[f"{s} - ECE (10-bin)"] = ece[:, j]
    return frame


def gem_like(seed: int = 4) -> pd.DataFrame:
    """A GEM-like per-task export: 12 submissions x 15 tasks of ROUGE-L, an error rate, an
    output-length statistic; ``sparse-sub`` is scored on 3 tasks only (and is best on them)."""
    rng = np.random.default_rng(seed)
    n, tasks = 12, [f"task{k:02d} ROUGE-L" for k in range(15)]
    scores = np.round(rng.uniform(10, 40, (n, len(tasks))), 2)
    scores[0, :] = np.nan
    scores[0, :3] = 60.0  # sparse-sub: best on the 3 tasks it was run on
    frame = pd.DataFrame(scores, columns=tasks)
    frame.insert(0, "submission", ["sparse-sub"] + [f"sub-{k}" for k in range(1, n)])
    err = np.round(rng.uniform(0.05, 0.4, n), 3)
    err[1] = 0.01  # sub-1 makes the fewest errors
    frame["Hallucination error rate"] = err
    frame["Avg length"] = np.round(rng.uniform(10, 60, n), 1)
    return frame


def write_csv(frame: pd.DataFrame, path: Path) -> Path:
    """`frame` as a CSV file (no index), the way the leaderboards offer their downloads."""
    frame.to_csv(path, index=False)
    return path
