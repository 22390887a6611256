"""Reading: files and frames to tables, losslessly, within bounds.

The names below are this stage's public API; each lives in a private module (imported on
first use, so importing the stage costs nothing until a name is used):

=========================  ======================================================================
module                     what it holds
=========================  ======================================================================
:mod:`._readers`           Scores in from files: leaderboards (wide or long) and instance-level
                           scores
:mod:`._parsing`           A raw systems x tasks frame read in one pass: names, options, cells,
                           bookkeeping columns
:mod:`._cells`             Reading score cells: numbers, missing markers, composite cells such as
                           ``"85.1/99.8"``
:mod:`._labels`            System and task names as read from an export: whitespace
                           normalization, renaming of
:mod:`._bookkeeping`       Columns of leaderboard exports that are not tasks, found by their
                           names and values
:mod:`._columns`           The reading step: what each column of a leaderboard file is, decided
                           once and stated
:mod:`._file_tables`       Files to raw tables, losslessly: every header, field and number
                           exactly as the file says it
:mod:`._instance_files`    Instance-level scores in from files: one long CSV/TSV or Parquet file,
                           read in chunks
:mod:`._instance_sets`     Many instance-level files at once: one per model or one per task,
                           aligned by (task, instance)
:mod:`._opening`           Opening input files with bounds: compressed files (gzip, bz2, xz,
                           zstd, a one-file zip)
:mod:`._json_input`        JSON as the package reads it: one meaning per key, a bounded depth
:mod:`._limits`            What fits in memory: checked before a large allocation, so that a
                           too-large input is refused
:mod:`._problems`          Several problems of a table reported together: identical ones grouped,
                           one short CLI line
:mod:`._tool_output`       Other tools' output recognised where a score table is expected, for
                           an error naming its importer
=========================  ======================================================================
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "DEDUPE_NOTE": "_readers",
    "read_table": "_readers",
    "dedupe_systems": "_readers",
    "frame_to_leaderboard": "_readers",
    "read_leaderboard": "_readers",
    "apply_reading_options": "_readers",
    "read_instances": "_readers",
    "CHUNKED_FILE_BYTES": "_readers",
    "DEFAULT_CHUNKSIZE": "_readers",
    "ParsedFrame": "_parsing",
    "parse_frame": "_parsing",
    "long_format_columns": "_parsing",
    "name_column": "_parsing",
    "parse_number": "_cells",
    "column_getter": "_cells",
    "check_instances": "_cells",
    "label_codes": "_cells",
    "numeric_scores": "_cells",
    "exact_numbers": "_cells",
    "MISSING_MARKERS": "_cells",
    "composite_name": "_cells",
    "is_missing_cell": "_cells",
    "parse_column": "_cells",
    "drop_unscored": "_cells",
    "SOURCE_ATTR": "_labels",
    "LINES_ATTR": "_labels",
    "NOTES_ATTR": "_labels",
    "normalize_name": "_labels",
    "numbered": "_labels",
    "Source": "_labels",
    "BOOKKEEPING_NAMES": "_bookkeeping",
    "bookkeeping_key": "_bookkeeping",
    "is_rank_column": "_bookkeeping",
    "duplicate_columns": "_bookkeeping",
    "aggregate_columns": "_bookkeeping",
    "AggregateFit": "_bookkeeping",
    "AGGREGATE_NAMES": "_columns",
    "METADATA_NAMES": "_columns",
    "MAX_FIT_COLUMNS": "_columns",
    "MAX_DUPLICATE_COLUMNS": "_columns",
    "ColumnReading": "_columns",
    "ReadingSummary": "_columns",
    "column_key": "_columns",
    "role_by_name": "_columns",
    "stderr_target": "_columns",
    "is_text_column": "_columns",
    "fit_names": "_columns",
    "RawTable": "_file_tables",
    "read_delimited": "_file_tables",
    "read_json_table": "_file_tables",
    "JSON_ORIENTS": "_file_tables",
    "open_text": "_file_tables",
    "open_binary": "_file_tables",
    "check_header": "_file_tables",
    "decode_error": "_file_tables",
    "file_format": "_file_tables",
    "existing_file": "_file_tables",
    "header_fields": "_file_tables",
    "ragged_lines": "_instance_files",
    "read_instance_files": "_instance_sets",
    "instance_paths": "_instance_sets",
    "is_many": "_instance_sets",
    "bounded_lines": "_opening",
    "bounded_gzip": "_opening",
    "GZIP_MAGIC": "_opening",
    "COMPRESSIONS": "_opening",
    "compression_suffix": "_opening",
    "MAX_DEPTH": "_json_input",
    "RepeatedKeyError": "_json_input",
    "JsonDepthError": "_json_input",
    "loads": "_json_input",
    "load": "_json_input",
    "available_memory": "_limits",
    "memory_limits": "_limits",
    "check_memory": "_limits",
    "check_repetitions": "_limits",
    "check_square_matrices": "_limits",
    "MATRICES": "_limits",
    "max_input_bytes": "_limits",
    "MAX_INPUT_VAR": "_limits",
    "MAX_MEMORY_VAR": "_limits",
    "MAX_LINE_CHARS": "_limits",
    "BOMB_RATIO": "_limits",
    "parse_size": "_limits",
    "max_table_cells": "_limits",
    "input_limit_given": "_limits",
    "max_line_chars": "_limits",
    "MAX_LINE": "_problems",
    "grouped_problems": "_problems",
    "one_line": "_problems",
}

__all__ = list(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # what type checkers see behind the lazy names (a test keeps it equal to _EXPORTS)
    from ._bookkeeping import (
        BOOKKEEPING_NAMES,
        AggregateFit,
        aggregate_columns,
        bookkeeping_key,
        duplicate_columns,
        is_rank_column,
    )
    from ._cells import (
        MISSING_MARKERS,
        check_instances,
        column_getter,
        composite_name,
        drop_unscored,
        exact_numbers,
        is_missing_cell,
        label_codes,
        numeric_scores,
        parse_column,
        parse_number,
    )
    from ._columns import (
        AGGREGATE_NAMES,
        MAX_DUPLICATE_COLUMNS,
        MAX_FIT_COLUMNS,
        METADATA_NAMES,
        ColumnReading,
        ReadingSummary,
        column_key,
        fit_names,
        is_text_column,
        role_by_name,
        stderr_target,
    )
    from ._file_tables import (
        JSON_ORIENTS,
        RawTable,
        check_header,
        decode_error,
        existing_file,
        file_format,
        header_fields,
        open_binary,
        open_text,
        read_delimited,
        read_json_table,
    )
    from ._instance_files import ragged_lines
    from ._instance_sets import instance_paths, is_many, read_instance_files
    from ._json_input import MAX_DEPTH, JsonDepthError, RepeatedKeyError, load, loads
    from ._labels import (
        LINES_ATTR,
        NOTES_ATTR,
        SOURCE_ATTR,
        Source,
        normalize_name,
        numbered,
    )
    from ._limits import (
        BOMB_RATIO,
        MATRICES,
        MAX_INPUT_VAR,
        MAX_LINE_CHARS,
        MAX_MEMORY_VAR,
        available_memory,
        check_memory,
        check_repetitions,
        check_square_matrices,
        input_limit_given,
        max_input_bytes,
        max_line_chars,
        max_table_cells,
        memory_limits,
        parse_size,
    )
    from ._opening import (
        COMPRESSIONS,
        GZIP_MAGIC,
        bounded_gzip,
        bounded_lines,
        compression_suffix,
    )
    from ._parsing import ParsedFrame, long_format_columns, name_column, parse_frame
    from ._problems import MAX_LINE, grouped_problems, one_line
    from ._readers import (
        CHUNKED_FILE_BYTES,
        DEDUPE_NOTE,
        DEFAULT_CHUNKSIZE,
        apply_reading_options,
        dedupe_systems,
        frame_to_leaderboard,
        read_instances,
        read_leaderboard,
        read_table,
    )
