"""Leaderboard files that look like real public exports, for the end-to-end tests and benchmarks.

The files in ``tests/data/messy/`` are written by this script (``python tests/messy_exports.py``)
and committed, so they can be opened and read as a user would. Scores follow a latent quality
per system plus task-specific noise (a real leaderboard is far from random), and every
file carries the defects of real exports:

``glue_like.csv``
    100 rows in the layout of the GLUE leaderboard: ``Rank``, ``Name`` (team), ``Model``,
    ``URL``, ``Score`` (the row mean, rounded), then 11 task columns, three of them composite
    (``F1/Acc``) with some cells missing a half (``-/88.1``, ``/90.2``); 30% empty cells
    (``""`` or ``-``), two rows sharing a model name, names with a newline, a tab, runs of
    spaces and markdown specials, one system scored on a single task.
``sparse_22x15.csv``
    22 systems x 15 tasks where four systems are scored on 1 to 3 tasks and one (a strong
    "human baseline") on 6 of the 15.
``long_format.csv``
    The same kind of scores in long format (``system,task,score``), one row per cell.
``board_{N}x{T}.csv``
    Clean-header boards with about 20% empty cells for the benchmarks (``Model`` + tasks).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).parent / "data" / "messy"

GLUE_TASKS = ["CoLA", "SST-2", "MRPC", "STS-B", "QQP", "MNLI-m", "MNLI-mm", "QNLI", "RTE", "WNLI", "AX"]
COMPOSITE = {"MRPC", "STS-B", "QQP"}


def _latent_scores(rng: np.random.Generator, n: int, t: int) -> np.ndarray:
    """n x t scores in [0, 100]: a latent quality per system, a difficulty and spread per task."""
    quality = np.sort(rng.normal(0.0, 1.0, n))[::-1]
    base = rng.uniform(45, 85, t)
    slope = rng.uniform(3, 9, t)
    noise = rng.normal(0.0, 1.0, (n, t)) * rng.uniform(1.0, 4.0, t)
    return np.clip(base + slope * quality[:, None] + noise, 0, 100)


def glue_like(seed: int = 0, n: int = 100) -> pd.DataFrame:
    """The GLUE-like export (all cells as text, the way a CSV holds them)."""
    rng = np.random.default_rng(seed)
    main = _latent_scores(rng, n, len(GLUE_TASKS))
    second = np.clip(main + rng.normal(2.0, 1.5, main.shape), 0, 100)
    empty = rng.random(main.shape) < 0.30
    empty[:5] = False  # the top of a real leaderboard is fully evaluated
    empty[n - 7, :] = True
    empty[n - 7, 0] = False  # one system scored on a single task
    models = [f"model-{i}" for i in range(n)]
    models[3] = "RoBERTa\n(ensemble)"
    models[7] = "T5 | 11B"
    models[11] = "  ALBERT\t*xxlarge*  "
    models[15] = "BERT   base"
    models[40] = models[41] = "BERT-large"
    rows = []
    for i in range(n):
        row: dict[str, str] = {"Rank": "", "Name": f"team {i % 37}", "Model": models[i],
                               "URL": f"https://example.org/{i}"}
        cells = []
        for j, task in enumerate(GLUE_TASKS):
            if empty[i, j]:
                cell = "" if rng.random() < 0.5 else "-"
            elif task in COMPOSITE:
                halves = [f"{main[i, j]:.1f}", f"{second[i, j]:.1f}"]
                if rng.random() < 0.08:
                    halves[rng.integers(2)] = ["-", "", "NaN"][rng.integers(3)]
                cell = "/".join(halves)
            else:
                cell = f"{main[i, j]:.1f}"
            cells.append(cell)
            row[task] = cell
        scored = [main[i, j] for j in range(len(GLUE_TASKS)) if not empty[i, j]]
        row["Score"] = f"{np.mean(scored):.1f}"
        rows.append(row)
    frame = pd.DataFrame(rows)
    order = np.argsort(-frame["Score"].astype(float).to_numpy(), kind="stable")
    frame = frame.iloc[order].reset_index(drop=True)
    frame["Rank"] = [str(i + 1) for i in range(n)]
    return frame[["Rank", "Name", "Model", "URL", "Score", *GLUE_TASKS]]


def sparse_board(seed: int = 1) -> pd.DataFrame:
    """22 x 15 with four barely evaluated systems and a strong partial human baseline."""
    rng = np.random.default_rng(seed)
    values = _latent_scores(rng, 17, 15)
    frame = pd.DataFrame(values.round(1), index=[f"sys-{i:02d}" for i in range(17)],
                         columns=[f"task{j + 1}" for j in range(15)])
    frame.index.name = "system"
    holes = rng.random(frame.shape) < 0.1
    holes[:3] = False
    frame = frame.mask(holes)
    for name, k in (("tiny-1", 1), ("tiny-2", 2), ("tiny-3", 3), ("tiny-3b", 3)):
        row = pd.Series(np.nan, index=frame.columns)
        picked = rng.choice(15, k, replace=False)
        row.iloc[picked] = 100.0  # perfect on the few tasks it was run on
        frame.loc[name] = row
    human = pd.Series(np.nan, index=frame.columns)
    human.iloc[:6] = frame.iloc[:, :6].max().to_numpy() + 5  # beats everyone where evaluated
    frame.loc["human baseline"] = human
    return frame.reset_index()


def long_format(seed: int = 2) -> pd.DataFrame:
    """One row per scored cell of a 14 x 14 board (196 rows), columns system, task, score."""
    rng = np.random.default_rng(seed)
    values = _latent_scores(rng, 14, 14)
    rows = [{"system": f"sys-{i}", "task": f"task-{j}", "score": round(values[i, j], 2)}
            for i in range(14) for j in range(14)]
    return pd.DataFrame(rows)


def board(n: int, t: int, seed: int = 0, missing: float = 0.2) -> pd.DataFrame:
    """A clean-header n x t board with a latent quality and `missing` empty cells."""
    rng = np.random.default_rng(seed)
    values = _latent_scores(rng, n, t).round(1)
    frame = pd.DataFrame(values, columns=[f"task{j + 1}" for j in range(t)])
    frame = frame.mask(rng.random(frame.shape) < missing)
    frame.iloc[:, 0] = values[:, 0]  # no system left without a score
    frame.insert(0, "Model", [f"model-{i}" for i in range(n)])
    return frame


def main() -> None:
    HERE.mkdir(parents=True, exist_ok=True)
    glue_like().to_csv(HERE / "glue_like.csv", index=False)
    sparse_board().to_csv(HERE / "sparse_22x15.csv", index=False)
    long_format().to_csv(HERE / "long_format.csv", index=False)
    for n, t in ((100, 14),):
        board(n, t).to_csv(HERE / f"board_{n}x{t}.csv", index=False)


if __name__ == "__main__":
    main()
