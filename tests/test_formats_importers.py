"""Importers of other tools' result files (consensus.formats), on fixtures in the tools' real shapes.

The fixtures in tests/data/formats/ follow what the tools write: lm-evaluation-harness 0.4
(``OUT/<model>/results_<ts>.json`` and ``samples_<task>_<ts>.jsonl``), a HELM suite
(``benchmark_output/runs/v1/<run>/{run_spec.json, stats.json}``), MTEB results
(``results/<model>/<revision>/<Task>.json`` + ``model_meta.json``) and a directory with one
file per model. Malformed variants are written to a temporary directory by each test.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import consensus as cs
from consensus.errors import InvalidOptionError, LeaderboardError, UnknownTaskError
from consensus.formats import read_format
from consensus.formats.errors import (
    DuplicateResultError,
    FormatError,
    MetricDirectionError,
)
from consensus.formats.harness import read_harness_results, read_harness_samples
from consensus.formats.helm import read_helm
from consensus.formats.helm_summary import read_helm_summary
from consensus.formats.metrics import is_stderr, metric_direction
from consensus.formats.model_dir import read_model_dir
from consensus.formats.mteb import read_mteb

from .cli_runner import run_cli, run_cli_many

DATA = Path(__file__).parent / "data" / "formats"
HARNESS = DATA / "harness" / "output"
SUITE = DATA / "helm" / "benchmark_output" / "runs" / "v1"
MTEB = DATA / "mteb" / "results"
MODEL_DIR = DATA / "model_dir"
P160, P410 = "EleutherAI/pythia-160m", "EleutherAI/pythia-410m"
STAMP = "2024-05-01T12-00-00.123456"
MMLU = "mmlu:subject=anatomy,method=multiple_choice_joint"
NQ = "natural_qa:mode=closedbook"
HARNESS_METRICS = {"arc_easy": "acc_norm", "gsm8k": "exact_match,strict-match", "wikitext": "word_perplexity",
                   "mmlu_anatomy": "acc", "mmlu_astronomy": "acc"}


def copy_tree(source: Path, tmp_path: Path) -> Path:
    target = tmp_path / source.name
    shutil.copytree(source, target)
    return target


def note_with(notes: tuple[str, ...] | list[str], text: str) -> str:
    found = [n for n in notes if text in n]
    assert found, f"no note with {text!r} in {notes}"
    return found[0]


# ---------------------------------------------------------------- metric directions
@pytest.mark.parametrize(("name", "direction"), [
    ("acc,none", "higher"), ("acc_norm,none", "higher"), ("exact_match,strict-match", "higher"), ("em", "higher"),
    ("f1", "higher"), ("bleu", "higher"), ("ROUGE-L", "higher"), ("rouge2", "higher"), ("chrf", "higher"),
    ("mcc", "higher"), ("spearman", "higher"), ("ndcg_at_10", "higher"), ("NDCG@10", "higher"), ("map@100", "higher"),
    ("mrr_at_10", "higher"), ("recall_at_100", "higher"), ("pass@1", "higher"), ("win_rate", "higher"),
    ("main_score", "higher"), ("quasi_exact_match", "higher"), ("word_perplexity,none", "lower"), ("ppl", "lower"),
    ("byte_perplexity", "lower"), ("bits_per_byte,none", "lower"), ("wer", "lower"), ("cer", "lower"),
    ("loss", "lower"), ("latency", "lower"), ("inference_runtime", "lower"), ("ece_10_bin", "lower"), ("mape", "lower"),
])
def test_metric_direction_of_well_known_names(name, direction):
    assert metric_direction(name) == direction


def test_standard_errors_and_unknown_metrics_have_no_direction():
    assert is_stderr("acc_stderr,none") and is_stderr("word_perplexity_stderr,none") and not is_stderr("acc,none")
    assert metric_direction("acc_stderr,none") is None
    assert metric_direction("my_custom_score") is None


# ---------------------------------------------------------------- lm-evaluation-harness results
def test_harness_results_exact_scores_directions_and_notes():
    lb = read_harness_results(HARNESS, metric=HARNESS_METRICS)
    assert lb.systems == (P160, P410)
    assert lb.tasks == ("arc_easy", "gsm8k", "mmlu_anatomy", "mmlu_astronomy", "wikitext")
    assert lb.scores.loc[P160].tolist() == [0.5, 0.0, 0.237, 0.25, 37.3721]
    assert lb.scores.loc[P410, "gsm8k"] == pytest.approx(1 / 3)
    assert lb.lower_is_better == frozenset({"wikitext"})
    assert "kept 18 standard-error entries" in note_with(lb.notes, "standard-error")
    assert lb.stderr is not None and lb.stderr.notna().any().any()  # for cs.significance
    assert cs.significance(lb.select(tasks=list(lb.stderr.columns))).source == "the results files' *_stderr entries"
    assert "'mmlu'" in note_with(lb.notes, "excluded group aggregate")
    assert "word_perplexity lower is better (declared by the file" in note_with(lb.notes, "directions:")


def test_harness_results_preference_list_and_groups():
    lb = read_harness_results(HARNESS, metric=["acc_norm", "acc", "exact_match,flexible-extract", "bits_per_byte"],
                              include_groups=True)
    assert "mmlu" in lb.tasks
    assert lb.scores.loc[P410, "mmlu"] == 0.2846
    assert lb.scores.loc[P160, "wikitext"] == 0.9338
    assert "'acc,none'" in note_with(lb.notes, "read metric 'acc,none' (metric=)")


def test_harness_results_without_metric_name_the_task_with_several(tmp_path):
    with pytest.raises(FormatError, match=r"results_2024-05-01T12-00-00\.123456\.json': task 'arc_easy' has metrics "
                                          r"'acc,none', 'acc_norm,none'; pass metric="):
        read_harness_results(HARNESS)


def test_harness_results_ambiguous_filter_and_missing_metric():
    with pytest.raises(FormatError, match=r"metric 'exact_match' of task 'gsm8k' is there under several filters: "
                                          r"'exact_match,strict-match', 'exact_match,flexible-extract'"):
        read_harness_results(HARNESS, metric="exact_match", tasks=["gsm8k"])
    with pytest.raises(FormatError, match=r"no metric 'f1' for task 'arc_easy' of system 'EleutherAI/pythia-160m'; "
                                          r"its metrics are 'acc,none', 'acc_norm,none'") as err:
        read_harness_results(HARNESS, metric="f1")
    assert err.value.path.endswith(f"results_{STAMP}.json") and err.value.field == "f1"


def test_harness_results_unknown_direction_is_an_error_until_given(tmp_path):
    for model, value in (("a", 0.4), ("b", 0.6)):
        (tmp_path / model).mkdir()
        run = {"results": {"judge": {"alias": "judge", "judge_score,none": value}}, "model_name": model}
        (tmp_path / model / f"results_{STAMP}.json").write_text(json.dumps(run))
    with pytest.raises(MetricDirectionError, match=r"metric\(s\) 'judge_score' \(task\(s\) 'judge'\); "
                                                   r"pass higher_is_better=\['judge_score'\]"):
        read_harness_results(tmp_path)
    lb = read_harness_results(tmp_path, lower_is_better=["judge_score"])
    assert lb.lower_is_better == frozenset({"judge"})
    assert "'judge' lower is better (given)" in note_with(lb.notes, "directions:")
    with pytest.raises(UnknownTaskError, match="'judge_scroe'"):
        read_harness_results(tmp_path, higher_is_better=["judge_scroe"])


def test_harness_results_duplicate_run_is_refused_or_latest_kept(tmp_path):
    out = copy_tree(HARNESS, tmp_path)
    folder = out / "EleutherAI__pythia-160m"
    data = json.loads((folder / f"results_{STAMP}.json").read_text())
    data["results"]["arc_easy"]["acc_norm,none"] = 0.9
    newer = folder / "results_2024-06-01T09-00-00.000001.json"
    newer.write_text(json.dumps(data))
    with pytest.raises(DuplicateResultError, match=r"system 'EleutherAI/pythia-160m' has two results for task "
                                                   r"'arc_easy': .*results_2024-05-01.*and .*results_2024-06-01.*latest=True"):
        read_harness_results(out, metric=HARNESS_METRICS)
    lb = read_harness_results(out, metric=HARNESS_METRICS, latest=True)
    assert lb.scores.loc[P160, "arc_easy"] == 0.9
    assert f"results_{STAMP}.json" in note_with(lb.notes, "latest=True")


def test_harness_results_malformed_files_name_file_and_line(tmp_path):
    (tmp_path / "m").mkdir()
    bad = tmp_path / "m" / f"results_{STAMP}.json"
    bad.write_text('{"results": {\n  "arc_easy": {"acc,none": 0.5,}\n}}')
    with pytest.raises(FormatError, match=r"results_.*\.json' line 2: not valid JSON") as err:
        read_harness_results(tmp_path)
    assert err.value.line == 2
    bad.write_text(json.dumps({"acc": 0.5}))
    with pytest.raises(FormatError, match="no 'results' object") as err:
        read_harness_results(tmp_path)
    assert err.value.field == "results"
    bad.write_text(json.dumps({"results": {"qa": {"acc,none": "0.5"}}, "model_name": "m"}))
    (tmp_path / "n").mkdir()
    (tmp_path / "n" / f"results_{STAMP}.json").write_text(json.dumps({"results": {"qa": {"acc,none": 0.4}}}))
    with pytest.raises(FormatError, match=r"'acc,none' holds text \('0\.5'\), not a score"):
        read_harness_results(tmp_path)


def test_harness_runs_on_a_limit_subset_are_noted_and_flags_speak_cli(tmp_path):
    root = copy_tree(HARNESS, tmp_path)
    small = next(root.glob("EleutherAI__pythia-160m/results_*.json"))
    data = json.loads(small.read_text())
    data["config"]["limit"] = 100
    data["n-samples"] = {"arc_easy": {"original": 2376, "effective": 100}, "gsm8k": {"original": 1319, "effective": 100}}
    small.write_text(json.dumps(data))
    big = next(root.glob("EleutherAI__pythia-410m/results_*.json"))
    data = json.loads(big.read_text())
    data["config"]["limit"] = None
    data["n-samples"] = {t: {"original": n["original"], "effective": n["original"]} for t, n in data["n-samples"].items()}
    big.write_text(json.dumps(data))
    metrics = ["acc", "exact_match,strict-match", "word_perplexity"]
    said = note_with(read_harness_results(root, metric=metrics).notes, "subset of each task's items")
    assert said.startswith("scores of 1 model(s) are on a subset")
    assert f"{P160!r} (limit=100, 'arc_easy': 100 of 2376 items and 1 more task(s))" in said
    assert "not comparable with the 1 model(s) run on every item" in said and P410 not in said
    both = note_with(read_harness_results(HARNESS, metric=metrics).notes, "subset of each task's items")
    assert both.startswith("scores of 2 model(s)") and "limit=4" in both and "not comparable" not in both
    data["n-samples"] = {}
    big.write_text(json.dumps(data))  # no n-samples (older lm-evaluation-harness) and no limit: a full run
    assert P410 not in note_with(read_harness_results(root, metric=metrics).notes, "subset of each task's items")
    runs = run_cli_many([
        ["inspect", str(root), "--from", "harness"],
        ["inspect", str(root), "--from", "harness", "--metric", "acc", "--metric", "exact_match,strict-match",
         "--metric", "word_perplexity", "--include-groups"],
        ["inspect", str(MTEB), "--from", "mteb", "--subsets", "en", "--tasks", "STS22"],
        ["inspect", str(MTEB), "--from", "mteb", "--latest"],
        ["inspect", str(MTEB), "--from", "mteb", "--revision", "intfloat/e5-small-v2"],
    ])
    assert [r.returncode for r in runs] == [2, 0, 0, 2, 2], [r.stderr for r in runs]
    assert "pass --metric M naming the one to read" in runs[0].stderr and "metric=" not in runs[0].stderr
    assert "mmlu" in runs[1].stdout.split("tasks: ")[1].splitlines()[0].split(", ")  # the group aggregate kept
    assert "(--metric)" in runs[1].stdout and "limit=100" in runs[1].stdout
    assert "tasks: STS22\n" in runs[2].stdout and "main_score averaged" not in runs[2].stdout  # one subset: no average
    assert "--latest does not apply to --from mteb (its flags: --split, --subsets, --tasks, --exclude, --revision" in runs[3].stderr
    assert "--revision: expected MODEL=REVISION, got 'intfloat/e5-small-v2'" in runs[4].stderr


def test_harness_model_name_from_model_args_then_directory(tmp_path):
    (tmp_path / "x__a").mkdir()
    (tmp_path / "x__b").mkdir()
    run = {"results": {"qa": {"acc,none": 0.5}}, "config": {"model": "hf", "model_args": "pretrained=x/a,dtype=float16"}}
    (tmp_path / "x__a" / f"results_{STAMP}.json").write_text(json.dumps(run))
    (tmp_path / "x__b" / f"results_{STAMP}.json").write_text(json.dumps({"results": {"qa": {"acc,none": 0.7}}}))
    lb = read_harness_results(tmp_path)
    assert lb.systems == ("x/a", "x__b")
    assert "'x/a'" in note_with(lb.notes, "from the config.model_args")
    assert "'x__b'" in note_with(lb.notes, "from the directory name")


# ---------------------------------------------------------------- lm-evaluation-harness samples
def test_harness_samples_instance_scores():
    said: list[str] = []
    scores = read_harness_samples(HARNESS, metric={"arc_easy": "acc", "gsm8k": "exact_match,flexible-extract"}, notes=said)
    assert scores.systems == (P160, P410) and scores.tasks == ("arc_easy", "gsm8k")
    assert scores.task_frame("arc_easy").loc[P160].tolist() == [1.0, 0.0, 0.0, 1.0]
    assert list(scores.instances("gsm8k")) == [0, 1, 2]
    assert scores.task_frame("gsm8k").loc[P410].tolist() == [1.0, 1.0, 0.0]
    assert "'EleutherAI/pythia-160m'" in note_with(said, "model_name of the results_*.json beside the samples")
    assert "gsm8k: exact_match (filter 'flexible-extract')" in note_with(said, "read arc_easy")


def test_harness_samples_several_filters_need_one():
    with pytest.raises(FormatError, match=r"samples_gsm8k_.*jsonl': metric 'exact_match' is logged under filters "
                                          r"'strict-match', 'flexible-extract'; pass metric='exact_match,strict-match'"):
        read_harness_samples(HARNESS, metric="exact_match", tasks=["gsm8k"])


def write_samples(folder: Path, task: str, lines: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"samples_{task}_{STAMP}.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_harness_samples_malformed_lines_name_the_line(tmp_path):
    good = json.dumps({"doc_id": 0, "filter": "none", "acc": 1.0})
    write_samples(tmp_path / "b", "qa", [good, json.dumps({"doc_id": 1, "filter": "none", "acc": 0.0})])
    write_samples(tmp_path / "a", "qa", [good, '{"doc_id": 1, "acc": '])
    with pytest.raises(FormatError, match=r"samples_qa_.*jsonl' line 2: not valid JSON") as err:
        read_harness_samples(tmp_path, metric="acc")
    assert err.value.line == 2
    write_samples(tmp_path / "a", "qa", [good, json.dumps({"filter": "none", "acc": 0.0})])
    with pytest.raises(FormatError, match=r"line 2: no 'doc_id'"):
        read_harness_samples(tmp_path, metric="acc")
    write_samples(tmp_path / "a", "qa", [good, good])
    with pytest.raises(FormatError, match=r"line 2: doc_id 0 appears again \(first on line 1\)"):
        read_harness_samples(tmp_path, metric="acc")
    write_samples(tmp_path / "a", "qa", [json.dumps({"doc_id": 0, "bleu": [["ref"], ["pred"]]})])
    with pytest.raises(FormatError, match=r"line 1: metric 'bleu' holds a list per sample"):
        read_harness_samples(tmp_path, metric="bleu")


def test_harness_samples_booleans_are_stated_and_unknown_direction_refused(tmp_path):
    for model, values in (("a", [True, False]), ("b", [True, True])):
        write_samples(tmp_path / model, "ifeval",
                      [json.dumps({"doc_id": i, "prompt_level_strict_acc": v}) for i, v in enumerate(values)])
    said: list[str] = []
    scores = read_harness_samples(tmp_path, metric="prompt_level_strict_acc", notes=said)
    assert scores.task_frame("ifeval").loc["a"].tolist() == [1.0, 0.0]
    assert "4 boolean metric value(s) read as 1 (true) and 0 (false)" in said
    assert "'a', 'b'" in note_with(said, "from the directory name")
    for model in ("a", "b"):
        write_samples(tmp_path / model, "ifeval", [json.dumps({"doc_id": 0, "judge": 0.5 if model == "a" else 0.7})])
    with pytest.raises(MetricDirectionError, match="'judge'"):
        read_harness_samples(tmp_path, metric="judge")
    assert read_harness_samples(tmp_path, metric="judge", higher_is_better=["judge"]).n_scores == 2


def test_harness_samples_file_name_and_duplicates(tmp_path):
    folder = tmp_path / "a"
    folder.mkdir()
    (folder / "samples_qa.jsonl").write_text(json.dumps({"doc_id": 0, "acc": 1.0}) + "\n")
    with pytest.raises(FormatError, match=r"samples_qa\.jsonl': the file name is not samples_<task>_<timestamp>\.jsonl"):
        read_harness_samples(tmp_path, metric="acc")
    (folder / "samples_qa.jsonl").unlink()
    write_samples(folder, "qa", [json.dumps({"doc_id": 0, "acc": 1.0})])
    (folder / "samples_qa_2024-06-01T00-00-00.000001.jsonl").write_text(json.dumps({"doc_id": 0, "acc": 0.0}) + "\n")
    write_samples(tmp_path / "b", "qa", [json.dumps({"doc_id": 0, "acc": 0.0})])
    with pytest.raises(DuplicateResultError, match="system 'a' has two results for task 'qa'"):
        read_harness_samples(tmp_path, metric="acc")
    scores = read_harness_samples(tmp_path, metric="acc", latest=True)
    assert scores.task_frame("qa").loc["a"].tolist() == [0.0]


def test_harness_samples_refuse_mixed_filters_and_unknown_tasks_in_metric(tmp_path):
    for model, filt in (("a", "strict-match"), ("b", "flexible-extract")):
        write_samples(tmp_path / model, "gsm8k", [json.dumps({"doc_id": 0, "filter": filt, "exact_match": 1.0})])
    with pytest.raises(FormatError, match=r"task 'gsm8k' would be read under different filters "
                                          r"\('strict-match', 'flexible-extract'\)"):
        read_harness_samples(tmp_path, metric="exact_match")
    with pytest.raises(UnknownTaskError, match=r"unknown task 'gsm8' in metric=; did you mean 'gsm8k'"):
        read_harness_samples(tmp_path, metric={"gsm8": "exact_match"})


# ---------------------------------------------------------------- HELM
def test_helm_suite_with_the_schema_defaults():
    lb = read_helm(SUITE)
    assert lb.systems == ("meta/llama-7b", "openai/gpt2")
    assert lb.tasks == (MMLU, NQ)
    assert lb.scores.loc["openai/gpt2", MMLU] == pytest.approx(0.3)
    assert lb.scores.loc["meta/llama-7b", NQ] == pytest.approx(0.45)
    assert not lb.lower_is_better
    assert "split valid (the run group's main split): 1 task(s)" in lb.notes
    assert "excluded 6 perturbation statistic(s)" in note_with(lb.notes, "perturbation")
    assert f"'{NQ}'" in note_with(lb.notes, "read metric 'f1_score' (the tool's default for the task)")


def test_helm_standard_errors_come_from_each_means_variance_and_count():
    lb = read_helm(SUITE)
    assert lb.stderr is not None
    stats = json.loads((SUITE / "natural_qa:mode=closedbook,model=meta_llama-7b" / "stats.json").read_text())
    f1 = next(s for s in stats if s["name"]["name"] == "f1_score" and s["name"].get("split") == "valid"
              and not s["name"].get("perturbation"))
    expected = (f1["variance"] / (f1["count"] - 1)) ** 0.5
    assert lb.stderr.loc["meta/llama-7b", NQ] == pytest.approx(expected, rel=1e-12)
    assert cs.significance(lb.select(tasks=[NQ])).source == "HELM's stats.json (variance and count of each mean)"


def test_helm_split_and_metric_choices():
    with pytest.raises(FormatError, match=r"model=meta_llama-7b/stats\.json': no statistics on split 'test' for "
                                          r"'natural_qa:mode=closedbook'; its splits are 'valid'"):
        read_helm(SUITE, split="test")
    lb = read_helm(SUITE, metric="inference_runtime")
    assert lb.lower_is_better == frozenset({MMLU, NQ})
    assert lb.scores.loc["openai/gpt2"].tolist() == pytest.approx([0.21, 0.63])
    only = read_helm(SUITE, tasks=[MMLU], metric="ece_10_bin")
    assert only.tasks == (MMLU,) and only.lower_is_better == frozenset({MMLU})
    assert f"'{NQ}'" in note_with(only.notes, "skipped task(s) not in tasks=")


def test_helm_unknown_group_needs_a_metric_and_duplicates_are_refused(tmp_path):
    suite = copy_tree(SUITE, tmp_path)
    for run in suite.glob("mmlu*"):
        spec = json.loads((run / "run_spec.json").read_text())
        spec["groups"] = ["my_group"]
        (run / "run_spec.json").write_text(json.dumps(spec))
    with pytest.raises(FormatError, match=rf"task '{MMLU}' has metrics 'ece_10_bin', 'exact_match', "
                                          r"'inference_runtime', .*; pass metric="):
        read_helm(suite)
    lb = read_helm(suite, metric={MMLU: "quasi_exact_match"})
    assert lb.scores.loc["meta/llama-7b", MMLU] == pytest.approx(0.6)
    assert lb.scores.loc["meta/llama-7b", NQ] == pytest.approx(0.45)  # its group's default: f1_score
    twin = suite / "natural_qa:mode=closedbook,model=openai_gpt2,copy=1"
    shutil.copytree(suite / "natural_qa:mode=closedbook,model=openai_gpt2", twin)
    spec = json.loads((twin / "run_spec.json").read_text())
    spec["name"] = "natural_qa:mode=closedbook,model=openai_gpt2"
    (twin / "run_spec.json").write_text(json.dumps(spec))
    with pytest.raises(DuplicateResultError, match=r"system 'openai/gpt2' has two results for task "
                                                   r"'natural_qa:mode=closedbook'"):
        read_helm(suite, metric="f1_score")


def test_helm_malformed_stats_and_unfinished_runs(tmp_path):
    suite = copy_tree(SUITE, tmp_path)
    unfinished = suite / "boolq:model=openai_gpt2"
    unfinished.mkdir()
    (unfinished / "run_spec.json").write_text(json.dumps({"name": unfinished.name, "adapter_spec": {"model": "openai/gpt2"}}))
    lb = read_helm(suite)
    assert "'boolq:model=openai_gpt2'" in note_with(lb.notes, "run(s) without stats.json")
    stats = suite / "natural_qa:mode=closedbook,model=openai_gpt2" / "stats.json"
    stats.write_text(json.dumps({"exact_match": 0.5}))
    with pytest.raises(FormatError, match=r"stats\.json': not a JSON list of statistics"):
        read_helm(suite)
    stats.write_text(json.dumps([{"name": {"name": "f1_score", "split": "valid"}, "count": 5, "mean": "high"}]))
    with pytest.raises(FormatError, match=r"'f1_score' holds text \('high'\), not a score"):
        read_helm(suite)


# ---------------------------------------------------------------- MTEB
GROUPS = SUITE / "groups"


def test_helm_summary_tables_with_helms_own_directions_and_aggregates():
    """helm-summarize's group tables: the default group and table are named, the mean win rate (an
    aggregate) and the counts HELM does not compare are excluded, directions are HELM's."""
    lb = read_helm_summary(SUITE)
    assert lb.tasks == ("MMLU - EM", "NarrativeQA - F1", "IMDB - EM", "GSM8K - EM") and not lb.lower_is_better
    assert math.isnan(lb.scores.loc["Falcon (7B)", "GSM8K - EM"])  # "No matching runs": missing, with a note
    assert lb.notes[0].startswith("HELM group 'core_scenarios' (the default), table 'accuracy' (the first of 4")
    assert any("aggregate column(s), computed from the others: 'Mean win rate'" in n for n in lb.notes)
    assert cs.kemeny(lb).order[0] == "GPT-4 (0613)"
    eff = read_helm_summary(SUITE, table="Efficiency")  # by title as well as by name
    assert eff.lower_is_better == frozenset(eff.tasks) and len(eff.tasks) == 3
    assert cs.majority_summary(eff).condorcet_winner == "Pythia (6.9B)"  # the fastest, not the slowest
    assert read_helm_summary(SUITE, table="calibration").lower_is_better == frozenset({"MMLU - ECE (10-bin)", "IMDB - ECE (10-bin)"})
    with pytest.raises(LeaderboardError, match=r"table 'general_information' .* has no score column"):
        read_helm_summary(SUITE, table="general_information")  # '# eval', '# train': counts HELM never compares
    by_scenario = read_helm_summary(GROUPS / "mmlu.json")
    assert by_scenario.tasks == ("EM", "ECE (10-bin)", "EM (Robustness)")
    assert by_scenario.lower_is_better == frozenset({"ECE (10-bin)"})
    assert any("not comparable" in n and "'# eval'" in n for n in by_scenario.notes)
    alone = read_helm_summary(GROUPS / "json" / "core_scenarios_efficiency.json")
    assert alone.scores.equals(eff.scores) and "holds it alone" in alone.notes[0]
    overridden = read_helm_summary(SUITE, table="efficiency", higher_is_better=["Observed inference time (s)"])
    assert not overridden.lower_is_better
    assert read_helm_summary(SUITE, tasks=["IMDB - EM", "MMLU - EM"]).tasks == ("MMLU - EM", "IMDB - EM")


def test_helm_summary_errors_name_the_group_table_or_column(tmp_path):
    with pytest.raises(InvalidOptionError, match=r"no HELM group 'lite' .* its groups: 'core_scenarios', 'mmlu'; pick one with group=\.\.\."):
        read_helm_summary(SUITE, group="lite")
    with pytest.raises(InvalidOptionError, match=r"no table 'robustness' in HELM group file 'core_scenarios.json'; its tables: 'accuracy'"):
        read_helm_summary(SUITE, table="robustness")
    with pytest.raises(UnknownTaskError, match="'MMLU'"):
        read_helm_summary(SUITE, tasks=["MMLU"])
    two = tmp_path / "groups"
    two.mkdir()
    for name in ("lite", "mmlu"):
        shutil.copy(GROUPS / "mmlu.json", two / f"{name}.json")
    with pytest.raises(LeaderboardError, match=r"holds 2 HELM groups \('lite', 'mmlu'\): pick one with group="):
        read_helm_summary(tmp_path)
    tables = json.loads((GROUPS / "mmlu.json").read_text())
    tables[0]["rows"][1][0]["value"] = tables[0]["rows"][0][0]["value"]
    (two / "lite.json").write_text(json.dumps(tables))
    with pytest.raises(FormatError, match=r"model 'GPT-4 \(0613\)' is in rows 1 and 2"):
        read_helm_summary(two / "lite.json")
    tables[0]["rows"][1] = tables[0]["rows"][1][:-1]
    (two / "lite.json").write_text(json.dumps(tables))
    with pytest.raises(FormatError, match=r"row 2 has 4 cells, the header 5"):
        read_helm_summary(two / "lite.json")
    (two / "lite.json").write_text(json.dumps({"title": "x"}))
    with pytest.raises(FormatError, match="not a HELM table"):
        read_helm_summary(two / "lite.json")
    # the runs reader points helm-summarize output to its own format
    with pytest.raises(LeaderboardError, match=r"read by the format 'helm-summary' \(--from helm-summary\)"):
        read_helm(GROUPS)
    runs_only = tmp_path / "runs-only"
    run = "mmlu:subject=anatomy,method=multiple_choice_joint,model=openai_gpt2"
    shutil.copytree(SUITE / run, runs_only / run)
    with pytest.raises(LeaderboardError, match="holds helm-run's run directories but no groups/ from helm-summarize"):
        read_helm_summary(runs_only)
    assert read_format(SUITE, "helm_summary", table="calibration").n_tasks == 2


def test_helm_summary_through_the_command_line():
    runs = run_cli_many([
        ["kemeny", str(SUITE), "--from", "helm-summary", "--table", "core_scenarios/efficiency", "--format", "json"],
        ["inspect", str(SUITE), "--from", "helm-summary", "--table", "mmlu"],
        ["analyze", str(SUITE), "--from", "helm-summary", "--split", "test"],
        ["analyze", str(SUITE), "--from", "helm", "--table", "mmlu"],
        ["analyze", str(SUITE), "--from", "helm-summary", "--table", "core_scenarios/"],
    ])
    assert [r.returncode for r in runs] == [0, 0, 2, 2, 2], [r.stderr for r in runs]
    assert json.loads(runs[0].stdout)["result"]["order"][0] == "Pythia (6.9B)"
    assert "HELM group 'mmlu' (as asked), table 'mmlu'" in runs[1].stdout and "lower is better: ECE (10-bin)" in runs[1].stdout
    assert runs[2].stderr.strip() == ("consensus: error: --split does not apply to --from helm-summary (its flags: --table, "
                                      "--tasks, --exclude, --keep-columns, --higher-is-better, --lower-is-better)")
    assert "--table picks a HELM group table: it applies to --from helm-summary, not --from helm" in runs[3].stderr
    assert "--table: expected GROUP or GROUP/TABLE" in runs[4].stderr


def test_mteb_main_score_averaged_over_subsets():
    lb = read_mteb(MTEB)
    minilm, e5 = "sentence-transformers/all-MiniLM-L6-v2", "intfloat/e5-small-v2"
    assert lb.systems == (e5, minilm)
    assert lb.tasks == ("Banking77Classification", "STS22", "SciFact")
    assert lb.scores.loc[minilm, "Banking77Classification"] == 0.800357
    assert lb.scores.loc[minilm, "STS22"] == pytest.approx(math.fsum([0.44055, 0.673461, 0.778934]) / 3, abs=1e-15)
    assert "STS22 (3)" in note_with(lb.notes, "main_score averaged over hf_subsets, unweighted")
    assert "split 'test' read" in lb.notes
    assert "main_score higher is better" in note_with(lb.notes, "directions:")
    english = read_mteb(MTEB, subsets=["en"], tasks=["STS22"])
    assert english.scores["STS22"].tolist() == [0.661722, 0.673461]


def test_mteb_refuses_mismatched_subsets_old_files_and_missing_splits(tmp_path):
    root = copy_tree(MTEB, tmp_path)
    sts = next(root.glob("intfloat__e5-small-v2/*/STS22.json"))
    data = json.loads(sts.read_text())
    data["scores"]["test"] = data["scores"]["test"][:2]
    sts.write_text(json.dumps(data))
    with pytest.raises(LeaderboardError, match=r"task 'STS22': the models have different hf_subsets .* pass subsets="):
        read_mteb(root)
    assert read_mteb(root, subsets=["de", "en"]).n_tasks == 3
    data["scores"] = {"validation": data["scores"]["test"]}
    sts.write_text(json.dumps(data))
    with pytest.raises(FormatError, match=r"STS22\.json': no split 'test'; its splits are 'validation'"):
        read_mteb(root)
    preferred = read_mteb(root, split=["test", "validation"], subsets=["de", "en"])
    assert "split 'validation' read for 1 task(s): 'STS22'" in preferred.notes
    sts.write_text(json.dumps({"mteb_dataset_name": "STS22", "mteb_version": "1.0.2",
                               "test": {"de": {"cos_sim": {"spearman": 0.52}}, "evaluation_time": 3.1}}))
    with pytest.raises(LeaderboardError, match=r"task 'STS22': the models have different hf_subsets \('de' vs 'de', 'en', 'fr' in"):
        read_mteb(root)  # a legacy file is read (next test), and its subsets are checked like any other
    sts.write_text(json.dumps({"mteb_dataset_name": "STS22", "test": {"de": {"pearson": 0.5}}}))
    with pytest.raises(FormatError, match=r"legacy \(mteb < 1\.11\) result whose metrics \('pearson'\) fit no MTEB task type"):
        read_mteb(root)


LEGACY = DATA / "mteb" / "legacy" / "results"


def test_mteb_legacy_files_and_layout_read_without_mteb(tmp_path):
    """The results repository's older layout (results/<model>/<Task>.json, no revision directory) in
    mteb's pre-1.11 shape, beside a model in the current layout: each task's main score is the one of
    its task type, found from the metrics the file holds."""
    lb = read_mteb(LEGACY)
    assert lb.systems == ("new-org/model-c", "old-org/model-a", "old-org/model-b")
    a = lb.scores.loc["old-org/model-a"]
    raw = {t: json.loads((LEGACY / "old-org__model-a" / f"{t}.json").read_text())["test"] for t in lb.tasks}
    assert a["SciFact"] == raw["SciFact"]["ndcg_at_10"] != raw["SciFact"]["map_at_10"]  # retrieval
    assert a["STS12"] == raw["STS12"]["cos_sim"]["spearman"]  # STS
    assert a["SprintDuplicateQuestions"] == raw["SprintDuplicateQuestions"]["max"]["ap"]  # pair classification
    assert a["SciDocsRR"] == raw["SciDocsRR"]["map"] and a["ArxivClusteringS2S"] == raw["ArxivClusteringS2S"]["v_measure"]
    assert a["Banking77Classification"] == raw["Banking77Classification"]["accuracy"]
    assert a["BUCC"] == pytest.approx((raw["BUCC"]["de-en"]["f1"] + raw["BUCC"]["fr-en"]["f1"]) / 2)  # bitext, 2 subsets
    note = next(n for n in lb.notes if "legacy files" in n)
    assert "7 task(s)" in note and "ndcg_at_10 (retrieval) for 'SciFact'" in note and "max_ap (pair classification)" in note
    assert cs.kemeny(lb).order == lb.systems  # model-c is best on every task, model-b worst
    # a pair-classification file of an older mteb without the 'max' family reads cos_sim.ap: not comparable
    root = copy_tree(LEGACY, tmp_path)
    sprint = root / "old-org__model-b" / "SprintDuplicateQuestions.json"
    data = json.loads(sprint.read_text())
    del data["test"]["max"]
    sprint.write_text(json.dumps(data))
    with pytest.raises(LeaderboardError, match=r"'SprintDuplicateQuestions': legacy \(mteb < 1\.11\) files hold different "
                       r"metrics \(max_ap \(pair classification\) in .*, cosine_ap \(pair classification\) in"):
        read_mteb(root)
    data["test"]["main_score"] = 0.9  # a legacy file that states its main score keeps it
    sprint.write_text(json.dumps(data))
    assert read_mteb(root).scores.loc["old-org/model-b", "SprintDuplicateQuestions"] == 0.9


def test_mteb_revisions_and_model_names(tmp_path):
    root = copy_tree(MTEB, tmp_path)
    model = root / "intfloat__e5-small-v2"
    old = next(model.iterdir())
    shutil.copytree(old, model / "no_revision_available")
    with pytest.raises(LeaderboardError, match=r"model 'intfloat/e5-small-v2' has results for revisions "
                                               r"'dca8b1a9.*', 'no_revision_available'; pass revision="):
        read_mteb(root)
    (model / "no_revision_available" / "model_meta.json").unlink()
    lb = read_mteb(root, revision={"intfloat/e5-small-v2": old.name})
    assert lb.n_systems == 2
    shutil.rmtree(old)
    lb = read_mteb(root)
    assert "intfloat/e5-small-v2" in lb.systems
    assert "'intfloat/e5-small-v2'" in note_with(lb.notes, "from the directory name (__ read as /)")


def test_mteb_duplicate_task_file(tmp_path):
    root = copy_tree(MTEB, tmp_path)
    sts = next(root.glob("intfloat__e5-small-v2/*/STS22.json"))
    shutil.copy(sts, sts.with_name("STS22-copy.json"))
    with pytest.raises(DuplicateResultError, match="system 'intfloat/e5-small-v2' has two results for task 'STS22'"):
        read_mteb(root)


# ---------------------------------------------------------------- one file per model
def test_model_dir_reads_json_csv_and_records():
    lb = read_model_dir(MODEL_DIR, metric="accuracy")
    assert lb.systems == ("gpt-4o", "llama-3-70b", "mixtral-8x7b")
    assert lb.tasks == ("mmlu", "gsm8k", "humaneval", "latency_s")
    assert lb.scores.loc["llama-3-70b"].tolist() == [0.82, 0.93, 0.817, 0.95]
    assert math.isnan(lb.scores.loc["mixtral-8x7b", "humaneval"])
    assert lb.lower_is_better == frozenset({"latency_s"})  # named like a known metric: latency_*
    assert "'README.md'" in note_with(lb.notes, "not .json/.csv/.tsv/.txt")
    assert "mixtral-8x7b/humaneval" in note_with(lb.notes, "kept as missing scores")


def test_model_dir_directions_must_be_given(tmp_path):
    with pytest.raises(MetricDirectionError, match=r"task\(s\) 'mmlu', 'gsm8k', 'humaneval' \(the scores name no "
                                                   r"metric\); pass higher_is_better="):
        read_model_dir(MODEL_DIR)
    lb = read_model_dir(MODEL_DIR, higher_is_better=["mmlu", "gsm8k", "humaneval"])
    assert lb.lower_is_better == frozenset({"latency_s"})
    with pytest.raises(MetricDirectionError, match="'quality'"):
        read_model_dir(MODEL_DIR, metric="quality")


def test_model_dir_bad_cells_and_duplicates_name_the_line(tmp_path):
    (tmp_path / "a.json").write_text(json.dumps({"qa": 0.5, "nli": 0.6}))
    (tmp_path / "b.csv").write_text("task,score\nqa,0.4\nnli,81%\n")
    with pytest.raises(FormatError, match=r"b\.csv' line 3: the score of task 'nli' is '81%', not a number") as err:
        read_model_dir(tmp_path, metric="acc")
    assert (err.value.line, err.value.field) == (3, "nli")
    (tmp_path / "b.csv").write_text("task,score\nqa,0.4\nqa,0.6\n")
    with pytest.raises(FormatError, match=r"line 3: task 'qa' is listed twice \(first on line 2\)"):
        read_model_dir(tmp_path, metric="acc")
    (tmp_path / "b.csv").write_text("task,score\nqa,0.4\n")
    (tmp_path / "b.json").write_text(json.dumps({"nli": 0.1}))
    with pytest.raises(FormatError, match=r"b\.json': names model 'b', as '.*b\.csv' does"):
        read_model_dir(tmp_path, metric="acc")
    (tmp_path / "b.json").unlink()
    (tmp_path / "a.json").write_text(json.dumps({"qa": {"acc": 0.5}}))
    with pytest.raises(FormatError, match=r"task 'qa' holds an object, not a score"):
        read_model_dir(tmp_path, metric="acc")


# ---------------------------------------------------------------- dispatcher, import cost
def test_read_format_dispatches_and_checks_options():
    lb = read_format(MODEL_DIR, "model_dir", metric="accuracy")
    assert lb.n_systems == 3
    assert read_format(SUITE, "helm").tasks == (MMLU, NQ)
    with pytest.raises(InvalidOptionError, match=r"unknown format 'lm-eval'; known formats: harness, harness-samples"):
        read_format(HARNESS, "lm-eval")
    with pytest.raises(InvalidOptionError, match=r"format 'mteb' takes no option 'metric'; its options are split, "):
        read_format(MTEB, "mteb", metric="main_score")


def test_importing_the_formats_package_loads_no_heavy_module():
    code = ("import sys, consensus.formats as f\n"
            "assert 'read_helm' in f.__all__\n"
            "print(','.join(m for m in ('pandas', 'numpy') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


# ---------------------------------------------------------------------------------------------
# the command line: --from TOOL


def _consensus(*args: str) -> "subprocess.CompletedProcess[str]":
    return run_cli(*args, cwd=Path(__file__).resolve().parents[1])


def test_cli_reads_other_tools_output_with_from() -> None:
    helm = "tests/data/formats/helm/benchmark_output/runs/v1"
    res = _consensus("rank", helm, "--from", "helm", "--rule", "borda", "--format", "csv")
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[1:] == ["1,1,meta/llama-7b,2.0", "2,2,openai/gpt2,0.0"]
    assert "excluded 6 perturbation statistic(s)" in res.stderr  # what was chosen is said
    res = _consensus("kemeny", "tests/data/formats/harness/output", "--from", "harness",
                     "--metric", "acc", "--metric", "exact_match,strict-match", "--metric", "word_perplexity",
                     "--format", "json")
    assert res.returncode == 0, res.stderr
    doc = __import__("json").loads(res.stdout)
    assert doc["result"]["status"] == "optimal"
    assert "wikitext" in doc["input"]["lower_is_better"]  # perplexity: lower is better, known


def test_cli_from_errors_are_one_line() -> None:
    res = _consensus("kemeny", "tests/data/formats/harness/output", "--from", "harness", "--metric", "acc")
    assert res.returncode == 2 and res.stderr.count("\n") == 1
    assert "no metric 'acc' for task 'gsm8k'" in res.stderr and "Traceback" not in res.stderr
    res = _consensus("rank", "tests/data/formats/mteb/results", "--from", "mteb", "--rule", "mean", "--dedupe")
    assert res.returncode == 2 and "--dedupe do not apply" in res.stderr
    res = _consensus("rank", "tests/data/messy/sparse_22x15.csv", "--rule", "copeland", "--metric", "acc")
    assert res.returncode == 2 and "--metric applies to --from TOOL files only" in res.stderr


def test_cli_from_takes_the_tables_reading_options_that_apply() -> None:
    harness = "tests/data/formats/harness/output"
    metrics = ["--metric", "acc", "--metric", "exact_match,strict-match", "--metric", "word_perplexity"]
    res = _consensus("analyze", harness, "--from", "harness", *metrics, "--format", "json", "--quiet")
    assert res.returncode == 0, res.stderr
    tasks = __import__("json").loads(res.stdout)["input"]["tasks"]
    res = _consensus("analyze", harness, "--from", "harness", *metrics, "--exclude", tasks[0],
                     "--groups", f"g={tasks[1]}", "--format", "json", "--quiet")
    assert res.returncode == 0, res.stderr
    doc = __import__("json").loads(res.stdout)["input"]
    assert doc["tasks"] == tasks[1:] and doc["groups"] == {"g": [tasks[1]]}
    res = _consensus("analyze", harness, "--from", "harness", *metrics, "--keep-columns", "all")
    assert res.returncode == 2 and "come back with --include-groups" in res.stderr and res.stderr.count("\n") == 1
    res = _consensus("inspect", "tests/data/formats/mteb/results", "--from", "mteb", "--keep-columns", "all")
    assert res.returncode == 2 and "nothing is set aside" in res.stderr


def test_a_preference_list_falls_back_to_a_tasks_only_metric(tmp_path):
    for model, (acc, f1) in {"org__a": (0.6, 0.4), "org__b": (0.5, 0.7), "org__c": (0.4, 0.5)}.items():
        folder = tmp_path / model
        folder.mkdir()
        results = {"arc": {"alias": "arc", "acc,none": acc, "acc_stderr,none": 0.01, "acc_norm,none": acc + 0.01},
                   "squadish": {"alias": "squadish", "f1,none": f1, "f1_stderr,none": 0.02}}
        (folder / "results_2024-05-01T12-00-00.json").write_text(
            json.dumps({"results": results, "model_name": model.replace("__", "/")}), encoding="utf-8")
    lb = read_harness_results(tmp_path, metric=["acc", "acc_norm"])
    assert lb.scores["squadish"].tolist() == [0.4, 0.7, 0.5] and lb.scores["arc"].tolist() == [0.6, 0.5, 0.4]
    assert any("'f1,none' (its only metric: none of the preferred metrics)" in n and "squadish" in n for n in lb.notes)
    with pytest.raises(LeaderboardError, match="squadish"):  # one name the task lacks: an error, as before
        read_harness_results(tmp_path, metric="acc")


def _harness_with_infinity(root: Path, *, every: bool) -> Path:
    """Three models; task 'bad' is Infinity for one model (or for every model)."""
    for k, model in enumerate(("org__a", "org__b", "org__c")):
        folder = root / model
        folder.mkdir(parents=True)
        bad = math.inf if every or k == 0 else 0.3 + k / 10
        results = {"arc": {"alias": "arc", "acc,none": 0.5 + k / 10}, "hs": {"alias": "hs", "acc,none": 0.7 - k / 10},
                   "bad": {"alias": "bad", "acc,none": bad}}
        (folder / f"results_{STAMP}.json").write_text(json.dumps({"results": results, "model_name": model}))
    return root


def test_infinite_scores_are_missing_with_a_note_and_exclude_drops_the_task(tmp_path):
    """An Infinity in lm-eval results (a failed perplexity) is a missing score with a note, as in a
    score table; a task infinite for every model is an error naming --exclude, which drops it."""
    some = _harness_with_infinity(tmp_path / "some", every=False)
    assert "Infinity" in next(some.glob("org__a/results_*.json")).read_text()  # what json.dumps writes
    lb = read_harness_results(some)
    assert lb.tasks == ("arc", "hs", "bad") and math.isnan(lb.scores.loc["org__a", "bad"])
    said = note_with(lb.notes, "infinite scores as missing")
    assert "task 'bad': 'org__a'" in said and "exclude=['bad']" in said
    assert read_harness_results(some, exclude=["bad"]).tasks == ("arc", "hs")
    every = _harness_with_infinity(tmp_path / "every", every=True)
    with pytest.raises(LeaderboardError, match=r"task\(s\) 'bad' have no score \(infinite or null for every system\); "
                                               r"pass exclude=\['bad'\]"):
        read_harness_results(every)
    dropped = read_harness_results(every, exclude=["bad"])
    assert dropped.tasks == ("arc", "hs") and note_with(dropped.notes, "left out task(s) (exclude=): 'bad'")
    with pytest.raises(UnknownTaskError, match="'bda' in exclude="):
        read_harness_results(every, exclude=["bda"])
    runs = run_cli_many([
        ["inspect", str(some), "--from", "harness"],
        ["inspect", str(every), "--from", "harness"],
        ["kemeny", str(every), "--from", "harness", "--exclude", "bad", "--format", "json"],
        ["inspect", str(every), "--from", "harness", "--tasks", "nope"],
    ])
    assert [r.returncode for r in runs] == [0, 2, 0, 2], [r.stderr for r in runs]
    assert "task 'bad': 'org__a'; pass --exclude bad to leave the task(s) out instead" in runs[0].stdout
    assert "pass --exclude bad to leave it out" in runs[1].stderr and "drop_empty" not in runs[1].stderr
    assert json.loads(runs[2].stdout)["input"]["tasks"] == ["arc", "hs"]
    assert "unknown task 'nope' in --tasks;" in runs[3].stderr
    # every task skipped: the error says why, in flags
    res = run_cli("inspect", str(every), "--from", "harness", "--tasks", "arc", "--exclude", "arc")
    assert res.returncode == 2 and "no result is left to read: every task was skipped (skipped task(s) not in --tasks" in res.stderr
    assert "tasks=" not in res.stderr


def test_helm_summary_brings_back_what_it_sets_aside_when_asked():
    """The mean win rate HELM computes is set aside, with the option that reads it: keep_columns=
    (--keep-columns), or tasks= naming it; its direction is HELM's."""
    lb = read_helm_summary(SUITE)
    said = note_with(lb.notes, "aggregate column(s)")
    assert "pass keep_columns=['Mean win rate'] to read them as tasks" in said
    kept = read_helm_summary(SUITE, keep_columns=["Mean win rate"])
    assert kept.tasks[0] == "Mean win rate" and kept.n_tasks == 5 and not kept.lower_is_better
    assert note_with(kept.notes, "read column(s) HELM sets aside as tasks, as asked: 'Mean win rate'")
    assert read_helm_summary(SUITE, keep_columns=True).tasks == kept.tasks
    assert read_helm_summary(SUITE, tasks=["Mean win rate", "MMLU - EM"]).tasks == ("Mean win rate", "MMLU - EM")
    assert read_helm_summary(SUITE, exclude=["IMDB - EM"]).tasks == ("MMLU - EM", "NarrativeQA - F1", "GSM8K - EM")
    with pytest.raises(UnknownTaskError, match="in keep_columns="):
        read_helm_summary(SUITE, keep_columns=["Mean win rat"])
    with pytest.raises(MetricDirectionError):  # a count HELM never compares: no direction unless given
        read_helm_summary(GROUPS / "mmlu.json", tasks=["# eval"])
    with pytest.warns(cs.DegenerateTaskWarning):  # every model is evaluated on the same number of items
        counts = read_helm_summary(GROUPS / "mmlu.json", tasks=["# eval", "EM"], higher_is_better=["# eval"])
    assert counts.tasks == ("EM", "# eval")  # in the order of the header
    runs = run_cli_many([
        ["inspect", str(SUITE), "--from", "helm-summary"],
        ["inspect", str(SUITE), "--from", "helm-summary", "--keep-columns", "Mean win rate"],
        ["inspect", str(SUITE), "--from", "helm-summary", "--tasks", "Mean win rate,MMLU - EM"],
        ["inspect", str(SUITE), "--from", "helm-summary", "--table", "nope"],
    ])
    assert [r.returncode for r in runs] == [0, 0, 0, 2], [r.stderr for r in runs]
    assert "pass --keep-columns 'Mean win rate' to read them as tasks" in runs[0].stdout
    assert "pick one with --table GROUP/TABLE)" in runs[0].stdout and "/ --table" not in runs[0].stdout
    assert "tasks: Mean win rate, MMLU - EM, " in runs[1].stdout and "tasks: Mean win rate, MMLU - EM\n" in runs[2].stdout
    assert runs[3].stderr.endswith("pick one with --table GROUP\n") and "group=" not in runs[3].stderr
