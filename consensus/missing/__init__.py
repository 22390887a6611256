"""The preparation stage and missing scores: policies, imputation, confidence.

The names below are this stage's public API; each lives in a private module (imported on
first use, so importing the stage costs nothing until a name is used):

==============================  ======================================================================
module                          what it holds
==============================  ======================================================================
:mod:`._preparation`            The preparation stage: what every question does to a leaderboard
                                before it is asked
:mod:`._impute`                 Missing scores: pairwise matrices of compatible rankings (Himmi et al.
                                2023)
:mod:`._imputation_sums`        The sums behind the imputed pairwise matrix: every partial ranking's
                                compatible-permutation matrix, added up
:mod:`._partial_sums`           Additive partial sums of the imputed pairwise matrix, and the two
                                kernels that fill them
:mod:`._confidence`             How sure is each pairwise comparison? Hoeffding intervals from the
                                direct comparisons only
:mod:`._instance_source`        Instance-level scores that stay where they are: a path, a glob or a
                                Dask DataFrame, summed in place
:mod:`._source_files`           The files an :class:`~consensus.missing.InstanceSource` names, opened
                                within the reading limits
:mod:`._source_rows`            The rows of instance-level files, decoded chunk by chunk: labels, item
                                ids and scores as arrays
:mod:`._item_blocks`            Instance-level files summed by item blocks: one pass over the files, in
                                bounded memory, no Dask
:mod:`._dask_sums`              The pairwise sums of an :class:`~consensus.missing.InstanceSource` on
                                Dask, by item blocks: every block a task
:mod:`._possible`               Who can still win? Possible and necessary winners and rank ranges
                                over every completion of the missing scores
:mod:`._possible_borda`         Borda under missing scores: bounds, greedy completions and the
                                integer programs of :mod:`solvers.completion_borda`
:mod:`._possible_positional`    Positional rules under missing scores (plurality, Dowdall, any
                                scoring vector): possible and necessary winners, exactly
==============================  ======================================================================
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "MISSING_POLICIES": "_preparation",
    "MissingPolicy": "_preparation",
    "PAIRWISE_TREATMENT": "_preparation",
    "Prepared": "_preparation",
    "prepare": "_preparation",
    "prepared_for": "_preparation",
    "board_of": "_preparation",
    "check_missing": "_preparation",
    "check_group_option": "_preparation",
    "group_weight_values": "_preparation",
    "median_filled": "_preparation",
    "with_scores": "_preparation",
    "impute_pairwise": "_impute",
    "sigma_l": "_impute",
    "sigma_2l": "_impute",
    "mean_baseline": "_impute",
    "partial_ranking_matrix": "_impute",
    "position_distribution": "_impute",
    "order_statistic_table": "_impute",
    "order_statistic_band": "_impute",
    "rank_bounds": "_impute",
    "SCORE_TOL": "_imputation_sums",
    "MAX_LEVELS": "_imputation_sums",
    "PartialSums": "_imputation_sums",
    "Summed": "_imputation_sums",
    "Units": "_imputation_sums",
    "units_of": "_imputation_sums",
    "accumulate": "_imputation_sums",
    "summed": "_imputation_sums",
    "midranks": "_imputation_sums",
    "KERNELS": "_partial_sums",
    "pairwise_confidence": "_confidence",
    "InstanceSource": "_instance_source",
    "dask_summed": "_dask_sums",
    "source_frame": "_dask_sums",
    "source_files": "_source_files",
    "SPLIT_EVERY": "_dask_sums",
    "FILE_SUFFIXES": "_source_files",
    "stream_summed": "_item_blocks",
    "memory_setting": "_instance_source",
    "POSSIBLE_RULES": "_possible",
    "RANGE_RULES": "_possible",
    "possible_winners": "_possible",
    "rank_ranges": "_possible",
}

__all__ = list(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # what type checkers see behind the lazy names (a test keeps it equal to _EXPORTS)
    from ._confidence import pairwise_confidence
    from ._dask_sums import SPLIT_EVERY, dask_summed, source_frame
    from ._imputation_sums import (
        MAX_LEVELS,
        SCORE_TOL,
        PartialSums,
        Summed,
        Units,
        accumulate,
        midranks,
        summed,
        units_of,
    )
    from ._impute import (
        impute_pairwise,
        mean_baseline,
        order_statistic_band,
        order_statistic_table,
        partial_ranking_matrix,
        position_distribution,
        rank_bounds,
        sigma_2l,
        sigma_l,
    )
    from ._instance_source import InstanceSource, memory_setting
    from ._item_blocks import stream_summed
    from ._partial_sums import KERNELS
    from ._possible import POSSIBLE_RULES, RANGE_RULES, possible_winners, rank_ranges
    from ._preparation import (
        MISSING_POLICIES,
        PAIRWISE_TREATMENT,
        MissingPolicy,
        Prepared,
        board_of,
        check_group_option,
        check_missing,
        group_weight_values,
        median_filled,
        prepare,
        prepared_for,
        with_scores,
    )
    from ._source_files import FILE_SUFFIXES, source_files
