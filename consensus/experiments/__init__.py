"""The papers' robustness experiments, for any list of rules (exact Kemeny included).

Every experiment takes a leaderboard (or draws one from the Gumbel model of Colombo et al.
2022 sec. 4.1), a list of rules, a number of repetitions and a seed, and returns an
:class:`~consensus.results.ExperimentResult`: a tidy table (one row per repetition x rule x
setting), its ``summary()``, and a figure (:func:`consensus.plot.plot_experiment`).
Repetition ``r`` draws from ``numpy.random.SeedSequence(seed).spawn(R)[r]``, so the table is
the same in this process (``scheduler=None``), on a local Dask cluster
(``scheduler="processes"``) or on a running one (a ``distributed.Client`` or its address):
:mod:`consensus.resampling._repetitions`.

- :func:`manipulation` (Colombo et al. sec. 4.2): the rankings of ``t`` tasks reversed;
- :func:`scaling` (sec. 4.3): one task's scores multiplied by ``lambda``;
- :func:`task_removal` (sec. 5.2): random subsets of tasks, Kendall tau to the full ranking;
- :func:`missing_scores` (Himmi et al. sec. 3): a share ``eta`` of the scores removed;
- :func:`iia` (Vote'n'Rank sec. 3.1, Table 2): systems added one at a time.

The earlier missing-score study of sigma_l against the mean, :func:`robustness_experiment`,
and its helpers :func:`gumbel_instances` and :func:`remove_scores`, live here too.
"""

from .iia import VOTENRANK_OPTIONS, VOTENRANK_RULES, iia
from .missing import gumbel_instances, remove_scores, robustness_experiment
from .perturbations import manipulation, missing_scores, scaling, task_removal

__all__ = [
    "VOTENRANK_OPTIONS",
    "VOTENRANK_RULES",
    "gumbel_instances",
    "iia",
    "manipulation",
    "missing_scores",
    "remove_scores",
    "robustness_experiment",
    "scaling",
    "task_removal",
]
