"""System and task names as read from an export: whitespace normalization, renaming of
repeated names, and where a row or column sits in the file (for error messages).

Names are normalized by :func:`normalize_name` (strip, newlines, tabs and runs of spaces to
one space) in :meth:`consensus.Leaderboard.from_frame` and the readers; names given in
options (``lower_is_better``, ``weights``, ``groups``, ``tasks``, ``exclude``,
``keep_columns``) are normalized the same way, so they match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["DEDUPE_NOTE", "SOURCE_ATTR", "LINES_ATTR", "NOTES_ATTR", "normalize_name", "numbered", "Source"]

#: How every note about renamed duplicate systems begins (the CLI also prints these notes on stderr).
DEDUPE_NOTE = "--dedupe renamed"

#: ``DataFrame.attrs`` key under which the readers pass a :class:`Source` to ``from_frame``.
SOURCE_ATTR = "consensus.source"
#: ``DataFrame.attrs`` key of :func:`~consensus.io._readers.read_table`: the file line of each row.
LINES_ATTR = "consensus.lines"
#: ``DataFrame.attrs`` key of :func:`~consensus.io._readers.read_table`: notes on how the file was read.
NOTES_ATTR = "consensus.read_notes"


def normalize_name(name: str) -> str:
    """A name with surrounding whitespace removed and every run of whitespace (spaces,
    tabs, newlines) inside it replaced by one space.

    Parameters
    ----------
    name : str
        A system or task name as read.

    Returns
    -------
    str

    Examples
    --------
    >>> normalize_name("  RoBERTa\\n(ensemble)\\t large ")
    'RoBERTa (ensemble) large'
    """
    return " ".join(str(name).split())


def numbered(names: Sequence[str]) -> tuple[list[str], list[str]]:
    """Every occurrence of a repeated name becomes ``NAME_1``, ``NAME_2``, ... in order.

    Parameters
    ----------
    names : sequence of str
        The names, in row order.

    Returns
    -------
    (list of str, list of str)
        The new names, and one ``"m -> m_1, m_2"`` entry per repeated name (empty when
        nothing repeats).

    Examples
    --------
    >>> numbered(["m", "n", "m"])
    (['m_1', 'n', 'm_2'], ['m -> m_1, m_2'])
    """
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    seen: dict[str, int] = {}
    renamed = []
    for name in names:
        if counts[name] > 1:
            seen[name] = seen.get(name, 0) + 1
            renamed.append(f"{name}_{seen[name]}")
        else:
            renamed.append(name)
    changes = [f"{n} -> {', '.join(f'{n}_{k}' for k in range(1, c + 1))}" for n, c in counts.items() if c > 1]
    return renamed, changes


@dataclass(frozen=True)
class Source:
    """Where the rows and columns of a frame come from, so errors can point into the file.

    Attributes
    ----------
    path : str
        The file ("" for an in-memory frame).
    lines : tuple of int, optional
        The 1-based file line of each row (None when unknown).
    columns : tuple of int, optional
        The 1-based file column of each task column (None when unknown).
    system_column : str, optional
        The column the system names were taken from (None: the frame's index).
    chosen : bool
        Whether `system_column` was chosen with ``index_col=`` (False: the first column by
        default).

    Examples
    --------
    >>> src = Source("lb.csv", lines=(2, 3, 5), columns=(2, 3), system_column="model")
    >>> src.row(2), src.column(0)
    ('line 5', 'column 2')
    >>> Source().row(2), Source().column(0)
    ('row 3', 'column 1')
    """

    path: str = ""
    lines: tuple[int, ...] | None = None
    columns: tuple[int, ...] | None = None
    system_column: str | None = None
    chosen: bool = False

    def __copy__(self) -> Source:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Source:
        # immutable: pandas deep-copies a frame's attrs on every column access, which made
        # reading a file of n columns cost n^2 (10,000 columns: 100 million copied ints)
        return self

    def row(self, i: int) -> str:
        """Where row `i` (0-based) is: ``"line 67"`` in a file, else ``"row 65"`` (1-based).

        Parameters
        ----------
        i : int
            0-based row position.

        Returns
        -------
        str
        """
        if self.lines is not None and 0 <= i < len(self.lines):
            return f"line {self.lines[i]}"
        return f"row {i + 1}"

    def rows(self, positions: Sequence[int], limit: int = 5) -> str:
        """Several rows: ``"lines 4, 9, 12"`` / ``"rows 2, 5"`` (at most `limit`, then ``...``).

        Parameters
        ----------
        positions : sequence of int
            0-based row positions.
        limit : int, default=5
            How many to show.

        Returns
        -------
        str
        """
        if not positions:
            return ""
        if len(positions) == 1:
            return self.row(positions[0])
        shown = [self.row(i).split(" ")[1] for i in positions[:limit]]
        kind = "lines" if self.lines is not None else "rows"
        return f"{kind} {', '.join(shown)}" + (", ..." if len(positions) > limit else "")

    def column(self, j: int) -> str:
        """Where task column `j` (0-based among the task columns) is: ``"column 3"`` (1-based, in
        the file when known).

        Parameters
        ----------
        j : int
            0-based position among the task columns.

        Returns
        -------
        str
        """
        k = self.columns[j] if self.columns is not None and 0 <= j < len(self.columns) else j + 1
        return f"column {k}"

    def file(self) -> str:
        """`` of 'path'`` when the frame came from a file, else ``""``.

        Returns
        -------
        str
        """
        return f" of {self.path!r}" if self.path else ""
