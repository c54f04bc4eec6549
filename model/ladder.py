"""The data-class ladder (ADR-094): six classes, strictly ranked."""

from __future__ import annotations

import enum


class DataClass(enum.Enum):
    """C094.1: exactly six data classes, ranked 0 (least sensitive) to 5."""

    PUBLIC_CONTENT = "publicContent"
    EDITOR_CONTENT = "editorContent"
    SOURCE_CODE = "sourceCode"
    INTERNAL_CONFIGURATION = "internalConfiguration"
    SYSTEM_DIAGNOSTICS = "systemDiagnostics"
    SECRET_ADJACENT = "secretAdjacent"

    rank: int  # set below: the position on the ladder, read on every fold step


for _rank, _cls in enumerate(DataClass):
    _cls.rank = _rank
_BY_VALUE = {cls.value: cls for cls in DataClass}


def parse_data_class(raw: object) -> DataClass | None:
    """C094.2: a stored class is read by exact, case-sensitive match; anything else is undeclared.

    ``None`` means undeclared, which is not ``publicContent`` (C144.2): an
    empty string, ``publiccontent`` or a number declare nothing.
    """
    return _BY_VALUE.get(raw) if isinstance(raw, str) else None

