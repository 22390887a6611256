"""Which way well-known metrics point: is a higher score better, or a lower one?

Result files of evaluation tools name the metric of each score (``"acc,none"``,
``"exact_match"``, ``"word_perplexity"``, ``"main_score"``) but rarely its direction, and a
leaderboard needs one per task. :func:`metric_direction` knows the common ones; anything else
must be given by the user (``higher_is_better=[...]`` / ``lower_is_better=[...]``), never
guessed. Standard errors (``acc_stderr,none``) are not scores at all (:func:`is_stderr`).

Names are compared after :func:`normalize_metric`: lower-cased, the lm-evaluation-harness
filter suffix dropped (``"acc,none"`` -> ``"acc"``, ``"exact_match,strict-match"`` ->
``"exact_match"``), spaces and hyphens as underscores (``"ROUGE-L"`` -> ``"rouge_l"``).

Higher is better: accuracy (``acc``, ``acc_norm``, ``accuracy``, ...), exact match (``em``,
``exact_match``, HELM's ``quasi_exact_match``, ...), F1, BLEU, ROUGE, chrF, METEOR, MCC,
Pearson / Spearman / Kendall correlations, AUC and average precision, NDCG / MAP / MRR /
recall / precision / hits (also ``@k`` and ``_at_k``), ``pass@k``, win rates, MTEB's
``main_score``. Lower is better: perplexity (``ppl``, ``word_perplexity``,
``byte_perplexity``), ``bits_per_byte``, error rates (``error``, ``wer``, ``cer``, ``ter``),
losses, calibration errors (``ece``, HELM's ``ece_10_bin``), latency and runtimes, absolute
and squared errors.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Literal

__all__ = [
    "Direction",
    "HIGHER_IS_BETTER",
    "LOWER_IS_BETTER",
    "normalize_metric",
    "split_filter",
    "is_stderr",
    "metric_direction",
    "direction_of",
    "LOWER_WORDS",
    "HIGHER_WORDS",
    "column_direction",
]

Direction = Literal["higher", "lower"]

#: Metric names (normalized) where a higher score is better.
HIGHER_IS_BETTER: frozenset[str] = frozenset({
    # accuracy and exact match (lm-evaluation-harness, HELM, generic)
    "acc", "acc_norm", "acc_mutual_info", "accuracy", "balanced_accuracy", "top1_accuracy", "top5_accuracy",
    "exact_match", "em", "exact", "quasi_exact_match", "prefix_exact_match", "quasi_prefix_exact_match",
    "exact_match_indicator", "exact_str_match", "contains", "math_equiv", "math_equiv_chain_of_thought",
    "chain_of_thought_correctness", "omni_math_accuracy", "pass", "solve_rate",
    "prompt_level_strict_acc", "prompt_level_loose_acc", "inst_level_strict_acc", "inst_level_loose_acc",
    "ifeval_strict_accuracy", "wildbench_score", "win_rate", "mean_win_rate", "length_controlled_winrate",
    # classification and overlap
    "f1", "f1_score", "macro_f1", "micro_f1", "f1_macro", "f1_micro", "weighted_f1", "f1_weighted",
    "classification_macro_f1", "classification_micro_f1", "f1_set_match", "bleu", "sacrebleu", "chrf", "chrf++",
    "meteor", "bertscore", "bleurt", "comet", "mcc", "matthews_correlation", "pearson", "spearman", "kendall",
    "kendall_tau", "cosine_spearman", "cosine_pearson", "auc", "roc_auc", "auroc", "ap", "ap_weighted",
    "average_precision", "mean_average_precision", "v_measure", "max_ap", "max_f1", "similarity_ap",
    "cos_sim_ap", "logprob", "selective_cov_acc_area",
    # MTEB
    "main_score",
})

#: Metric names (normalized) where a lower score is better.
LOWER_IS_BETTER: frozenset[str] = frozenset({
    "perplexity", "ppl", "word_perplexity", "byte_perplexity", "token_perplexity", "bits_per_byte", "bpb",
    "error", "error_rate", "err", "wer", "cer", "ter", "loss", "nll", "cross_entropy",
    "latency", "runtime", "inference_runtime", "inference_denoised_runtime", "inference_idealized_runtime",
    "evaluation_time", "ece", "ece_1_bin", "ece_10_bin", "platt_ece_1_bin", "platt_ece_10_bin", "brier_score",
    "toxic_frac", "expected_max_toxicity", "max_toxicity_probability", "absolute_value_difference",
    "mae", "mse", "rmse", "mape",
})

# families: ROUGE variants, ranking metrics at k, pass@k, BLEU-n
_HIGHER_PATTERNS = tuple(re.compile(p) for p in (
    r"rouge(_?[0-9l]|_?lsum)?(_(f|f1|fmeasure|precision|recall))?",
    r"(ndcg|map|mrr|rr|recall|precision|hits?|hit_rate|success|acc|accuracy|exact_match|em|f1)(@\d+|_at_\d+)",
    r"(ndcg|map|mrr)",
    r"pass(@|_at_)\d+",
    r"bleu_?\d",
    r"(quasi_)?(prefix_)?exact_match@\d+",
))
_LOWER_PATTERNS = tuple(re.compile(p) for p in (
    r"\w*_perplexity",
    r"\w*_loss",
    r"(platt_)?ece_\d+_bin",
    r"\w*_runtime",
    r"latency_\w+",
))


def split_filter(name: str) -> tuple[str, str | None]:
    """A metric key of lm-evaluation-harness split into the metric and its filter.

    Parameters
    ----------
    name : str
        ``"metric,filter"`` as lm-evaluation-harness (0.4 and later) writes its results, or a
        bare metric name.

    Returns
    -------
    (str, str or None)
        The metric and the filter (None without a comma), both stripped.

    Examples
    --------
    >>> split_filter("exact_match,strict-match"), split_filter("acc")
    (('exact_match', 'strict-match'), ('acc', None))
    """
    metric, comma, rest = str(name).partition(",")
    return metric.strip(), (rest.strip() if comma else None)


def normalize_metric(name: str) -> str:
    """The form in which metric names are compared: lower case, no filter, ``_`` for space and ``-``.

    Parameters
    ----------
    name : str
        A metric name as written in a result file.

    Returns
    -------
    str

    Examples
    --------
    >>> normalize_metric("acc_norm,none"), normalize_metric("ROUGE-L"), normalize_metric(" NDCG@10 ")
    ('acc_norm', 'rouge_l', 'ndcg@10')
    """
    metric, _ = split_filter(name)
    return re.sub(r"[\s\-]+", "_", metric.strip().lower())


def is_stderr(name: str) -> bool:
    """Whether a result key is a standard error (``acc_stderr,none``, ``stderr``), not a score.

    Parameters
    ----------
    name : str
        A metric key as written in a result file.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_stderr("acc_stderr,none"), is_stderr("acc,none"), is_stderr("word_perplexity_stderr")
    (True, False, True)
    """
    base = normalize_metric(name)
    return base == "stderr" or base.endswith("_stderr") or base.startswith("stderr_")


def metric_direction(name: str) -> Direction | None:
    """Whether a higher or a lower value of a well-known metric is better.

    Parameters
    ----------
    name : str
        A metric name as a result file writes it (normalized first, see :func:`normalize_metric`).

    Returns
    -------
    {"higher", "lower"} or None
        None for an unknown metric, and for a standard error (not a score, see
        :func:`is_stderr`).

    Examples
    --------
    >>> metric_direction("acc,none"), metric_direction("word_perplexity"), metric_direction("ndcg_at_10")
    ('higher', 'lower', 'higher')
    >>> metric_direction("acc_stderr,none"), metric_direction("my_metric") is None
    (None, True)
    """
    if is_stderr(name):
        return None
    base = normalize_metric(name)
    if base in HIGHER_IS_BETTER:
        return "higher"
    if base in LOWER_IS_BETTER:
        return "lower"
    if any(p.fullmatch(base) for p in _HIGHER_PATTERNS):
        return "higher"
    if any(p.fullmatch(base) for p in _LOWER_PATTERNS):
        return "lower"
    return None


def direction_of(
    task: str,
    metric: str | None,
    *,
    higher: Iterable[str] = (),
    lower: Iterable[str] = (),
    declared: Mapping[str, bool] | None = None,
) -> tuple[Direction | None, str]:
    """The direction of one task's scores and where it comes from.

    The user's word wins (`higher` / `lower` naming the task or its metric), then what the
    file declares (`declared`, e.g. lm-evaluation-harness's ``higher_is_better``), then
    :func:`metric_direction` of the metric (or of the task name when there is no metric).

    Parameters
    ----------
    task : str
        The task (leaderboard column).
    metric : str or None
        The metric its scores are in; None when the file names no metric.
    higher, lower : iterable of str
        Tasks or metrics the user declared higher- / lower-is-better (compared normalized).
    declared : Mapping, optional
        Metric (normalized) -> higher is better, as the result file declares it.

    Returns
    -------
    (direction or None, str)
        ``"higher"`` / ``"lower"`` (None when unknown) and its source: ``"given"``,
        ``"declared by the file"``, ``"known metric"``, or ``""`` when unknown.

    Examples
    --------
    >>> direction_of("wikitext", "word_perplexity,none")
    ('lower', 'known metric')
    >>> direction_of("qa", "score", higher=["qa"])
    ('higher', 'given')
    """
    higher, lower = list(higher), list(lower)
    base = normalize_metric(metric) if metric is not None else None
    sides: tuple[tuple[list[str], Direction], ...] = ((higher, "higher"), (lower, "lower"))
    for names, way in sides:
        # a task is named exactly; a metric as normalized ("Word_Perplexity" is word_perplexity)
        if task in names or (base is not None and base in {normalize_metric(x) for x in names}):
            return way, "given"
    if metric is not None and declared:
        value = declared.get(normalize_metric(metric))
        if isinstance(value, bool):
            return ("higher" if value else "lower"), "declared by the file"
    found = metric_direction(metric if metric is not None else task)
    return found, ("known metric" if found else "")


#: Words that make a column name a lower-is-better metric (a word of the name, lower-cased), by kind.
LOWER_WORDS: Mapping[str, str] = {
    **dict.fromkeys(("time", "times", "latency", "seconds", "secs", "sec", "runtime", "duration", "ms"), "a time"),
    **dict.fromkeys(("memory", "vram", "ram"), "a memory use"),
    **dict.fromkeys(("cost", "costs", "price", "usd", "dollars", "energy", "emissions"), "a cost"),
    **dict.fromkeys(("error", "errors", "err", "wer", "cer", "ter", "mae", "mse", "rmse", "mape", "smape"), "an error"),
    **dict.fromkeys(("loss", "nll", "perplexity", "ppl", "bpb", "bpc"), "a loss"),
    **dict.fromkeys(("ece", "brier"), "a calibration error"),
    **dict.fromkeys(("toxicity", "toxic"), "a toxicity"),
}

#: Words that keep a column higher-is-better even beside a lower word ("bias accuracy",
#: "tokens per second", "accuracy on error detection").
HIGHER_WORDS: frozenset[str] = frozenset({
    "acc", "accuracy", "f1", "score", "bleu", "rouge", "chrf", "meteor", "em", "exact", "match", "win", "wins",
    "precision", "recall", "auc", "auroc", "correlation", "pearson", "spearman", "kendall", "pass", "success",
    "throughput", "per", "ndcg", "map", "mrr", "hits", "reward", "elo", "speedup", "coverage", "detection",
})

_WORD = re.compile(r"[a-z0-9]+")


def column_direction(name: str) -> tuple[Direction | None, str]:
    """Which way a leaderboard column points, from its name: a known metric, else its words.

    A name that is a known metric (:func:`metric_direction`: ``word_perplexity``, ``acc_norm``)
    decides alone. Otherwise the name is split into words (lower case, runs of letters and
    digits: ``"Observed inference time (s)"`` -> observed, inference, time, s; camel case is not
    split, so ``TimeQA`` is one word and a task); a word of :data:`LOWER_WORDS` makes the
    column lower-is-better unless a word of :data:`HIGHER_WORDS` is also there (``BBQ bias
    accuracy``, ``tokens per second``). A standard error (``qa_stderr``, ``Std. error``) has
    no direction. Anything else is unknown (None): plain score tables read it as
    higher-is-better.

    Parameters
    ----------
    name : str
        A column name.

    Returns
    -------
    (direction or None, str)
        The direction and why (``"named like a time: 'time'"``), or ``(None, "")``.

    Examples
    --------
    >>> column_direction("Observed inference time (s)"), column_direction("ECE (10-bin)")
    (('lower', "named like a time: 'time'"), ('lower', "named like a calibration error: 'ece'"))
    >>> column_direction("TimeQA"), column_direction("BBQ bias accuracy"), column_direction("Std. error")
    ((None, ''), (None, ''), (None, ''))
    >>> column_direction("word_perplexity")
    ('lower', "a known lower-is-better metric: 'word_perplexity'")
    """
    text = str(name)
    if is_stderr(text) or re.search(r"(?i)\bstd\.?\s*err|standard\s+error", text):
        return None, ""
    known = metric_direction(text)
    if known is not None:
        return known, f"a known {known}-is-better metric: {normalize_metric(text)!r}"
    words = _WORD.findall(text.lower())
    if any(w in HIGHER_WORDS for w in words):
        return None, ""
    for w in words:
        if w in LOWER_WORDS:
            return "lower", f"named like {LOWER_WORDS[w]}: {w!r}"
    return None, ""
